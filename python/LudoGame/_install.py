"""How to install an optional part of LudoGame, in the one spelling its docs use: an extra
of its source folder (LudoGame is installed from there: ``pip install .``). The ``rl``
extra's command is the engine's (``_core.RL_INSTALL``), which the compiled code's own
messages say too."""

from __future__ import annotations

from LudoGame._core import RL_INSTALL


def install_hint(extra: str) -> str:
    """The command that installs the extra `extra` (``web``, ``postgres``, ``ray``, ``rl``,
    ``test``)."""
    if extra == "rl":
        return RL_INSTALL
    return f'pip install ".[{extra}]" in the LudoGame source folder'


__all__ = ["install_hint"]
