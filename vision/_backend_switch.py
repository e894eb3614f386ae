"""ChainerCV's backend switches (``chainer.config.cv_read_image_backend``,
``cv_resize_backend``, ``cv_rotate_backend``), honoured where code written for ChainerCV sets
them: the values are checked as ChainerCV checks them, but the work is always Pillow's."""

from __future__ import annotations

import importlib.util
import sys


def check_backend(fname: str, key: str) -> None:
    """Checks ChainerCV's backend switch ``chainer.config.<key>`` when Chainer has been
    imported, with ChainerCV's errors: None and ``'PIL'`` are accepted, ``'cv2'`` only when
    OpenCV is installed, and anything else raises :class:`ValueError`.

    Args:
        fname (str): The calling function's name, for the error message.
        key (str): The switch, e.g. ``'cv_resize_backend'``.
    """
    chainer = sys.modules.get('chainer')
    config = getattr(chainer, 'config', None)
    backend = getattr(config, key, None)
    if backend is None or backend == 'PIL':
        return
    if backend == 'cv2':
        if importlib.util.find_spec('cv2') is None:
            raise ValueError(f"{fname}: chainer.config.{key} is 'cv2', but cv2 is not "
                             "installed; set it to 'PIL' or None")
        return
    raise ValueError(f"{fname}: chainer.config.{key} must be 'cv2', 'PIL' or None, "
                     f'but got {backend!r}')
