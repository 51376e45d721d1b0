"""The ``onitama`` command: play Onitama with a movable wall at the terminal.

``onitama play`` is the coursework's Part 1 program (two humans at one keyboard): it asks
for a test case number, then prompts each player for a card, a pawn, a target and a wall
step, re-prompting after any invalid input with the coursework's messages. Its screen is
the recorded sessions' character for character. ``--ai-a LEVEL`` / ``--ai-b LEVEL`` let a
built-in AI play a side; its answers appear after the prompts as if typed.

When the input is not a terminal (a pipe or a file), each answer read is echoed after its
prompt, so the output reads like the terminal session (``--echo no`` turns that off).

``onitama match [A [B]]`` referees one game between two built-in AIs (levels 2 and 1 by
default), ``onitama engine`` answers a line protocol on stdin (docs/onitama-engine.md) so
that other programs can play the built-in search, ``onitama tournament [LEVEL ...]`` plays a
round robin of built-in AIs (on Ray with ``--ray [ADDRESS]``), and ``onitama setups`` lists
the setups. ``--standard`` plays standard Onitama (no wall) from random deals: ``--deal
SEED`` for ``play`` and ``match`` (without it a fresh seed, printed), ``--deals SEED,...``
for ``tournament`` (0,1,2: a tournament's figures repeat), drawn from ``--card-set`` (base,
sensei or all).

Bad input (an unknown setup, a level or time out of range, input that ends before the
game is over, output that cannot be written) gets a one-line message on stderr and exit
code 2; Ctrl-C exits with code 130 (``match`` first prints the plies played).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TextIO

from LudoGame._core import ONITAMA_TEXTS, __version__
from LudoGame._install import install_hint
from LudoGame.matlab import (
    DEFAULT_MOVE_TIME,
    DEFAULT_QUALIFY_GAMES,
    DEFAULT_QUALIFY_MAX_ERRORS,
)
from LudoGame.onitama import (
    CARD_SETS,
    DEFAULT_PLIES,
    MATCH_SETUP,
    Action,
    BuiltinAI,
    EndgameTable,
    IllegalActionError,
    MatchRecord,
    Onitama,
    RoundRobinGame,
    Standings,
    UnknownSetupError,
    builtin_ai,
    play_match,
    round_robin,
    save_games,
    setup_ids,
)
from LudoGame.onitama_engine import (
    DEFAULT_TIME,
    ENDGAME_MAX_BYTES,
    LIMIT_WORDS,
    ProtocolError,
    parse_limits,
    serve,
)
from LudoGame.seeds import fresh_seed
from LudoGame.untrusted import visible, visible_lines

#: An AI named on the command line: a built-in level, or the path of a MATLAB file.
AISpec = int | str

#: The coursework program's words, from the engine (one home for every text).
TEXTS = ONITAMA_TEXTS
CARD_PROMPT = TEXTS["card_prompt"]
PASS_PROMPT = TEXTS["pass_prompt"]
FROM_PROMPT = TEXTS["from_prompt"]
TO_PROMPT = TEXTS["to_prompt"]
WALL_PROMPT = TEXTS["wall_prompt"]
SETUP_PROMPT = TEXTS["setup_prompt"]


class InputEndedError(Exception):
    """The input ended before the game was over."""


class UsageError(Exception):
    """Bad input to the command: reported in one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit code 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


