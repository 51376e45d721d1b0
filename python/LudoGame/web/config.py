"""What one web app is configured with beyond its limits: the folder of MATLAB AI files its
Onitama games may choose and the Octave processes they play in. `create_app` makes one per
app (`app.state.config`, and `Games.config` for the sessions), so that two apps in one
process each have their own."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from LudoGame.matlab import OctavePool, offered


@dataclass
class WebConfig:
    """One app's configuration."""

    #: The folder whose MATLAB AI files (``AI<SID>.m``) games may choose (``ludo serve
    #: --ai-dir``); None: only the built-in AIs.
    ai_dir: Path | None = None
    #: The app's Octave processes for MATLAB AIs (``octave_workers`` of them at most).
    octave: OctavePool = field(default_factory=OctavePool)

    def matlab_ais(self) -> list[str]:
        """The MATLAB AI files a game may choose: the ``.m`` files of `ai_dir` whose names
        are MATLAB function names, sorted; not a symbolic link nor too large
        (`LudoGame.matlab.offered`)."""
        folder = self.ai_dir
        if folder is None:
            return []
        return sorted(p.name for p in folder.glob("*.m") if offered(p))
