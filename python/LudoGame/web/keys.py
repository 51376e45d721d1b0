"""Ids and keys: a game's (or replay's) unguessable id, a seat's key, and the digest the
server keeps of a key instead of the key itself."""

from __future__ import annotations

import hashlib
import re
import secrets


def new_id() -> str:
    """An unguessable id (or key): 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


#: What an id (of a game or a replay) can be: `new_id`'s URL-safe characters. Anything
#: else names nothing here, and is answered 404 without asking the store.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,100}")

#: How a stored seat key starts: a record keeps the SHA-256 of each key, never the key.
DIGEST_PREFIX = "sha256:"


def key_digest(key: str, *, stored: bool = False) -> str:
    """The digest a record keeps of a seat key: ``sha256:`` and the hex SHA-256 of its
    UTF-8 bytes (any text, a non-ASCII one too: a request's key is just a wrong one then).
    `stored`: `key` is a record's value, a digest already unless the record was written
    before digests were (a key itself: then its digest)."""
    if stored and key.startswith(DIGEST_PREFIX):
        return key
    data = key.encode("utf-8", "surrogatepass")
    return DIGEST_PREFIX + hashlib.sha256(data).hexdigest()


def same_key(given: str | None, digest: str) -> bool:
    """Is `given` (a request's key: any text, non-ASCII included) the key whose stored
    digest is `digest`? Compared in constant time; a missing key is no key."""
    return given is not None and secrets.compare_digest(key_digest(given), digest)
