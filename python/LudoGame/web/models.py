"""What the web API answers, as pydantic models: the OpenAPI schema's description of every
success body and of the one error shape. The routes build their answers as plain dicts
(`Session.state`); these models only document them (``response_model=``), and the schema
tests (python_tests/test_web_schema.py) check real answers against the published schema.
They forbid extra keys, so a field added to an answer without its declaration here fails
those tests."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Answer(BaseModel):
    """An answer's object: every key declared (``additionalProperties: false``)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# ---- errors ------------------------------------------------------------------------------


class ErrorDetail(Answer):
    """What went wrong: the HTTP status, a type name, and a readable sentence."""

    status: int
    type: str
    message: str


class ErrorBody(Answer):
    """The body of every refused request (a 4xx; 503 while the store is unreachable)."""

    error: ErrorDetail


_WHY = {
    400: "Bad request: a body that is not JSON (whatever its Content-Type) or nests too "
    "deep, an unknown `?fields=` "
    "name, or something the engine refuses (rules, position, move, ...)",
    403: "Not your seat: acting for a remote seat (or an online game) needs its key in "
    "`X-Seat-Key`; or a state change asked by a page of another site (`CrossOrigin`)",
    404: "Not found: no such game, replay, game of a replay or frame",
    409: "Conflict: the game's state does not allow it now (out of turn, wrong phase, over, "
    "stale `version`) or the server holds its limit of games",
    413: "The request body is over 1,000,000 bytes",
    415: "The request body is JSON sent with another Content-Type (or none): send it as "
    "`application/json`",
    421: "The request's `Host` is not a name this server answers for (`--allowed-host`)",
    429: "Too many games started from this address in the last minute: `Retry-After` says "
    "in how many seconds another may be",
    422: "A field, parameter or header of the wrong type or out of its range",
    503: "The game store cannot be used now, or the server is stopping: nothing was changed",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route (or router) that may refuse with `codes`, each in the
    one error shape."""
    return {code: {"model": ErrorBody, "description": _WHY[code]} for code in codes}


# ---- Ludo --------------------------------------------------------------------------------


class LudoMove(Answer):
    """A legal move: its name (player and token letter), token, player and roll."""

    name: str
    token: str
    player: str
    roll: int


class LudoEvent(Answer):
    """An event of a Ludo game's history (a roll, or a move with what it did), and `text`,
    the event in words. A roll has `value`, `die` and `result`; a move the rest."""

    kind: Literal["roll", "move"]
    player: str
    text: str
    value: int | None = None
    die: bool | None = None
    result: str | None = None
    move: str | None = None
    roll: int | None = None
    from_: int | None = Field(default=None, alias="from")
    to: int | None = None
    tokens: list[str] | None = None
    captured: list[str] | None = None
    bumped: int | str | None = None
    bounced: bool | None = None
    stayed: bool | None = None
    reached_home: bool | None = None
    finished: bool | None = None
    extra_roll: bool | None = None
    from_square: str | None = None
    to_square: str | None = None


class TurnTimer(Answer):
    """A game's turn timer: an absent remote seat's turn is played by `bot` after `seconds`;
    `deadline` (a Unix time) and `left` are null while no remote seat is to act."""

    seconds: float
    bot: str
    deadline: float | None
    left: float | None


class Together(Answer):
    """What both games' states carry about playing together: the rematch (asked of this
    game, or the game this one is the rematch of), the turn timer (and what its bot
    played), who is connected and whose undo it is."""

    rematch: str | None = Field(default=None, description="the id of this game's rematch")
    rematch_of: str | None = Field(default=None, description="the game this is a rematch of")
    turn_timer: TurnTimer | None = None
    connected: dict[str, bool] = Field(
        default_factory=dict, description="for each person's seat, whether a page is watching"
    )
    undo_seat: str | None = Field(
        default=None,
        description="the seat an undo now gives the turn back to (an online game: the key "
        "of that seat, or the host's for a seat on the host's screen, may ask for it); null "
        "when nothing can be taken back (`can_undo` false)",
    )
    timer_entries: list[int] = Field(
        default_factory=list,
        description="the indices of the `history` entries the turn timer's bot played for "
        "an absent person",
    )


#: What the states say of a seed and its commitment.
SEED_HIDDEN = (
    "the seed (null while a game with a person on another device is played: the server "
    "shows it once the game is over)"
)
COMMITMENT = (
    "the SHA-256 hex digest of `seed_text`, shown from the start: once the seed is shown, "
    "anyone can check it (`ludo verify`)"
)


class LudoState(Together):
    """A Ludo game's state. `seed` is a 64-bit number, which JavaScript's numbers round
    above 2**53: `seed_text` is the same seed as decimal text."""

    id: str
    kind: Literal["ludo"]
    version: int
    rules: str
    rules_notation: str
    options: dict[str, bool | int | str]
    players: list[str]
    seats: dict[str, str]
    pace: float | None
    seed: int | None = Field(description=SEED_HIDDEN)
    seed_text: str | None = Field(description="`seed` as decimal text")
    dice_commitment: str | None = Field(
        description=COMMITMENT + " (null for a game from a position, whose die is shown)"
    )
    phase: Literal["roll", "move", "over"]
    current_player: str | None
    to_act: Literal["human", "bot"] | None
    pending_roll: int | None
    legal_moves: list[LudoMove]
    status: str
    winner: str | None
    ranking: list[str]
    squares: dict[str, list[str]]
    steps: dict[str, list[int]]
    position: str = Field(
        description="`Game.to_notation()`; while a game with a person on another device is "
        "played, its die's state is hidden (`-`)"
    )
    can_undo: bool
    history: list[LudoEvent] | None = Field(
        default=None, description="the events so far (with `?fields=` naming it, or no `?fields=`)"
    )
    svg: str | None = Field(
        default=None, description="the board as SVG (with `?fields=` naming it, or no `?fields=`)"
    )


class Keys(Answer):
    """What only the answer to a new game shows: the key of each remote seat, its invite
    address, and the key of whoever started the game."""

    seat_keys: dict[str, str]
    links: dict[str, str]
    host_key: str


class LudoCreated(LudoState, Keys):
    """A new Ludo game: its state and its keys."""


# ---- Onitama -----------------------------------------------------------------------------


class OnitamaCard(Answer):
    """A card in play: its name (None for a card given by its pattern) and its 5x5 rows."""

    name: str | None
    rows: list[str]


class OnitamaAction(Answer):
    """A legal action: its text, and its parts as the referee reads them."""

    text: str
    card: int
    from_: str = Field(alias="from")
    to: str
    wall: str | None
    is_pass: bool
    is_win: bool


class OnitamaSide(Answer):
    """Who plays a side: a person here, one on another device, or a built-in AI."""

    kind: Literal["human", "remote", "ai"]
    level: int | str
    time: float


class OnitamaState(Together):
    """An Onitama game's state."""

    id: str
    kind: Literal["onitama"]
    version: int
    setup: str | None = Field(
        description='the setup id, "random" (cards dealt from a seed), "standard" (a standard '
        "game dealt from a seed), or None (a position)"
    )
    rules: Literal["wall", "standard"] = Field(
        description="the wall variant, or standard Onitama (no wall; actions without a wall step)"
    )
    card_set: str | None = Field(
        default=None, description="the card set a standard game was dealt from"
    )
    seed: int | None = Field(
        default=None,
        description="the seed the cards were dealt from (random cards, a standard deal), "
        "else null; " + SEED_HIDDEN,
    )
    seed_text: str | None = Field(default=None, description="`seed` as decimal text")
    seed_commitment: str | None = Field(
        default=None, description=COMMITMENT + " (null for a game not dealt from a seed)"
    )
    turn: str | None
    to_act: Literal["human", "ai"] | None
    plies: int
    plies_left: int
    board: list[str]
    cards: dict[str, OnitamaCard]
    legal_moves: list[OnitamaAction]
    status: str
    winner: str | None
    reason: str | None
    failed: str | None = Field(
        default=None, description="the side whose MATLAB AI failed and lost the game by it"
    )
    detail: str | None = Field(
        default=None,
        description="what the failed AI did wrong: its error message, the referee's "
        "judgement of its answer, or its time",
    )
    message: str | None
    history: list[str]
    history_players: list[str] | None = Field(
        default=None, description="the side that played each ply of `history`"
    )
    position: str
    can_undo: bool
    sides: dict[str, OnitamaSide]
    pace: float | None
    svg: str | None = Field(
        default=None, description="the board as SVG (with `?fields=` naming it, or no `?fields=`)"
    )


