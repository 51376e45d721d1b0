"""The simulation API: ``simulate``, ``Simulation``, ``SimResult``, bots, ``tournament``,
``Game.best_move`` and ``Game.autoplay``."""

from __future__ import annotations

import array
from collections import Counter
from typing import Any

import pytest

import LudoGame
from LudoGame import (
    Game,
    IllegalMoveError,
    InvalidBotError,
    LudoError,
    SimResult,
    Simulation,
    simulate,
    tournament,
)

SEATS = "ABCD"
BOT_NAMES = ["random", "cs162", "aggressive", "safe", "expectimax:1", "mcts:20"]


def data(result: SimResult) -> tuple[Any, ...]:
    """Everything a result holds, for comparing two results."""
    return (
        result.games,
        result.wins,
        result.unfinished,
        result.players,
        result.bots,
        result.lengths,
        result.captures,
        result.finishing,
    )


def games_of(result: SimResult) -> list[list[int]]:
    """The finishing order of every game."""
    n = len(result.players)
    order = list(result.finishing)
    return [order[i : i + n] for i in range(0, len(order), n)]


# --- SimResult ------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), [("cs162", "ABCD"), ("standard", "AC")])
def test_simulate_returns_a_complete_sim_result(rules: str, players: str) -> None:
    result = simulate(rules, players, "random", games=300, seed=3)
    assert isinstance(result, SimResult)
    n = len(players)
    assert result.games == 300
    assert result.players == list(players)
    assert result.bots == ["random"] * n
    assert result.unfinished == 0
    assert set(result.wins) == set(players)
    assert sum(result.wins.values()) == 300
    assert all(isinstance(w, int) for w in result.wins.values())

    for arr, code, length in [
        (result.lengths, "I", 300),
        (result.captures, "H", 300),
        (result.finishing, "B", 300 * n),
    ]:
        assert isinstance(arr, array.array)
        assert arr.typecode == code
        assert len(arr) == length

    assert min(result.lengths) > 0
    assert result.mean_length == pytest.approx(sum(result.lengths) / 300)
    assert result.mean_captures == pytest.approx(sum(result.captures) / 300)
    histogram = result.length_histogram
    assert histogram == dict(Counter(result.lengths))
    assert sum(histogram.values()) == 300
    assert list(histogram) == sorted(histogram)

    # Every game ranks every player once, and the winner is first.
    seat_numbers = sorted(SEATS.index(p) for p in players)
    firsts: Counter[str] = Counter()
    for order in games_of(result):
        assert sorted(order) == seat_numbers
        firsts[SEATS[order[0]]] += 1
    assert {p: firsts[p] for p in players} == result.wins
    assert "SimResult(games=300" in repr(result)


def test_simulation_object_and_its_properties() -> None:
    sim = Simulation("standard", "ABC", ["random", "cs162", "SAFE"], seed=11)
    assert sim.players == ["A", "B", "C"]
    assert sim.bots == ["random", "cs162", "safe"]
    assert sim.seed == 11
    assert sim.rules.startswith("standard")
    result = sim.run(0, 40, 1)
    assert result.games == 40
    assert result.bots == ["random", "cs162", "safe"]
    assert data(result) == data(simulate("standard", "ABC", ["random", "cs162", "safe"], 40, 11))
    # Default players are Game's default (A and C; the Rust docstring says "ABCD").
    assert Simulation().players == Game().players
    assert Simulation().bots == ["random"] * len(Game().players)
    assert Simulation(players=SEATS, bots="expectimax").bots == ["expectimax:2"] * 4
    assert Simulation(players="BD", bots={"B": "cs162", "D": "random"}).bots == ["cs162", "random"]
    assert simulate(games=0).games == 0
    with pytest.raises(ValueError, match="-1"):
        simulate(games=-1)


# --- determinism ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["cs162", "standard"])
def test_same_seed_same_result_for_any_thread_count(rules: str) -> None:
    one = simulate(rules, SEATS, "random", games=400, seed=9, threads=1)
    expected = data(one)
    for threads in (2, 3, 7, 64):
        assert data(simulate(rules, SEATS, "random", 400, seed=9, threads=threads)) == expected
    assert data(simulate(rules, SEATS, "random", games=400, seed=9)) == expected
    other = simulate(rules, SEATS, "random", games=400, seed=10)
    assert other.lengths != one.lengths


