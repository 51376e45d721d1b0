"""Plain-Python reference implementation of the CS162 Ludo API.

This is an independent, straightforward implementation of the CS162
``LudoGame`` / ``Player`` classes following the rule decisions D1-D13 of
``docs/rules.md``.  It serves two purposes:

* the honest baseline the Rust engine is benchmarked against
  (``benches/bench_play_game.py``), and
* a second implementation that tests can cross-check the engine with.

It is written the way a careful Python programmer would write the
assignment: small classes, clear methods, plain lists and dicts.  It only
validates its input minimally, since it is only fed valid input.

A token's state is its step count: -1 home yard ``'H'``, 0 ready to go
``'R'``, 1..50 on the shared track, 51..56 the player's home squares
``'<pos>1'``..``'<pos>6'`` and 57 finished ``'E'``.

Run this file to check it against the course's known cases::

    python benches/cs162_reference.py [path/to/known_cases.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HOME_YARD = -1
READY = 0
FIRST_TRACK_STEP = 1
LAST_TRACK_STEP = 50
FIRST_HOME_SQUARE_STEP = 51
LAST_HOME_SQUARE_STEP = 56
FINISHED = 57
TRACK_LENGTH = 56
EXIT_ROLL = 6

TOKEN_NAMES = ("p", "q")
START_SPACES = {"A": 1, "B": 15, "C": 29, "D": 43}
END_SPACES = {"A": 50, "B": 8, "C": 22, "D": 36}

PLAYER_NOT_FOUND = "Player not found!"

#: The course's known cases, as the repository's tests keep them.
DEFAULT_KNOWN_CASES = (
    Path(__file__).resolve().parent.parent / "python_tests" / "data" / "known_cases.json"
)


def destination(steps: int, roll: int) -> int | None:
    """Return the step count a token at ``steps`` reaches with ``roll``.

    Returns ``None`` when the token cannot move: a finished token never
    moves (D5), and a token in the yard only leaves it, onto ``'R'``, with a
    6 (D4).  A move past the finishing square bounces back (D5):
    ``new = 57 - (old + roll - 57)``.
    """
    if steps == FINISHED:
        return None
    if steps == HOME_YARD:
        return READY if roll == EXIT_ROLL else None
    new_steps = steps + roll
    if new_steps > FINISHED:
        new_steps = 2 * FINISHED - new_steps
    return new_steps


def is_track_step(steps: int) -> bool:
    """Return True when ``steps`` is a step on the shared track (1..50)."""
    return FIRST_TRACK_STEP <= steps <= LAST_TRACK_STEP


def is_home_square_step(steps: int) -> bool:
    """Return True when ``steps`` is one of the player's home squares (51..56)."""
    return FIRST_HOME_SQUARE_STEP <= steps <= LAST_HOME_SQUARE_STEP


class Player:
    """A player of the CS162 game at one position, with two tokens p and q."""

    def __init__(self, position: str) -> None:
        """Create the player at ``position`` with both tokens in the yard."""
        self._position = position
        self._start_space = START_SPACES[position]
        self._end_space = END_SPACES[position]
        self._token_steps = {"p": HOME_YARD, "q": HOME_YARD}
        self._completed = False

    def __repr__(self) -> str:
        """Return a short debugging description of the player."""
        return (
            f"Player({self._position!r}, p={self._token_steps['p']}, "
            f"q={self._token_steps['q']}, completed={self._completed})"
        )

    def get_position(self) -> str:
        """Return the player's position letter ('A'..'D')."""
        return self._position

    def get_start_space(self) -> int:
        """Return the track space of the player's step 1."""
        return self._start_space

    def get_end_space(self) -> int:
        """Return the track space of the player's step 50."""
        return self._end_space

    def get_completed(self) -> bool:
        """Return True when both of the player's tokens have finished."""
        return self._completed

    def get_token_p_step_count(self) -> int:
        """Return the step count of token p (-1 yard, 0 ready, ..., 57 end)."""
        return self._token_steps["p"]

    def get_token_q_step_count(self) -> int:
        """Return the step count of token q (-1 yard, 0 ready, ..., 57 end)."""
        return self._token_steps["q"]

    def get_token_step_count(self, token_name: str) -> int:
        """Return the step count of the token named ``token_name``."""
        return self._token_steps[token_name]

    def set_token_step_count(self, token_name: str, steps: int) -> None:
        """Put the token named ``token_name`` at ``steps`` and update completion."""
        self._token_steps[token_name] = steps
        self._completed = all(s == FINISHED for s in self._token_steps.values())

    def is_stacked(self) -> bool:
        """Return True when p and q share a track space or home square (D6, D8)."""
        p_steps = self._token_steps["p"]
        return p_steps == self._token_steps["q"] and (
            is_track_step(p_steps) or is_home_square_step(p_steps)
        )

    def get_track_space(self, steps: int) -> int | None:
        """Return the shared-track space (1..56) of ``steps``, or None if off-track."""
        if not is_track_step(steps):
            return None
        return (self._start_space - 1 + steps - 1) % TRACK_LENGTH + 1

    def get_space_name(self, steps: int) -> str:
        """Return the name of the space a token with ``steps`` stands on (D1)."""
        if steps == HOME_YARD:
            return "H"
        if steps == READY:
            return "R"
        if steps == FINISHED:
            return "E"
        if is_home_square_step(steps):
            return f"{self._position}{steps - LAST_TRACK_STEP}"
        if is_track_step(steps):
            return str(self.get_track_space(steps))
        raise ValueError(f"steps must be between -1 and 57, got {steps!r}")

    def get_token_spaces(self) -> list[str]:
        """Return the space names of p and q, in that order."""
        return [self.get_space_name(self._token_steps[name]) for name in TOKEN_NAMES]


