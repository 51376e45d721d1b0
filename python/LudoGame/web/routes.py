"""The routes every kind of game shares (state, events, a machine step, undo, rematch,
save, delete: `shared_routes`) and the answers they share (`answer`, `created`). HTTP stays
here: the sessions return data, these wrap it."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Header, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel

from LudoGame.web.bodies import Change, NewGame, RematchBody, fields_of, fields_query
from LudoGame.web.games import Games
from LudoGame.web.guard import charge_creation
from LudoGame.web.models import EVENTS_CONTENT, SAVE_CONTENT, errors
from LudoGame.web.seats import REMOTE
from LudoGame.web.session import SaveFile, Session


def answer(s: Session, fields: str | None, status: int = 200) -> JSONResponse:
    """The game's state as an answer, with the large fields `?fields=` asks for."""
    return JSONResponse(s.state(fields_of(fields, s.large)), status_code=status)


def created(
    request: Request, s: Session, fields: str | None, base: str | None = None
) -> JSONResponse:
    """The answer to a new game: its state, the key of each remote seat and its invite
    link, and the host's key (the only time a key is shown)."""
    out = s.state(fields_of(fields, s.large))
    out["seat_keys"] = dict(s.issued)
    out["links"] = s.links(base or str(request.base_url))
    out["host_key"] = s.issued_host
    s.issued, s.issued_host = {}, ""  # shown once: from now on only their digests are held
    return JSONResponse(out, status_code=201)


async def start(
    request: Request, games: Games, session: Session, body: NewGame, fields: str | None
) -> JSONResponse:
    """Open a new game of either kind: a key for each remote seat, the pace and turn timer
    the request asked for, the game stored, and the answer `created` gives."""
    session.issue_keys([p for p, k in session.seat_kinds().items() if k == REMOTE])
    session.pace = body.pace
    session.set_timer(body.turn_timer)
    await games.add(session)
    return created(request, session, fields, request.app.state.public_url)


SeatKey = Header(default=None, alias="X-Seat-Key", description="the key of the seat acted for")


def shared_routes(
    api: APIRouter,
    games: Games,
    cls: type[Session],
    what: str,
    machine_path: str,
    state: type[BaseModel],
) -> None:
    """The routes every kind of game has: its state (answered as the model `state`),
    events, a machine step, undo, save and delete."""
    acting = errors(403, 404, 409)
    Fields = fields_query(cls.large)  # noqa: N806 (a parameter's default, as FastAPI's Query)

    @api.get(
        "/games/{game_id}", name=f"{cls.kind}_state", response_model=state, responses=errors(404)
    )
    async def get(game_id: str, fields: str | None = Fields) -> JSONResponse:
        """The game's state (read-only: anyone with its id may watch; keys are never
        shown)."""
        return answer(await games.read(cls, game_id, what), fields)

    @api.get(
        "/games/{game_id}/events",
        name=f"{cls.kind}_events",
        response_class=StreamingResponse,
        responses={200: {"content": EVENTS_CONTENT}, **errors(404)},
    )
    async def events(
        game_id: str,
        fields: str | None = Fields,
        last_event_id: str | None = Header(default=None, alias="Last-Event-ID"),
        seat_key: str | None = None,
    ) -> Response:
        """The game's changes as Server-Sent Events: the state now first (a `state` event:
        `id:` the version, `data:` the state with the `?fields=` asked for), then a `change`
        event per version, carrying what changed (fields set whole, lists appended to, texts
        edited), and a comment after 15-20 s of silence; `Last-Event-ID` resumes with the
        missed changes. `?seat_key=` (a seat's key, or the host's) shows its seats as
        connected while the stream is open: a `presence` event tells every stream when a
        seat comes or goes."""
        return await games.hub.events(cls, game_id, what, fields, last_event_id, seat_key)

    @api.post(
        f"/games/{{game_id}}/{machine_path}",
        name=f"{cls.kind}_{machine_path}",
        response_model=state,
        responses=acting,
    )
    async def machine(
        game_id: str,
        body: Change | None = None,
        fields: str | None = Fields,
        x_seat_key: str | None = SeatKey,
    ) -> Any:
        """The bot or AI whose turn it is takes one step, thought out on a worker thread on
        a copy of the game, so the server goes on answering (an online game: with the
        host's key)."""
        chosen = fields_of(fields, cls.large)
        async with games.changing(cls, game_id, what, body.version if body else None) as s:
            seat = s.seat_to_act()
            s.check_key(None if seat is None else seat, x_seat_key)
            await s.machine_step(games.bots.thinker(s.id))
            return JSONResponse(s.state(chosen))

    @api.post(
        "/games/{game_id}/undo", name=f"{cls.kind}_undo", response_model=state, responses=acting
    )
    async def undo(
        game_id: str,
        body: Change | None = None,
        fields: str | None = Fields,
        x_seat_key: str | None = SeatKey,
    ) -> Any:
        """Take back the last decision of a person, with every machine step after it (an
        online game: only that person may)."""
        chosen = fields_of(fields, cls.large)
        async with games.changing(cls, game_id, what, body.version if body else None) as s:
            # a stranger learns nothing of the game's history: refused before anything is said
            s.check_player(x_seat_key, "take a move back")
            s.check_key(s.undo_seat(), x_seat_key)
            s.take_back()
            return JSONResponse(s.state(chosen))

    @api.post(
        "/games/{game_id}/rematch",
        name=f"{cls.kind}_rematch",
        status_code=201,
        response_model=state,
        responses={
            200: {"model": state, "description": "the rematch asked for before"},
            **acting,
            **errors(429),
        },
        dependencies=[Depends(charge_creation)],
    )
    async def rematch(
        game_id: str,
        body: RematchBody | None = None,
        fields: str | None = Fields,
        x_seat_key: str | None = SeatKey,
    ) -> JSONResponse:
        """A rematch of the finished game: a new game with the same seats (the same keys
        and invite links act in it), a new seed unless `seed` is given; the old game's
        state names it (`rematch`). Only a player (a seat's key) or whoever started the game
        may ask; asked again, the same rematch (200)."""
        fields_of(fields, cls.large)
        seed = body.seed if body is not None else None
        new, fresh = await games.rematch(cls, game_id, what, x_seat_key, seed)
        return answer(new, fields, 201 if fresh else 200)

    @api.get(
        "/games/{game_id}/save",
        name=f"{cls.kind}_save",
        response_class=Response,
        responses={200: {"content": SAVE_CONTENT}, **errors(404)},
    )
    async def save(game_id: str, format: Literal["json", "notation"] = "json") -> Response:
        """The game as a file: its JSON (the whole game) or the position's notation."""
        return file_response((await games.read(cls, game_id, what)).download(format))

    @api.delete(
        "/games/{game_id}",
        status_code=204,
        name=f"{cls.kind}_delete",
        response_class=Response,
        responses=errors(403, 404),
    )
    async def delete(game_id: str, x_seat_key: str | None = SeatKey) -> Response:
        """Delete the game (an online game: with the host's key): its bots stop and its
        event streams end."""
        await games.delete(cls, game_id, what, x_seat_key)
        return Response(status_code=204)


def file_response(file: SaveFile) -> Response:
    """A game's file (`Session.download`) as a download."""
    return Response(
        file.text,
        media_type=file.media_type,
        headers={"Content-Disposition": f'attachment; filename="{file.filename}"'},
    )