def test_seed_none_draws_a_fresh_seed_and_keeps_it() -> None:
    # #36 "one meaning of no seed": as Game(seed=None); it was seed 0. A run whose seed is
    # not named still repeats (SIM_SEED, test_defaults).
    a, b = Simulation(seed=None), Simulation("standard", 4, "cs162", None)
    assert a.seed != b.seed  # equal with probability 2**-64
    assert data(Simulation(seed=a.seed).run(0, 30)) == data(a.run(0, 30))


def test_simulate_and_tournament_refuse_an_unnamed_seed() -> None:
    with pytest.raises(TypeError, match=r"Simulation\(seed=None\)"):
        simulate(games=1, seed=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="keeps it in .seed"):
        tournament(["random", "cs162"], games=2, seed=None)  # type: ignore[arg-type]


def test_the_last_game_indices() -> None:
    """Games are numbered by a 64-bit index: the last ones play, and none lies past them."""
    sim = Simulation("cs162", SEATS, "random", seed=4)
    last = sim.run(2**64 - 3, 2, 2)
    assert last.games == 2 and len(last.lengths) == 2 and min(last.lengths) > 0
    assert last.lengths == sim.run(2**64 - 3, 2, 1).lengths
    for start, count in [(2**64 - 1, 1), (2**64 - 3, 5)]:
        with pytest.raises(ValueError, match="64-bit index"):
            sim.run(start, count, 2)


def test_chunked_runs_add_up_to_one_run() -> None:
    sim = Simulation("cs162", SEATS, "random", seed=4)
    whole = sim.run(0, 250, 2)
    parts = sim.run(0, 100, 1) + sim.run(100, 1, 3) + sim.run(101, 149, 2)
    assert data(parts) == data(whole)
    assert data(sim.run(0, 0, 1) + whole) == data(whole)
    fifties = [sim.run(k * 50, 50, 1) for k in range(5)]
    assert data(sum(fifties[1:], fifties[0])) == data(whole)
    # Games i..j of a run are games i..j of any run of the same seed that contains them.
    assert sim.run(100, 50, 2).lengths == whole.lengths[100:150]
    # simulate in chunks, with a progress callback, gives the same games.
    seen: list[tuple[int, int]] = []
    chunked = simulate(
        "cs162", SEATS, "random", 250, seed=4, chunk=60, progress=lambda d, t: seen.append((d, t))
    )
    assert data(chunked) == data(whole)
    assert seen == [(60, 250), (120, 250), (180, 250), (240, 250), (250, 250)]


def test_results_of_different_players_cannot_be_added() -> None:
    with pytest.raises(InvalidBotError):
        simulate("cs162", "AB", games=2) + simulate("cs162", "ABC", games=2)


# --- bots by name ---------------------------------------------------------------------


@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_built_in_bot_plays_whole_games(name: str) -> None:
    bots = [name, "random", "cs162", name]
    sim = Simulation("cs162", SEATS, bots, seed=1)
    assert sim.bots == bots
    result = sim.run(0, 6, 2)
    assert result.games == 6 and result.unfinished == 0
    assert sum(result.wins.values()) == 6
    assert data(result) == data(sim.run(0, 6, 1)), "deterministic for any thread count"


@pytest.mark.parametrize("name", ["random", "cs162", "aggressive", "safe", "expectimax:1"])
def test_built_in_bots_play_standard_ludo(name: str) -> None:
    result = simulate("standard", "AC", [name, "random"], games=10, seed=2)
    assert result.unfinished == 0 and sum(result.wins.values()) == 10


@pytest.mark.parametrize(
    "bad",
    [
        "alphazero",
        "",
        "random:3",
        "cs162:1",
        "expectimax:0",
        "expectimax:9",
        "expectimax:x",
        "mcts:0",
        "mcts:-5",
        "mcts:many",
    ],
)
def test_bad_bot_names_raise_invalid_bot_error(bad: str) -> None:
    with pytest.raises(InvalidBotError) as info:
        Simulation("cs162", "AB", [bad, "random"])
    assert bad in str(info.value) or bad == ""
    with pytest.raises(InvalidBotError):
        simulate("cs162", "AB", [bad, "random"], games=1)
    with pytest.raises(InvalidBotError):
        Game("cs162", "AB", seed=1).autoplay([bad, "random"])
    assert issubclass(InvalidBotError, LudoError)
    assert issubclass(InvalidBotError, ValueError)