class Screen:
    """Prompts and output: reads answers from `inp` (echoing them when asked to) and writes
    everything to `out`."""

    def __init__(self, inp: TextIO, out: TextIO, echo: bool) -> None:
        self.inp = inp
        self.out = out
        self.echo = echo

    def say(self, text: str = "") -> None:
        """Write a line."""
        self.out.write(text + "\n")

    def write(self, text: str) -> None:
        """Write text as it is."""
        self.out.write(text)

    def ask(self, prompt: str) -> str:
        """Show `prompt` and read one answer (stripped)."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise InputEndedError
        answer = line.strip()
        if self.echo:
            self.out.write(answer + "\n")
        return answer

    def typed(self, prompt: str, answer: str) -> str:
        """Show `prompt` with an answer given by an AI, as if typed."""
        self.out.write(prompt + answer + "\n")
        return answer


Player = Callable[[Onitama], tuple[int, str, str, str]]


def ai_spec(text: str) -> AISpec:
    """An AI named on the command line: a level (an int) or a MATLAB file (ends in .m)."""
    try:
        return int(text)
    except ValueError:
        pass
    if text.endswith(".m"):
        return text
    raise argparse.ArgumentTypeError(
        f"an AI is a built-in level (0-2) or a MATLAB file (.m), not {text!r}"
    )


def spec_name(spec: AISpec) -> str:
    """An AI's name in results: 'L2' for a level, the file's name for a MATLAB AI."""
    return f"L{spec}" if isinstance(spec, int) else os.path.splitext(os.path.basename(spec))[0]


def make_ai(spec: AISpec, args: argparse.Namespace, seed: int, nodes: int | None = None) -> Any:
    """The AI `spec` names: a built-in AI (``--time``, `seed`), or a MATLAB AI in Octave
    (``--move-time``, sandboxed unless ``--no-sandbox``); a missing Octave or sandbox is a
    one-line `UsageError`."""
    if isinstance(spec, int):
        return builtin_ai(spec, time=args.time, seed=seed, nodes=nodes)
    from LudoGame import matlab
    from LudoGame.sandbox import SandboxUnavailableError

    try:
        return matlab.matlab_ai(spec, move_time=args.move_time, sandbox=not args.no_sandbox)
    except (matlab.OctaveNotFoundError, SandboxUnavailableError) as e:
        raise UsageError(str(e)) from None


def time_budget(specs: list[AISpec], args: argparse.Namespace) -> float | None:
    """The time budget of a match: ``--time-budget`` if given, else the MATLAB AIs' move
    time when there are any (a slower answer is a timeout), else none."""
    given: float | None = getattr(args, "time_budget", None)
    if given is not None:
        return given
    return args.move_time if any(isinstance(s, str) for s in specs) else None


class AIFailedError(Exception):
    """An AI of the terminal game failed (an error, an invalid answer, a timeout): the
    message is the referee's reason; `invalid` for an invalid answer."""

    def __init__(self, message: str, invalid: bool = False) -> None:
        super().__init__(message)
        self.invalid = invalid


def ai_player(spec: AISpec, args: argparse.Namespace) -> tuple[Player, Callable[[], None]]:
    """An AI as a player of the terminal game, and how to close it (a MATLAB AI keeps one
    Octave process for the game)."""
    ai = make_ai(spec, args, args.seed)
    session = ai.session() if hasattr(ai, "session") else None
    call = ai if session is None else session

    def play(game: Onitama) -> tuple[int, str, str, str]:
        try:
            if game.rules == "standard":  # the coursework's call contract has no rule set
                if not hasattr(ai, "choose"):
                    raise AIFailedError("a MATLAB AI plays the wall variant only")
                return ai.choose(game).answer
            card, move_from, move_to, wall = call(*game.ai_arguments())
        except AIFailedError:
            raise
        except Exception as e:  # the AI's own error: it loses, as in the tournament
            raise AIFailedError(str(e)) from None
        return card, move_from, move_to, wall

    return play, (lambda: None) if session is None else session.close


def human_ply(screen: Screen, game: Onitama, player: str) -> Action | None:
    """Read one ply from the keyboard; returns the action, or None after a winning move
    (already played, with its message)."""
    if all(a.is_pass for a in game.legal_moves):
        screen.say(TEXTS["no_valid_move"])
        while True:
            card = screen.ask(PASS_PROMPT)
            try:
                pawn = game.judge_typed(card)
            except IllegalActionError as e:
                screen.say(str(e))
                continue
            if pawn is not None:
                break
        move_from = move_to = "XX"
    else:
        while True:
            card = screen.ask(CARD_PROMPT)
            if card == "0":
                for line in game.move_listing():
                    screen.say(line)
                continue
            try:
                game.judge_typed(card)
                move_from = screen.ask(FROM_PROMPT)
                game.judge_typed(card, move_from)
                move_to = screen.ask(TO_PROMPT)
                pawn = game.judge_typed(card, move_from, move_to)
            except IllegalActionError as e:
                screen.say(str(e))
                continue
            if pawn is not None:
                break
    if pawn.is_win:
        finish_win(screen, game, player, pawn)
        return None
    announce_capture(screen, game, player, pawn)
    if game.rules == "standard":  # no wall: the ply is complete
        return game.judge(int(card), move_from, move_to, "s")
    show_before_wall(screen, game, player, pawn)
    while True:
        wall = screen.ask(WALL_PROMPT)
        try:
            return game.judge(int(card), move_from, move_to, wall)
        except IllegalActionError as e:
            screen.say(str(e))


