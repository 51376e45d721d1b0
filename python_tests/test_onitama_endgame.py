"""Endgame tables, threads and pondering from Python: `EndgameTable` (build, probe, counts,
its refusals), `BuiltinAI(threads=...)`, `BuiltinAI.set_endgame` and `analyse(ponder=...)`.
The tables' values themselves are checked against an independent solver in
tests/onitama_endgame.rs."""

from __future__ import annotations

import pickle
import threading
import time

import pytest

from LudoGame import onitama as o

#: A to move, three pieces: B's master, A's master and one A student (a win for A).
FEW = "..B../...../...a./...../.A... A n=1000 A1:Ox A2:Boar B1:Horse B2:Elephant side:Crab standard"

GIB = 1 << 30


def test_a_table_probes_counts_and_fits() -> None:
    game = o.Onitama.from_notation(FEW)
    table = o.EndgameTable.build(game, 3, GIB)
    assert table is not None
    assert table.pieces == 3 and table.bytes == o.EndgameTable.table_bytes(3)
    assert sorted(c.name or "" for c in table.cards) == ["Boar", "Crab", "Elephant", "Horse", "Ox"]
    assert table.build_seconds >= 0
    kind, plies = table.probe(game) or ("none", -1)
    assert kind == "win" and plies % 2 == 1
    # every class: the positions are its wins, losses and draws
    counts = table.counts()
    assert {(c["mover_students"], c["opponent_students"]) for c in counts} == {
        (0, 0),
        (0, 1),
        (1, 0),
    }
    for c in counts:
        assert c["positions"] == c["wins"] + c["losses"] + c["draws"]
    # the cards in any places fit; more pieces, other cards or the wall variant do not
    assert table.fits(o.Onitama.standard(cards=["crab", "ox", "horse", "boar", "elephant"]))
    start = o.Onitama.standard(cards=["ox", "boar", "horse", "elephant", "crab"], first="A")
    assert table.fits(start) and table.probe(start) is None
    assert not table.fits(o.Onitama.standard(cards=["ox", "boar", "horse", "elephant", "tiger"]))
    assert not table.fits(o.Onitama.setup(21)) and table.probe(o.Onitama.setup(21)) is None
    assert "EndgameTable of Ox, Boar, Horse, Elephant, Crab" in repr(table)


def test_bad_builds_are_refused() -> None:
    game = o.Onitama.from_notation(FEW)
    with pytest.raises(o.InvalidAIError, match="standard Onitama"):
        o.EndgameTable.build(o.Onitama.setup(21), 3, GIB)
    for pieces in (1, 11):
        with pytest.raises(o.InvalidAIError, match="pieces"):
            o.EndgameTable.build(game, pieces, GIB)
    with pytest.raises(o.InvalidAIError, match="more than the 1000 allowed"):
        o.EndgameTable.build(game, 3, 1000)
    assert o.EndgameTable.build_bytes(3) > o.EndgameTable.table_bytes(3)


def test_a_stopped_build_is_none() -> None:
    flag = o.SearchStop()
    flag.request()
    assert o.EndgameTable.build(o.Onitama.from_notation(FEW), 5, GIB, stop=flag) is None


def test_a_search_with_the_table_scores_the_distance() -> None:
    game = o.Onitama.from_notation(FEW)
    table = o.EndgameTable.build(game, 3, GIB)
    assert table is not None
    _, plies = table.probe(game) or ("", 0)
    ai = o.BuiltinAI(2, nodes=2000)
    assert ai.endgame is None
    ai.set_endgame(table)
    assert ai.endgame is not None and ai.endgame.bytes == table.bytes
    found = ai.analyse(game)
    assert found["score"] == 30_000 - plies and found["exact"]
    ai.set_endgame(None)
    assert ai.endgame is None


def test_threads_are_a_setting_of_the_ai() -> None:
    ai = o.BuiltinAI(2, nodes=5000, threads=2)
    assert ai.threads == 2 and o.BuiltinAI(2).threads == 1
    assert repr(ai) == "BuiltinAI(level=2, nodes=5000, threads=2, seed=0)"
    back = pickle.loads(pickle.dumps(ai))
    assert back.threads == 2 and repr(back) == repr(ai)
    game = o.Onitama.standard(seed=3)
    assert ai.choose(game) in game.legal_moves
    for bad in (0, 65):
        with pytest.raises(o.InvalidAIError, match="threads"):
            o.BuiltinAI(2, threads=bad)


def test_a_pondering_analyse_waits_for_its_ponderhit() -> None:
    game = o.Onitama.standard(seed=4)
    ai = o.BuiltinAI(2, time=0.05)
    hit = o.PonderHit()
    assert not hit.requested
    found: list[dict[str, object]] = []
    worker = threading.Thread(target=lambda: found.append(ai.analyse(game, ponder=hit)))
    worker.start()
    time.sleep(0.5)
    assert worker.is_alive(), "0.05 s of time, but it ponders until the ponderhit"
    hit.request()
    worker.join(20)
    assert not worker.is_alive() and hit.requested
    assert found[0]["action"] in game.legal_moves