class OnitamaCreated(OnitamaState, Keys):
    """A new Onitama game: its state and its keys."""


class MatlabAIs(Answer):
    """The MATLAB AI files of the server's folder (``ludo serve --ai-dir``), each usable as
    a side's ``level``."""

    ais: list[str]


class Setups(Answer):
    """The engine's Onitama setup ids, and the card sets of a standard game's deal."""

    setups: list[str]
    card_sets: list[str]


# ---- replays -----------------------------------------------------------------------------


class ReplayGame(Answer):
    """One game of a replay: its kind, title and number of frames."""

    kind: Literal["ludo", "onitama"]
    title: str
    frames: int


class ReplaySummary(Answer):
    """A loaded replay: its id and its games."""

    id: str
    games: list[ReplayGame]


class Frame(Answer):
    """One frame of a replayed game: the board as SVG, its status and notation, the label
    of the event that led to it, its index and the game's frame count."""

    svg: str
    status: str
    label: str
    position: str
    index: int
    count: int


# ---- other bodies ------------------------------------------------------------------------

#: The `200` of a game's save: its JSON (``?format=json``) or its notation (``notation``).
SAVE_CONTENT: dict[str, Any] = {
    "application/json": {
        "schema": {
            "type": "object",
            "required": ["format"],
            "properties": {"format": {"enum": ["ludogame-game/1", "ludogame-onitama/1"]}},
            "description": "the engine's own save of the whole game",
        }
    },
    "text/plain": {"schema": {"type": "string", "description": "the position's notation"}},
}

