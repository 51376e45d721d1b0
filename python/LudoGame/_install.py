"""How to install an optional part of LudoGame, in the one spelling its docs use: an extra
of its source folder (LudoGame is installed from there: ``pip install .``); the ``rl``
extra's command is ``_core.RL_INSTALL``. The engine spells every command
(``common::install_hint``), which the compiled code's own messages say too."""

from __future__ import annotations

from LudoGame._core import install_hint

__all__ = ["install_hint"]
