"""The turn-by-turn Game over the three rule sets: the GT seed's examples, phases and errors,
undo/copy/equality, history, options, and seeded reproducibility."""

from __future__ import annotations

import copy
import random

import pytest

from LudoGame import (
    Game,
    GameOverError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidPositionError,
    InvalidRollError,
    InvalidRulesError,
    LudoError,
    Move,
)


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.phase,
        game.current_player,
        game.status,
        game.steps,
        game.legal_moves,
        game.ranking,
        len(game.history),
    )


# --- the GT seed's examples ------------------------------------------------------------


def test_gt_empty_game() -> None:
    """GT emptyGame: not over, no winner, A to roll."""
    g = Game("gt", seed=1)
    assert not g.is_over()
    assert g.winner is None
    assert g.current_player == "A"
    assert g.phase == "roll"
    assert g.status == "Player A to roll the die."
    assert g.players == ["A", "B", "C", "D"]


def test_gt_a_rolls_6_enters_and_moves() -> None:
    """GT playerArolls6 / playerAentersTokenA / playerAmovesTokenA."""
    g = Game("gt", seed=1)
    g.roll(6)
    assert (g.current_player, g.phase) == ("A", "move")
    assert set(g.tokens_to_move) == {"A", "a"}
    g.play("A")
    assert g.steps["A"][0] == 0  # square 1
    assert (g.current_player, g.phase, g.tokens_to_move) == ("A", "roll", [])
    g.roll(5)
    assert g.tokens_to_move == ["A"]
    g.play("A")
    assert g.steps["A"][0] == 5  # square 6
    assert (g.current_player, g.phase, g.tokens_to_move) == ("B", "roll", [])
    assert g.status == "Player B to roll the die."


def test_gt_cannot_move_status() -> None:
    g = Game("gt", seed=1)
    g.roll(2)
    assert g.current_player == "B"
    assert g.status == "Player A cannot move. Player B to roll the die."


def test_gt_entering_onto_own_token_bumps() -> None:
    """GT: entering while an own token stands on the entry square bumps on to square 2."""
    g = Game("gt", seed=1)
    g.roll(6)
    g.play("A")
    g.roll(6)
    assert g.tokens_to_move == ["a"]  # entering is forced while a token is parked
    g.play("a")
    assert g.steps["A"] == [0, 1]
    assert g.history[-1]["bumped"] == 1


def test_gt_capture_on_entry_square_sends_to_start() -> None:
    g = Game("gt", seed=1)
    g.roll(6)
    g.play("A")
    g.roll(1)
    g.play("A")  # A on square 2; B to roll
    g.roll(6)
    g.play("B")  # B enters on square 11
    g.roll(6)
    g.play("b")  # b enters, bumped to square 12
    g.roll(3)
    g.play("B")  # B on square 14
    assert g.current_player == "C"
    assert g.steps["B"] == [3, 1]


# --- phases and errors -----------------------------------------------------------------


def test_out_of_phase_and_illegal_calls_change_nothing() -> None:
    g = Game("cs162", "AB", seed=5)
    before = snapshot(g)
    with pytest.raises(IllegalMoveError, match="must roll"):
        g.play("p")
    with pytest.raises(InvalidRollError):
        g.roll(7)
    with pytest.raises(TypeError):
        g.roll("6")  # type: ignore[arg-type]
    assert snapshot(g) == before
    g.roll(6)
    pending = snapshot(g)
    with pytest.raises(IllegalMoveError, match="must move"):
        g.roll(3)
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        g.play("Bp")
    with pytest.raises(IllegalMoveError, match="names no token"):
        g.play("x")
    with pytest.raises(TypeError):
        g.play(3)  # type: ignore[arg-type]
    assert snapshot(g) == pending
    assert issubclass(IllegalMoveError, LudoError) and issubclass(GameOverError, LudoError)


def test_game_over_refuses_rolls_and_moves() -> None:
    g = Game("gt", seed=1)
    play_some(g, 100_000)
    assert g.is_over()
    winner = g.winner
    assert winner is not None
    assert g.status == f"Player {winner} has won!"
    assert g.ranking == [winner]
    before = snapshot(g)
    with pytest.raises(GameOverError):
        g.roll()
    with pytest.raises(GameOverError):
        g.play("A")
    assert snapshot(g) == before