def ai_ply(screen: Screen, game: Onitama, player: str, ai: Player) -> Action | None:
    """One ply of an AI, shown as if its answers were typed at the prompts."""
    card, move_from, move_to, wall = ai(game)
    if all(a.is_pass for a in game.legal_moves):
        screen.say(TEXTS["no_valid_move"])
        screen.typed(PASS_PROMPT, str(card))
    else:
        screen.typed(CARD_PROMPT, str(card))
        screen.typed(FROM_PROMPT, str(move_from))
        screen.typed(TO_PROMPT, str(move_to))
    try:
        action = game.judge(card, move_from, move_to, wall)
    except (IllegalActionError, TypeError, ValueError, OverflowError) as e:
        raise AIFailedError(str(e), invalid=True) from None
    if action.is_win:
        finish_win(screen, game, player, action)
        return None
    announce_capture(screen, game, player, action)
    if game.rules == "standard":  # no wall step to show
        return action
    show_before_wall(screen, game, player, action)
    screen.typed(WALL_PROMPT, wall)
    return action


def finish_win(screen: Screen, game: Onitama, player: str, action: Action) -> None:
    """Play a winning move and say how it won."""
    game.play(action)
    screen.say(game.win_message() or "")


def announce_capture(screen: Screen, game: Onitama, player: str, action: Action) -> None:
    """The message for a pawn move that captures a soldier."""
    message = game.capture_message(action)
    if message is not None:
        screen.say(message)


def show_before_wall(screen: Screen, game: Onitama, player: str, action: Action) -> None:
    """Draw the board after the pawn move and card swap, before the wall step."""
    preview = game.copy()
    preview.play(f"{action.card} {action.move_from} {action.move_to} s")
    screen.write(preview.draw(player))
    screen.say(TEXTS["choose_wall"].format(player=player))


def play_game(
    screen: Screen,
    game: Onitama,
    players: dict[str, Player | None],
) -> None:
    """Play `game` to its end, each side by keyboard (None) or an AI."""
    while not game.is_over():
        screen.say(TEXTS["turns_left"].format(n=game.plies_left))
        screen.write(str(game))
        player = game.turn
        screen.say(TEXTS["your_turn"].format(player=player))
        ai = players[player]
        action = human_ply(screen, game, player) if ai is None else ai_ply(screen, game, player, ai)
        if action is None:
            return
        game.play(action)
        screen.say()
    if game.result_reason == "ply_limit":
        screen.say(TEXTS["tied"])


def cmd_play(args: argparse.Namespace, inp: TextIO | None, out: TextIO) -> int:
    """`onitama play`."""
    if inp is None:
        raise UsageError("there is no input to read the moves from (stdin is closed)")
    Onitama(max_plies=args.max_plies)  # refuse a bad ply limit before asking anything
    echo = {"yes": True, "no": False}.get(args.echo, not inp.isatty())
    screen = Screen(inp, out, echo)
    players: dict[str, Player | None] = {"A": None, "B": None}
    if args.standard and args.setup is not None:
        raise UsageError("--standard deals its own cards: give --deal SEED, not --setup")
    check_card_set(args)
    check_deal(args)
    closers: list[Callable[[], None]] = []
    try:
        for side, spec in (("A", args.ai_a), ("B", args.ai_b)):
            if spec is not None:
                players[side], close = ai_player(spec, args)
                closers.append(close)
        return play_terminal(args, screen, inp, out, players)
    finally:
        for close in closers:
            close()


