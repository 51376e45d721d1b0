"""The Ludo part of the web API: games held by the server, played by people and bots.

Every rule is the engine's (`LudoGame.Game`): the server only asks it for the legal moves,
status and board, and passes the moves on."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import ConfigDict

from LudoGame._core import Game, bot_playouts
from LudoGame.enums import Phase
from LudoGame.fair import LUDO_COMMITMENT, commitment
from LudoGame.seeds import fresh_seed
from LudoGame.web.bodies import (
    Change,
    Int,
    Name,
    NewGame,
    RulesText,
    Seed,
    check_loaded_moves,
    chosen_seed,
    fields_of,
    fields_query,
    saved_moves,
)
from LudoGame.web.config import WebConfig
from LudoGame.web.errors import ENGINE_ERRORS, ApiError, conflict, engine_error, short
from LudoGame.web.games import Games
from LudoGame.web.guard import charge_creation
from LudoGame.web.models import LudoCreated, LudoState, errors
from LudoGame.web.routes import SeatKey, shared_routes, start
from LudoGame.web.session import HUMAN, PEOPLE, REMOTE, TIMER, Session, Think

#: The largest MCTS playout count a seat may ask for (a bot move stays well under a second).
MAX_PLAYOUTS = 5_000


class NewLudo(NewGame):
    """The body of ``POST /api/ludo/games``: a new game, a position, or a saved game."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"rules": "cs162", "players": ["A", "C"], "seats": {"C": "random"}, "seed": 7},
                {"players": "AB", "seats": {"B": "remote"}, "seed": "6602659055284519226"},
                {"rules": "standard", "options": {"six_limit": 3}, "seats": {"C": "cs162"}},
                {"position": "cs162 A-1.-1/B-1.-1 A:r:0:0 - - 0000000000000003"},
            ]
        }
    )

    rules: RulesText | None = None
    players: list[Name] | Name | Int | None = None
    seats: dict[Name, Name] | None = None
    options: dict[Name, bool | Int | Name] | None = None
    seed: Seed | None = None


class MoveBody(Change):
    """The body of ``POST .../move``: the move's name, e.g. ``"Ap"``."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"move": "Ap", "version": 3}]})

    move: Name


def check_bot(name: str, game: Game) -> str:
    """`name` if the engine knows it as a bot (any bot plays any game, `game` too) and its
    search size is within the server's cap; otherwise a 400 naming the problem."""
    try:
        playouts = bot_playouts(name)  # the engine reads the name (`mcts` is 1000)
    except ENGINE_ERRORS as e:
        raise engine_error(e) from e
    if playouts is not None and playouts > MAX_PLAYOUTS:
        raise ApiError(
            400,
            "InvalidBotError",
            f"invalid bot: {short(name)}: this server allows at most {MAX_PLAYOUTS:,} playouts",
        )
    return name


