"""The Onitama part of the web API: games of Onitama with the wall, and of standard
Onitama (no wall, cards dealt from a seed), played by people and the built-in AIs. Every
action is judged by the engine's referee (`Onitama.judge`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from LudoGame._core import ONITAMA_TEXTS
from LudoGame.enums import Reason
from LudoGame.fair import CARD_SET, DEAL, ONITAMA_COMMITMENT, commitment
from LudoGame.matlab import (
    MatlabAI,
    MatlabError,
    MatlabStartError,
    MatlabStoppedError,
    MatlabTimeoutError,
    OctaveNotFoundError,
    Owner,
)
from LudoGame.onitama import (
    CARD_SETS,
    MATCH_SETUP,
    Action,
    BuiltinAI,
    IllegalActionError,
    Onitama,
    SearchStop,
)
from LudoGame.sandbox import SandboxUnavailableError
from LudoGame.web.bodies import (
    Change,
    Int,
    Name,
    NewGame,
    Seed,
    check_loaded_moves,
    chosen_seed,
    fields_of,
    fields_query,
    saved_moves,
)
from LudoGame.web.config import WebConfig
from LudoGame.web.errors import ENGINE_ERRORS, MAX_MESSAGE, ApiError, conflict, engine_error
from LudoGame.web.games import Games
from LudoGame.web.guard import charge_creation
from LudoGame.web.models import MatlabAIs, OnitamaCreated, OnitamaState, Setups, errors
from LudoGame.web.routes import SeatKey, shared_routes, start
from LudoGame.web.session import HUMAN, REMOTE, TIMER, Session, Think

#: The longest an AI may think about one ply, in seconds.
MAX_AI_TIME = 10.0


class Side(BaseModel):
    """Who plays a side: a person here, a person on another device (``remote``), or a
    built-in AI with its level and seconds per ply."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["human", "remote", "ai"] = "human"
    level: Int | Name = 1
    time: float = 1.0


#: The session's setup of a standard game (its cards dealt from a seed).
STANDARD = "standard"