@pytest.mark.parametrize(
    ("bots", "words"),
    [
        (["random"] * 3, "3 bots for 2 players"),
        # (A list of one bot plays every seat, as the bot alone does.)
        ({"A": "random"}, "no bot for player 'B'"),
        (3, "not int"),
        ([None, "random"], "not None"),
    ],
)
def test_bad_bot_lists_raise_invalid_bot_error(bots: Any, words: str) -> None:
    with pytest.raises(InvalidBotError, match=words):
        Simulation("cs162", "AB", bots)


# --- Python callables as bots ---------------------------------------------------------


def delegate_to_cs162(game: Game) -> LudoGame.Move:
    """A Python bot that plays what the built-in cs162 bot plays."""
    assert game.phase == "move" and game.legal_moves
    return game.best_move("cs162")


def test_a_python_bot_plays_like_the_built_in_bot_it_copies() -> None:
    calls: list[str] = []

    def first_move(game: Game) -> str:
        calls.append(game.current_player)
        return game.legal_moves[0].name

    py = simulate("cs162", SEATS, [delegate_to_cs162, "random", "safe", "random"], 60, seed=8)
    rust = simulate("cs162", SEATS, ["cs162", "random", "safe", "random"], 60, seed=8)
    assert py.bots == ["delegate_to_cs162", "random", "safe", "random"]
    assert data(py)[5:] == data(rust)[5:] and py.wins == rust.wins
    # A Python bot's run is the same for any thread count, and the bot moves only its seat.
    sim = Simulation("standard", "AC", {"A": "random", "C": first_move}, seed=3)
    one = sim.run(0, 5, 1)
    assert calls and set(calls) == {"C"}
    assert data(sim.run(0, 5, 4)) == data(one)
    assert one.unfinished == 0


def test_a_python_bot_gets_a_copy_of_the_game() -> None:
    def meddler(game: Game) -> LudoGame.Move:
        move = game.legal_moves[-1]
        game.play(move)  # changes the bot's view only
        return move

    def last(game: Game) -> LudoGame.Move:
        return game.legal_moves[-1]

    meddled = simulate("cs162", SEATS, [meddler, "random", "random", "random"], 30, seed=2)
    plain = simulate("cs162", SEATS, [last, "random", "random", "random"], 30, seed=2)
    assert data(meddled)[5:] == data(plain)[5:]


def raises(game: Game) -> str:
    raise RuntimeError("kaput")


def illegal(game: Game) -> str:
    return "Cp"  # another player's token


def not_a_move(game: Game) -> int:
    return 42


def no_such_token(game: Game) -> str:
    return "z"


@pytest.mark.parametrize(
    ("bot", "words"),
    [
        (raises, "raised RuntimeError: kaput"),
        (illegal, "not a legal move"),
        (not_a_move, "int"),
        (no_such_token, "'z'"),
    ],
)
def test_a_failing_python_bot_raises_invalid_bot_error_naming_the_seat(
    bot: Any, words: str
) -> None:
    with pytest.raises(InvalidBotError) as info:
        simulate("cs162", SEATS, ["random", bot, "random", "random"], games=3, seed=1)
    message = str(info.value)
    assert "player 'B'" in message and words in message
    assert message.startswith("game 0: ")  # the failing game first, then the bot's error
    game = Game("cs162", SEATS, seed=5)
    with pytest.raises(InvalidBotError, match="player 'B'"):
        game.autoplay({"A": "random", "B": bot, "C": "random", "D": "random"})


# --- tournament -----------------------------------------------------------------------


