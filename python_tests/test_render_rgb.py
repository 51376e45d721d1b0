"""SVG boards as RGB frames: `LudoGame._core.svg_to_rgb` and `LudoGame.envs._render.rgb_frame`
(what ``render_mode="rgb_array"`` returns).

1. A Ludo board (the environment core's ``render_svg()``) and an Onitama board: shape
   (H, W, 3), uint8, not blank, the same frame for the same board, another after a move.
2. The scale: pixel sizes, a known colour at a known spot.
3. Bad input: text that is not a drawable SVG raises InvalidSvgError (a ValueError), a bad
   scale InvalidArgumentError (a ValueError), wrong types TypeError; nothing panics.
"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from LudoGame._core import (  # noqa: E402
    InvalidArgumentError,
    InvalidSvgError,
    LudoEnvCore,
    LudoError,
    svg_to_rgb,
)
from LudoGame.envs._render import rgb_frame  # noqa: E402
from LudoGame.onitama import Onitama  # noqa: E402

#: 20 x 10: a red square on the left, a blue one on the right.
TWO_SQUARES = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">'
    '<rect width="10" height="10" fill="#ff0000"/>'
    '<rect x="10" width="10" height="10" fill="#0000ff"/></svg>'
)


def ludo_core() -> Any:
    core = LudoEnvCore("cs162", 2)
    core.reset(1)
    return core


def check_frame(frame: Any) -> None:
    """A real picture: (H, W, 3) uint8, C-contiguous, many colours, not one flat fill."""
    assert isinstance(frame, np.ndarray)
    assert frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] > 100 and frame.shape[1] > 100
    assert frame.flags["C_CONTIGUOUS"]
    colours = np.unique(frame.reshape(-1, 3), axis=0)
    assert len(colours) > 8, f"only {len(colours)} colours"


def test_ludo_board_frame() -> None:
    core = ludo_core()
    svg = core.render_svg()
    frame = rgb_frame(svg)
    check_frame(frame)
    # The size is the SVG's own (in pixels).
    assert f'width="{frame.shape[1]}"' in svg and f'height="{frame.shape[0]}"' in svg
    assert np.array_equal(frame, rgb_frame(svg))
    assert np.array_equal(frame, rgb_frame(ludo_core().render_svg()))


def test_ludo_frame_changes_after_a_move() -> None:
    core = ludo_core()
    before = rgb_frame(core.render_svg())
    player = core.to_move
    assert player is not None
    action = int(np.flatnonzero(core.action_mask(player))[0])
    core.step(action)
    after = rgb_frame(core.render_svg())
    assert after.shape == before.shape
    assert not np.array_equal(before, after)


def test_onitama_board_frame_and_a_move() -> None:
    game = Onitama.setup(21)
    frame = rgb_frame(game._repr_svg_())
    check_frame(frame)
    assert np.array_equal(frame, rgb_frame(Onitama.setup(21)._repr_svg_()))
    game.play(game.legal_moves[0])
    after = rgb_frame(game._repr_svg_())
    assert after.shape == frame.shape
    assert not np.array_equal(frame, after)


def test_scale_and_known_colours() -> None:
    frame = svg_to_rgb(TWO_SQUARES)
    assert frame.shape == (10, 20, 3)
    assert frame[5, 5].tolist() == [255, 0, 0]
    assert frame[5, 15].tolist() == [0, 0, 255]
    big = svg_to_rgb(TWO_SQUARES, 2.5)
    assert big.shape == (25, 50, 3)
    assert big[20, 45].tolist() == [0, 0, 255]
    assert svg_to_rgb(TWO_SQUARES, scale=2).shape == (20, 40, 3)
    # Transparent parts are white.
    empty = svg_to_rgb('<svg xmlns="http://www.w3.org/2000/svg" width="3" height="2"/>')
    assert empty.shape == (2, 3, 3) and (empty == 255).all()


def test_frames_are_writable_and_independent() -> None:
    a = svg_to_rgb(TWO_SQUARES)
    a[:] = 0
    assert svg_to_rgb(TWO_SQUARES)[5, 5].tolist() == [255, 0, 0]


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "not svg at all",
        "<svg",
        "<html><body/></html>",
        '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="5"/>',
    ],
)
def test_bad_svg_raises_a_value_error(bad: str) -> None:
    with pytest.raises(InvalidSvgError, match="not an SVG picture") as info:
        rgb_frame(bad)
    assert isinstance(info.value, ValueError) and isinstance(info.value, LudoError)


@pytest.mark.parametrize("scale", [0, -1.0, float("nan"), float("inf"), 1e-60, 1e300])
def test_bad_scale_raises_a_value_error(scale: float) -> None:
    with pytest.raises(InvalidArgumentError, match="scale"):
        svg_to_rgb(TWO_SQUARES, scale)


def test_too_large_a_picture_raises() -> None:
    with pytest.raises(InvalidArgumentError, match="at most 8192 on a side"):
        svg_to_rgb(TWO_SQUARES, 1000)


@pytest.mark.parametrize("svg", [None, 1, b"<svg/>", ["<svg/>"]])
def test_svg_of_the_wrong_type_raises_type_error(svg: Any) -> None:
    with pytest.raises(TypeError, match="svg"):
        svg_to_rgb(svg)
    with pytest.raises(TypeError):
        rgb_frame(svg)


@pytest.mark.parametrize("scale", [None, True, "2", [1.0], complex(1, 0)])
def test_scale_of_the_wrong_type_raises_type_error(scale: Any) -> None:
    with pytest.raises(TypeError, match="scale"):
        svg_to_rgb(TWO_SQUARES, scale)


def test_no_arguments_raises_type_error() -> None:
    with pytest.raises(TypeError):
        svg_to_rgb()  # type: ignore[call-arg]
