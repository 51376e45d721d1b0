"""The ``ludo`` command line (also ``python -m LudoGame``)."""

from __future__ import annotations

import argparse
import ipaddress
import math
import os
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from LudoGame import web_limits as web_defaults
from LudoGame._core import (
    SIM_SEED,
    Game,
    LudoError,
    LudoGame,
    Player,
    SimResult,
    Simulation,
    __version__,
)
from LudoGame._install import install_hint
from LudoGame.check_student import AUTOGRADER_BUDGET, BUDGET_REQUESTS, DEFAULT_TIMEOUT
from LudoGame.enums import Phase
from LudoGame.matlab import DEFAULT_POOL_SIZE, POOL_IDLE
from LudoGame.progress import ProgressBar
from LudoGame.sim import RayTaskError, TournamentResult, simulate, tournament, wilson_interval
from LudoGame.untrusted import visible

WORKED_EXAMPLE = [
    ("A", 6), ("A", 4), ("A", 5), ("A", 4), ("B", 6), ("B", 4), ("B", 1), ("B", 2),
    ("A", 6), ("A", 4), ("A", 6), ("A", 3), ("A", 5), ("A", 1), ("A", 5), ("A", 4),
]  # fmt: skip

_TURN = re.compile(r"^([A-Za-z])(-?\d+)$")


def _squares(game: Game) -> str:
    return "  ".join(f"{p}: {s[0]:>3} {s[1]:>3}" for p, s in game.squares.items())


def worked_example() -> None:
    """Print the assignment's worked example, exactly as the assignment shows it."""
    game = LudoGame()
    current_tokens_space = game.play_game(["A", "B"], WORKED_EXAMPLE)
    player_a = game.get_player_by_position("A")
    player_b = game.get_player_by_position("B")
    assert isinstance(player_a, Player) and isinstance(player_b, Player)
    print(player_a.get_completed())
    print(player_a.get_token_p_step_count())
    print(current_tokens_space)
    print(player_b.get_space_name(55))


def random_game(players: str, seed: int, verbose: bool = True) -> list[str]:
    """Play a seeded CS162 game with the engine: the seeded die, each player moving by the
    assignment's priority rule (the ``cs162`` bot), until one player is left. Returns the
    finishing order."""
    game = Game("cs162", players=players, seed=seed)
    turn = 0
    while not game.is_over():
        player = game.current_player
        roll = game.roll()
        moved = game.phase == Phase.MOVE
        if moved:
            game.play(game.best_move("cs162"))
        turn += 1
        if verbose:
            # The move's entry says which tokens went (a stack moves together).
            last = game.history[-1] if moved else None
            what = f"moves {''.join(last['tokens'])}" if last else "cannot move"
            print(f"{turn:4d}. {player} rolls {roll}, {what:<11} | {_squares(game)}")
            if last and last["finished"]:
                print(f"      {player} has finished (place {game.ranking.index(player) + 1})")
    return game.ranking


class UsageError(ValueError):
    """A command line the command cannot use (exit status 2, as argparse's own errors)."""


def _parse_turns(words: Sequence[str]) -> list[tuple[str, int]]:
    turns = []
    for word in words:
        m = _TURN.match(word)
        if not m:
            raise UsageError(f"{word!r} is not a turn such as A6 (position, then roll)")
        turns.append((m.group(1), int(m.group(2))))
    return turns


def _rules(rules: str, pairs: Sequence[str]) -> str:
    """The rules notation of ``rules`` with the ``--option KEY=VALUE`` words added
    (``standard[six_limit=3]``): the engine's one parser reads the options."""
    if not pairs:
        return rules
    items = ",".join(pairs)
    return f"{rules[:-1]},{items}]" if rules.endswith("]") else f"{rules}[{items}]"


@dataclass
class Totals:
    """A simulation's summary, added up chunk by chunk (no per-game data: a run of any
    length takes the same memory)."""

    players: list[str]
    bots: list[str]
    games: int = 0
    rolls: int = 0
    captures: int = 0
    unfinished: int = 0
    wins: dict[str, int] = field(default_factory=dict)

    def add(self, r: SimResult) -> None:
        """Count the games of `r`."""
        self.games += r.games
        self.rolls += r.total_rolls
        self.captures += r.total_captures
        self.unfinished += r.unfinished
        for player, n in r.wins.items():
            self.wins[player] = self.wins.get(player, 0) + n


