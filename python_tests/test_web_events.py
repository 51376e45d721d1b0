"""What a game's event streams carry (docs/web.md, Live events): a change per version that
turns the state before it into the state of its version (fields set, lists appended to,
texts edited), for every large field a stream asked for and no other; and the short way in
(`ShortWay`) answering plain actions and streams exactly as the routes do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bench_support import load_bench  # noqa: E402
from LudoGame._core import Game, InvalidArgumentError, TextPieces  # noqa: E402
from LudoGame.web import create_app  # noqa: E402
from LudoGame.web.database import MemoryStorage, StorageError  # noqa: E402
from LudoGame.web.events import PIECE, Pieces, Shape  # noqa: E402
from LudoGame.web.ludo import LudoSession  # noqa: E402
from test_web_online import LUDO, ONI, apply_change, created, ludo_step  # noqa: E402


def edited(text: str, edits: list[list[Any]]) -> str:
    for start, end, new in reversed(edits):
        assert 0 <= start <= end <= len(text)
        text = text[:start] + new + text[end:]
    return text


PIECES = st.lists(st.sampled_from(["", "a", "bb", "c" * 40, "<g>d</g>", "é"]), max_size=8)


@settings(max_examples=400, deadline=None)
@given(PIECES, PIECES)
def test_text_edits_make_the_new_text_of_the_old(old: list[str], new: list[str]) -> None:
    """Whatever two texts (cut into any pieces), the edits found make the new one of the
    old, or there are none (the text is then sent whole: not shorter, or not ASCII)."""
    a, b = PIECE.join(old), PIECE.join(new)
    found = Pieces(b).edits_from(Pieces(a), b)
    if found is None:
        return
    assert a.isascii() and b.isascii()
    assert edited(a, found) == b
    assert [e[0] for e in found] == sorted(e[0] for e in found)


def test_neighbouring_changed_pieces_make_one_edit_and_bad_separators_are_refused() -> None:
    """Two pieces side by side that both changed are one edit (the separator between them
    kept); pieces cut at an empty separator, or compared with pieces cut at another, are
    refused with our error, not a panic."""
    cells = ["a" * 30, "b" * 30, "c" * 30, "d" * 30, "e" * 30]
    a = PIECE.join(cells)
    b = PIECE.join([cells[0], "B" * 30, "C" * 30, *cells[3:]])
    found = Pieces(b).edits_from(Pieces(a), b)
    assert found is not None and len(found) == 1
    assert edited(a, found) == b
    with pytest.raises(InvalidArgumentError, match="separator"):
        TextPieces("text", "")
    with pytest.raises(InvalidArgumentError, match="separators"):
        TextPieces("a,b", ",").edits_from(TextPieces("a;b", ";"), "a,b", 16)
    with pytest.raises(InvalidArgumentError, match="^overhead must be an int from 0"):
        TextPieces("a", ",").edits_from(TextPieces("a", ","), "a", -1)


#: seeded random steps of a Ludo session, each a person's change (`random_steps`)
random_steps = load_bench("bench_states").random_steps


def play_states(session: Any, steps: int, seed: int) -> list[dict[str, Any]]:
    """The whole states of `session` (a Ludo one) after each of `steps` random steps."""
    fields = frozenset(session.large)
    return [session.state(fields)] + [
        session.state(fields) for _ in random_steps(session, steps, seed)
    ]


@pytest.mark.parametrize("rules,players", [("cs162", "AB"), ("standard", "ABCD")])
def test_changes_rebuild_every_state_and_are_small(rules: str, players: str) -> None:
    """A shape fed each version's state (its history only from the last entry the streams
    have, as the server builds it) makes changes that, applied in order, give every whole
    state back; a change is a small part of the state; its history is appended to and its
    board edited, not sent whole."""
    s = LudoSession(Game(rules, players, 5), dict.fromkeys(players, "human"))
    fields = frozenset(s.large)
    first = s.state(fields)
    shape, held = Shape.of(first, s.large), first
    sizes = []
    for _ in random_steps(s, 120, 9):
        since = shape.since(fields)
        event = shape.diff(s.state(fields, since), s.large, since)
        data = json.loads(event.text(fields, s.large).decode().split("data: ", 1)[1])
        held = apply_change(held, data)
        assert held == s.state(fields)
        assert "history" not in data.get("set", {}) and "svg" not in data.get("set", {})
        sizes.append(len(json.dumps(data)))
    assert max(sizes) < len(json.dumps(held)) / 8


def test_a_change_works_its_state_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """During a change (`sharing`, which `Games.changing` sets) its answer and its event
    show one version: its small fields and what undo may do (which copies and undoes the
    game) are worked out once; keys issued before the game is stored (still version 0) and
    the next version make them again; after the change, and outside one, none is kept."""
    s = LudoSession(Game("cs162", "AB", 4), {"A": "human", "B": "remote"})
    made, looked = [], []
    small, refusal = LudoSession.version_state, LudoSession.undo_refusal
    monkeypatch.setattr(LudoSession, "version_state", lambda self: made.append(1) or small(self))
    monkeypatch.setattr(LudoSession, "undo_refusal", lambda self: looked.append(1) or refusal(self))
    s.sharing = True
    before = s.state(frozenset())
    assert before["seed"] == 4 and before["seed_text"] == "4"
    s.issue_keys(["B"])  # online now: the seed is the server's
    first = s.state(frozenset())
    assert first["seed"] is None and first["dice_commitment"] is not None
    assert s.state(frozenset({"svg"})) == {**first, "svg": s.game._repr_svg_()}
    assert len(made) == 2
    s.game.roll()
    s.changed("human")
    after = s.state(frozenset())
    assert after["version"] == 1 and after["pending_roll"] == s.game.pending_roll
    assert after["can_undo"] is False  # a roll of an online game is not taken back
    assert s.state(frozenset()) == after
    assert len(made) == 3 and len(looked) == 1  # (version 0: nothing to take back)
    s.sharing = False  # the change ends
    s.forget_state()
    assert s.state(frozenset()) == after and s._state_memo is None and s._undo_memo is None
    assert len(made) == 4 and len(looked) == 2


def test_a_change_whose_commit_fails_leaves_the_game_as_committed() -> None:
    """A change the store refuses (503) leaves the game held in memory as last committed
    (online keys and all), and play goes on."""

    class Failing(MemoryStorage):
        fail = False

        def update(self, row: Any, previous: int) -> bool:
            if self.fail:
                raise StorageError("the disk is full")
            return super().update(row, previous)

    store = Failing()
    with TestClient(create_app(store=store)) as c:
        s, keys = created(c.post(LUDO, json={"players": "AB", "seats": {"B": "remote"}}))

        def key(state: dict[str, Any]) -> str:
            b = state["current_player"] == "B"
            return str(keys["seat_keys"]["B"] if b else keys["host_key"])

        for _ in range(6):
            s = ludo_step(c, s, key(s))
        store.fail = True
        path = f"{LUDO}/{s['id']}/{s['phase']}"
        body = {"version": s["version"]}
        if s["phase"] == "move":
            body["move"] = s["legal_moves"][0]["name"]
        r = c.post(path, json=body, headers={"X-Seat-Key": key(s)})
        assert r.status_code == 503 and r.json()["error"]["type"] == "StoreUnavailable"
        assert c.get(f"{LUDO}/{s['id']}").json() == s
        store.fail = False
        for _ in range(3):
            s = ludo_step(c, s, key(s))


def test_a_change_carries_no_large_field_not_asked_for() -> None:
    """A stream that asked for no large field gets changes without them (and the same
    change for the streams that asked for them has them)."""
    s = LudoSession(Game("cs162", "AB", 2), {"A": "human", "B": "human"})
    states = play_states(s, 6, 3)
    shape = Shape.of(states[0], s.large)
    for state in states[1:]:
        event = shape.diff(state, s.large)
        bare = event.text(frozenset(), s.large).decode()
        full = event.text(frozenset(s.large), s.large).decode()
        assert "history" not in bare and "svg" not in bare
        assert '"history"' in full


def test_an_onitama_history_is_appended_to() -> None:
    """Onitama's history (a small field, texts) grows by appends, not whole."""
    app = create_app()
    with TestClient(app) as c:
        body = {"setup": "21", "sides": {"A": {"kind": "human"}, "B": {"kind": "human"}}}
        st0, _ = created(c.post(ONI, json=body))
        held = st0
        shape = Shape.of(st0, ("svg",))
        for _ in range(4):
            ply = {"action": held["legal_moves"][0]["text"], "version": held["version"]}
            nxt = c.post(f"{ONI}/{st0['id']}/action", json=ply)
            assert nxt.status_code == 200, nxt.text
            state = nxt.json()
            event = shape.diff(state, ("svg",))
            data = json.loads(event.text(frozenset({"svg"}), ("svg",)).decode().split("data: ")[1])
            assert "history" in data["append"] and "history" not in data.get("set", {})
            held = apply_change(held, data)
            assert held == state


