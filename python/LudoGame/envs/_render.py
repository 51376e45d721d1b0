"""Frames for ``render_mode="rgb_array"``: the environments' SVG boards drawn as pixels.

The drawing is done in Rust (``LudoGame._core.svg_to_rgb``, resvg: no Cairo, no system
library) with the interpreter released; the fonts are loaded once, by the first frame.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from LudoGame._core import svg_to_rgb

__all__ = ["rgb_frame"]


def rgb_frame(svg: str) -> npt.NDArray[np.uint8]:
    """The SVG picture `svg` (an environment's ``render_svg()``) as an RGB frame: a uint8
    array of shape (height, width, 3), at the picture's own size, transparent parts white.

    Raises ``InvalidSvgError`` (a ``ValueError``) for text that is not a drawable SVG, and
    ``TypeError`` when `svg` is not a ``str``."""
    return svg_to_rgb(svg)
