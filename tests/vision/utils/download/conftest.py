"""A payload to download (the file server and the private $VISION_HOME come from
``tests/vision/conftest.py``)."""

import random

import pytest


@pytest.fixture
def payload() -> bytes:
    return random.Random(0).randbytes(300_000)
