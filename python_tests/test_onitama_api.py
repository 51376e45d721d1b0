"""The `LudoGame.onitama` API: games, setups, actions, cards, notation, JSON and pickling,
drawings, perft and the built-in AIs' entry points, checked against the golden data in
tests/data/onitama/ (copied from shared/onitama/)."""

from __future__ import annotations

import copy
import json
import pickle
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from LudoGame import LudoError
from LudoGame import onitama as o

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "onitama"
TRANSCRIPTS = Path(__file__).resolve().parent / "data" / "onitama_transcripts"


def golden(name: str) -> Any:
    """A golden JSON file."""
    with open(GOLDEN / name, encoding="utf-8") as f:
        return json.load(f)


def game_of(position: dict[str, Any]) -> o.Onitama:
    """A game at a golden position (board, cards, to_move, plies_left)."""
    return o.Onitama(
        position["board"],
        position["cards"],
        position["to_move"],
        position["plies_left"],
    )


def key(a: o.Action) -> tuple[int, str, str, str | None]:
    """An action as (card, from, to, wall) like the golden files."""
    return (a.card, a.move_from, a.move_to, a.wall)


def json_key(j: dict[str, Any]) -> tuple[int, str, str, str | None]:
    """A golden action as (card, from, to, wall)."""
    return (j["card"], j["from"], j["to"], j.get("wall"))


# ---- setups and construction -----------------------------------------------------------


def test_every_setup_of_the_golden_data_is_there() -> None:
    setups = golden("setups.json")["setups"]
    ids = o.setup_ids()
    assert len(ids) == len(setups) == 25
    for s in setups:
        g = o.Onitama.setup(s["id"])
        assert g.board == s["board"]
        assert {k: c.rows for k, c in g.cards.items()} == s["cards"]
        assert g.turn == (s["to_move"] or "A")
        assert g.plies_left == (s["n"] or 20)
        assert g.setup_id == s["id"]
    assert o.Onitama.setup(21) == o.Onitama.setup("21") == o.Onitama.setup("CASE21")
    assert o.Onitama.setup(21, max_plies=7).plies_left == 7
    for bad in ["99", "case99", "", "aitest1"]:
        with pytest.raises(o.UnknownSetupError):
            o.Onitama.setup(bad)
    with pytest.raises(TypeError):
        o.Onitama.setup(True)  # type: ignore[arg-type]


def test_constructor_forms() -> None:
    default = o.Onitama()
    assert default == o.Onitama.setup(22)
    assert default.plies_left == 20 and default.turn == "A"
    g = o.Onitama(
        "bbBbb/...../W..../...../aaAaa",
        {"A1": "monkey", "A2": "Crane", "B1": "Boar", "B2": "Ox", "side": "Tiger"},
        "B",
        9,
    )
    assert g.board[2] == "W    " and g.turn == "B" and g.plies_left == 9
    assert g.cards["A1"] == o.Card("Monkey") and g.cards["A1"].name == "Monkey"
    h = o.Onitama(
        ["bbBbb", "     ", "W    ", "     ", "aaAaa"],
        ["Monkey", "Crane", "Boar", "Ox", ["..x..", ".....", "..o..", "..x..", "....."]],
        to_move="B",
        max_plies=9,
    )
    assert g == h
    assert g.to_notation() == (
        "bbBbb/...../W..../...../aaAaa B n=9 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger"
    )


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"board": "bbBbb/...../...../...../aaAaa"}, o.InvalidBoardError),
        ({"board": "bbBbb/W..../W..../...../aaAaa"}, o.InvalidBoardError),
        ({"board": "bbWbb/..B../...../...../aaAaa"}, o.InvalidBoardError),
        ({"board": "bbBbb/...../W..../aaAaa"}, o.InvalidBoardError),
        ({"board": "bbBbb/...../W...?/...../aaAaa"}, o.InvalidBoardError),
        ({"to_move": "C"}, o.InvalidBoardError),
        ({"max_plies": -1}, o.InvalidBoardError),
        ({"max_plies": 70000}, o.InvalidBoardError),
        ({"cards": ["Tiger"] * 4}, o.InvalidCardError),
        ({"cards": {"A1": "Tiger"}}, o.InvalidCardError),
        ({"cards": ["Tiger", "Ox", "Boar", "Crane", "Unicorn"]}, o.InvalidCardError),
        ({"cards": ["Tiger", "Ox", "Boar", "Crane", "...../...../...../...../....."]}, None),
        ({"board": 5}, TypeError),
        ({"board": ["bbBbb", 1, "", "", ""]}, TypeError),
        ({"cards": "Tiger"}, TypeError),
        ({"cards": ["Tiger", "Ox", "Boar", "Crane", 3]}, TypeError),
        ({"to_move": 0}, TypeError),
        ({"max_plies": 2.0}, TypeError),
        ({"max_plies": True}, TypeError),
    ],
)
def test_constructor_errors(kwargs: dict[str, Any], error: type[Exception] | None) -> None:
    with pytest.raises(error or o.InvalidCardError):
        o.Onitama(**kwargs)