def test_tournament_table_is_consistent() -> None:
    bots = ["random", "cs162", "safe"]
    result = tournament(bots, games=400)
    assert [s.bot for s in result.standings] == bots
    assert result.games_per_pair == 400
    assert all(s.games == 800 for s in result.standings)  # two pairings of 400 games each
    # Every game has one winner: the wins add up to the games played.
    assert sum(s.wins for s in result.standings) == 3 * 400
    assert sum(s.win_rate for s in result.standings) == pytest.approx(len(bots) / 2)
    for s in result.standings:
        lo, hi = s.interval
        assert 0.0 <= lo < s.win_rate < hi <= 1.0
        assert hi - lo < 0.1
    assert set(result.pairs) == {("random", "cs162"), ("random", "safe"), ("cs162", "safe")}
    for n, wins_a in result.pairs.values():
        assert n == 400 and 0 <= wins_a <= 400
    for s in result.standings:
        won = sum(
            w if a == s.bot else n - w for (a, b), (n, w) in result.pairs.items() if s.bot in (a, b)
        )
        assert won == s.wins
    # Random moves lose to both rule-following bots.
    rates = {s.bot: s.win_rate for s in result.standings}
    assert rates["random"] == min(rates.values()) < 0.4
    table = result.table()
    assert all(b in table for b in bots) and "95% interval" in table
    assert table.splitlines()[1].startswith(max(rates, key=rates.__getitem__))
    assert "-" in result.matrix() and str(result).startswith(table)
    assert data_of(tournament(bots, games=400)) == data_of(result)
    with pytest.raises(ValueError):
        tournament(["random", "random"])
    with pytest.raises(ValueError):
        tournament(["random"])


def data_of(result: LudoGame.TournamentResult) -> tuple[Any, ...]:
    return ([(s.bot, s.games, s.wins) for s in result.standings], result.pairs)


# --- Game.best_move and Game.autoplay -------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("cs162 A-1.10/B3.-1 A:m6:1:0 - - 0000000000000001", "Ap"),  # D9 rule 1: leave the yard
        ("cs162 A53.10/B3.-1 A:m4:0:0 - - 0000000000000001", "Ap"),  # rule 2: finish exactly
        ("cs162 A5.20/B9.-1 A:m3:0:0 - - 0000000000000001", "Aq"),  # rule 3: kick (space 23)
        ("cs162 A30.10/B3.-1 A:m2:0:0 - - 0000000000000001", "Aq"),  # rule 4: lower step count
    ],
)
def test_best_move_of_the_cs162_bot_follows_d9(notation: str, expected: str) -> None:
    game = Game.from_notation(notation)
    assert game.best_move("cs162").name == expected


@pytest.mark.parametrize("name", BOT_NAMES)
def test_best_move_is_legal_and_deterministic(name: str) -> None:
    game = Game("standard", SEATS, seed=21)
    game.autoplay("random", seed=1, max_rolls=60)
    while game.phase != "move":
        game.roll()
    before = repr(game)
    move = game.best_move(name, seed=5)
    assert move in game.legal_moves
    assert game.best_move(name, seed=5) == move
    assert repr(game) == before, "best_move changes nothing"
    game.play(move)


def test_best_move_needs_a_pending_move_and_a_known_bot() -> None:
    game = Game("cs162", "AB", seed=1)
    with pytest.raises(IllegalMoveError):
        game.best_move("cs162")
    game.roll(6)
    with pytest.raises(InvalidBotError):
        game.best_move("nope")
    assert game.best_move("random", seed=0) in game.legal_moves


@pytest.mark.parametrize("rules", ["cs162", "standard", "gt"])
def test_autoplay_plays_to_the_end_deterministically(rules: str) -> None:
    game = Game(rules, SEATS, seed=13)
    twin = game.copy()
    winner = game.autoplay(["random", "cs162", "safe", "aggressive"], seed=2)
    assert game.is_over()
    assert winner == game.winner == game.ranking[0]
    if rules != "gt":
        assert sorted(game.ranking) == list(SEATS)  # full ranking
    bots = {"A": "random", "B": "cs162", "C": "safe", "D": "aggressive"}
    assert twin.autoplay(bots, seed=2) == winner
    assert twin.moves == game.moves and twin == game
    other = Game(rules, SEATS, seed=13)
    other.autoplay("random", seed=3)
    assert other.moves != game.moves


def test_autoplay_with_a_python_bot_and_a_roll_limit() -> None:
    game = Game("cs162", "AC", seed=4)
    assert game.autoplay("random", seed=0, max_rolls=10) is None
    assert not game.is_over()
    assert sum(1 for e in game.history if e["kind"] == "roll") == 10
    winner = game.autoplay({"A": delegate_to_cs162, "C": "cs162"}, seed=0)
    twin = Game("cs162", "AC", seed=4)
    twin.autoplay("random", seed=0, max_rolls=10)
    assert twin.autoplay("cs162", seed=0) == winner
    assert twin.moves == game.moves
