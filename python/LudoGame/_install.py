"""How to install an optional part of LudoGame, in the one spelling its docs use: an extra
of its source folder (LudoGame is installed from there: ``pip install .``)."""

from __future__ import annotations


def install_hint(extra: str) -> str:
    """The command that installs the extra `extra` (``web``, ``postgres``, ``ray``, ``rl``,
    ``test``)."""
    return f'pip install ".[{extra}]" in the LudoGame source folder'


__all__ = ["install_hint"]
