"""Bad input gets a clear error and changes nothing; no call panics, aborts or half-applies.

Each case here was once reported broken (an OverflowError, a Rust panic reaching Python, a
game changed by a call that raised, a process aborted by a huge count). Calls that could
crash the interpreter run in a subprocess.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import threading

import pytest

import LudoGame
from LudoGame import Game, IllegalMoveError, InvalidArgumentError, InvalidBotError, Move
from LudoGame.onitama import SearchStop


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: Game("gt", seed=-1), "seed"),
        (lambda: Game("gt", seed=2**64), "seed"),
        (lambda: LudoGame.Simulation("cs162", seed=-1), "seed"),
        (lambda: LudoGame.Simulation("cs162").run(start=-1), "start"),
        (lambda: LudoGame.Simulation("cs162").run(0, -1), "count"),
        (lambda: LudoGame.Simulation("cs162").run(0, 2**64), "count"),
        (lambda: LudoGame.Simulation("cs162").run(0, 10, 0), "threads"),
        (lambda: LudoGame.simulate(games=-5), "games"),
        (lambda: Game("gt", seed=1).autoplay("random", max_rolls=-1), "max_rolls"),
        (lambda: Game("gt", seed=1).autoplay("random", seed=-1), "seed"),
        (lambda: Game("gt", seed=1).best_move("random", seed=2**64), "seed"),
    ],
)
def test_out_of_range_ints_are_value_errors_naming_the_argument(call, argument: str) -> None:
    with pytest.raises(InvalidArgumentError, match=argument) as info:
        call()
    assert isinstance(info.value, ValueError) and not isinstance(info.value, OverflowError)


def test_bools_are_not_ints() -> None:
    with pytest.raises(TypeError):
        Game("gt", seed=True)
    with pytest.raises(TypeError):
        Game("gt", seed=1).best_move("random", seed=True)
    with pytest.raises(TypeError):
        LudoGame.Simulation("cs162").run(0, True)


def run_python(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize("games", [10**12, 2**64 - 1])
def test_a_huge_simulation_is_refused_before_any_work(games: int) -> None:
    """It once aborted the process (4 TB allocated up front) or panicked (capacity overflow)."""
    r = run_python(
        "import LudoGame\n"
        "try:\n"
        f"    LudoGame.simulate('cs162', games={games})\n"
        "except LudoGame.InvalidArgumentError as e:\n"
        "    print('refused:', e)\n"
    )
    assert r.returncode == 0, r.stderr
    assert "refused: count must be an int from 0 to 2**32" in r.stdout


def test_a_huge_mcts_budget_searches_without_reserving_it() -> None:
    """mcts:10000000 once reserved 12.8 GB before searching; the tree now grows as it
    searches (and is capped), so a short search in a small address space works."""
    r = run_python(
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))\n"
        "import LudoGame, threading, signal, os\n"
        "g = LudoGame.Game('standard', seed=1); g.roll(6)\n"
        "threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "try:\n    g.best_move('mcts:10000000')\n"
        "except KeyboardInterrupt:\n    print('stopped cleanly')\n"
    )
    assert r.returncode == 0, r.stderr
    assert "stopped cleanly" in r.stdout


def test_a_ludo_bot_search_stops_when_its_flag_is_requested() -> None:
    """A `SearchStop` requested from another thread ends a Ludo bot's search (as the web
    server's flag does when its game is deleted) and it answers a legal move: mcts:10000000
    thinks for about 9 s on this machine when nothing stops it (its tree is capped), the
    stopped one answers within the flag's polling interval (about 20 ms)."""
    game = Game("standard", seed=1)
    game.roll(6)
    flag = SearchStop()
    found: list[Move] = []
    search = threading.Thread(
        target=lambda: found.append(game.best_move("mcts:10000000", stop=flag))
    )
    search.start()
    flag.request()
    search.join(4.0)
    assert not search.is_alive(), "the search went on after its stop was requested"
    assert found and found[0].name in [m.name for m in game.legal_moves]


def test_one_bot_name_in_a_list_plays_every_seat() -> None:
    r = LudoGame.simulate("cs162", "ABCD", ["random"], games=20, seed=1)
    assert r.bots == ["random"] * 4
    assert r.wins == LudoGame.simulate("cs162", "ABCD", "random", games=20, seed=1).wins