def play_terminal(
    args: argparse.Namespace,
    screen: Screen,
    inp: TextIO,
    out: TextIO,
    players: dict[str, Player | None],
) -> int:
    """The terminal game of `cmd_play`, its players ready."""
    try:
        if args.standard:
            deal = chosen_deal(args)
            game = standard_deal(args, deal, args.max_plies)
            again = f"--deal {deal} deals it again"
            out.write(f"Standard deal {deal}{card_set_label(args)}: {again}.\n")
        elif args.setup is not None:
            game = Onitama.setup(args.setup, args.max_plies)
        else:
            while True:
                answer = screen.ask(SETUP_PROMPT)
                try:
                    game = Onitama.setup(answer, args.max_plies)
                    break
                except UnknownSetupError:
                    screen.say(TEXTS["no_test_case"].format(answer=answer))
        try:
            play_game(screen, game, players)
        except AIFailedError as e:
            loser = game.turn
            line = TEXTS["ai_invalid" if e.invalid else "ai_error"]
            screen.say(visible_lines(str(e)))  # the AI's message: no escape reaches the terminal
            screen.say(line.format(winner="B" if loser == "A" else "A", loser=loser))
    except InputEndedError:
        if out.isatty():
            out.write("\n")  # end the prompt's line on the terminal
        out.flush()
        print("onitama: the input ended before the game was over", file=sys.stderr)
        return 2
    return 0


def show_record(record: MatchRecord, out: TextIO, label: str | None = None) -> None:
    """A match's result line (headed by `label`, default the setup), its actions and the
    final board."""
    head = label or f"setup {record.setup}"
    if record.reason == "interrupted":
        out.write(f"{head}: interrupted after {record.plies} plies\n")
    else:
        out.write(f"{head}: {record.result} ({record.reason}) after {record.plies} plies\n")
    out.write(" ".join(f"[{a}]" for a in record.actions) + "\n")
    out.write(record.game().draw())


def check_save_path(path: str | None) -> None:
    """Refuse a ``--save`` file that cannot be written, before anything is played."""
    if not path:
        return
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        raise UsageError(f"cannot save to {path!r}: it is a folder")
    if not os.path.isdir(folder):
        raise UsageError(f"cannot save to {path!r}: the folder {folder!r} does not exist")
    writable = os.access(target, os.W_OK) if os.path.exists(target) else os.access(folder, os.W_OK)
    if not writable:
        raise UsageError(f"cannot save to {path!r}: permission denied")


#: ``--deal`` of ``play`` and ``match``.
DEAL_HELP = "seed of the --standard deal (a fresh one, printed)"


def chosen_deal(args: argparse.Namespace) -> int:
    """The seed of a ``--standard`` game's deal: ``--deal``, else a fresh one (printed with
    the game, so that ``--deal`` deals it again)."""
    return fresh_seed() if args.deal is None else int(args.deal)


def standard_deal(args: argparse.Namespace, seed: int, max_plies: int | None) -> Onitama:
    """The standard game dealt by `seed` from ``--card-set``."""
    return Onitama.standard(seed=seed, max_plies=max_plies, card_set=args.card_set)


def card_set_label(args: argparse.Namespace) -> str:
    """How a label names ``--card-set``: nothing for the base cards."""
    return "" if args.card_set == CARD_SETS[0] else f" ({args.card_set} cards)"


def check_card_set(args: argparse.Namespace) -> None:
    """Refuse ``--card-set`` without ``--standard`` (the wall variant's cards are its
    setups')."""
    if args.card_set != CARD_SETS[0] and not args.standard:
        raise UsageError("--card-set chooses the cards of a --standard deal: add --standard")


def check_deal(args: argparse.Namespace) -> None:
    """``--deal`` is the seed of a ``--standard`` deal: refused without ``--standard``."""
    if args.deal is not None and not args.standard:
        raise UsageError("--deal is the seed of a --standard deal: add --standard")