class LudoGame:
    """The CS162 Ludo game: players, board, moves and the token priority rule."""

    def __init__(self) -> None:
        """Create a game with no players; ``play_game`` or ``start`` adds them."""
        self._players: dict[str, Player] = {}
        self._positions: list[str] = []

    def get_player_by_position(self, position: object) -> Player | str:
        """Return the Player at ``position``, or "Player not found!" (D2)."""
        if isinstance(position, str) and position in self._players:
            return self._players[position]
        return PLAYER_NOT_FOUND

    def start(self, players: list[str]) -> None:
        """Start a fresh game for the positions in ``players`` (D11).

        Only the basic checks of D13 are made: the list must be non-empty,
        without duplicates, and name positions A-D.
        """
        if not players:
            raise ValueError("players list must not be empty")
        for position in players:
            if position not in START_SPACES:
                raise ValueError(f"unknown position {position!r}")
        if len(set(players)) != len(players):
            raise ValueError(f"duplicated position in players list {players!r}")
        self._positions = list(players)
        self._players = {position: Player(position) for position in self._positions}

    def get_token_spaces(self) -> list[str]:
        """Return p's and q's space for each player, in players-list order (D3)."""
        spaces: list[str] = []
        for position in self._positions:
            spaces.extend(self._players[position].get_token_spaces())
        return spaces

    def play_game(self, players: list[str], turns: list[tuple[str, int]]) -> list[str]:
        """Play ``turns`` from a fresh game of ``players``; return the token spaces."""
        self.start(players)
        for position, roll in turns:
            self.apply_turn(position, roll)
        return self.get_token_spaces()

    def apply_turn(self, position: str, roll: int) -> bool:
        """Apply one roll of the player at ``position``; return True if a token moved.

        A completed player's turn is ignored (D10), and nothing happens when no
        token can move (D4).
        """
        player = self._players.get(position)
        if player is None:
            raise ValueError(f"position {position!r} is not playing in this game")
        if not 1 <= roll <= EXIT_ROLL:
            raise ValueError(f"roll must be between 1 and 6, got {roll!r}")
        if player.get_completed():
            return False
        token_name = self.choose_token(player, roll)
        if token_name is None:
            return False
        self.move_token(player, token_name, roll)
        return True

    def choose_token(self, player: Player, roll: int) -> str | None:
        """Return the token ``player`` moves with ``roll`` by the priority rule (D9).

        Returns None when no token can move.
        """
        movable = [
            name
            for name in TOKEN_NAMES
            if destination(player.get_token_step_count(name), roll) is not None
        ]
        if not movable:
            return None
        if len(movable) == 1 or player.is_stacked():
            return movable[0]

        steps = {name: player.get_token_step_count(name) for name in movable}
        # Rule 1: a 6 gets a token out of the yard (p if both are there).
        if roll == EXIT_ROLL:
            for name in movable:
                if steps[name] == HOME_YARD:
                    return name
        # Rule 2: a token in the home squares finishes on an exact roll.
        for name in movable:
            if is_home_square_step(steps[name]) and steps[name] + roll == FINISHED:
                return name
        # Rule 3: a token whose move kicks an opponent (p if both would).
        for name in movable:
            landing = destination(steps[name], roll)
            if landing is not None and self._opponents_on(player, landing):
                return name
        # Rule 4: the token further from the end (lower step count), p on a tie.
        return min(movable, key=lambda name: steps[name])

    def move_token(self, player: Player, token_name: str, steps: int) -> None:
        """Move ``player``'s token ``token_name`` forward by ``steps`` (D12).

        Applies D4-D8: a yard token only leaves on a 6, a move past the end
        bounces back, a stacked pair moves together, and opponents on the
        landing track space are kicked back to their yard.
        """
        if token_name not in TOKEN_NAMES:
            raise ValueError(f"token name must be 'p' or 'q', got {token_name!r}")
        if self._players.get(player.get_position()) is not player:
            raise ValueError(f"player {player!r} is not playing in this game")

        new_steps = destination(player.get_token_step_count(token_name), steps)
        if new_steps is None:
            return
        movers = list(TOKEN_NAMES) if player.is_stacked() else [token_name]
        for kicked_player, kicked_token in self._opponents_on(player, new_steps):
            kicked_player.set_token_step_count(kicked_token, HOME_YARD)
        for name in movers:
            player.set_token_step_count(name, new_steps)

    def _opponents_on(self, player: Player, steps: int) -> list[tuple[Player, str]]:
        """Return the opponent tokens on the track space of ``player``'s ``steps``.

        Only track spaces count (D6, D7): ``'R'``, the home squares and ``'E'``
        never hold a token that can be kicked.
        """
        space = player.get_track_space(steps)
        if space is None:
            return []
        found: list[tuple[Player, str]] = []
        for other in self._players.values():
            if other is player:
                continue
            for name in TOKEN_NAMES:
                if other.get_track_space(other.get_token_step_count(name)) == space:
                    found.append((other, name))
        return found


