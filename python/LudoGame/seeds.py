"""One meaning of "no seed": the chance of a game asked for without a seed (Ludo's die,
Onitama's deal of cards) comes from a fresh seed, 64 bits from the system's secure random
source, which the game keeps and shows (the front ends print it; a web game played online
shows it once it is over). Runs whose figures are meant to repeat (simulations,
tournaments, benchmarks, the bots' and AIs' own choices) keep their fixed, documented
default seeds. docs/architecture.md (Seeds) lists where each default lives."""

from __future__ import annotations

import secrets


def fresh_seed() -> int:
    """A seed nobody knows beforehand: 64 bits from the system's secure random source (as
    ``Game()`` without a seed picks one in the engine)."""
    return secrets.randbits(64)


__all__ = ["fresh_seed"]