def test_bad_construction() -> None:
    with pytest.raises(InvalidRulesError, match="unknown rule set"):
        Game("chess")
    with pytest.raises(InvalidRulesError, match="unknown option"):
        Game("standard", colour="red")
    with pytest.raises(InvalidRulesError, match="six limit of 1"):
        Game("standard", six_limit=1)
    with pytest.raises(InvalidRulesError, match="must be one of"):
        Game("standard", overshoot="wrap")
    with pytest.raises(InvalidRulesError):
        Game("standard", tokens=5)
    with pytest.raises(InvalidPositionError):
        Game("cs162", "AE")
    with pytest.raises(TypeError):
        Game("cs162", seed="x")  # type: ignore[arg-type]


# --- undo, copy, equality, history -----------------------------------------------------


def play_some(g: Game, n: int, seed: int = 0) -> None:
    """Up to n rolls, each followed by a seeded random legal move."""
    rng = random.Random(seed)
    for _ in range(n):
        if g.is_over():
            return
        g.roll()
        if g.phase == "move":
            g.play(rng.choice(g.legal_moves))


def test_undo_restores_the_exact_state_and_replays_the_same_die() -> None:
    g = Game("standard", "ABCD", seed=11)
    play_some(g, 40)
    states = []
    h = copy.copy(g)
    while h.history:
        states.append(snapshot(h))
        h.undo()
    assert h == Game("standard", "ABCD", seed=11)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        h.undo()
    play_some(h, 40)
    assert h == g
    assert h.history == g.history


def test_copy_is_independent() -> None:
    g = Game("cs162", "ABC", seed=2)
    play_some(g, 10)
    c = g.copy()
    assert c == g and c is not g
    play_some(c, 5)
    assert c != g
    assert copy.deepcopy(g) == g


def test_history_records_effects() -> None:
    g = Game("cs162", "AB", seed=1)
    g.roll(6)
    g.play("p")
    g.roll(6)
    g.play("q")
    assert g.current_player == "B"  # one bonus roll per 6 (cs162)
    g.roll(3)
    assert g.current_player == "A"  # B had nothing to move
    kinds = [e["kind"] for e in g.history]
    assert kinds == ["roll", "move", "roll", "move", "roll"]
    assert g.history[1]["extra_roll"] is True
    assert g.history[3]["extra_roll"] is False
    assert g.history[4] == {
        "kind": "roll",
        "player": "B",
        "value": 3,
        "die": False,
        "result": "cannot move",
    }
    assert g.status == "Player B cannot move. Player A to roll the die."


def test_history_since_is_the_history_from_an_index() -> None:
    g = Game("gt", seed=42)
    play_some(g, 120)
    whole = g.history
    for start in (0, 1, 7, len(whole) - 1, len(whole), len(whole) + 5):
        assert g.history_since(start) == whole[start:]
    assert [type(e) for e in g.history_since(3)] == [type(e) for e in whole[3:]]
    # past the end: nothing, up to the largest start
    assert g.history_since(2**64 - 1) == []


def test_history_since_refuses_a_start_that_is_no_index() -> None:
    g = Game("gt", seed=42)
    play_some(g, 20)
    for start in (-1, -(2**70), 2**64):
        with pytest.raises(InvalidArgumentError) as err:  # a ValueError
            g.history_since(start)
        assert str(err.value) == f"start must be an int from 0 to 2**64 - 1, not {start}"
    for start in (True, 1.0, "1", None):
        with pytest.raises(TypeError, match="^start must be an int"):
            g.history_since(start)  # type: ignore[arg-type]


def test_same_seed_same_game() -> None:
    a, b = Game("gt", seed=42), Game("gt", seed=42)
    play_some(a, 200)
    play_some(b, 200)
    assert a == b and a.history == b.history
    c = Game("gt", seed=43)
    play_some(c, 200)
    assert c.history != a.history


def test_moves_are_values() -> None:
    g = Game("standard", "AC", seed=1)
    g.roll(6)
    moves = g.legal_moves
    assert moves == g.legal_moves
    assert len(set(moves)) == 4  # each of the four yard tokens may enter
    m = moves[0]
    assert isinstance(m, Move)
    assert (m.player, m.token, m.roll, str(m)) == ("A", "1", 6, "A1")
    assert repr(m) == "Move('A1', roll=6)"