class LudoSession(Session):
    """A Ludo game held by the server: the engine's `Game`, who sits at each position (a
    person here, a person on another device, or a bot by name), and who made each event
    of its history (for undo)."""

    kind = "ludo"
    machine = "bot"
    large = ("history", "svg")
    game: Game

    def __init__(
        self,
        game: Game,
        seats: dict[str, str],
        ident: str | None = None,
        version: int = 0,
        entries: int | None = None,
    ) -> None:
        # (`entries`: how many entries its history has, if known: `from_record` restores
        # who made each, and need not build the engine's history to count them)
        super().__init__(game, len(game.history) if entries is None else entries, ident, version)
        self.seats = seats
        #: what the state shows of the game that never changes (its rules, options and
        #: players; the engine builds them anew at each call)
        self.fixed = (game.rules, game.rules_notation, game.options, game.players)

    def seat_kinds(self) -> dict[str, str]:
        return {p: k if k in PEOPLE else "bot" for p, k in self.seats.items()}

    def seat_to_act(self) -> str | None:
        return self._seat_of(self.game)

    def _seat_of(self, game: Any) -> str | None:
        return None if game.is_over() else str(game.current_player)

    @property
    def to_act(self) -> Literal["human", "bot"] | None:
        """Who acts next: a person (here or on another device), a bot, or nobody (the game
        is over)."""
        if self.game.is_over():
            return None
        return HUMAN if self.seats[self.game.current_player] in PEOPLE else "bot"

    def extra_record(self) -> dict[str, Any]:
        return {"seats": self.seats}

    @classmethod
    def from_record(
        cls, ident: str, version: int, record: dict[str, Any], config: WebConfig
    ) -> LudoSession:
        s = cls(Game.from_json(record["save"]), dict(record["seats"]), ident, version, entries=0)
        s.restore_common(record)
        return s

    async def machine_step(self, think: Think, bot: str | None = None) -> None:
        """The bot whose turn it is takes one step: a roll, or a move (thought out on a copy
        of the game); with `bot`, that bot steps for the person to act."""
        if self.to_act is None:
            raise conflict("GameOverError", f"the game is over: {self.game.status}")
        if self.to_act == HUMAN and bot is None:
            raise conflict(
                "NotBotTurn",
                f"it is a person's turn ({self.game.current_player}), not a bot's",
            )
        name = bot or self.seats[self.game.current_player]
        try:
            if self.game.phase == Phase.ROLL:
                self.game.roll()
            else:
                copy = self.game.copy()
                seed = _bot_seed(copy, len(self.actors))
                chosen = await think(copy.best_move, name, seed, stop=True)
                self.game.play(chosen.name)
        except ENGINE_ERRORS as e:
            raise engine_error(e) from e
        self.changed("bot" if bot is None else TIMER)

    def check_timer_bot(self, name: str) -> str:
        return check_bot(name, self.game)

    def rematch_game(self, seed: int | None) -> LudoSession:
        g = self.game
        try:
            game = Game(g.rules_notation, g.players, chosen_seed(seed, self.online))
        except ENGINE_ERRORS as e:
            raise engine_error(e) from e
        return LudoSession(game, dict(self.seats))

    def undo_refusal(self) -> ApiError | None:
        """In an online game, an undo that would take back a roll of the die (a person's,
        or a bot's after the person's decision), or any undo once the game is over (its
        seed is shown): the roll's value is known, and taking it back would let a player
        decide again knowing the dice."""
        if not self.online:
            return None
        if self.is_over():
            return conflict(
                "GameOverError",
                "the game is over and its seed is shown: a game played online cannot be "
                "taken back then",
            )
        game, actors = self.game.copy(), list(self.actors)
        while actors:
            actor = actors.pop()
            if str(game.undo()["kind"]) == "roll":
                return conflict(
                    "UndoPastRoll",
                    "in a game played online a roll of the die cannot be taken back: its "
                    "value is known, so taking it back would let a player decide again "
                    "knowing the dice",
                )
            if not self.by_machine(actor):
                break
        return None

    def save_text(self, format: Literal["json", "notation"]) -> str:
        """The save: while an online game is played, without its die (no seed, no die
        state, every roll a given value); once it is over, the whole game with the seed's
        text and its commitment, which ``ludo verify`` checks."""
        g = self.game
        hidden = self.hides_seed
        if format == "notation":
            return str(g.to_notation(hide_die=hidden))
        if hidden:
            return str(g.to_json(hide_die=True))
        if not self.online or g.seed is None:
            return str(g.to_json())
        extra = {LUDO_COMMITMENT: commitment(g.seed), "seed_text": str(g.seed)}
        return json.dumps({**json.loads(g.to_json()), **extra})

    def large_state(self, fields: frozenset[str], since: int) -> dict[str, Any]:
        g = self.game
        out: dict[str, Any] = {}
        if "history" in fields:
            # the events are dicts whose enum values are str: JSON as they are; a move's
            # squares by the board's names are the engine's (``from_square``, ``to_square``)
            out["history"] = [{**e, "text": event_text(e)} for e in g.history_since(since)]
        if "svg" in fields:
            out["svg"] = g._repr_svg_()
        return out

    def version_state(self) -> dict[str, Any]:
        g = self.game
        phase = g.phase
        undoable = self.can_undo()
        # an online game's seed and die are the server's until it is over: its commitment
        # is shown instead
        hidden = self.hides_seed
        seed = None if hidden else g.seed
        rules, notation, options, players = self.fixed
        return {
            "id": self.id,
            "kind": "ludo",
            "version": self.version,
            "rules": rules,
            "rules_notation": notation,
            "options": options,
            "players": players,
            "seats": self.seats,
            "pace": self.pace,
            "seed": seed,
            "seed_text": None if seed is None else str(seed),
            "dice_commitment": None if g.seed is None else commitment(g.seed),
            "phase": phase.value,
            "current_player": None if phase == Phase.OVER else g.current_player,
            "to_act": self.to_act,
            "pending_roll": g.pending_roll,
            "legal_moves": [
                {"name": m.name, "token": m.token, "player": m.player, "roll": m.roll}
                for m in g.legal_moves
            ],
            "status": g.status,
            "winner": g.winner,
            "ranking": g.ranking,
            "squares": g.squares,
            "steps": g.steps,
            "position": g.to_notation(hide_die=hidden),
            "can_undo": undoable,
        }