def tournament_deals(args: argparse.Namespace) -> list[Onitama]:
    """The games of ``onitama tournament --standard``: one standard deal per seed of
    ``--deals``."""
    if args.setups is not None:
        raise UsageError("--standard deals its own cards: give --deals SEED,..., not --setups")
    seeds: list[int] = []
    for word in ("0,1,2" if args.deals is None else args.deals).split(","):
        word = word.strip()
        if not word:
            continue
        try:
            seed = int(word)
        except ValueError:
            raise UsageError(f"--deals takes comma-separated whole numbers, not {word!r}") from None
        if seed in seeds:
            raise UsageError(f"--deals names the deal {seed} twice")
        seeds.append(seed)
    if not seeds:
        raise UsageError("--deals needs at least one seed")
    return [standard_deal(args, seed, None) for seed in seeds]


def cmd_match(args: argparse.Namespace, out: TextIO) -> int:
    """`onitama match`."""
    check_save_path(args.save)
    check_card_set(args)
    check_deal(args)
    ais = [make_ai(spec, args, args.seed) for spec in (args.a, args.b)]
    start: str | Onitama
    label = None
    max_plies = args.max_plies
    if args.standard:
        if args.setup is not None:
            raise UsageError("--standard deals its own cards: give --deal SEED, not --setup")
        deal = chosen_deal(args)
        start = standard_deal(args, deal, max_plies)
        label = f"standard deal {deal}" + card_set_label(args)
        max_plies = None  # the game's own (1000 unless --max-plies)
    else:
        start = args.setup if args.setup is not None else MATCH_SETUP
        max_plies = DEFAULT_PLIES if max_plies is None else max_plies
    try:
        record = play_match(ais[0], ais[1], start, max_plies, time_budget([args.a, args.b], args))
    except KeyboardInterrupt as e:
        partial = getattr(e, "partial", None)
        if isinstance(partial, MatchRecord):
            show_record(partial, out, label)
        out.flush()
        print("onitama: interrupted", file=sys.stderr)
        return 130
    show_record(record, out, label)
    if args.save:
        names = (spec_name(args.a), spec_name(args.b))
        name = label or str(start)
        save_games(args.save, [RoundRobinGame(names[0], names[1], name, record)])
    return 0


def tournament_ais(args: argparse.Namespace) -> dict[str, Any]:
    """The AIs of `onitama tournament`, named by level ('L2', then 'L2#2', ...) or by
    MATLAB file ('AI123')."""
    ais: dict[str, Any] = {}
    for k, spec in enumerate(args.levels):
        base = spec_name(spec)
        name = base
        copy = 1
        while name in ais:
            copy += 1
            name = f"{base}#{copy}"
        ais[name] = make_ai(spec, args, args.seed + k, args.nodes)
    return ais


def cmd_tournament(args: argparse.Namespace, out: TextIO) -> int:
    """`onitama tournament`."""
    from LudoGame.progress import ProgressBar
    from LudoGame.sim import RayTaskError

    check_save_path(args.save)
    if args.jobs < 1:
        raise UsageError(f"--jobs must be 1 or more, not {args.jobs}")
    check_card_set(args)
    setups: list[Any]
    if args.standard:
        setups = tournament_deals(args)
    elif args.deals is not None:
        raise UsageError("--deals are the seeds of --standard deals: add --standard")
    else:
        setups = [s.strip() for s in (args.setups or "21,22,23").split(",") if s.strip()]
    if args.max_plies is None and not args.standard:
        args.max_plies = 20
    ais = tournament_ais(args)
    budget = time_budget(list(args.levels), args)
    bar = ProgressBar("tournament", True if args.progress else None)
    if args.course:
        return course(args, ais, setups, budget, bar, out)
    try:
        standings = round_robin(
            ais,
            setups,
            args.max_plies,
            budget,
            backend="local" if args.ray is None else "ray",
            address=args.ray or None,
            progress=bar,
            jobs=args.jobs,
        )
    except (KeyboardInterrupt, RayTaskError) as e:
        bar.close()
        partial = getattr(e, "partial", None)
        if isinstance(partial, Standings) and partial.games:
            out.write(f"{len(partial.games)} games finished:\n{partial}\n")
            if args.save:
                save_games(args.save, partial.games)
        out.flush()
        if isinstance(e, RayTaskError):
            raise UsageError(str(e)) from e
        print("onitama: interrupted", file=sys.stderr)
        return 130
    bar.close()
    out.write(f"{standings}\n")
    if args.save:
        save_games(args.save, standings.games)
    return 0