def test_the_short_way_answers_as_the_routes_do(tmp_path: Path) -> None:
    """A plain action and the same action made not plain (an extra query parameter, which
    the routes ignore) are answered alike, changes and refusals: the short way and FastAPI's
    route give the same bodies and statuses."""
    app = create_app(store=f"sqlite:///{tmp_path / 'g.db'}")
    short: list[str] = []  # the actions the short way answered
    for (kind, name), (model, route) in list(app.state.games.actions.items()):

        async def counted(*args: Any, _route: Any = route, _name: str = name, **kw: Any) -> Any:
            short.append(_name)
            return await _route(*args, **kw)

        app.state.games.actions[kind, name] = (model, counted)
    with TestClient(app) as c:
        body = {"players": "AB", "seats": {"A": "remote", "B": "remote"}}
        s, keys = created(c.post(LUDO, json=body))
        gid, seat = s["id"], keys["seat_keys"]
        plain, other = f"{LUDO}/{gid}/roll?fields=", f"{LUDO}/{gid}/roll?fields=&x=1"
        for url in (plain, other):  # refused: B's key for A's roll, a stale version, junk
            for key, change, status in (
                (seat["B"], {"version": 0}, 403),
                (seat["A"], {"version": 5}, 409),
                (seat["A"], {"version": "0"}, 422),
                (seat["A"], {"version": 0, "more": 1}, 422),
            ):
                r = c.post(url, json=change, headers={"X-Seat-Key": key})
                assert r.status_code == status, r.text
            junk = {"X-Seat-Key": seat["A"], "Content-Type": "application/json"}
            r = c.post(url, content=b"{", headers=junk)
            assert r.status_code == 400 and r.json()["error"]["type"] == "BadRequest"
        refusals = {}
        for url in (plain, other):
            r = c.post(url, json={"version": 0}, headers={"X-Seat-Key": seat["B"]})
            refusals[url] = r.json()
        assert refusals[plain] == refusals[other]
        # accepted: one step each way, the same answer's shape, one version each
        answers = []
        for extra in ("", "&x=1"):
            now = c.get(f"{LUDO}/{gid}").json()
            key = {"X-Seat-Key": seat[now["current_player"]]}
            if now["phase"] == "roll":
                r = c.post(
                    f"{LUDO}/{gid}/roll?fields={extra}",
                    json={"version": now["version"]},
                    headers=key,
                )
            else:
                move = {"move": now["legal_moves"][0]["name"], "version": now["version"]}
                r = c.post(f"{LUDO}/{gid}/move?fields={extra}", json=move, headers=key)
            assert r.status_code == 200, r.text
            assert r.json()["version"] == now["version"] + 1
            answers.append(set(r.json()))
        assert answers[0] == answers[1]
        # the plain requests (three refused by the route's function, one step) came the
        # short way; the others (an extra parameter, junk or a body the model refuses) not
        assert short == ["roll"] * 4