def test_errors_are_a_family_of_ludo_errors() -> None:
    for e in [
        o.InvalidSquareError,
        o.InvalidCardError,
        o.InvalidBoardError,
        o.InvalidActionError,
        o.IllegalActionError,
        o.GameOverError,
        o.NotationError,
        o.UnknownSetupError,
        o.InvalidAIError,
    ]:
        assert issubclass(e, o.OnitamaError)
    assert issubclass(o.OnitamaError, LudoError) and issubclass(o.OnitamaError, ValueError)


def test_onitama_game_over_is_the_packages_game_over_error() -> None:
    """One idea, one class: a move after the end of either game is a `GameOverError`
    (code that catches the package's `GameOverError` catches Onitama's too)."""
    import LudoGame

    g = o.Onitama.setup(13)
    for action in ("1 b5 a5 d", "1 XX XX s", "1 XX XX r"):
        g.play(action)
    with pytest.raises(LudoGame.GameOverError) as caught:
        g.play("1 XX XX s")
    assert isinstance(caught.value, o.OnitamaError)
    assert type(caught.value).__name__ == "OnitamaGameOverError"
    assert issubclass(o.GameOverError, LudoGame.GameOverError)


# ---- legal actions, play, undo ---------------------------------------------------------


def test_legal_actions_match_the_golden_lists() -> None:
    kinds: dict[str, int] = {}
    for p in golden("legal_moves.json")["positions"]:
        g = game_of(p["position"])
        if p["kind"] == "full_actions":
            assert {key(a) for a in g.legal_moves} == {json_key(a) for a in p["actions"]}
            assert len(g.legal_moves) == p["action_count"]
        else:
            pawn_moves = {key(a)[:3] for a in g.legal_moves}
            assert pawn_moves == {json_key(a)[:3] for a in p["actions"]}, p["id"]
        kinds[p["kind"]] = kinds.get(p["kind"], 0) + 1
    assert kinds == {"full_actions": 3, "pawn_moves_only": 8}


def test_winning_moves_match_the_golden_data() -> None:
    for p in golden("winning_moves.json")["positions"]:
        g = game_of(p["position"])
        wins = {(a.card, a.move_from, a.move_to) for a in g.legal_moves if a.is_win}
        expected = {(w["card"], w["from"], w["to"]) for w in p["all_winning_actions_computed"]}
        assert wins == expected, p["id"]
        a = next(a for a in g.legal_moves if a.is_win)
        g.play(a)
        assert g.is_over() and g.winner == p["player"]
        assert g.result_reason in ("base_reached", "general_captured")


def test_play_undo_and_refusals() -> None:
    g = o.Onitama.setup(1)
    start = g.copy()
    assert g.play("2 e1 d1 d") == o.Action("2 e1 d1 d")
    g.play(o.Action("1 a1 b1 r"))
    g.play((1, "c1", "c3", "s"))
    assert [str(a) for a in g.history] == ["2 e1 d1 d", "1 a1 b1 r", "1 c1 c3 s"]
    assert g.plies_left == 47 and g.turn == "B"
    before = g.to_notation()
    for bad, error in [
        ("2 a4 b3 x", o.InvalidActionError),
        ("1 e2 d3 u", o.IllegalActionError),
        ((2, "a4", "b3", "d"), o.IllegalActionError),
        ((3, "a4", "b3", "u"), o.IllegalActionError),
        ("", o.InvalidActionError),
        (None, TypeError),
        ((2, "a4", "b3"), TypeError),
        ((2.0, "a4", "b3", "u"), TypeError),
    ]:
        with pytest.raises(error):
            g.play(bad)  # type: ignore[arg-type]
        assert g.to_notation() == before and len(g.history) == 3
    with pytest.raises(o.IllegalActionError, match="occupied by your opponent"):
        g.play((2, "a4", "b3", "d"))
    assert g.undo() == o.Action("1 c1 c3 s")
    g.undo()
    g.undo()
    assert g == start and g.history == []
    with pytest.raises(o.IllegalActionError, match="nothing to undo"):
        g.undo()


