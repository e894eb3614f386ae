"""The SegNet Basic weights that the repository ships for the synthetic shapes
(``segnet_basic/shapes`` of the manifest, trained by ``scripts/train_segnet.py --dataset
shapes``): they ship with the package, ``vision predict`` runs them offline, and they score the
mean IoU of their manifest row on the training script's validation set."""

import fnmatch
import pathlib
import re
import tomllib

import numpy
import pytest
from PIL import Image

from vision import weights
from vision.__main__ import main
from vision.datasets import (
    ShapesSemanticSegmentationDataset,
    shapes_semantic_segmentation_label_names,
)
from vision.evaluations import eval_semantic_segmentation
from vision.models import SegNetBasic
from vision.utils.download import file_sha256

ROOT = pathlib.Path(__file__).resolve().parents[5]
# The validation set of scripts/train_segnet.py --dataset shapes: seed 1, 64x64, 100 images.
VAL_SEED, SIZE, N_VAL = 1, 64, 100
# An image of a seed that neither the training set (0) nor the validation set (1) uses.
UNSEEN_SEED = 2


def _spec():
    return weights.get_weight('segnet_basic', 'shapes')


def test_the_weights_ship_with_the_package():
    spec = _spec()
    path = ROOT / spec.source['file']
    assert path.stat().st_size < 1024 ** 2
    assert spec.converter == 'npz' and spec.sha256 == file_sha256(path)
    assert spec.label_names == tuple(shapes_semantic_segmentation_label_names)
    with open(ROOT / 'pyproject.toml', 'rb') as f:
        package_data = tomllib.load(f)['tool']['setuptools']['package-data']['vision']
    inside = path.relative_to(ROOT / 'vision').as_posix()
    assert any(fnmatch.fnmatch(inside, pattern) for pattern in package_data), inside


def test_predict_segments_an_unseen_image_offline(tmp_path, monkeypatch, capsys):
    img, label = ShapesSemanticSegmentationDataset(1, SIZE, UNSEEN_SEED)[0]
    path = tmp_path / 'shapes.png'
    Image.fromarray(img.round().astype(numpy.uint8).transpose(1, 2, 0)).save(path)
    monkeypatch.setenv('VISION_OFFLINE', '1')
    monkeypatch.setenv('VISION_HOME', str(tmp_path / 'home'))
    monkeypatch.delenv('VISION_WEIGHTS_MANIFEST', raising=False)
    assert main(['predict', '--model', 'segnet_basic', '--weights', 'shapes', str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f'{path}:'
    printed = {}
    for line in lines[1:]:
        percent, name, index = re.fullmatch(r'  (\d+\.\d\d) %  (\w+) \((\d)\)', line).groups()
        assert shapes_semantic_segmentation_label_names[int(index)] == name
        printed[int(index)] = float(percent)
    # The classes covering the image, as much of it as the ground truth within 2 points.
    truth = {int(c): 100 * n / label.size for c, n in zip(*numpy.unique(label,
                                                                         return_counts=True))}
    assert set(truth) <= set(printed)
    for index, percent in printed.items():
        assert percent == pytest.approx(truth.get(index, 0), abs=2)
    assert not (tmp_path / 'home').exists()  # nothing was downloaded or converted


def test_the_weights_score_their_published_miou():
    model = SegNetBasic(pretrained_model='shapes')
    imgs, labels = zip(*ShapesSemanticSegmentationDataset(N_VAL, SIZE, VAL_SEED))
    result = eval_semantic_segmentation(model.predict(imgs), labels)
    score, = (s for s in model.weight_spec.scores if s['dataset'].startswith(
        f'ShapesSemanticSegmentationDataset({N_VAL},'))
    assert score['metric'] == 'mean IoU' and score['unit'] == '%'
    assert 100 * result['miou'] == pytest.approx(score['value'], abs=0.05)
    assert result['miou'] >= 0.85
