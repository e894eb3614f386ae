"""The check of the label maps that a segmentation model is trained on."""

from __future__ import annotations

import numpy

from framework import backend
from framework.variable import Variable


def check_label_maps(fname: str, t, n_class: int, ignore_label: int) -> None:
    """Checks that label maps hold classes or ``ignore_label`` only.

    Args:
        fname (str): the caller, named first by the error.
        t (array or Variable): integer ``(B, H, W)`` label maps, on any device.
        n_class (int): the number of classes.
        ignore_label (int): the label of the pixels left out.

    Raises:
        ValueError: a label is neither in ``[0, n_class)`` nor ``ignore_label``; the message
            names the first such sample, its value and where it is.
    """
    labels = backend.to_cpu(t.array if isinstance(t, Variable) else t)
    bad = (labels != ignore_label) & ((labels < 0) | (labels >= n_class))
    if bad.any():
        index = tuple(int(i) for i in numpy.argwhere(bad)[0])
        raise ValueError(f'{fname}: the label maps must hold labels in [0, {n_class}) or '
                         f'ignore_label ({ignore_label}), but sample {index[0]} holds '
                         f'{labels[index]} at {index[1:]}')