def course(
    args: argparse.Namespace,
    ais: dict[str, Any],
    setups: list[Any],
    budget: float | None,
    bar: Any,
    out: TextIO,
) -> int:
    """`onitama tournament --course`: qualification against the reference AI, then the
    round robin of the qualified AIs."""
    from LudoGame.course import course_tournament

    reference = make_ai(args.reference, args, args.seed + len(ais), args.nodes)
    if isinstance(args.reference, str):
        budget = budget or args.move_time
    try:
        result = course_tournament(
            ais, reference, args.qualify_games, args.max_errors, setups, args.max_plies,
            budget, jobs=args.jobs, backend="local" if args.ray is None else "ray",
            address=args.ray or None, progress=bar,
        )  # fmt: skip
    except KeyboardInterrupt:
        bar.close()
        out.flush()
        print("onitama: interrupted", file=sys.stderr)
        return 130
    bar.close()
    out.write(f"{result}\n")
    if args.save:
        save_games(args.save, result.games)
    return 0


def cmd_engine(args: argparse.Namespace, inp: TextIO | None, out: TextIO) -> int:
    """`onitama engine`: Ctrl-C ends it with exit code 130 and nothing more on stdout."""
    if inp is None:
        raise UsageError("there is no input to read commands from (stdin is closed)")
    words = [f"{k} {v}" for k in LIMIT_WORDS if (v := getattr(args, k)) is not None]
    try:
        limits = parse_limits(" ".join(words).split())
    except ProtocolError as e:
        raise UsageError(f"--{e}") from None
    try:
        BuiltinAI(threads=args.threads)  # the engine's own check of the number
    except (ValueError, TypeError) as e:
        raise UsageError(f"--threads {args.threads}: {e}") from None
    if args.endgame is not None:
        try:
            need = EndgameTable.build_bytes(args.endgame)
        except (ValueError, TypeError) as e:
            raise UsageError(f"--endgame {args.endgame}: {e}") from None
        if need > ENDGAME_MAX_BYTES:
            raise UsageError(
                f"--endgame {args.endgame}: its table takes {need / 2**30:.1f} GiB to build, "
                f"more than the {ENDGAME_MAX_BYTES / 2**30:.0f} GiB allowed"
            )
    if hasattr(inp, "reconfigure"):  # bytes that are not UTF-8 make a bad line, not a crash
        inp.reconfigure(errors="replace")
    try:
        return serve(inp, out, limits, args.threads, args.endgame)
    except KeyboardInterrupt:
        print("onitama: interrupted", file=sys.stderr)
        return 130


