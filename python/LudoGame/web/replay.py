"""Replays: any game file (a Ludo or Onitama game's JSON or notation, a match record, or a
file of several games) loaded once, then stepped through frame by frame. A frame is the
game taken back to that point by the engine's own undo, drawn as SVG."""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any, TypeVar

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from LudoGame._core import Game
from LudoGame.onitama import GAMES_FORMAT, Onitama
from LudoGame.web.bodies import check_loaded_moves, moves_of
from LudoGame.web.errors import ENGINE_ERRORS, ApiError, not_found
from LudoGame.web.guard import charge_creation
from LudoGame.web.ludo import event_text
from LudoGame.web.models import Frame, ReplaySummary, errors
from LudoGame.web.session import Held
from LudoGame.web_limits import GAME_MOVES, REPLAY_MOVES

H = TypeVar("H", bound=Held)


class Replays:
    """Loaded replays by id, at most `limit` of them holding at most `moves` moves in all;
    loading one past either drops the least recently used (a replay is a file's text: load
    it again). Only touched from the event loop (no lock of its own needed)."""

    def __init__(self, limit: int, moves: int = REPLAY_MOVES) -> None:
        if limit < 1:
            raise ValueError(f"the replay limit must be 1 or more, not {limit}")
        self.limit = limit
        self.moves = moves
        self._items: OrderedDict[str, Held] = OrderedDict()
        self._held_moves = 0
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def held_moves(self) -> int:
        """The moves of the replays held."""
        return self._held_moves

    def add(self, held: H) -> H:
        """Hold `held` (as the most recently used), dropping the oldest past the limits."""
        self._items[held.id] = held
        self._held_moves += _moves(held)
        while len(self._items) > self.limit or (
            self._held_moves > self.moves and len(self._items) > 1
        ):
            _, dropped = self._items.popitem(last=False)
            self._held_moves -= _moves(dropped)
            self.evicted += 1
        return held

    def get(self, cls: type[H], ident: str, what: str) -> H:
        """The item `ident` if it is a `cls` (now the most recently used), or a 404 naming
        `what` it was meant to be."""
        held = self._items.get(ident)
        if not isinstance(held, cls):
            raise not_found(what, ident)
        self._items.move_to_end(ident)
        return held


LUDO_FORMAT = "ludogame-game/1"
ONITAMA_FORMAT = "ludogame-onitama/1"


def _moves(held: Held) -> int:
    return held.moves if isinstance(held, Replay) else 0


class ReplayBody(BaseModel):
    """The body of ``POST /api/replays``: the file's text."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [{"text": "cs162 A-1.-1/B-1.-1 A:r:0:0 - - 0000000000000003"}]
        },
    )

    text: str


class Track:
    """One game of a replay: the game at its end, its title and a label per event."""

    def __init__(self, game: Game | Onitama, title: str, labels: list[str]) -> None:
        self.game = game
        self.title = title
        self.labels = ["start", *labels]

    @property
    def kind(self) -> str:
        """'ludo' or 'onitama'."""
        return "ludo" if isinstance(self.game, Game) else "onitama"

    def frame(self, k: int) -> dict[str, Any]:
        """Frame `k`: the game after its first `k` events (0 is the start)."""
        count = len(self.labels)
        if not 0 <= k < count:
            raise ApiError(
                404, "NotFound", f"there is no frame {k}: this game has frames 0 to {count - 1}"
            )
        game = self.game.copy()
        for _ in range(count - 1 - k):
            game.undo()
        return {
            "svg": game._repr_svg_(),
            "status": game.status,
            "label": self.labels[k],
            "position": game.to_notation(),
            "index": k,
            "count": count,
        }


class Replay(Held):
    """A loaded file: one or more games to step through."""

    def __init__(self, tracks: list[Track]) -> None:
        super().__init__()
        self.tracks = tracks
        #: What it holds, for `Replays`' budget: its games' moves, and `GAME_MOVES` a game.
        self.moves = sum(len(t.labels) - 1 + GAME_MOVES for t in tracks)

    def summary(self) -> dict[str, Any]:
        """The answer to a load: the id and each game's kind, title and frame count."""
        return {
            "id": self.id,
            "games": [
                {"kind": t.kind, "title": t.title, "frames": len(t.labels)} for t in self.tracks
            ],
        }


def ludo_track(game: Game) -> Track:
    """A Ludo game as a replay track."""
    title = f"Ludo {game.rules_notation}, players {', '.join(game.players)}"
    if game.is_over():
        title += f": finishing order {', '.join(game.ranking)}"
    return Track(game, title, [event_text(e) for e in game.history])