#: The `200` of a game's events: a Server-Sent Events stream.
EVENTS_CONTENT: dict[str, Any] = {
    "text/event-stream": {
        "schema": {
            "type": "string",
            "description": "a `state` event first (`id:` the version, `data:` the state as "
            "JSON), then a `change` event per version (`data:` what changed: fields `set`, "
            "lists `append`ed to, texts `edit`ed; docs/web.md, Live events), `presence` "
            "events, a `gone` event when the game is deleted, and comment lines as "
            "heartbeats",
        }
    }
}


def add_links(schema: dict[str, Any]) -> dict[str, Any]:
    """Add to an OpenAPI `schema` the links from each new game's (and replay's) answer to
    every operation on it but its event stream: its id, and for a game the host's key,
    which acts for every seat but the remote ones (so a client, or schemathesis, can follow
    a game it started)."""
    paths = schema["paths"]
    for base, param in (
        ("/api/ludo/games", "game_id"),
        ("/api/onitama/games", "game_id"),
        ("/api/replays", "replay_id"),
    ):
        create = paths.get(base, {}).get("post")
        if create is None:
            continue
        links = {}
        for path, operations in paths.items():
            if not path.startswith(f"{base}/{{{param}}}"):
                continue
            for operation in operations.values():
                if "text/event-stream" in operation["responses"].get("200", {}).get("content", {}):
                    continue  # a stream never ends: not a step to follow
                given = {p["name"] for p in operation.get("parameters", [])}
                values = {param: "$response.body#/id"}
                if "X-Seat-Key" in given:
                    values["header.X-Seat-Key"] = "$response.body#/host_key"
                op_id = operation["operationId"]
                links[op_id] = {"operationId": op_id, "parameters": values}
        create["responses"]["201"]["links"] = links
    return schema
