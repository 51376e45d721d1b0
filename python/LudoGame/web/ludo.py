"""The Ludo part of the web API: games held by the server, played by people and bots.

Every rule is the engine's (`LudoGame.Game`): the server only asks it for the legal moves,
status and board, and passes the moves on."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse

from LudoGame._core import Game, Simulation
from LudoGame.enums import Phase
from LudoGame.web.errors import ENGINE_ERRORS, ApiError, conflict, engine_error
from LudoGame.web.store import Change, NewGame, Session, Store, off_loop, sent

#: The largest MCTS playout count a seat may ask for (a bot move stays well under a second).
MAX_PLAYOUTS = 5_000

HUMAN: Literal["human"] = "human"


class NewLudo(NewGame):
    """The body of ``POST /api/ludo/games``: a new game, a position, or a saved game."""

    rules: str | None = None
    players: list[str] | str | int | None = None
    seats: dict[str, str] | None = None
    options: dict[str, bool | int | str] | None = None
    seed: int | None = None


class MoveBody(Change):
    """The body of ``POST .../move``: the move's name, e.g. ``"Ap"``."""

    move: str


def check_bot(name: str, game: Game) -> str:
    """`name` if the engine knows it as a bot for `game` and its search size is within the
    server's cap; otherwise a 400 naming the problem."""
    try:
        Simulation(game.rules_notation, game.players, name)
    except ENGINE_ERRORS as e:
        raise engine_error(e) from e
    base, _, param = name.partition(":")
    # bot names are read in any case, as the engine reads them
    if base.lower() == "mcts" and param and int(param) > MAX_PLAYOUTS:
        raise ApiError(
            400,
            "InvalidBotError",
            f"invalid bot: {name!r}: this server allows at most {MAX_PLAYOUTS:,} playouts",
        )
    return name


class LudoSession(Session):
    """A Ludo game held by the server: the engine's `Game`, who sits at each position, and
    who made each event of its history (for undo)."""

    kind = "ludo"
    machine = "bot"
    game: Game

    def __init__(self, game: Game, seats: dict[str, str]) -> None:
        super().__init__(game, len(game.history))
        self.seats = seats

    @property
    def to_act(self) -> Literal["human", "bot"] | None:
        """Who acts next: a person, a bot, or nobody (the game is over)."""
        if self.game.is_over():
            return None
        return HUMAN if self.seats[self.game.current_player] == HUMAN else "bot"

    def state(self, *, history: bool = True, svg: bool = True) -> dict[str, Any]:
        """The game's state as the API answers it."""
        g = self.game
        phase = g.phase
        out: dict[str, Any] = {
            "id": self.id,
            "kind": "ludo",
            "version": self.version,
            "rules": g.rules,
            "rules_notation": g.rules_notation,
            "options": g.options,
            "players": g.players,
            "seats": self.seats,
            "seed": g.seed,
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
            "position": g.to_notation(),
            "can_undo": self.can_undo(),
        }
        if history:
            # the events are dicts whose enum values are str: JSON as they are
            out["history"] = [{**e, "text": event_text(e)} for e in g.history]
        if svg:
            out["svg"] = g._repr_svg_()
        return out


def event_text(event: dict[str, Any]) -> str:
    """A history event in words, as the play view's history and the replay's steps show it:
    'A rolls 3 (cannot move)', 'A moves Ap 0→6, captures Bq, rolls again'."""
    who = event["player"]
    if str(event["kind"]) == "roll":
        result = str(event["result"])
        return f"{who} rolls {event['value']}" + ("" if result == "move" else f" ({result})")
    parts = [f"{who} moves {event['move']} {event['from']}→{event['to']}"]
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
            return Game.from_notation(body.position)
        if body.saved is not None:
            return Game.from_json(body.saved)
        return Game(body.rules or "cs162", body.players, body.seed, **(body.options or {}))
    except ENGINE_ERRORS as e:
        raise engine_error(e) from e


def _seats(body: NewLudo, game: Game) -> dict[str, str]:
    seats: dict[str, str] = dict.fromkeys(game.players, HUMAN)
    for pos, kind in (body.seats or {}).items():
        if pos not in seats:
            raise ApiError(
                400,
                "InvalidSeatError",
                f"seat {pos!r} does not play in this game: the players are "
                + ", ".join(game.players),
            )
        seats[pos] = HUMAN if kind == HUMAN else check_bot(kind, game)
    return seats


