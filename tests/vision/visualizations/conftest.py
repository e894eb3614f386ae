import io

import numpy
import pytest
from PIL import Image

from vision.visualizations._matplotlib import pyplot

SCALE = 4  # rendered pixels per image pixel
DPI = 72  # so that a line width in points is a width in rendered pixels


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    pyplot().close('all')


class Rendered:
    """A figure saved as PNG and read back, addressed in image coordinates."""

    def __init__(self, pixels):
        self.pixels = pixels

    def at(self, y, x):
        """The rendered colour at image coordinates ``(y, x)``, as ints."""
        return self.pixels[int((y + 0.5) * SCALE), int((x + 0.5) * SCALE)].astype(int)

    def centers(self):
        """The rendered colour at the centre of every image pixel, ``(H, W, 3)`` ints."""
        offset = SCALE // 2
        return self.pixels[offset::SCALE, offset::SCALE].astype(int)


@pytest.fixture
def exact_axes():
    """``make(H, W)``: axes filling a figure of ``(H * SCALE, W * SCALE)`` pixels, so that
    image pixel ``(y, x)`` is rendered around ``((y + 0.5) * SCALE, (x + 0.5) * SCALE)``."""
    def make(H, W):
        fig = pyplot().figure(figsize=(W * SCALE / DPI, H * SCALE / DPI), dpi=DPI)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_axis_off()
        ax.set_xlim(-0.5, W - 0.5)
        ax.set_ylim(H - 0.5, -0.5)
        return ax
    return make


@pytest.fixture
def render():
    """``render(ax)``: the :class:`Rendered` figure of ``ax``."""
    def render(ax):
        buffer = io.BytesIO()
        ax.figure.savefig(buffer, format='png', dpi=DPI)
        buffer.seek(0)
        return Rendered(numpy.asarray(Image.open(buffer).convert('RGB')))
    return render
