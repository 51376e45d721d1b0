"""Games in this process's memory (``--store memory``): gone when it stops."""

from __future__ import annotations

import math
import threading
import time

from LudoGame.web.database.base import KEPT, Row, Storage, StorageError


class MemoryStorage(Storage):
    """Games in this process's memory: gone when it stops."""

    where = "memory (games are lost when the server stops)"
    quick = True

    def __init__(self) -> None:
        self._rows: dict[str, Row] = {}
        self._history: dict[str, list[tuple[int, str]]] = {}
        self._lock = threading.Lock()

    def _keep(self, row: Row) -> None:
        # a list, not a deque(maxlen=KEPT): a deque takes about 600 bytes more a game
        kept = self._history.setdefault(row.id, [])
        kept.append((row.version, row.record))
        if len(kept) > KEPT:
            del kept[0]

    def insert(self, row: Row, limit: int | None = None) -> bool:
        with self._lock:
            if row.id in self._rows:
                raise StorageError(f"a game {row.id[:12]!r} is already stored")
            if limit is not None and len(self._rows) >= limit:
                return False
            self._rows[row.id] = _stamped(row)
            self._keep(row)
            return True

    def update(self, row: Row, previous: int) -> bool:
        with self._lock:
            old = self._rows.get(row.id)
            if old is None or old.version != previous:
                return False
            self._rows[row.id] = _stamped(row)
            self._keep(row)
            return True

    def load(self, ident: str) -> Row | None:
        with self._lock:
            return self._rows.get(ident)

    def history(self, ident: str, after: int) -> list[tuple[int, str]]:
        with self._lock:
            return [(v, r) for v, r in self._history.get(ident, ()) if v > after]

    def delete(self, ident: str) -> bool:
        with self._lock:
            self._history.pop(ident, None)
            return self._rows.pop(ident, None) is not None

    def count(self) -> int:
        with self._lock:
            return len(self._rows)

    def active(self) -> list[Row]:
        with self._lock:
            return [r for r in self._rows.values() if r.active]

    def expire(self, before: float | None, idle_before: float | None = None) -> list[str]:
        with self._lock:
            limit = {True: before, False: idle_before}
            gone = [i for i, r in self._rows.items() if r.updated < (limit[r.over] or -math.inf)]
            for i in gone:
                del self._rows[i]
                self._history.pop(i, None)
            return gone


def _stamped(row: Row) -> Row:
    return Row(row.id, row.kind, row.version, row.over, row.active, row.record, time.time())