def onitama_track(game: Onitama, record: dict[str, Any] | None = None) -> Track:
    """An Onitama game as a replay track; `record` adds a match's players and result."""
    title = f"Onitama {game.setup_id or 'position'}"
    if record is not None and record.get("a") and record.get("b"):
        title = f"{record['a']} vs {record['b']}, {title}"
    if record is not None and record.get("result"):
        title += f": {record['result']}"
        if record.get("reason"):
            title += f" ({record['reason']})"
    elif game.is_over():
        title += f": {game.status}"
    labels = []
    start = game.copy()
    for _ in game.history:
        start.undo()
    turn = start.turn
    for a in game.history:
        labels.append(f"{turn} plays {a}")
        turn = "B" if turn == "A" else "A"
    return Track(game, title, labels)


def _from_dict(data: Any, where: str) -> Track:
    if not isinstance(data, dict):
        raise ApiError(400, "InvalidNotationError", f"{where} is not a game's JSON object")
    fmt = data.get("format")
    text = json.dumps(data)
    try:
        if fmt == LUDO_FORMAT:
            return ludo_track(Game.from_json(text))
        if fmt == ONITAMA_FORMAT:
            return onitama_track(Onitama.from_json(text), data)
    except ENGINE_ERRORS as e:
        raise ApiError(400, type(e).__name__, f"{where}: {e}") from e
    raise ApiError(
        400,
        "InvalidNotationError",
        f"{where} has the format {fmt!r}: expected {LUDO_FORMAT!r}, {ONITAMA_FORMAT!r} "
        f"or {GAMES_FORMAT!r}",
    )


def tracks(text: str) -> list[Track]:
    """The games of a file's text: JSON (one game, a match record or a games file) or one
    position's notation (Ludo or Onitama)."""
    stripped = text.strip()
    if not stripped:
        raise ApiError(400, "InvalidNotationError", "the file is empty")
    if stripped.startswith(("{", "[")):
        try:
            data = json.loads(stripped)
        except RecursionError as e:
            raise ApiError(400, "InvalidNotationError", "the file's JSON nests too deep") from e
        except ValueError as e:
            raise ApiError(400, "InvalidNotationError", f"the file is not valid JSON: {e}") from e
        if isinstance(data, dict) and data.get("format") == GAMES_FORMAT:
            games = data.get("games")
            if not isinstance(games, list) or not games:
                raise ApiError(400, "InvalidNotationError", "the games file holds no games")
            check_loaded_moves(sum(moves_of(g) + GAME_MOVES for g in games), "the file")
            return [_from_dict(g, f"game {k + 1}") for k, g in enumerate(games)]
        check_loaded_moves(moves_of(data), "the file")
        return [_from_dict(data, "the file")]
    errors = []
    try:
        return [ludo_track(Game.from_notation(stripped))]
    except ENGINE_ERRORS as e:
        errors.append(str(e))
    try:
        return [onitama_track(Onitama.from_notation(stripped))]
    except ENGINE_ERRORS as e:
        errors.append(str(e))
    raise ApiError(
        400,
        "InvalidNotationError",
        "the file is neither a game's JSON nor a position: as Ludo, "
        + errors[0]
        + "; as Onitama, "
        + errors[1],
    )


def load(replays: Replays, text: str) -> Replay:
    """Load a file's text as a replay held in `replays`."""
    return replays.add(Replay(tracks(text)))


def router(replays: Replays) -> APIRouter:
    """The routes of the replay API, holding them in `replays`."""
    api = APIRouter(prefix="/api/replays", responses=errors(400, 413, 415, 421, 422))

    @api.post(
        "",
        status_code=201,
        response_model=ReplaySummary,
        responses=errors(403, 429),
        dependencies=[Depends(charge_creation)],
    )
    async def create(body: ReplayBody) -> JSONResponse:
        """Load a file's text to replay."""
        return JSONResponse(load(replays, body.text).summary(), status_code=201)

    @api.get("/{replay_id}", response_model=ReplaySummary, responses=errors(404))
    async def get(replay_id: str) -> JSONResponse:
        """A loaded replay's games."""
        return JSONResponse(replays.get(Replay, replay_id, "replay").summary())

    @api.get("/{replay_id}/games/{g}/frames/{k}", response_model=Frame, responses=errors(404))
    async def frame(replay_id: str, g: int, k: int) -> JSONResponse:
        """Frame `k` of game `g` (0 is the start)."""
        replay = replays.get(Replay, replay_id, "replay")
        if not 0 <= g < len(replay.tracks):
            raise ApiError(
                404,
                "NotFound",
                f"there is no game {g}: this replay has games 0 to {len(replay.tracks) - 1}",
            )
        return JSONResponse(replay.tracks[g].frame(k))

    return api