def test_standard_defaults_and_options() -> None:
    g = Game("standard", 2, seed=1)
    assert g.players == ["A", "C"]
    assert g.options["tokens"] == 4
    g = Game("standard", "ABC", seed=1, tokens=2, safe_squares=True, six_limit=3)
    assert g.options["tokens"] == 2 and g.options["safe_squares"] is True
    assert g.steps["A"] == [-1, -1]


# --- notation, JSON, pickling ----------------------------------------------------------


@pytest.mark.parametrize("rules", ["cs162", "standard", "gt"])
def test_notation_round_trips_every_step(rules: str) -> None:
    g = Game(rules, seed=3)
    rng = random.Random(3)
    for _ in range(300):
        text = g.to_notation()
        assert Game.from_notation(text) == g
        assert repr(g) == f"Game.from_notation({text!r})"
        assert eval(repr(g), {"Game": Game}) == g
        if g.is_over():
            break
        g.roll()
        if g.phase == "move":
            g.play(rng.choice(g.legal_moves))


def test_notation_text_is_compact_and_readable() -> None:
    g = Game("cs162", "AB", seed=42)
    assert g.to_notation() == "cs162 A-1.-1/B-1.-1 A:r:0:0 - - 000000000000002a"
    g2 = Game("standard", "AC", seed=1, tokens=2, safe_squares=True)
    assert g2.to_notation().startswith("standard[tokens=2,safe_squares=true] A-1.-1/C-1.-1 ")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "cs162",
        "chess A-1.-1 A:r:0:0 - - 0",
        "cs162 A-1.-1/B-1.-1 C:r:0:0 - - 0",
        "cs162 A3.-1/B45.-1 A:r:0:0 - - 0",
        "cs162 A99.-1/B-1.-1 A:r:0:0 - - 0",
        "cs162 A-1.-1/B-1.-1 A:m3:0:0 - - 0",
        "cs162 A-1/B-1.-1 A:r:0:0 - - 0",
    ],
)
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(LudoError):
        Game.from_notation(text)


def test_json_and_pickle_keep_the_whole_game() -> None:
    import pickle

    g = Game("gt", seed=9)
    play_some(g, 150, seed=1)
    g.roll(4) if g.phase == "roll" else None
    text = g.to_json()
    h = Game.from_json(text)
    assert h == g and h.history == g.history and h.moves == g.moves and h.seed == 9
    p = pickle.loads(pickle.dumps(g))
    assert p == g and p.history == g.history
    h.undo()
    assert h != g
    assert "=4" in g.moves or g.phase != "move"


def test_bad_json_is_refused() -> None:
    g = Game("cs162", seed=1)
    g.roll(6)
    good = g.to_json()
    with pytest.raises(LudoError):
        Game.from_json(good.replace('"moves": "=6"', '"moves": "=5"'))
    assert '"moves": "=6"' in good
    with pytest.raises(LudoError):
        Game.from_json("[]")
    with pytest.raises(LudoError):
        Game.from_json('{"format": "other"}')
    with pytest.raises(ValueError):
        Game.from_json("{not json")


# --- boards to look at -----------------------------------------------------------------


@pytest.mark.parametrize("rules", ["cs162", "standard", "gt"])
def test_text_and_svg_boards(rules: str) -> None:
    import xml.etree.ElementTree as ET

    import LudoGame

    g = Game(rules, 4, seed=8)
    play_some(g, 80, seed=2)
    text = str(g)
    assert text.splitlines()[-1].startswith(g.status)
    for player, steps in g.steps.items():
        on_board = [s for s in steps if s >= 0]
        if on_board:
            assert player in text or player.lower() in text
    svg = g._repr_svg_()
    assert LudoGame.svg(g) == svg
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    discs = [e for e in root.iter() if e.tag.endswith("circle")]
    tokens = sum(len(s) for s in g.steps.values())
    assert 1 <= len(discs) <= tokens


def test_text_board_cs162_example() -> None:
    g = Game.from_notation("cs162 A28.28/B21.-1 A:r:0:0 - - 0000000000000001")
    text = str(g)
    assert "Apq" in text and "Bq" in text and "Bp" in text
    assert len(text.splitlines()) == 16