def event_text(event: dict[str, Any]) -> str:
    """A history event in words, as the play view's history and the replay's steps show it:
    'A rolls 3 (cannot move)', 'A moves Ap square R→17, captures Bq, rolls again': a move's
    squares by their names on the board (the event's ``from_square`` and ``to_square``), or
    its steps where it has none (its tokens stayed where they were)."""
    who = event["player"]
    if str(event["kind"]) == "roll":
        result = str(event["result"])
        return f"{who} rolls {event['value']}" + ("" if result == "move" else f" ({result})")
    if "from_square" in event and "to_square" in event:
        where = f"square {event['from_square']}→{event['to_square']}"
    else:
        where = f"{event['from']}→{event['to']}"
    parts = [f"{who} moves {event['move']} {where}"]
    if len(event["tokens"]) > 1:
        parts.append("stack " + "+".join(event["tokens"]))
    if event["captured"]:
        parts.append("captures " + " ".join(event["captured"]))
    if event["bumped"]:
        parts.append(f"bumps {event['bumped']}")
    if event["bounced"]:
        parts.append("bounces back")
    if event["stayed"]:
        parts.append("stays")
    if event["reached_home"]:
        parts.append("reaches home")
    if event["finished"]:
        parts.append("finishes")
    if event["extra_roll"]:
        parts.append("rolls again")
    return ", ".join(parts)


def _new_game(body: NewLudo) -> Game:
    """The game `body` asks for. Without a seed the server chooses one; a game with a seat
    on another device takes none from the request, and one from a position or a saved game
    plays on with a die of the server's (the rolls saved become given values)."""
    online = REMOTE in (body.seats or {}).values()
    if body.position is not None and body.saved is not None:
        raise ApiError(400, "BadRequest", "give either a position or a saved game, not both")
    loaded = body.position is not None or body.saved is not None
    if loaded and (
        body.rules is not None or body.players is not None or body.options or body.seed is not None
    ):
        raise ApiError(
            400,
            "BadRequest",
            "a position or a saved game carries its own rules, players and seed: "
            "give only the seats with it",
        )
    try:
        if body.position is not None:
            if online:
                return Game.from_notation(body.position, seed=fresh_seed())
            return Game.from_notation(body.position)
        if body.saved is not None:
            check_loaded_moves(saved_moves(body.saved), "the saved game")
            if online:
                return Game.from_json(body.saved, seed=fresh_seed())
            return Game.from_json(body.saved)
        seed = chosen_seed(body.seed, online)
        return Game(body.rules or "cs162", body.players, seed, **(body.options or {}))
    except ENGINE_ERRORS as e:
        raise engine_error(e) from e