def cmd_setups(out: TextIO) -> int:
    """`onitama setups`."""
    for sid in setup_ids():
        game = Onitama.setup(sid)
        out.write(f"{sid:>18}  {game.turn} to move, n={game.plies_left}  {game.to_notation()}\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line parser."""
    parser = Parser(
        prog="onitama",
        description="Onitama with a movable wall (the MATLAB coursework variant), and standard "
        "Onitama (no wall; --standard) with the base and Sensei's Path cards.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser(
        "play",
        help="play at the terminal: human vs human, or against a built-in AI",
        description="The coursework's Part 1 game in the terminal (or, with --standard, standard "
        "Onitama from a random deal). Without --setup or --standard it asks for a test case.",
    )
    play.add_argument("--setup", help="the setup id (default: ask, as the coursework does)")
    play.add_argument(
        "--max-plies", type=int, help=f"the ply limit ({DEFAULT_PLIES}; 1000 with --standard)"
    )
    play.add_argument(
        "--ai-a", type=ai_spec, metavar="AI", help="an AI plays A: a level (0-2) or a .m file"
    )
    play.add_argument(
        "--ai-b", type=ai_spec, metavar="AI", help="an AI plays B: a level (0-2) or a .m file"
    )
    play.add_argument("--time", type=float, default=1.0, help="AI seconds per move (1.0)")
    add_matlab_options(play)
    play.add_argument("--seed", type=int, default=0, help="AI seed (0)")
    play.add_argument(
        "--standard", action="store_true", help="standard Onitama (no wall), cards dealt by --deal"
    )
    play.add_argument("--deal", type=int, help=DEAL_HELP)
    add_card_set(play)
    play.add_argument(
        "--echo",
        choices=["auto", "yes", "no"],
        default="auto",
        help="echo each answer after its prompt (auto: when the input is not a terminal)",
    )
    match = sub.add_parser(
        "match",
        help="referee one game between two built-in AIs",
        description="Referee one game between two built-in AIs (levels 0 random, "
        "1 baseline, 2 search). Ctrl-C stops it and prints the plies played (exit 130).",
    )
    match.add_argument(
        "a", type=ai_spec, nargs="?", default=2, metavar="AI_A",
        help="A's AI: a level (0-2; 2) or a MATLAB AI file AI<SID>.m",
    )  # fmt: skip
    match.add_argument(
        "b", type=ai_spec, nargs="?", default=1, metavar="AI_B",
        help="B's AI: a level (0-2; 1) or a MATLAB AI file AI<SID>.m",
    )  # fmt: skip
    add_matlab_options(match)
    match.add_argument("--setup", help=f"the setup id ({MATCH_SETUP})")
    match.add_argument(
        "--max-plies", type=int, help=f"the ply limit ({DEFAULT_PLIES}; 1000 with --standard)"
    )
    match.add_argument(
        "--standard", action="store_true", help="standard Onitama (no wall), cards dealt by --deal"
    )
    match.add_argument("--deal", type=int, help=DEAL_HELP)
    add_card_set(match)
    match.add_argument("--time", type=float, default=1.0, help="seconds per move (1.0)")
    match.add_argument("--seed", type=int, default=0, help="seed of both AIs (0)")
    match.add_argument("--save", metavar="FILE", help="write the game to FILE (JSON) to replay")
    tour = sub.add_parser(
        "tournament",
        help="a round robin of built-in AIs on the tournament setups or standard deals",
        description="Every pair of the AIs plays every setup (or, with --standard, every "
        "standard deal of --deals), once as A and once as B (2 points a win, 1 a tie). "
        "Ctrl-C prints the standings of the games finished.",
    )
    tour.add_argument(
        "levels", type=ai_spec, nargs="*", default=[0, 1, 2], metavar="AI",
        help="the AIs: levels (0-2) or MATLAB AI files AI<SID>.m (default 0 1 2)",
    )  # fmt: skip
    add_matlab_options(tour)
    tour.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="play in N local processes (1)"
    )
    tour.add_argument(
        "--course", action="store_true",
        help="the course's format: a qualification round against --reference, then the "
        "round robin of the AIs that qualified",
    )  # fmt: skip
    tour.add_argument(
        "--reference", type=ai_spec, default=1, metavar="AI",
        help="the qualification's reference AI: a level or a .m file (1, the baseline)",
    )  # fmt: skip
    tour.add_argument(
        "--qualify-games", type=int, default=DEFAULT_QUALIFY_GAMES, metavar="N",
        help=f"qualification games per AI ({DEFAULT_QUALIFY_GAMES})",
    )  # fmt: skip
    tour.add_argument(
        "--max-errors", type=int, default=DEFAULT_QUALIFY_MAX_ERRORS, metavar="K",
        help=f"more errors than this disqualifies ({DEFAULT_QUALIFY_MAX_ERRORS})",
    )  # fmt: skip
    tour.add_argument("--setups", help="comma-separated setup ids (21,22,23)")
    tour.add_argument(
        "--standard", action="store_true",
        help="standard Onitama (no wall): every pair plays every deal of --deals, both sides",
    )  # fmt: skip
    tour.add_argument(
        "--deals", metavar="SEEDS", help="comma-separated seeds of the --standard deals (0,1,2)"
    )
    add_card_set(tour)
    tour.add_argument("--max-plies", type=int, help="the ply limit (20; 1000 with --standard)")
    tour.add_argument("--time", type=float, default=1.0, help="seconds per move (1.0)")
    tour.add_argument("--nodes", type=int, help="nodes per move instead of a time (repeatable)")
    tour.add_argument("--time-budget", type=float, help="an answer slower than this loses")
    tour.add_argument("--seed", type=int, default=0, help="seed of the first AI, +1 each (0)")
    tour.add_argument("--progress", action="store_true", help="show a progress bar when piped")
    tour.add_argument("--save", metavar="FILE", help="write every game to FILE (JSON) to replay")
    tour.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="play the matches as Ray tasks: on this machine, or on the Ray cluster at "
        f"ADDRESS (needs {install_hint('ray')})",
    )  # fmt: skip
    sub.add_parser("setups", help="list the coursework setups")
    engine = sub.add_parser(
        "engine",
        help="answer positions on stdin with the search's best move (a line protocol)",
        description="Read commands on stdin, one a line (position, go, legal, isready, quit, "
        "or a bare position notation), and answer each on stdout (see docs/onitama-engine.md). "
        f"A search without limits takes {DEFAULT_TIME:g} s.",
    )
    engine.add_argument("--time", type=float, metavar="S", help="seconds a move")
    engine.add_argument("--depth", type=int, metavar="N", help="plies a move at most")
    engine.add_argument("--nodes", type=int, metavar="N", help="nodes a move (deterministic)")
    engine.add_argument(
        "--threads", type=int, default=1, metavar="N",
        help="search on N threads sharing one table (1: deterministic under --nodes)",
    )  # fmt: skip
    engine.add_argument(
        "--endgame", type=int, metavar="PIECES",
        help="build the endgame table of a standard game's cards (positions of at most PIECES "
        "pieces, masters included) once few pieces are left, and search with it",
    )  # fmt: skip
    return parser