class NewOnitama(NewGame):
    """The body of ``POST /api/onitama/games``: a setup, a position, or a saved game of the
    wall variant; or, with ``rules: "standard"``, a standard game (no wall) dealt by
    ``seed`` from ``card_set`` (``base``, ``sensei`` or ``all``)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"setup": "21", "sides": {"B": {"kind": "ai", "level": 1, "time": 0.5}}},
                {"setup": "random", "seed": 5, "sides": {"B": {"kind": "remote"}}},
                {"rules": "standard", "seed": 7, "card_set": "all"},
            ]
        }
    )

    rules: Literal["wall", "standard"] | None = None
    card_set: Name | None = None
    setup: Name | None = None
    seed: Seed | None = None
    max_plies: Int | None = None
    sides: dict[Literal["A", "B"], Side] | None = None


class ActionBody(Change):
    """A person's ply: the action's text (``"1 e1 d1 u"``, a pass ``"1 XX XX s"``; in a
    standard game ``"1 e1 d1"``) or its parts, judged part by part as the coursework's
    referee does."""

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        strict=True,
        json_schema_extra={
            "examples": [
                {"action": "1 e1 d1 u"},
                {"card": 1, "from": "e1", "to": "d1", "wall": "u"},
            ]
        },
    )

    action: Name | None = None
    card: Int | None = None
    move_from: Name | None = Field(default=None, alias="from")
    move_to: Name | None = Field(default=None, alias="to")
    wall: Name | None = None


#: The state's `status` once a side's MATLAB AI failed, and the failure in words by the
#: referee's reason.
FAILED_STATUS = "Player {winner} won: player {loser}'s AI {why}."
FAILED_WHY = {
    Reason.PROGRAMMING_ERROR: "raised an error",
    Reason.TIMEOUT: "gave no answer in time",
    Reason.INVALID_MOVE: "gave an invalid answer",
}


class AIFailedError(Exception):
    """A MATLAB AI failed a ply: the referee's reason (an error, a timeout, an invalid
    answer) and what went wrong (the AI's message, or the referee's judgement)."""

    def __init__(self, reason: Reason, detail: str) -> None:
        if len(detail) > MAX_MESSAGE:  # (the AI's message is its own: kept short in the state)
            detail = detail[:MAX_MESSAGE] + f"... ({len(detail)} characters)"
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class MatlabPlayer:
    """A MATLAB AI of the app's folder (`config`) playing one side of a web game (`owner`:
    the game's id and the side) through the app's `OctavePool`, its answer judged by the
    referee. An error, a timeout or an invalid answer raises `AIFailedError` (the side loses
    the game); `gone()` says the game was deleted (the ply is then not started)."""

    def __init__(
        self,
        name: str,
        move_time: float,
        config: WebConfig,
        owner: Owner = ("", ""),
        gone: Callable[[], bool] | None = None,
    ) -> None:
        if name not in config.matlab_ais():
            raise ApiError(400, "InvalidAIError", f"this server has no MATLAB AI {name!r}")
        assert config.ai_dir is not None
        self.name = name
        try:
            self.ai = MatlabAI(config.ai_dir / name, move_time=move_time)
        except ValueError as e:  # the file changed since it was listed
            raise ApiError(400, "InvalidAIError", f"the MATLAB AI {name!r}: {e}") from None
        self.owner = owner
        self.gone = gone
        self.pool = config.octave

    def choose(self, game: Onitama) -> Action:
        """The AI's ply in `game` (on a worker thread): 409 `AIStopped` if its game was
        released meanwhile (deleted, or the server stopping), 503 `OctaveUnavailable` if
        Octave could not be started."""
        try:
            answer = self.pool.ask(self.owner, self.ai, game.ai_arguments(), self.gone)
        except MatlabStoppedError:
            raise conflict(
                "AIStopped",
                f"the MATLAB AI {self.name} was stopped: its game is being deleted or the "
                "server is stopping",
            ) from None
        except (MatlabStartError, OctaveNotFoundError, SandboxUnavailableError, OSError) as e:
            raise ApiError(
                503, "OctaveUnavailable", f"the MATLAB AI {self.name} cannot be started now: {e}"
            ) from None
        except MatlabTimeoutError as e:
            raise AIFailedError(Reason.TIMEOUT, str(e)) from None
        except MatlabError as e:
            raise AIFailedError(Reason.PROGRAMMING_ERROR, str(e)) from None
        try:
            return game.judge(*answer)
        except IllegalActionError as e:
            raise AIFailedError(Reason.INVALID_MOVE, str(e)) from None
        except (TypeError, ValueError, OverflowError):
            raise AIFailedError(
                Reason.INVALID_MOVE,
                f"the AI returned {answer!r}, not (card: int, move_from: str, move_to: str, "
                "wall_dir: str)",
            ) from None


def _choose(player: BuiltinAI | MatlabPlayer, game: Onitama, stop: SearchStop) -> Action:
    """The action `player` plays in `game` (on a search thread): a built-in AI's search
    ends early once `stop` is requested (the game was deleted, the server is stopping)."""
    if isinstance(player, BuiltinAI):
        action: Action = player.analyse(game, stop=stop)["action"]
        return action
    return player.choose(game)


def _ai(
    side: Side,
    config: WebConfig,
    owner: Owner = ("", ""),
    gone: Callable[[], bool] | None = None,
) -> BuiltinAI | MatlabPlayer:
    """The AI a side names (a MATLAB AI of the app's `config` playing for `owner`, see
    `MatlabPlayer`)."""
    if side.time > MAX_AI_TIME:
        raise ApiError(
            400,
            "InvalidAIError",
            f"invalid AI settings: this server gives an AI at most {MAX_AI_TIME:g} seconds "
            f"a ply, not {side.time:g}",
        )
    if isinstance(side.level, str) and side.level.endswith(".m"):
        return MatlabPlayer(side.level, side.time, config, owner, gone)
    try:
        level: Any = int(side.level) if str(side.level).isdigit() else side.level
        return BuiltinAI(level, time=side.time)
    except ENGINE_ERRORS as e:
        raise engine_error(e) from e


class OnitamaSession(Session):
    """An Onitama game held by the server: the engine's game, its sides, and who played
    each action (for undo)."""

    kind = "onitama"
    machine = "ai"
    large = ("svg",)
    game: Onitama

    def __init__(
        self,
        game: Onitama,
        sides: dict[str, Side],
        setup: str | None,
        ident: str | None = None,
        version: int = 0,
        card_set: str | None = None,
        seed: int | None = None,
        *,
        config: WebConfig,
    ) -> None:
        super().__init__(game, len(game.history), ident, version)
        #: the app's configuration (its MATLAB AIs and Octave processes)
        self.config = config
        self.sides = sides
        self.ais = {
            p: _ai(s, config, (self.id, p), self._deleted)
            for p, s in sides.items()
            if s.kind == "ai"
        }
        self.setup = setup
        #: The card set a standard game was dealt from (its rematches too), else None.
        self.card_set = card_set
        #: The seed the cards were dealt from (random cards, a standard deal), else None.
        self.seed = seed
        self.message: str | None = None
        #: The side whose MATLAB AI failed, lost the game by it: {"side", "reason",
        #: "detail"}; None while no AI failed.
        self.failure: dict[str, str] | None = None

    def _deleted(self) -> bool:
        return self.deleted

    def is_over(self) -> bool:
        """Is the game over (won, tied, or lost by a failing AI)?"""
        return self.failure is not None or bool(self.game.is_over())

    @property
    def status(self) -> str:
        """Where the game stands in a sentence (the engine's, or a failed AI's loss)."""
        if self.failure is None:
            return str(self.game.status)
        loser = self.failure["side"]
        why = FAILED_WHY[Reason(self.failure["reason"])]
        return FAILED_STATUS.format(winner=_other(loser), loser=loser, why=why)

    def free_ais(self) -> None:
        """Close the Octave processes of this game's MATLAB AIs, a turn timer's too (the
        game is over)."""
        players = [ai for ai in self.ais.values() if isinstance(ai, MatlabPlayer)]
        pools = {id(p): p for p in (self.config.octave, *(ai.pool for ai in players))}
        for pool in pools.values():
            pool.release(self.id)

    def forfeit(self, failure: AIFailedError) -> None:
        """The side to move loses: its MATLAB AI failed (the coursework's words say so)."""
        loser = str(self.game.turn)
        self.failure = {"side": loser, "reason": failure.reason.value, "detail": failure.detail}
        words = "ai_invalid" if failure.reason == Reason.INVALID_MOVE else "ai_error"
        self.message = ONITAMA_TEXTS[words].format(winner=_other(loser), loser=loser)
        self.bump()
        self.free_ais()

    def seat_kinds(self) -> dict[str, str]:
        return {p: s.kind for p, s in self.sides.items()}

    def seat_to_act(self) -> str | None:
        return None if self.failure is not None else self._seat_of(self.game)

    def _seat_of(self, game: Any) -> str | None:
        return None if game.is_over() else str(game.turn)

    @property
    def to_act(self) -> Literal["human", "ai"] | None:
        """Who plays next: a person (here or on another device), an AI, or nobody (the
        game is over)."""
        if self.is_over():
            return None
        return "ai" if self.sides[self.game.turn].kind == "ai" else HUMAN

    def ai_player(self) -> BuiltinAI | MatlabPlayer:
        """The AI of the side to move."""
        return self.ais[self.game.turn]

    def extra_record(self) -> dict[str, Any]:
        return {
            "sides": {p: s.model_dump() for p, s in self.sides.items()},
            "setup": self.setup,
            "card_set": self.card_set,
            "seed": self.seed,
            "message": self.message,
            "failure": self.failure,
        }

    @classmethod
    def from_record(
        cls, ident: str, version: int, record: dict[str, Any], config: WebConfig
    ) -> OnitamaSession:
        sides = {p: Side(**s) for p, s in record["sides"].items()}
        game = Onitama.from_json(record["save"])
        # (card_set and seed are absent from records of older versions)
        card_set, seed = record.get("card_set"), record.get("seed")
        s = cls(game, sides, record["setup"], ident, version, card_set, seed, config=config)
        s.message = record["message"]
        s.failure = record.get("failure")  # absent from records of older versions
        s.restore_common(record)
        return s

    def take_back(self) -> None:
        self._check_undo()
        # (before the version goes up: the turn timer starts for the side to move, which a
        # failure still set would say is nobody)
        self.message = None
        self.failure = None
        super().take_back()

    async def machine_step(self, think: Think, bot: str | None = None) -> None:
        """The AI side to move plays one ply, thought out on a copy of the game; with `bot`
        (an AI level), that AI plays for the person to move."""
        if self.to_act is None:
            raise conflict("GameOverError", f"the game is over: {self.status}")
        if self.to_act == HUMAN and bot is None:
            raise conflict("NotAITurn", f"it is a person's turn ({self.game.turn}), not an AI's")
        if bot is None:
            player = self.ai_player()
        else:
            player = _ai(_timer_side(bot), self.config, (self.id, self.game.turn), self._deleted)
        copy = self.game.copy()
        try:
            chosen = await think(_choose, player, copy, stop=True)
        except AIFailedError as e:
            if bot is not None:  # the turn timer's AI plays for a person: nobody loses by it
                raise ApiError(400, "InvalidAIError", f"the AI {bot} failed: {e}") from None
            self.forfeit(e)
            return
        except ENGINE_ERRORS as e:
            raise engine_error(e) from e
        self.play("ai" if bot is None else TIMER, chosen)

    def play(self, actor: str, action: Action) -> None:
        """Play `action` for `actor`, bump the version, and keep the coursework's words
        for what it did (a capture, a win, the tie at the ply limit)."""
        captured = self.game.capture_message(action)
        try:
            self.game.play(action)
        except ENGINE_ERRORS as e:
            raise engine_error(e) from e
        if self.game.winner is not None:
            self.message = self.game.win_message()
        elif self.game.is_over():
            self.message = ONITAMA_TEXTS["tied"]
        else:
            self.message = captured
        self.changed(actor)
        if self.game.is_over():  # a MATLAB AI's Octave process is not kept past the game
            self.free_ais()

    def history_players(self) -> list[str]:
        """Who played each ply of the history (the sides take turns from the start's)."""
        n = len(self.game.history)
        first = self.game.first_turn
        other = _other(first)
        return [first if k % 2 == 0 else other for k in range(n)]

    def check_timer_bot(self, name: str) -> str:
        _ai(_timer_side(name), self.config)
        return name

    def rematch_game(self, seed: int | None) -> OnitamaSession:
        start = self.game.at_start()  # the same setup, position or saved game's start
        new_seed = chosen_seed(seed, self.online)  # (a seed asked for online is refused)
        dealt = None  # a setup, position or saved game: no cards dealt
        if self.setup in ("random", STANDARD):  # new cards, dealt from the new seed
            dealt = new_seed
            try:
                if self.setup == STANDARD:
                    start = Onitama.standard(
                        seed=dealt, max_plies=start.plies_left, card_set=self.card_set
                    )
                else:
                    start = Onitama.dealt(dealt, start.plies_left)
            except ENGINE_ERRORS as e:
                raise engine_error(e) from e
        sides = {p: s.model_copy() for p, s in self.sides.items()}
        return OnitamaSession(
            start, sides, self.setup, card_set=self.card_set, seed=dealt, config=self.config
        )

    def save_text(self, format: Literal["json", "notation"]) -> str:
        """The save (which holds no seed); once an online game dealt from a seed is over,
        its JSON has the seed's text, its commitment and the deal, which ``ludo verify``
        checks."""
        text = super().save_text(format)
        if format == "notation" or self.hides_seed or not self.online or self.seed is None:
            return text
        extra = {
            ONITAMA_COMMITMENT: commitment(self.seed),
            "seed_text": str(self.seed),
            DEAL: self.setup,
            CARD_SET: self.card_set,
        }
        return json.dumps({**json.loads(text), **extra})

    def large_state(self, fields: frozenset[str], since: int) -> dict[str, Any]:
        # (its history is a small field, always whole)
        return {"svg": self.game._repr_svg_()} if "svg" in fields else {}

    def version_state(self) -> dict[str, Any]:
        g = self.game
        reason = g.result_reason
        failure = self.failure
        over = self.is_over()
        undoable = self.can_undo()
        # an online game's seed is the server's until it is over: its commitment is shown
        seed = None if self.hides_seed else self.seed
        return {
            "id": self.id,
            "kind": "onitama",
            "version": self.version,
            "setup": self.setup,
            "rules": g.rules,
            "card_set": self.card_set,
            "seed": seed,
            "seed_text": None if seed is None else str(seed),
            "seed_commitment": None if self.seed is None else commitment(self.seed),
            "turn": None if over else g.turn,
            "to_act": self.to_act,
            "plies": len(self.actors),
            "plies_left": g.plies_left,
            "board": g.board,
            "cards": {k: {"name": c.name, "rows": c.rows} for k, c in g.cards.items()},
            "legal_moves": [
                {
                    "text": str(a),
                    "card": a.card,
                    "from": a.move_from,
                    "to": a.move_to,
                    "wall": a.wall,
                    "is_pass": a.is_pass,
                    "is_win": a.is_win,
                }
                for a in (() if failure is not None else g.legal_moves)
            ],
            "status": self.status,
            "winner": _other(failure["side"]) if failure is not None else g.winner,
            "reason": (
                failure["reason"]
                if failure is not None
                else (None if reason is None else reason.value)
            ),
            "failed": None if failure is None else failure["side"],
            "detail": None if failure is None else failure["detail"],
            "message": self.message,
            "history": [str(a) for a in g.history],
            "history_players": self.history_players(),
            "position": g.to_notation(),
            "can_undo": undoable,
            "sides": {p: s.model_dump() for p, s in self.sides.items()},
            "pace": self.pace,
        }


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def _timer_side(level: str) -> Side:
    """The AI a turn timer names by its level (``0``-``2``, ``random``, ``baseline``,
    ``search``), thinking half a second a ply."""
    return Side(kind="ai", level=level, time=0.5)


def _new_game(body: NewOnitama) -> tuple[Onitama, str | None, str | None, int | None]:
    """The game `body` asks for, its setup (``"random"``, ``"standard"``, an id or None),
    for a standard deal its card set, and the seed of random cards or a standard deal
    (the request's, else a fresh one; none from the request where a side is remote)."""
    online = any(side.kind == REMOTE for side in (body.sides or {}).values())
    seed = chosen_seed(body.seed, online)  # the request's or a fresh one (refused online)
    given = [x is not None for x in (body.setup, body.position, body.saved)]
    if sum(given) > 1:
        raise ApiError(400, "BadRequest", "give one of a setup, a position or a saved game")
    standard = body.rules == STANDARD
    if standard and any(given):
        raise ApiError(
            400,
            "BadRequest",
            "standard Onitama deals its own cards from the seed: give no setup, position or "
            "saved game (a standard position or saved game needs no rules)",
        )
    if body.card_set is not None and not standard:
        raise ApiError(400, "BadRequest", 'card_set chooses the cards of a "standard" deal')
    try:
        if standard:
            card_set = CARD_SETS[0] if body.card_set is None else body.card_set
            game = Onitama.standard(seed=seed, max_plies=body.max_plies, card_set=card_set)
            return game, STANDARD, card_set.lower(), seed
        if body.position is not None:
            return Onitama.from_notation(body.position), None, None, None
        if body.saved is not None:
            check_loaded_moves(saved_moves(body.saved), "the saved game")
            game = Onitama.from_json(body.saved)
            return game, game.setup_id, None, None
        setup = MATCH_SETUP if body.setup is None else body.setup
        if setup == "random":
            return Onitama.dealt(seed, body.max_plies), "random", None, seed
        game = Onitama.setup(setup, body.max_plies)
        return game, game.setup_id, None, None
    except ENGINE_ERRORS as e:
        raise engine_error(e) from e


def _parse(game: Onitama, body: ActionBody) -> Action:
    """The action a person asks for, judged by the engine (400 with its message if not)."""
    try:
        if body.action is not None:
            if body.card is not None or body.move_from is not None or body.move_to is not None:
                raise ApiError(400, "BadRequest", "give an action's text or its parts, not both")
            return Action(body.action, standard=game.rules == STANDARD)
        if body.card is None:
            raise ApiError(400, "BadRequest", "give the action's text, or card, from and to")
        # a part left out (None) is the default; an empty one is judged as given
        src = "XX" if body.move_from is None else body.move_from
        dst = "XX" if body.move_to is None else body.move_to
        return game.judge(body.card, src, dst, "s" if body.wall is None else body.wall)
    except ENGINE_ERRORS as e:
        raise engine_error(e) from e


def router(games: Games) -> APIRouter:
    """The routes of the Onitama API, holding games in `games`."""
    api = APIRouter(prefix="/api/onitama", responses=errors(400, 413, 415, 421, 422, 503))
    what = "Onitama game"
    Fields = fields_query(OnitamaSession.large)  # noqa: N806 (a parameter's default)

    @api.get("/ais", response_model=MatlabAIs)
    async def ais() -> dict[str, list[str]]:
        """The MATLAB AI files of the server's folder (``ludo serve --ai-dir``), for a
        side's ``level`` (``{"kind": "ai", "level": "AI123.m"}``)."""
        return {"ais": games.config.matlab_ais()}

    @api.get("/setups", response_model=Setups)
    async def setups() -> dict[str, list[str]]:
        """The engine's setup ids, for a new game's `setup` (plus `"random"` cards), and the
        card sets of a standard game's deal (`card_set`)."""
        return {"setups": Onitama.setup_ids(), "card_sets": list(CARD_SETS)}

    @api.post(
        "/games",
        status_code=201,
        response_model=OnitamaCreated,
        responses=errors(403, 409, 429),
        dependencies=[Depends(charge_creation)],
    )
    async def create(
        request: Request, body: NewOnitama, fields: str | None = Fields
    ) -> JSONResponse:
        """Start a game: a coursework setup, random cards, a position or a saved game, or
        (`rules: "standard"`) a standard game dealt by `seed` from `card_set`. The
        answer is the state with, once only, `seat_keys` and `links` (a key and an invite
        address per remote side) and `host_key`."""
        fields_of(fields, OnitamaSession.large)
        game, setup, card_set, seed = _new_game(body)
        sides: dict[str, Side] = {"A": Side(), "B": Side()}
        sides.update((body.sides or {}).items())
        session = OnitamaSession(
            game, sides, setup, card_set=card_set, seed=seed, config=games.config
        )
        return await start(request, games, session, body, fields)

    shared_routes(api, games, OnitamaSession, what, "ai", OnitamaState)

    @api.post(
        "/games/{game_id}/action", response_model=OnitamaState, responses=errors(403, 404, 409)
    )
    async def action(
        game_id: str,
        body: ActionBody,
        fields: str | None = Fields,
        x_seat_key: str | None = SeatKey,
    ) -> Any:
        """A person plays one ply."""
        chosen = fields_of(fields, OnitamaSession.large)
        async with games.changing(OnitamaSession, game_id, what, body.version) as s:
            _person_turn(s, x_seat_key)
            s.play(HUMAN, _parse(s.game, body))
            return JSONResponse(s.state(chosen))

    games.actions["onitama", "action"] = (ActionBody, action)
    return api


def _person_turn(s: OnitamaSession, key: str | None) -> None:
    if s.is_over():
        raise conflict("GameOverError", f"the game is over: {s.status}")
    if s.to_act != HUMAN:
        raise conflict("AITurn", f"it is the AI's turn ({s.game.turn}): ask it to play")
    s.check_key(s.game.turn, key)
