"""Shared by the Mask R-CNN tests: the test data and the scales of the five FPN levels."""

from __future__ import annotations

import pathlib

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)
