"""What the plotting extensions share: whether Matplotlib is there, a figure drawn without
pyplot's global state, and its atomic saving."""

from __future__ import annotations

import io
import os

from framework.serializers._atomic import atomic_write


def matplotlib_available() -> bool:
    """Whether Matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def new_figure(**kwargs):
    """A Matplotlib figure with the Agg renderer (no display involved)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(**kwargs)
    FigureCanvasAgg(figure)
    return figure


def save_figure(figure, path: str, **kwargs) -> None:
    """Saves ``figure`` to ``path``, replacing the file atomically; the extension of ``path``
    chooses the format (``.png`` when it has none)."""
    image = io.BytesIO()
    figure.savefig(image, format=os.path.splitext(path)[1][1:] or 'png', **kwargs)
    with atomic_write(path) as f:
        f.write(image.getvalue())
