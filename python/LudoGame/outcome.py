"""How a finished game ended, for both games alike (as python-chess's ``Outcome``)."""

from __future__ import annotations

from dataclasses import dataclass

from LudoGame.enums import Reason


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``Game.outcome()`` and ``Onitama.outcome()`` give it once the game
    is over (None before).

    ``termination`` says why (``Reason.ALL_RANKED`` or ``Reason.FIRST_HOME`` in Ludo;
    ``Reason.GENERAL_CAPTURED``, ``Reason.BASE_REACHED`` or ``Reason.PLY_LIMIT`` in
    Onitama), ``winner`` is the winning player's letter (None for a tie) and ``ranking``
    the finishing order, the winner first (empty for a tie).
    """

    termination: Reason
    winner: str | None
    ranking: tuple[str, ...]

    def result(self) -> str:
        """The result in words: ``A won``, or ``tie``."""
        return "tie" if self.winner is None else f"{self.winner} won"


__all__ = ["Outcome"]
