"""The demonstrations: the main job (``make demo``: MTCNN on matplotlib's sample photo) and the
offline one (``make demo-shapes``: ``vision predict --model resnet14 --weights shapes
vision/data/sample_shapes.png`` classifies the sample image with the weights shipped in the
repository (``resnet14/shapes`` of the manifest), without the network)."""

import fnmatch
import json
import pathlib
import tomllib

import matplotlib.cbook
import numpy
import pytest

from vision import weights
from vision.__main__ import main
from vision.datasets import ShapesLabelDataset
from vision.utils import read_image
from vision.utils.download import DownloadError

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = ROOT / 'vision' / 'data' / 'sample_shapes.png'
# The sample is example 5 of ShapesLabelDataset(size=36, seed=2): a seed that neither the
# training set (0) nor the validation set (1) of scripts/train_imagenet.py uses.
SAMPLE_SEED, SAMPLE_INDEX = 2, 5


def test_the_sample_is_a_star_of_an_unseen_seed():
    img, label = ShapesLabelDataset(SAMPLE_INDEX + 1, size=36, seed=SAMPLE_SEED)[SAMPLE_INDEX]
    numpy.testing.assert_array_equal(read_image(str(SAMPLE)), img)
    assert weights.label_names('shapes')[label] == 'star'


def test_predict_prints_star_first_offline(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv('VISION_OFFLINE', '1')
    monkeypatch.setenv('VISION_HOME', str(tmp_path / 'home'))
    monkeypatch.delenv('VISION_WEIGHTS_MANIFEST', raising=False)
    assert main(['predict', '--model', 'resnet14', '--weights', 'shapes', str(SAMPLE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f'{SAMPLE}:' and len(lines) == 5  # four classes
    rank, prob, name, index = lines[1].split()
    assert (rank, name, index) == ('1.', 'star', '(3)')
    assert float(prob) > 0.9
    assert not (tmp_path / 'home').exists()  # nothing was downloaded or converted


def test_the_weights_ship_with_the_package():
    spec = weights.get_weight('resnet14', 'shapes')
    path = ROOT / spec.source['file']
    assert path.stat().st_size < 2 * 1024 ** 2
    with open(ROOT / 'pyproject.toml', 'rb') as f:
        package_data = tomllib.load(f)['tool']['setuptools']['package-data']['vision']
    for shipped in (path, SAMPLE):
        inside = shipped.relative_to(ROOT / 'vision').as_posix()
        assert any(fnmatch.fnmatch(inside, pattern) for pattern in package_data), inside


def test_the_main_job_finds_grace_hoppers_face(tmp_path, capsys):
    """``make demo``: MTCNN with facenet-pytorch's weights on matplotlib's photo prints the face
    that facenet-pytorch finds, and draws it."""
    try:
        weights.fetch_weight_files('mtcnn', 'facenet-pytorch', progress=False)
    except DownloadError as error:
        pytest.skip(f'the facenet-pytorch weights cannot be fetched: {error}')
    photo = matplotlib.cbook.get_sample_data('grace_hopper.jpg', asfileobj=False)
    makefile = (ROOT / 'Makefile').read_text()
    assert '--model mtcnn --weights facenet-pytorch' in makefile and '--out demo' in makefile
    assert main(['predict', '--model', 'mtcnn', '--weights', 'facenet-pytorch', str(photo),
                 '--out', str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    with open(ROOT / 'tests' / 'data' / 'mtcnn' / 'grace_hopper.json', encoding='utf-8') as f:
        expected = json.load(f)
    (x_min, y_min, x_max, y_max), = expected['boxes_x1y1x2y2']
    assert lines[0] == f'{photo}:'
    assert lines[1] == (f'  face {expected["probs"][0]:.4f}  box (y_min, x_min, y_max, x_max) '
                        f'= ({y_min:.1f}, {x_min:.1f}, {y_max:.1f}, {x_max:.1f})')
    assert lines[2] == '    points (y, x): ' + ', '.join(
        f'({y:.1f}, {x:.1f})' for x, y in expected['landmarks_xy'][0])
    assert lines[3] == f'  drawn in {tmp_path / "grace_hopper.png"}' and len(lines) == 4