def _seats(body: NewLudo, game: Game) -> dict[str, str]:
    seats: dict[str, str] = dict.fromkeys(game.players, HUMAN)
    for pos, kind in (body.seats or {}).items():
        if pos not in seats:
            raise ApiError(
                400,
                "InvalidSeatError",
                f"seat {short(pos)} does not play in this game: the players are "
                + ", ".join(game.players),
            )
        seats[pos] = kind if kind in PEOPLE else check_bot(kind, game)
    return seats


def _bot_seed(game: Game, events: int) -> int:
    """The seed of a bot's choice: from the game's seed and the event number, so a replayed
    game gets the same bot moves; through SHA-256, so that the bots' choices tell nothing
    of the die's seed."""
    digest = hashlib.sha256(f"{game.seed or 0}:{events}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def router(games: Games) -> APIRouter:
    """The routes of the Ludo API, holding games in `games`."""
    api = APIRouter(prefix="/api/ludo", responses=errors(400, 413, 415, 421, 422, 503))
    what = "Ludo game"
    Fields = fields_query(LudoSession.large)  # noqa: N806 (a parameter's default)

    @api.post(
        "/games",
        status_code=201,
        response_model=LudoCreated,
        responses=errors(403, 409, 429),
        dependencies=[Depends(charge_creation)],
    )
    async def create(request: Request, body: NewLudo, fields: str | None = Fields) -> JSONResponse:
        """Start a game: a new one, from a position notation, or a saved game's JSON. The
        answer is the state with, once only, `seat_keys` and `links` (a key and an invite
        address per remote seat) and `host_key`."""
        fields_of(fields, LudoSession.large)
        game = _new_game(body)
        session = LudoSession(game, _seats(body, game))
        return await start(request, games, session, body, fields)

    shared_routes(api, games, LudoSession, what, "bot", LudoState)
    acting = errors(403, 404, 409)

    @api.post("/games/{game_id}/roll", response_model=LudoState, responses=acting)
    async def roll(
        game_id: str,
        body: Change | None = None,
        fields: str | None = Fields,
        x_seat_key: str | None = SeatKey,
    ) -> Any:
        """A person rolls the seeded die."""
        chosen = fields_of(fields, LudoSession.large)
        async with games.changing(LudoSession, game_id, what, body.version if body else None) as s:
            _person_turn(s, Phase.ROLL, x_seat_key)
            try:
                s.game.roll()
            except ENGINE_ERRORS as e:
                raise engine_error(e) from e
            s.changed(HUMAN)
            return JSONResponse(s.state(chosen))

    @api.post("/games/{game_id}/move", response_model=LudoState, responses=acting)
    async def move(
        game_id: str, body: MoveBody, fields: str | None = Fields, x_seat_key: str | None = SeatKey
    ) -> Any:
        """A person plays a legal move by its name."""
        chosen = fields_of(fields, LudoSession.large)
        async with games.changing(LudoSession, game_id, what, body.version) as s:
            _person_turn(s, Phase.MOVE, x_seat_key)
            try:
                s.game.play(body.move)
            except ENGINE_ERRORS as e:
                raise engine_error(e) from e
            s.changed(HUMAN)
            return JSONResponse(s.state(chosen))

    games.actions["ludo", "roll"] = (Change, roll)
    games.actions["ludo", "move"] = (MoveBody, move)
    return api


def _person_turn(s: LudoSession, phase: Phase, key: str | None) -> None:
    """Refuse a person's roll or move when the game is over, a bot is to act, the seat is
    not the asker's, or the game waits for the other kind of step."""
    g = s.game
    if g.is_over():
        raise conflict("GameOverError", f"the game is over: {g.status}")
    if s.to_act != HUMAN:
        raise conflict(
            "BotTurn",
            f"it is the bot {s.seats[g.current_player]!r}'s turn ({g.current_player}): "
            "ask it to play",
        )
    s.check_key(g.current_player, key)
    if g.phase != phase:
        want = "a roll" if g.phase == Phase.ROLL else "a move"
        raise conflict("WrongPhase", f"the game waits for {want}: {g.status}")
