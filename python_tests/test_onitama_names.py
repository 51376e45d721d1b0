"""One export per class in `LudoGame.onitama` (`Action`, `Card`, `BuiltinAI`,
`MatchRecord`), the old `Onitama*` names kept as deprecated aliases, result reasons as the
`Reason` enum, the `AIFunction` protocol, and the JSON save format written in Rust exactly
as Python's `json.dumps` writes it."""

from __future__ import annotations

import json
import pickle
import warnings

import pytest

from LudoGame import onitama as o
from LudoGame.enums import Reason

OLD_NAMES = {
    "OnitamaAction": "Action",
    "OnitamaCard": "Card",
    "OnitamaAI": "BuiltinAI",
    "OnitamaMatchRecord": "MatchRecord",
    "Game": "RoundRobinGame",  # a round robin's record, not a game to play
}


@pytest.mark.parametrize(("old", "new"), OLD_NAMES.items())
def test_old_names_warn_and_are_the_new_classes(old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"use LudoGame.onitama.{new}"):
        cls = getattr(o, old)
    assert cls is getattr(o, new)
    assert cls.__name__ == new and cls.__module__ == "LudoGame.onitama"
    assert old not in o.__all__ and new in o.__all__


def test_new_names_do_not_warn_and_unknown_names_raise() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from LudoGame.onitama import Action, BuiltinAI, Card, MatchRecord  # noqa: F401
    with pytest.raises(AttributeError):
        o.NoSuchName  # noqa: B018


def test_reprs_and_pickles_use_the_new_names() -> None:
    a = o.Action("1 e2 d3 u")
    assert repr(a) == "Action('1 e2 d3 u')" and pickle.loads(pickle.dumps(a)) == a
    c = o.Card("Tiger")
    assert repr(c) == "Card('Tiger')" and pickle.loads(pickle.dumps(c)) == c
    assert repr(o.BuiltinAI(1, seed=3)) == "BuiltinAI(level=1, seed=3)"


def first_legal(*args: object) -> tuple[int, str, str, str]:
    """An AI playing the first legal action."""
    game = o.Onitama(
        args[1],  # type: ignore[arg-type]
        dict(zip(("A1", "A2", "B1", "B2", "side"), args[2:7], strict=True)),  # type: ignore[arg-type]
        args[0],  # type: ignore[arg-type]
        args[7],  # type: ignore[arg-type]
    )
    return game.legal_moves[0].answer


def test_reasons_are_the_reason_enum() -> None:
    g = o.Onitama.setup(21)
    assert g.result_reason is None
    record = o.play_match(first_legal, first_legal, 21)
    assert isinstance(record.reason, Reason) and record.reason in o.REASONS
    end = record.game()
    assert isinstance(end.result_reason, Reason)
    if record.reason == "ply_limit":
        assert end.result_reason is Reason.PLY_LIMIT
    failed = o.play_match(lambda *_: "junk", first_legal)
    assert failed.reason is Reason.INVALID_MOVE and failed.reason == "invalid_move"
    assert all(isinstance(r, Reason) for r in o.REASONS)


def test_ai_function_protocol_accepts_plain_functions_and_builtin_ais() -> None:
    ais: list[o.AIFunction] = [first_legal, o.BuiltinAI(0)]
    assert o.AI is o.AIFunction
    record = o.play_match(ais[0], ais[1], 22)
    assert record.plies >= 1


def test_json_is_pythons_json_dumps_text() -> None:
    card = ["..x..", ".xoé.", ".....", ".....", "....."]
    g = o.Onitama(cards=[card, "Crane", "Boar", "Ox", "Tiger"])
    g.play(g.legal_moves[0])
    for game in (g, o.Onitama.setup(21), o.Onitama.setup("aitest1_A")):
        text = game.to_json()
        assert json.dumps(json.loads(text)) == text
        assert o.Onitama.from_json(text).to_json() == text
    for bad in ["", "[", "{}", "[1, 2]", '{"format": 1}', "[" * 100_000]:
        with pytest.raises(o.NotationError):
            o.Onitama.from_json(bad)


NONE_IS_NOT_A_DEFAULT = [
    lambda: o.BuiltinAI(None),  # type: ignore[arg-type]
    lambda: o.BuiltinAI(2, seed=None),  # type: ignore[arg-type]
    lambda: o.Onitama.setup(21).best_move(level=None),  # type: ignore[arg-type]
    lambda: o.Onitama.setup(21).analyse(seed=None),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("call", NONE_IS_NOT_A_DEFAULT)
def test_none_is_not_an_int_for_level_and_seed(call: object) -> None:
    """`level` and `seed` are ints (None used to be taken silently as the default)."""
    with pytest.raises(TypeError, match="must be an int"):
        call()  # type: ignore[operator]


def test_time_none_means_no_time_limit() -> None:
    """`time=None` is a search with no time limit, as documented (it used to be 1 s)."""
    ai = o.BuiltinAI(2, time=None, depth=2)
    assert ai.time is None and repr(ai) == "BuiltinAI(level=2, time=None, depth=2, seed=0)"
    assert o.BuiltinAI(2).time == 1.0 and o.BuiltinAI(2, nodes=50).time is None


def test_judge_typed_gives_the_programs_messages_part_by_part() -> None:
    g = o.Onitama.setup(21)
    for card in ("x", "3", "01", ""):
        with pytest.raises(o.IllegalActionError, match=f"card {card} does not exist"):
            g.judge_typed(card)
    assert g.judge_typed("1") is None
    with pytest.raises(o.IllegalActionError, match="start position is invalid"):
        g.judge_typed("1", "E2")
    with pytest.raises(o.IllegalActionError, match="You have no pawn at c3."):
        g.judge_typed("1", "c3")
    first = g.legal_moves[0]
    assert g.judge_typed(str(first.card), first.move_from) is None
    pawn = g.judge_typed(str(first.card), first.move_from, first.move_to)
    assert pawn is not None and pawn.wall == "s" and pawn.move_to == first.move_to
    assert g.history == []


def test_the_two_games_name_the_same_ideas_alike() -> None:
    """#22: the legal choices now, what was played, and a built-in player's choice have one
    name in both games (Ludo's, as python-chess's `legal_moves`)."""
    from LudoGame import Game

    ludo, oni = Game("cs162", seed=1), o.Onitama.setup("21")
    for name in ("legal_moves", "history", "best_move", "outcome", "play", "undo", "turn"):
        assert hasattr(ludo, name) and hasattr(oni, name), name
    oni.play(oni.legal_moves[0])
    assert oni.history == [oni.legal_moves and oni.history[0]]
    assert oni.best_move(nodes=200) in oni.legal_moves


@pytest.mark.parametrize(("old", "new"), [("legal_actions", "legal_moves"), ("actions", "history")])
def test_the_old_onitama_names_still_answer_with_a_deprecation_warning(old: str, new: str) -> None:
    g = o.Onitama.setup("21")
    g.play(g.legal_moves[0])
    with pytest.warns(DeprecationWarning, match=f"Onitama.{old} is deprecated: use Onitama.{new}"):
        assert getattr(g, old) == getattr(g, new)
    with pytest.warns(DeprecationWarning, match="use Onitama.best_move"):
        assert g.best_action(nodes=200, seed=3) == g.best_move(nodes=200, seed=3)
