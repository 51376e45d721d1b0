"""What requests carry: the bodies both games' routes share (a change's version, a new
game, a rematch, a turn timer), the types of their fields (integers, names, seeds), and the
``?fields=`` query parameter."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Query
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints
from pydantic_core import PydanticCustomError

from LudoGame.seeds import fresh_seed
from LudoGame.web.errors import ApiError, short
from LudoGame.web_limits import MAX_LOADED_MOVES


def _integral(value: Any) -> Any:
    """A float with no fraction as the int it is (JSON Schema's integers include 3.0)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


if TYPE_CHECKING:
    # for the type checker (and stubtest, which would take these aliases for classes of
    # their own), the plain types
    from builtins import int as Int  # noqa: N812
    from builtins import str as Name  # noqa: N812
    from builtins import str as RulesText  # noqa: N812
else:
    #: An integer of a request's body: a JSON number without a fraction (3 or 3.0; not "3"
    #: or true: request bodies are read strictly, as the schema says).
    Int = Annotated[int, BeforeValidator(_integral)]
    #: A name a request gives (a rule set, bot, setup, AI level, move, square, seat): at
    #: most 100 characters, so that no refusal quotes more.
    Name = Annotated[str, StringConstraints(max_length=100)]
    #: Rules: a preset's name, or the rules notation with options (``standard[six_limit=3]``).
    RulesText = Annotated[str, StringConstraints(max_length=500)]


#: A seed: a number from 0 to 2**64 - 1, or the same as decimal text (JavaScript's numbers
#: round integers above 2**53). Past 2**64 - 1 it is refused with a 400, not by the schema
#: (JSON Schema validators compare such numbers as doubles, 2**64 - 1 as 2**64).
def _seed(value: Any) -> Any:
    """One clear refusal for a seed of neither form (instead of one per form)."""
    value = _integral(value)
    number = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    text = isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20
    if not (number or text):
        raise PydanticCustomError(
            "seed", "a seed is a whole number from 0 to 2**64 - 1, or the same as decimal text"
        )
    return value


# each form refuses what is neither in the same words, which the 422 answer says once
Seed = (
    Annotated[int, Field(ge=0), BeforeValidator(_seed)]
    | Annotated[str, StringConstraints(pattern=r"^[0-9]{1,20}$"), BeforeValidator(_seed)]
)


def seed_of(seed: int | str | None) -> int | None:
    """A request's seed as a number (400 past 2**64 - 1)."""
    if seed is None:
        return None
    value = int(seed)
    if value >= 2**64:
        raise ApiError(400, "InvalidArgument", f"the seed {short(str(seed))} is over 2**64 - 1")
    return value


def chosen_seed(seed: int | str | None, online: bool) -> int:
    """The seed of a new game (or rematch): the request's, else a fresh one. A game with a
    person on another device (`online`) takes no seed from its request (400 `SeedRefused`):
    whoever chose it would know every roll (or deal); its seed is the server's, kept
    secret until the game is over."""
    if seed is not None and online:
        raise ApiError(
            400,
            "SeedRefused",
            "a game with a person on another device gets its seed from the server, which "
            "keeps it secret until the game is over (the state's commitment lets everyone "
            "check it then): leave the seed out",
        )
    value = seed_of(seed)
    return fresh_seed() if value is None else value  # (LudoGame.seeds: one meaning of none)


class Change(BaseModel):
    """The body of a change (a roll, move, ply, bot or AI step, undo): optionally the
    version it was made against (see `Held.check_version`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    version: Int | None = None


#: The longest turn timer, in seconds (a day).
MAX_TURN_SECONDS = 86_400


class TurnTimer(BaseModel):
    """A turn timer for the remote seats: a remote seat that has not acted `seconds` after
    its turn came has that turn played by the bot (or AI level) `bot`."""

    model_config = ConfigDict(extra="forbid")

    seconds: float
    bot: str


class NewGame(BaseModel):
    """What both games' new-game bodies may carry instead of a new game: a position's
    notation, or a saved game's JSON (the key ``json``); the pace of the server's bots; and
    a turn timer for the remote seats."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)

    position: str | None = None
    saved: str | None = Field(default=None, alias="json")
    pace: float | None = Field(default=None, ge=0, le=60)
    turn_timer: TurnTimer | None = None


class RematchBody(BaseModel):
    """The body of ``POST .../rematch``: the new game's seed (by default a new one)."""

    model_config = ConfigDict(extra="forbid")

    seed: int | None = None


def fields_of(fields: str | None, large: tuple[str, ...]) -> frozenset[str]:
    """The large state fields a request's ``?fields=`` asks for (a comma-separated list out
    of `large`, empty for none; without it, all of them); 400 naming the names that are
    not among them."""
    if fields is None:
        return frozenset(large)
    names = set(fields.split(",")) if fields else set()
    unknown = sorted(names - set(large))
    if unknown:
        named = ", ".join(short(n) for n in unknown[:5]) + (", ..." if unknown[5:] else "")
        raise ApiError(
            400,
            "BadRequest",
            f"?fields= names {named}, not a large field of this game: choose among "
            f"{', '.join(large)}, comma-separated (or leave it empty for none)",
        )
    return frozenset(names)


def fields_query(large: tuple[str, ...]) -> Any:
    """The ``?fields=`` parameter of a route answering a game's state: its schema names
    the choices; `fields_of` refuses anything else with a 400."""
    one = "(" + "|".join(large) + ")"
    return Query(
        default=None,
        description="the large fields to include, comma-separated (empty: none; without "
        f"it: all of {', '.join(large)})",
        json_schema_extra={"pattern": f"^({one}(,{one})*)?$"},
    )


def moves_of(data: Any) -> int:
    """The moves a game's JSON object holds (a Ludo game's ``moves`` words, an Onitama
    game's ``actions``), counted before any is replayed; 0 for anything else."""
    if not isinstance(data, dict):
        return 0
    moves, actions = data.get("moves"), data.get("actions")
    count = len(moves.split()) if isinstance(moves, str) else 0
    return count + (len(actions) if isinstance(actions, list) else 0)


def saved_moves(text: str) -> int:
    """`moves_of` a saved game's JSON text (0 when it is not JSON: the engine says why)."""
    try:
        return moves_of(json.loads(text))
    except (ValueError, RecursionError):
        return 0


def check_loaded_moves(count: int, what: str) -> None:
    """413 when `what` (a file, a saved game) holds more than `MAX_LOADED_MOVES` moves."""
    if count > MAX_LOADED_MOVES:
        raise ApiError(
            413,
            "BodyTooLarge",
            f"{what} holds {count:,} moves: the server loads at most {MAX_LOADED_MOVES:,}",
        )
