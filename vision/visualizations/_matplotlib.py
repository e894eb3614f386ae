"""Importing pyplot without a display, and without overriding a backend the user chose."""

from __future__ import annotations

import os
import sys
from types import ModuleType


def _backend_chosen(matplotlib: ModuleType) -> bool:
    """Whether a backend was set (``MPLBACKEND``, matplotlibrc, ``matplotlib.use``)."""
    try:
        return matplotlib.get_backend(auto_select=False) is not None
    except TypeError:  # matplotlib < 3.10 has no auto_select
        from matplotlib import rcsetup
        return dict.__getitem__(matplotlib.rcParams, 'backend') is not \
            rcsetup._auto_backend_sentinel


def _headless() -> bool:
    """Whether no window can be opened: an X11 or Wayland system with neither display set."""
    if sys.platform in ('darwin', 'win32'):
        return False
    return not (os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY'))


def pyplot() -> ModuleType:
    """Returns :mod:`matplotlib.pyplot`, selecting the Agg backend only when it must.

    Agg is selected when pyplot is not imported yet, no backend was chosen and there is no
    display: figures can then still be saved with ``savefig``. Otherwise matplotlib's own
    choice (or the user's) stands.
    """
    import matplotlib

    if 'matplotlib.pyplot' not in sys.modules and not _backend_chosen(matplotlib) \
            and _headless():
        matplotlib.use('Agg')
    from matplotlib import pyplot as plt
    return plt
