"""Pictures of the boards for ``render_mode="rgb_array"``."""

from __future__ import annotations

import numpy as np


def rgb_frame(svg: str) -> np.ndarray:
    """The SVG picture `svg` rasterised: an ``H x W x 3`` uint8 array."""
    from LudoGame._core import svg_to_rgb  # type: ignore[attr-defined]

    return svg_to_rgb(svg)  # type: ignore[no-any-return]
