"""Shared by the MTCNN tests: facenet-pytorch's weights (fetched through the manifest, the
test skipped when they cannot be) and the sample photo of its parity fixture."""

from __future__ import annotations

import json
import pathlib

import matplotlib.cbook
import pytest

from vision.models.detection.mtcnn import FACENET_PYTORCH_FILES, MTCNN
from vision.utils import read_image
from vision.utils.download import DownloadError
from vision.weights import fetch_weight_files

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data' / 'mtcnn'


@pytest.fixture(scope='session')
def facenet_pytorch_paths():
    """The paths of ``pnet.pt``, ``rnet.pt`` and ``onet.pt`` by net."""
    try:
        files = fetch_weight_files('mtcnn', 'facenet-pytorch', progress=False)
    except DownloadError as error:
        pytest.skip(f'the facenet-pytorch weights cannot be fetched: {error}')
    return {net: files[member] for net, member in FACENET_PYTORCH_FILES.items()}


@pytest.fixture(scope='session')
def pretrained(facenet_pytorch_paths):
    """MTCNN with facenet-pytorch's weights (shared: do not change its attributes)."""
    return MTCNN(pretrained_model='facenet-pytorch')


@pytest.fixture(scope='session')
def grace_hopper():
    """The photo ``(3, 600, 512)`` and facenet-pytorch's detections on it."""
    img = read_image(matplotlib.cbook.get_sample_data('grace_hopper.jpg', asfileobj=False))
    with open(DATA / 'grace_hopper.json', encoding='utf-8') as f:
        return img, json.load(f)
