"""Where the server keeps its games: one interface (`base.Storage`), written once for both
games, with an in-memory backend (``memory``: `memory`), an embedded SQLite file
(``sqlite:///PATH``, the default of ``ludo serve``: `sqlite`) and a PostgreSQL database
(``postgresql://USER@HOST:PORT/DB``, which several server processes may share: `postgres`,
and `postgres_feed` for what the processes tell each other). `open_storage` opens the one a
``--store`` URL names."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from LudoGame.web.database.base import (
    KEPT,
    PRESENCE_CHANGED,
    SCHEMA_VERSION,
    Row,
    Storage,
    StorageError,
    StoreUrlError,
)
from LudoGame.web.database.memory import MemoryStorage
from LudoGame.web.database.postgres import PostgresStorage
from LudoGame.web.database.sqlite import SqliteStorage

__all__ = [
    "KEPT",
    "PRESENCE_CHANGED",
    "SCHEMA_VERSION",
    "MemoryStorage",
    "PostgresStorage",
    "Row",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "StoreUrlError",
    "data_dir",
    "default_url",
    "open_storage",
]


def data_dir() -> Path:
    """The user's data directory for LudoGame: ``$XDG_DATA_HOME/LudoGame`` (by default
    ``~/.local/share/LudoGame``), ``~/Library/Application Support/LudoGame`` on macOS,
    ``%LOCALAPPDATA%\\LudoGame`` on Windows."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "LudoGame"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "LudoGame"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "LudoGame"


def default_url() -> str:
    """The store of ``ludo serve`` when none is given: an SQLite file in the data directory."""
    return f"sqlite:///{data_dir() / 'games.sqlite3'}"


def open_storage(url: str) -> Storage:
    """The store a ``--store`` URL names: ``memory``, ``sqlite:///PATH`` (an SQLite file;
    ``sqlite:///games.db`` is relative to the working directory, ``sqlite:////srv/games.db``
    absolute, as in SQLAlchemy's URLs), or ``postgresql://USER@HOST:PORT/DB`` (a PostgreSQL
    database, libpq's URL: psycopg 3, ``pip install ".[postgres]"``)."""
    if url == "memory":
        return MemoryStorage()
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise StoreUrlError("sqlite:/// needs a file's path, e.g. sqlite:///games.sqlite3")
        return SqliteStorage(Path(path).expanduser())
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    raise StoreUrlError(
        f"unknown store {url[:40]!r}: use memory, sqlite:///PATH or postgresql://HOST/DB"
    )