def add_card_set(parser: argparse.ArgumentParser) -> None:
    """The ``--card-set`` option of the standard deals."""
    parser.add_argument(
        "--card-set", choices=CARD_SETS, default=CARD_SETS[0],
        help="the cards of the --standard deals: the 16 base cards, the 16 of Sensei's "
        f"Path, or all 32 ({CARD_SETS[0]})",
    )  # fmt: skip


def add_matlab_options(parser: argparse.ArgumentParser) -> None:
    """The options of MATLAB AIs: the move time and the sandbox."""
    parser.add_argument(
        "--move-time", type=float, default=DEFAULT_MOVE_TIME, metavar="SECONDS",
        help=f"a MATLAB AI's time per move: slower loses ({DEFAULT_MOVE_TIME:g})",
    )  # fmt: skip
    parser.add_argument(
        "--no-sandbox", action="store_true",
        help="run MATLAB AIs without the sandbox (only for AIs you trust)",
    )  # fmt: skip


def silence_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush of what could
    not be written (a closed pipe, a full disk) neither fails nor prints a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def run(args: argparse.Namespace) -> int:
    """Run the command, its output flushed before returning."""
    if args.command == "play":
        code = cmd_play(args, sys.stdin, sys.stdout)
    elif args.command == "match":
        code = cmd_match(args, sys.stdout)
    elif args.command == "tournament":
        code = cmd_tournament(args, sys.stdout)
    elif args.command == "engine":
        code = cmd_engine(args, sys.stdin, sys.stdout)
    else:
        code = cmd_setups(sys.stdout)
    sys.stdout.flush()
    return code


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `onitama` command."""
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        try:
            sys.stdout.write("\n")
            sys.stdout.flush()
        except (OSError, ValueError):
            silence_stdout()
        print("onitama: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 0
    except OSError as e:
        silence_stdout()
        print(f"onitama: cannot read or write: {e.strerror or e}", file=sys.stderr)
        return 2
    except (UsageError, ValueError, TypeError, ImportError) as e:
        print(f"onitama: {visible(e)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
