"""Shared by the FPN tests: ChainerCV's decoding of the FPN parts on random inputs
(``tests/data/chainercv_fpn_decoding.npz``) and the scales of the five levels."""

from __future__ import annotations

import pathlib

import numpy
import pytest

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)


@pytest.fixture(scope='session')
def chainercv_decoding():
    """The arrays of ``chainercv_fpn_decoding.npz`` (see ``tests/data/README.md``)."""
    with numpy.load(DATA / 'chainercv_fpn_decoding.npz') as f:
        return dict(f)
