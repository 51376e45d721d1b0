"""The package as a course grader and a user meet it: import styles, object model,
read-only data, reprs and docstrings."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from LudoGame import LudoError, LudoGame, Player

package = importlib.import_module("LudoGame")


def test_import_styles_of_graders() -> None:
    """`from LudoGame import LudoGame`, `import LudoGame; LudoGame.LudoGame()` and
    `from LudoGame import *` all give the classes."""
    assert package.LudoGame is LudoGame
    assert isinstance(package.LudoGame(), LudoGame)
    namespace: dict[str, object] = {}
    exec("from LudoGame import *", namespace)
    assert namespace["LudoGame"] is LudoGame
    assert namespace["Player"] is Player
    assert importlib.import_module("LudoGame").Player is Player


def test_grader_script_in_a_fresh_interpreter() -> None:
    """A grader module that does `import LudoGame` at top level runs unchanged."""
    script = (
        "import LudoGame\n"
        "g = LudoGame.LudoGame()\n"
        "print(g.play_game(['A', 'B'], [('A', 6), ('A', 1)]))\n"
        "print(g.get_player_by_position('B').get_space_name(55))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout == "['1', 'H', 'H', 'H']\nB5\n"


def test_errors_are_value_errors() -> None:
    assert issubclass(LudoError, ValueError)
    for name in package.__all__:
        obj = getattr(package, name)
        if isinstance(obj, type) and name.endswith("Error"):
            assert issubclass(obj, LudoError), name


def test_no_data_member_is_writable() -> None:
    """All data is private: nothing can be assigned from Python."""
    game = LudoGame()
    game.play_game(["A", "B"], [("A", 6)])
    a = game.get_player_by_position("A")
    assert isinstance(a, Player)
    for obj, attrs in [
        (a, ["position", "start_space", "end_space", "completed", "steps", "spaces", "x"]),
        (game, ["players", "x"]),
    ]:
        for attr in attrs:
            with pytest.raises(AttributeError):
                setattr(obj, attr, 1)
    assert not hasattr(a, "__dict__")


def test_player_properties_and_repr() -> None:
    game = LudoGame()
    game.play_game(["A", "B"], [("A", 6), ("A", 4), ("B", 6)])
    a = game.get_player_by_position("A")
    assert isinstance(a, Player)
    assert (a.position, a.start_space, a.end_space) == ("A", 1, 50)
    assert a.steps == (4, -1)
    assert a.spaces == ("4", "H")
    assert a.completed is False
    assert repr(a) == "Player(position='A', p='4', q='H', completed=False)"
    assert repr(game) == "LudoGame(players=['A', 'B'], spaces=['4', 'H', 'R', 'H'])"
    assert repr(LudoGame()) == "LudoGame(no game played yet)"


def test_play_game_accepts_lists_tuples_and_iterables() -> None:
    """Turns may be tuples or 2-item lists (as from JSON); lists may be any iterable."""
    expected = ["1", "H", "H", "H"]
    assert LudoGame().play_game(["A", "B"], [["A", 6], ["A", 1]]) == expected
    assert LudoGame().play_game(("A", "B"), (("A", 6), ("A", 1))) == expected
    assert LudoGame().play_game(iter(["A", "B"]), (t for t in [("A", 6), ("A", 1)])) == expected
    assert LudoGame().play_game("AB", [("A", 6), ("A", 1)]) == expected


def test_play_turn_reports_what_moved() -> None:
    game = LudoGame()
    game.play_game(["A"], [("A", 6), ("A", 6), ("A", 2), ("A", 2)])
    assert game.play_turn("A", 3) == "pq"
    assert game.play_turn("A", 0 + 1) == "pq"
    game.play_game(["A"], [])
    assert game.play_turn("A", 3) is None
    assert game.play_turn("A", 6) == "p"


def test_docstrings_everywhere() -> None:
    """Every public class, method and property has a docstring."""
    for cls in (LudoGame, Player):
        assert cls.__doc__
        for name in dir(cls):
            if name.startswith("_"):
                continue
            assert getattr(cls, name).__doc__, f"{cls.__name__}.{name}"
    assert package.__doc__
    assert isinstance(package.__version__, str)


def test_results_are_plain_python_types() -> None:
    game = LudoGame()
    spaces = game.play_game(["A", "B"], [("A", 6)])
    assert type(spaces) is list and all(type(s) is str for s in spaces)
    a = game.get_player_by_position("A")
    assert isinstance(a, Player)
    assert type(a.get_token_p_step_count()) is int
    assert type(a.get_completed()) is bool


def test_ludogame_board_as_text_and_svg() -> None:
    """print(game) draws the current CS162 game; notebooks get an SVG."""
    import xml.etree.ElementTree as ET

    game = LudoGame()
    assert str(game) == "LudoGame (no game played yet)"
    game.play_game(["A", "B"], [("A", 6), ("A", 4), ("B", 6)])
    text = str(game)
    assert "Ap" in text and text.endswith("A: p 4 q H, B: p R q H")
    assert ET.fromstring(game._repr_svg_()).tag.endswith("svg")