def test_judge_gives_the_referees_messages() -> None:
    g = o.Onitama.setup(3)
    own = "Your pawn cannot move there. The position is occupied by"
    wall = "You cannot move the wall"
    letters = "is not one of u, l, d, r, s."
    cases = [
        ((1, "e3", "d3", "s"), "You have no pawn at e3."),
        ((1, "c4", "b4", "s"), "Not a valid move by card 1."),
        ((1, "e5", "d4", "s"), f"{own} your own pawn."),
        ((1, "e5", "e4", "s"), f"{own} the wall."),
        ((2, "c4", "b4", "u"), f"{wall} there. It is occupied by your general."),
        ((2, "c4", "b4", "l"), f"{wall} to a military base."),
        ((2, "c4", "b4", "d"), f"{wall} out of bound."),
        ((1, "XX", "XX", "s"), "Invalid input, the start position is invalid."),
        ((7, "c4", "b4", "s"), "Invalid input, card 7 does not exist: the card number is 1 or 2."),
        ((2, "c4", "b4", "x"), f"Invalid input, the wall direction 'x' {letters}"),
    ]  # fmt: skip
    for answer, message in cases:
        with pytest.raises(o.IllegalActionError) as e:
            g.judge(*answer)
        assert str(e.value) == message
    assert g.judge(2, "c4", "b4", "r") == o.Action("2 c4 b4 r")
    assert g.history == []
    with pytest.raises(TypeError):
        g.judge("2", "c4", "b4", "r")  # type: ignore[arg-type]


def test_passes_and_the_end_of_the_game() -> None:
    g = o.Onitama.setup("aitest2_A")
    assert all(a.is_pass for a in g.legal_moves) and len(g.legal_moves) == 6
    assert g.judge(1, "XX", "XX", "s").is_pass
    g = o.Onitama.setup(13)
    g.play("1 b5 a5 d")
    g.play("1 XX XX s")
    g.play("1 XX XX r")
    assert g.is_over() and g.winner is None and g.result_reason == "ply_limit"
    assert g.legal_moves == [] and g.plies_left == 0
    with pytest.raises(o.GameOverError):
        g.play("1 XX XX s")
    with pytest.raises(o.GameOverError):
        g.best_move()
    with pytest.raises(o.GameOverError):
        g.judge(1, "XX", "XX", "s")
    assert "tied" in g.status


# ---- actions and cards -----------------------------------------------------------------


def test_actions() -> None:
    a = o.Action("1 e2 d3 u")
    assert (a.card, a.move_from, a.move_to, a.wall) == (1, "e2", "d3", "u")
    assert (a.is_pass, a.is_win) == (False, False)
    assert str(a) == "1 e2 d3 u" and repr(a) == "Action('1 e2 d3 u')"
    assert a.answer == (1, "e2", "d3", "u")
    win = o.Action("2 c3 a3 -")
    assert win.wall is None and win.is_win and win.answer == (2, "c3", "a3", "s")
    p = o.Action("2 XX XX l")
    assert p.is_pass and p.move_from == "XX" and p.answer == (2, "XX", "XX", "l")
    assert {a, o.Action("1 e2 d3 u"), win} == {a, win}
    assert pickle.loads(pickle.dumps([a, win, p])) == [a, win, p]
    assert o.Action(a) == a
    for bad in ["", "1 e2 d3", "3 e2 d3 u", "1 e2 d3 x", "1 XX XX -", "1 e2 XX u", "1 f2 d3 u"]:
        with pytest.raises(o.InvalidActionError):
            o.Action(bad)
    with pytest.raises(TypeError):
        o.Action(12)  # type: ignore[arg-type]


def test_cards() -> None:
    standard = {c.name: c for c in o.STANDARD_CARDS}
    assert len(standard) == 16
    with open(GOLDEN / "standard_cards.json", encoding="utf-8") as f:
        data = json.load(f)
    assert [c["name"] for c in data] == list(standard)
    for c in data:
        assert o.Card(c["pattern"]) == standard[c["name"]]
    tiger = o.Card("tiger")
    assert tiger == standard["Tiger"] and tiger.offsets == [(-2, 0), (1, 0)]
    assert tiger.moves("B") == [(2, 0), (-1, 0)]
    off = o.Card([".....", "...x.", ".....", ".o...", "....x"])
    assert off.rows == [".....", "...x.", ".....", ".o...", "....x"]
    assert off.name is None and off.offsets == [(-2, 2), (1, 3)]
    assert off == o.Card(off.pattern) and hash(off) == hash(o.Card(off.pattern))
    assert repr(tiger) == "Card('Tiger')" and str(off) == off.pattern
    assert pickle.loads(pickle.dumps(off)).rows == off.rows
    for bad in ["Unicorn", "", "...../...../...../.....", "o..../..o../...../...../....."]:
        with pytest.raises(o.InvalidCardError):
            o.Card(bad)
    with pytest.raises(o.InvalidBoardError):
        tiger.moves("C")