def print_result(result: Totals, seconds: float, interrupted: bool = False) -> None:
    """Print a simulation's summary table (`seconds`: the time of the games counted)."""
    if interrupted:
        print(f"Interrupted: {result.games:,} games finished.")
    print(f"{result.games:,} games in {seconds:.2f} s ({result.games / max(seconds, 1e-9):,.0f}/s)")
    n = max(result.games, 1)
    for player, bot in zip(result.players, result.bots, strict=True):
        wins = result.wins.get(player, 0)
        lo, hi = wilson_interval(wins, result.games)
        print(f"  {player} {bot:<14} {wins:>9,} wins  {wins / n:6.3f}  [{lo:.3f}, {hi:.3f}]")
    print(f"  mean length {result.rolls / n:.1f} rolls, mean captures {result.captures / n:.2f}")
    if result.unfinished:
        print(f"  {result.unfinished} games cut off without a result")


def _bots(text: str) -> str | list[str]:
    """`--bots`: one name plays every seat, a comma-separated list one per player."""
    names = [b.strip() for b in text.split(",")]
    return names[0] if len(names) == 1 else names


def cmd_simulate(args: argparse.Namespace) -> int:
    """`ludo simulate`: many games in chunks, with a progress bar; Ctrl-C prints what finished."""
    rules = _rules(args.rules, args.option)
    sim = Simulation(rules, args.players, _bots(args.bots), args.seed)
    sim.run(0, 0, args.threads)  # checks the thread count before anything is printed
    totals = Totals(sim.players, sim.bots)
    bar = ProgressBar("simulate", True if args.progress else None)
    if args.ray is not None:
        return _simulate_ray(args, totals, bar)
    chunk = max(1, args.chunk or min(50_000, max(1_000, args.games // 100)))
    start = time.perf_counter()
    interrupted = False
    try:
        while totals.games < args.games:
            n = min(chunk, args.games - totals.games)
            totals.add(sim.run(totals.games, n, args.threads))
            bar(totals.games, args.games)
    except KeyboardInterrupt as e:  # with the games finished as `partial` (LudoGame.Interrupted)
        interrupted = True
        partial = getattr(e, "partial", None)
        if isinstance(partial, SimResult):
            totals.add(partial)
    seconds = time.perf_counter() - start
    bar.close()
    print_result(totals, seconds, interrupted)
    return 130 if interrupted else 0


def _simulate_ray(args: argparse.Namespace, totals: Totals, bar: ProgressBar) -> int:
    """`ludo simulate --ray`: the games as Ray tasks; Ctrl-C prints what finished."""
    start = time.perf_counter()
    interrupted = False
    try:
        totals.add(
            simulate(
                _rules(args.rules, args.option), args.players, _bots(args.bots), args.games,
                args.seed, args.threads, chunk=args.chunk or None, progress=bar,
                backend="ray", address=args.ray or None,
            )
        )  # fmt: skip
    except KeyboardInterrupt as e:
        interrupted = True
        partial = getattr(e, "partial", None)
        if isinstance(partial, SimResult):
            totals.add(partial)
    seconds = time.perf_counter() - start
    bar.close()
    print_result(totals, seconds, interrupted)
    return 130 if interrupted else 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """`ludo tournament`: every pairing of the bots, both seatings; Ctrl-C prints the table
    of what was played."""
    bar = ProgressBar("tournament", True if args.progress else None)
    try:
        result = tournament(
            [b.strip() for b in args.bots.split(",")],
            _rules(args.rules, args.option),
            args.games,
            args.seed,
            args.threads,
            progress=bar,
            backend="local" if args.ray is None else "ray",
            address=args.ray or None,
        )
    except KeyboardInterrupt as e:
        bar.close()
        partial = getattr(e, "partial", None)
        print("Interrupted: the pairings played so far.")
        if isinstance(partial, TournamentResult) and any(s.games for s in partial.standings):
            print(partial)
        return 130
    bar.close()
    print(result)
    return 0


def _count(text: str) -> int:
    """A count argument: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative: give 0 or more")
    return value


def _port(text: str) -> int:
    """A port number, 0-65535."""
    value = _count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port: give 0 to 65535")
    return value


def _days(text: str) -> float | None:
    """A number of days, or ``never`` (None)."""
    if text.strip().lower() == "never":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days (or never)") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of days above 0, or never")
    return value


def _seconds(text: str) -> float:
    """A positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def _network(text: str) -> str:
    """An address or network (``10.0.0.0/8``), or ``*``."""
    if text.strip() != "*":
        try:
            ipaddress.ip_network(text.strip(), strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an address or network") from None
    return text


def _seed(text: str) -> int:
    """A seed: a whole number from 0 to 2**64 - 1."""
    from LudoGame.checker import check_seed

    try:
        return check_seed(_count(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _positive(text: str) -> int:
    """A count of 1 or more."""
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("give 1 or more")
    return value


def check_ai_dir(folder: str) -> str | None:
    """Why ``--ai-dir`` cannot offer MATLAB AIs (None when it can): not a folder, no
    Octave, or no sandbox."""
    from LudoGame import matlab, sandbox

    if not os.path.isdir(folder):
        return f"--ai-dir {folder}: not a folder"
    try:
        matlab.octave_path()
    except matlab.OctaveNotFoundError as e:
        return str(e)
    if not sandbox.available():
        return f"--ai-dir needs the sandbox for untrusted AIs: {sandbox.unavailable_reason()}"
    return None


def cmd_serve(args: argparse.Namespace) -> int:
    """`ludo serve`: the web app on uvicorn until Ctrl-C."""
    try:
        from LudoGame import web
    except ImportError:
        print(f"ludo: install the web extra: {install_hint('web')}", file=sys.stderr)
        return 2
    if args.ai_dir is not None:
        problem = check_ai_dir(args.ai_dir)
        if problem:
            print(f"ludo: {problem}", file=sys.stderr)
            return 2
    try:
        web.serve(
            args.host,
            args.port,
            open_browser=args.open,
            max_games=args.max_games,
            replay_file=args.replay,
            store=args.store,
            expire_days=args.expire_finished,
            idle_days=args.expire_idle,
            ai_dir=args.ai_dir,
            octave_workers=args.octave_workers,
            allowed_hosts=args.allowed_host,
            create_rate=args.create_rate or None,
            trusted_proxies=args.trusted_proxy,
            max_connections=args.max_connections or None,
            max_client_connections=args.max_client_connections or None,
            request_timeout=args.request_timeout,
        )
    except KeyboardInterrupt:
        return 0
    except OSError as e:
        where = f"{args.host}:{args.port}"
        print(f"ludo: cannot serve on {where}: {e.strerror or e}", file=sys.stderr)
        return 2
    except web.ReplayError as e:  # the file's words may be quoted: made visible
        print(f"ludo: cannot replay {visible(args.replay)}: {visible(e)}", file=sys.stderr)
        return 2
    except web.StoreError as e:
        print(f"ludo: cannot use the store: {visible(e)}", file=sys.stderr)
        return 2
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """`ludo verify SAVED.json`: the verdict of `LudoGame.fair.verify_save` in one line; exit
    0 verified, 1 not verified, 2 a file that cannot be read or is not such a save."""
    from LudoGame.fair import BadSaveError, verify_save

    try:
        with open(args.save, encoding="utf-8") as f:
            text = f.read()
        verdict = verify_save(text)
    except (OSError, UnicodeDecodeError, BadSaveError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(f"ludo: cannot verify {args.save}: {why}", file=sys.stderr)
        return 2
    print(f"{args.save}: {verdict.message}")
    return 0 if verdict.verified else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ludo`` command."""
    parser = argparse.ArgumentParser(
        prog="ludo", description="LudoGame: a fast, exact Ludo engine (CS162, standard, GT)."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="the assignment's worked example and a random game")
    demo.add_argument("--seed", type=int, default=162, help="seed of the random game")
    demo.add_argument("--players", default="ABCD", help="positions that play, e.g. AC")
    play = sub.add_parser("play", help="play a turns list, e.g. ludo play AB A6 A4 B6")
    play.add_argument("players", help="positions that play, e.g. AB")
    play.add_argument("turns", nargs="*", help="turns such as A6 (position, roll)")
    name = sub.add_parser("space-name", help="the space a token stands on after N steps")
    name.add_argument("position")
    name.add_argument("steps", type=int)
    for cmd, helptext in (
        ("simulate", "play many games between bots in Rust and count the wins"),
        ("tournament", "every pairing of the bots, both seatings, with confidence intervals"),
    ):
        p = sub.add_parser(cmd, help=helptext)
        p.add_argument("--rules", default="cs162", help="cs162, standard or gt")
        default_bots = "random" if cmd == "simulate" else "random,cs162,aggressive,safe"
        p.add_argument(
            "--bots",
            default=default_bots,
            help="comma-separated bot names: random, cs162, aggressive, safe, expectimax[:depth], "
            "mcts[:playouts] (simulate: one name plays every seat, or one per player)",
        )
        p.add_argument("--games", type=_count, default=10_000 if cmd == "simulate" else 2_000)
        p.add_argument("--seed", type=int, default=SIM_SEED, help="the run's seed (%(default)s)")
        p.add_argument("--threads", type=int, default=1)
        p.add_argument("--option", action="append", default=[], help="a rule option KEY=VALUE")
        p.add_argument("--progress", action="store_true", help="show the bar even when piped")
        p.add_argument(
            "--ray",
            nargs="?",
            const="",
            default=None,
            metavar="ADDRESS",
            help="play the games as Ray tasks: on this machine, or on the Ray cluster at "
            f"ADDRESS (needs {install_hint('ray')})",
        )
        if cmd == "simulate":
            p.add_argument(
                "--players",
                default=None,
                help="positions that play, e.g. ABCD (default: as Game, A and C; all four for gt)",
            )
            p.add_argument("--chunk", type=_count, default=0, help="games per Rust call")
    serve = sub.add_parser(
        "serve", help="play, watch and replay games in the browser (a local web app)"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (8000)")
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument("--replay", metavar="FILE", help="load a game file and open its replay")
    serve.add_argument(
        "--max-games",
        type=_positive,
        default=1_000,
        help="games kept at once (1,000); a new game past it is refused",
    )
    serve.add_argument(
        "--store",
        metavar="URL",
        help="where games are kept: sqlite:///PATH (default: games.sqlite3 in the user's "
        "data directory), memory, or postgresql://USER@HOST:PORT/DB (shared by several "
        "servers)",
    )
    serve.add_argument(
        "--ai-dir",
        metavar="DIR",
        help="offer the MATLAB AI files (AI<SID>.m) of DIR in the Onitama AI choice (they "
        "run sandboxed in GNU Octave)",
    )
    serve.add_argument(
        "--octave-workers",
        metavar="N",
        type=_positive,
        default=DEFAULT_POOL_SIZE,
        help=f"Octave processes the MATLAB AIs of --ai-dir may use at once "
        f"({DEFAULT_POOL_SIZE}); an idle one is closed after {POOL_IDLE:g} s",
    )
    serve.add_argument(
        "--expire-finished",
        metavar="DAYS",
        type=_days,
        default=web_defaults.FINISHED_DAYS,
        help=f"delete finished games DAYS days after their last change "
        f"({web_defaults.FINISHED_DAYS:g}; never: keep them)",
    )
    serve.add_argument(
        "--expire-idle",
        metavar="DAYS",
        type=_days,
        default=web_defaults.IDLE_DAYS,
        help=f"delete unfinished games nobody changed for DAYS days "
        f"({web_defaults.IDLE_DAYS:g}; never: keep them)",
    )
    serve.add_argument(
        "--allowed-host",
        metavar="NAME",
        action="append",
        default=[],
        help="also answer requests for the host name NAME (repeatable; * for any name); "
        "by default only for the addresses served",
    )
    serve.add_argument(
        "--create-rate",
        metavar="N",
        type=_count,
        default=web_defaults.CREATE_RATE,
        help=f"games (and replays) one client (IP address) may start a minute "
        f"({web_defaults.CREATE_RATE}; 0: no limit)",
    )
    serve.add_argument(
        "--trusted-proxy",
        metavar="ADDR",
        action="append",
        default=[],
        type=_network,
        help="read the client's address from X-Forwarded-For on connections from ADDR "
        "(an address or network, repeatable; by default from none)",
    )
    serve.add_argument(
        "--max-connections",
        metavar="N",
        type=_count,
        default=web_defaults.MAX_CONNECTIONS,
        help=f"connections open at once ({web_defaults.MAX_CONNECTIONS:,}; 0: no limit)",
    )
    serve.add_argument(
        "--max-client-connections",
        metavar="N",
        type=_count,
        default=web_defaults.MAX_CLIENT_CONNECTIONS,
        help=f"connections one client may hold open "
        f"({web_defaults.MAX_CLIENT_CONNECTIONS}; 0: no limit)",
    )
    serve.add_argument(
        "--request-timeout",
        metavar="SECONDS",
        type=_seconds,
        default=web_defaults.REQUEST_TIMEOUT,
        help=f"the longest a connection may take to send a request "
        f"({web_defaults.REQUEST_TIMEOUT:g}); a slower one is closed",
    )
    check = sub.add_parser(
        "check",
        help="a student's LudoGame.py against the engine: every difference found, explained "
        "and shrunk (it runs sandboxed)",
    )
    check.add_argument("files", nargs="*", metavar="FILE", help="LudoGame.py files or folders")
    seeds = check.add_mutually_exclusive_group()
    seeds.add_argument(
        "--seed",
        type=_seed,
        help="seed of the generated games (default: a fresh one, named in the report)",
    )
    seeds.add_argument(
        "--seed-file",
        metavar="FILE",
        help="keep the seed secret: the one in FILE, or a fresh one written there (the "
        "reports do not name it; the same FILE plays the same games again)",
    )
    check.add_argument("--games", type=_positive, default=200, help="games per file (200)")
    check.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds per call of the student's code ({DEFAULT_TIMEOUT:g})",
    )
    check.add_argument(
        "--budget",
        type=_seconds,
        help=f"seconds for the whole check of a file (default: {BUDGET_REQUESTS} times "
        f"--timeout; {AUTOGRADER_BUDGET:g} in a written --autograder); past it the file fails",
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help="count the readings of open decisions the course allows as differences (exit 1)",
    )
    check.add_argument(
        "--rubric", metavar="FILE", help="the points of each test (TOML; docs/check.md)"
    )
    check.add_argument(
        "--gradescope",
        nargs="?",
        const="/autograder/results/results.json",
        default=None,
        metavar="PATH",
        help="also write Gradescope's results.json for the file "
        "(default /autograder/results/results.json)",
    )
    check.add_argument("--csv", metavar="FILE", help="also write a CSV row per file")
    check.add_argument(
        "--autograder",
        metavar="DIR",
        help="write a Gradescope autograder folder (setup.sh, run_autograder, rubric, a "
        "secret seed) instead of checking files",
    )
    check.add_argument(
        "--wheel", metavar="FILE", help="LudoGame's wheel, copied into --autograder's folder"
    )
    check.add_argument("--json", action="store_true", help="the reports as JSON")
    check.add_argument("--summary", action="store_true", help="one table row per file")
    check.add_argument("--html", metavar="PATH", help="also write the reports as an HTML page")
    check.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1, help="files at once")
    check.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="check the files as Ray tasks (on this machine, or the cluster at ADDRESS)",
    )
    check.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run the student's code without the sandbox (only where the sandbox cannot run)",
    )
    verify = sub.add_parser(
        "verify",
        help="check a finished online game's save: its seed is the one committed to, and "
        "gives every roll (exit 0 verified, 1 not, 2 not such a save)",
    )
    verify.add_argument("save", metavar="SAVED.json", help="the game's save (GET .../save)")
    args = parser.parse_args(argv)
    if args.command == "serve":
        return cmd_serve(args)
    if args.command == "verify":
        return cmd_verify(args)
    try:
        code = _run(args)
        sys.stdout.flush()
    except LudoError as e:
        print(f"ludo: {visible(e)}", file=sys.stderr)
        return 2
    except ValueError as e:  # a bad argument the library refused before any work
        print(f"ludo: {visible(e)}", file=sys.stderr)
        return 2
    except (ImportError, RayTaskError) as e:  # --ray without Ray, or a failed Ray task
        print(f"ludo: {visible(e)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `ludo demo | head`
        _silence_stdout()
        return 0
    except OSError as e:  # e.g. a full disk
        _silence_stdout()
        print(f"ludo: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return 2
    return code


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command; errors are the caller's to report."""
    if args.command in (None, "demo"):
        seed = getattr(args, "seed", 162)
        players = getattr(args, "players", "ABCD")
        LudoGame().play_game(list(players), [])  # refuses bad players before any output
        print("The assignment's worked example:")
        worked_example()
        print(f"\nA random game of {', '.join(players)} (seed {seed}):")
        order = random_game(players, seed)
        print("Finishing order:", " ".join(order))
    elif args.command == "play":
        game = LudoGame()
        print(game.play_game(list(args.players), _parse_turns(args.turns)))
        for player in game.players:
            print(f"{player!r} steps={player.steps}")
    elif args.command == "space-name":
        print(Player(args.position).get_space_name(args.steps))
    elif args.command == "simulate":
        return cmd_simulate(args)
    elif args.command == "tournament":
        return cmd_tournament(args)
    elif args.command == "check":
        from LudoGame.check_cli import cmd_check

        return cmd_check(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