# --------------------------------------------------------------------------
# Self-check against the course's known cases.
# --------------------------------------------------------------------------

WORKED_EXAMPLE_PLAYERS = ["A", "B"]
WORKED_EXAMPLE_TURNS = [
    ("A", 6),
    ("A", 4),
    ("A", 5),
    ("A", 4),
    ("B", 6),
    ("B", 4),
    ("B", 1),
    ("B", 2),
    ("A", 6),
    ("A", 4),
    ("A", 6),
    ("A", 3),
    ("A", 5),
    ("A", 1),
    ("A", 5),
    ("A", 4),
]

# Built-in cases, usable without the JSON file; same format as known_cases.json.
BUILTIN_CASES: list[dict[str, Any]] = [
    {
        "id": "builtin_worked_example",
        "players": WORKED_EXAMPLE_PLAYERS,
        "turns": WORKED_EXAMPLE_TURNS,
        "expected": {
            "spaces": ["28", "28", "21", "H"],
            "A.completed": False,
            "A.p": 28,
            "B.name55": "B5",
        },
    },
    {
        # D1: B's step 42 is track space 56, never '0'; B's step 50 is 8.
        "id": "builtin_D1_names",
        "players": ["B"],
        "turns": [],
        "expected": {
            "B.name42": "56",
            "B.name43": "1",
            "B.name1": "15",
            "B.name50": "8",
            "B.name0": "R",
            "B.name-1": "H",
            "B.name57": "E",
            "B.name51": "B1",
        },
    },
    {
        # D9: rule 1 beats rule 2 -- p on A1 (step 51), q in the yard, a 6
        # releases q instead of finishing p.
        "id": "builtin_D9_rule1_beats_rule2",
        "players": ["A", "B"],
        "turns": [("A", 6)] + [("A", 5)] * 10 + [("A", 1), ("A", 6)],
        "expected": {"spaces": ["A1", "R", "H", "H"], "A.p": 51, "A.q": 0},
    },
    {
        # D5 / D8: a stacked pair bounces together and finishes together;
        # D10: the completed player's later turns are ignored.
        "id": "builtin_D8_stack_bounce_finish",
        "players": ["A", "C"],
        "turns": [("A", 6), ("A", 6), ("A", 2), ("A", 2)]
        + [("A", 5)] * 10
        + [("A", 6), ("A", 1), ("A", 3), ("C", 6), ("A", 6)],
        "expected": {
            "spaces": ["E", "E", "R", "H"],
            "A.completed": True,
            "A.p": 57,
            "A.q": 57,
        },
    },
]


def check_case(case: dict[str, Any]) -> list[str]:
    """Run one known case; return a list of mismatch descriptions (empty if ok)."""
    game = LudoGame()
    turns = [(position, roll) for position, roll in case["turns"]]
    spaces = game.play_game(list(case["players"]), turns)
    problems: list[str] = []
    for key, expected in case["expected"].items():
        if key == "spaces":
            actual: Any = spaces
        else:
            position, field = key.split(".", 1)
            player = game.get_player_by_position(position)
            if not isinstance(player, Player):
                problems.append(f"{key}: player {position!r} not found")
                continue
            if field == "completed":
                actual = player.get_completed()
            elif field == "p":
                actual = player.get_token_p_step_count()
            elif field == "q":
                actual = player.get_token_q_step_count()
            elif field.startswith("name"):
                actual = player.get_space_name(int(field[len("name") :]))
            else:
                problems.append(f"{key}: unknown expectation field")
                continue
        if actual != expected:
            problems.append(f"{key}: expected {expected!r}, got {actual!r}")
    return problems


def self_check(known_cases_path: Path | None = None) -> tuple[int, int]:
    """Check the built-in cases and the known cases file; print and count results."""
    cases = list(BUILTIN_CASES)
    path = known_cases_path or DEFAULT_KNOWN_CASES
    if path.is_file():
        cases.extend(json.loads(path.read_text(encoding="utf-8")))
    else:
        print(f"note: {path} not found; checking the built-in cases only")
    passed = failed = 0
    for case in cases:
        problems = check_case(case)
        if problems:
            failed += 1
            print(f"FAIL {case['id']}: " + "; ".join(problems))
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return passed, failed


def main(argv: list[str]) -> int:
    """Command-line entry: run the self-check; exit status 1 on any failure."""
    path = Path(argv[1]) if len(argv) > 1 else None
    _, failed = self_check(path)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