def _bot_seed(game: Game, events: int) -> int:
    """The seed of a bot's choice: the game's seed and the event number, so a replayed
    game gets the same bot moves."""
    return ((game.seed or 0) * 1_000_003 + events) % (1 << 63)


def _answer(s: LudoSession, status: int = 200, fields: str | None = None) -> JSONResponse:
    state = s.state(history=sent(fields, "history"), svg=sent(fields, "svg"))
    return JSONResponse(state, status_code=status)


def router(store: Store) -> APIRouter:
    """The routes of the Ludo API, holding games in `store`."""
    api = APIRouter(prefix="/api/ludo")

    def held(game_id: str) -> LudoSession:
        return store.get(LudoSession, game_id, "Ludo game")

    @api.post("/games", status_code=201)
    async def create(body: NewLudo, fields: str | None = None) -> JSONResponse:
        """Start a game: a new one, from a position notation, or a saved game's JSON."""
        game = _new_game(body)
        session = LudoSession(game, _seats(body, game))
        store.add(session)
        return _answer(session, 201, fields)

    @api.get("/games/{game_id}")
    async def get(game_id: str, fields: str | None = None) -> JSONResponse:
        """The game's state."""
        return _answer(held(game_id), 200, fields)

    @api.post("/games/{game_id}/roll")
    async def roll(game_id: str, body: Change | None = None, fields: str | None = None) -> Any:
        """A person rolls the seeded die."""
        s = held(game_id)
        async with s.lock:
            s.check_version(body.version if body else None)
            _person_turn(s, Phase.ROLL)
            try:
                s.game.roll()
            except ENGINE_ERRORS as e:
                raise engine_error(e) from e
            s.changed(HUMAN)
            return _answer(s, 200, fields)

    @api.post("/games/{game_id}/move")
    async def move(game_id: str, body: MoveBody, fields: str | None = None) -> Any:
        """A person plays a legal move by its name."""
        s = held(game_id)
        async with s.lock:
            s.check_version(body.version)
            _person_turn(s, Phase.MOVE)
            try:
                s.game.play(body.move)
            except ENGINE_ERRORS as e:
                raise engine_error(e) from e
            s.changed(HUMAN)
            return _answer(s, 200, fields)

    @api.post("/games/{game_id}/bot")
    async def bot(game_id: str, body: Change | None = None, fields: str | None = None) -> Any:
        """The bot whose turn it is takes one step: a roll, or a move (thought out in a
        worker thread, on a copy of the game, so the server goes on answering)."""
        s = held(game_id)
        async with s.lock:
            s.check_version(body.version if body else None)
            if s.to_act is None:
                raise conflict("GameOverError", f"the game is over: {s.game.status}")
            if s.to_act == HUMAN:
                raise conflict(
                    "NotBotTurn",
                    f"it is a person's turn ({s.game.current_player}), not a bot's",
                )
            name = s.seats[s.game.current_player]
            try:
                if s.game.phase == Phase.ROLL:
                    s.game.roll()
                else:
                    copy = s.game.copy()
                    seed = _bot_seed(copy, len(s.actors))
                    chosen = await off_loop(copy.best_move, name, seed)
                    s.game.play(chosen.name)
            except ENGINE_ERRORS as e:
                raise engine_error(e) from e
            s.changed("bot")
            return _answer(s, 200, fields)

    @api.post("/games/{game_id}/undo")
    async def undo(game_id: str, body: Change | None = None, fields: str | None = None) -> Any:
        """Take back the last event of a person and every bot event after it."""
        s = held(game_id)
        async with s.lock:
            s.check_version(body.version if body else None)
            s.take_back()
            return _answer(s, 200, fields)

    @api.get("/games/{game_id}/save")
    async def save(game_id: str, format: Literal["json", "notation"] = "json") -> Response:
        """The game as a file: its JSON (the whole game) or the position's notation."""
        return held(game_id).download(format)

    return api


def _person_turn(s: LudoSession, phase: Phase) -> None:
    """Refuse a person's roll or move when the game is over, a bot is to act, or the game
    waits for the other kind of step."""
    g = s.game
    if g.is_over():
        raise conflict("GameOverError", f"the game is over: {g.status}")
    if s.to_act != HUMAN:
        raise conflict(
            "BotTurn",
            f"it is the bot {s.seats[g.current_player]!r}'s turn ({g.current_player}): "
            "ask it to play",
        )
    if g.phase != phase:
        want = "a roll" if g.phase == Phase.ROLL else "a move"
        raise conflict("WrongPhase", f"the game waits for {want}: {g.status}")