def test_a_move_of_another_rule_set_is_refused() -> None:
    gt = Game("gt", seed=1)
    gt.roll(6)
    foreign = gt.legal_moves[0]
    game = Game("cs162", seed=1)
    game.roll(6)
    before = game.to_notation()
    with pytest.raises(IllegalMoveError, match="gt"):
        game.play(foreign)
    assert game.to_notation() == before
    assert isinstance(foreign, Move)


def test_svg_of_anything_else_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Game or a LudoGame"):
        LudoGame.svg(5)  # type: ignore[arg-type]
    assert LudoGame.svg(Game("gt", seed=1)).startswith("<svg")


def test_a_failing_bot_leaves_the_game_as_it_was() -> None:
    game = Game("cs162", seed=3)
    before = game.to_json()
    with pytest.raises(InvalidBotError):
        game.autoplay({"A": "random", "C": lambda g: "nonsense"}, seed=1)
    assert game.to_json() == before
    assert len(game.history) == 0


def test_a_bot_may_read_and_pickle_its_own_game_while_autoplay_runs() -> None:
    """Game.__eq__ and pickle.dumps once panicked ('Already mutably borrowed') here."""
    game = Game("gt", seed=5)
    seen = []

    def bot(view: Game) -> Move:
        seen.append((game == game, pickle.loads(pickle.dumps(game)) == game, view == game))
        return view.legal_moves[0]

    game.autoplay({"A": bot, "B": "random", "C": "random", "D": "random"}, seed=2)
    assert game.is_over() and seen
    assert all(same and pickled for same, pickled, _ in seen)


def test_another_thread_may_read_the_game_while_autoplay_runs() -> None:
    game = Game("standard", players=2, seed=8)
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            try:
                _ = game == game.copy(), pickle.dumps(game), game.status
            except BaseException as e:  # noqa: BLE001 - any error fails the test
                errors.append(e)
                return

    t = threading.Thread(target=reader)
    t.start()
    try:
        game.autoplay({"A": lambda g: g.legal_moves[-1], "C": "cs162"}, seed=1)
    finally:
        stop.set()
        t.join()
    assert not errors, errors
    assert game.is_over()


def test_autoplay_refuses_to_overwrite_a_change_made_meanwhile() -> None:
    game = Game("gt", seed=2)

    def meddler(view: Game) -> str:
        if game.phase == "roll":
            game.roll()
        return view.legal_moves[0].name

    with pytest.raises(RuntimeError, match="changed while autoplay ran"):
        game.autoplay({"A": meddler, "B": meddler, "C": meddler, "D": meddler})


def test_autoplay_on_a_game_another_thread_searches_is_refused_at_once() -> None:
    """A search holds the game while it thinks: autoplay's result is refused with a clear
    error (it used to wait up to a second for the game, polling), and nothing changes."""
    game = Game("standard", "AC", seed=1)
    game.roll(6)  # four tokens may enter: a search has something to weigh
    flag = SearchStop()
    searcher = threading.Thread(target=lambda: game.best_move("mcts:10000000", stop=flag))
    searcher.start()
    try:
        while searcher.is_alive():  # until the search holds the game (a change is refused)
            try:
                game.play("no such move")  # refused either way, changing nothing
            except RuntimeError:
                break
            except LudoGame.LudoError:
                continue
        else:
            pytest.fail("the search ended before it held the game")
        before = game.to_json()
        with pytest.raises(RuntimeError, match="in use by another call"):
            game.autoplay("random", seed=1)
        assert game.to_json() == before
    finally:
        flag.request()
        searcher.join()
    assert game.to_json() == before


@pytest.mark.parametrize(
    "bot", ["random", "cs162", "safe", "aggressive", "expectimax:1", "mcts:30"]
)
@pytest.mark.parametrize("rules", ["gt", "cs162", "standard"])
def test_every_bot_finishes_a_one_player_game(rules: str, bot: str) -> None:
    """A one-player GT game with mcts once never ended: it kept 'moving' a token in goal."""
    game = Game(rules, players=1, seed=7)
    game.autoplay(bot, seed=3, max_rolls=20_000)
    assert game.is_over(), game.status