# ---- notation, JSON, pickling, copies ---------------------------------------------------


def test_notation_and_repr_round_trip() -> None:
    for sid in o.setup_ids():
        g = o.Onitama.setup(sid)
        h = o.Onitama.from_notation(g.to_notation())
        assert h == g and h.to_notation() == g.to_notation()
        assert eval(repr(g), {"Onitama": o.Onitama}) == g
    for bad in ["", "bbBbb/...../W..../...../aaAaa A n=20", "x " * 8]:
        with pytest.raises(o.NotationError):
            o.Onitama.from_notation(bad)
    with pytest.raises(TypeError):
        o.Onitama.from_notation(None)  # type: ignore[arg-type]


def test_json_pickle_and_copies_keep_the_history_and_drawings() -> None:
    g = o.Onitama.setup(12)
    for a in ["1 a4 c3 s", "2 e2 d2 r"]:
        g.play(a)
    for h in [
        o.Onitama.from_json(g.to_json()),
        pickle.loads(pickle.dumps(g)),
        copy.copy(g),
        copy.deepcopy(g),
        g.copy(),
    ]:
        assert h == g and h.history == g.history and str(h) == str(g)
        assert h.setup_id == "case12"
        h.undo()
        assert h != g
    assert len(g.history) == 2
    data = json.loads(g.to_json())
    data["actions"].append("1 e2 d3 u")
    with pytest.raises(o.IllegalActionError):
        o.Onitama.from_json(json.dumps(data))
    data = json.loads(g.to_json())
    data["position"] = o.Onitama.setup(12).to_notation()
    with pytest.raises(o.NotationError):
        o.Onitama.from_json(json.dumps(data))
    for bad in ["", "[]", "{}", '{"format": "x"}']:
        with pytest.raises(o.NotationError):
            o.Onitama.from_json(bad)
    with pytest.raises(TypeError):
        hash(g)


# ---- drawings ----------------------------------------------------------------------------


def test_str_draws_the_board_as_the_coursework_does() -> None:
    lines = (TRANSCRIPTS / "sample1.output.txt").read_text(encoding="utf-8").split("\n")
    assert str(o.Onitama.setup(1)) == "\n".join(lines[2:17]) + "\n"
    # Sample 4: off-centre cards drawn as stored, B to move (side card rotated, 'v').
    lines = (TRANSCRIPTS / "sample4.output.txt").read_text(encoding="utf-8").split("\n")
    g = o.Onitama.setup(4)
    assert str(g) == "\n".join(lines[2:17]) + "\n"
    assert g.draw("A").count("^") == 3 and g.draw().count("v") == 3


def test_svg() -> None:
    g = o.Onitama.setup(23)
    root = ET.fromstring(g._repr_svg_())
    assert root.tag.endswith("svg")


# ---- perft and AIs -------------------------------------------------------------------------


def test_perft_matches_the_golden_counts() -> None:
    for s in golden("perft.json")["setups"]:
        g = o.Onitama.setup(s["setup_id"])
        for row in s["perft"]:
            if row["depth"] <= 3:
                assert g.perft(row["depth"]) == row["count"], (s["setup_id"], row)
    with pytest.raises(o.InvalidAIError):
        o.Onitama.setup(21).perft(-1)


def test_best_action_and_analyse() -> None:
    g = o.Onitama.setup("aitest3_A")
    for level in (1, 2):
        assert g.best_move(level=level, nodes=1000).is_win
    g = o.Onitama.setup(21)
    info = g.analyse(nodes=5000, seed=3)
    assert set(info) == {"action", "score", "depth", "nodes", "exact", "pv"}
    assert info["action"] in g.legal_moves and info["pv"][0] == info["action"]
    assert g.best_move(nodes=5000, seed=3) == info["action"]
    assert g.best_move(level=0, seed=1) in g.legal_moves
    assert g.best_move(time=0.05) in g.legal_moves
    for kwargs in [{"level": 3}, {"level": -1}, {"time": 0}, {"nodes": 0}, {"seed": -1}]:
        with pytest.raises(o.InvalidAIError):
            g.best_move(**kwargs)
    with pytest.raises(o.InvalidAIError, match="by number or name"):
        g.best_move(level="2")  # a level is an int or a name ('random', 'baseline', 'search')
    with pytest.raises(TypeError):
        g.best_move(level=2.0)  # type: ignore[arg-type]
    assert g.history == []
