"""SSD300 and SSD512 of another width than the paper's (``base_channels``): the layers follow
the width, the names stay ChainerCV's, and weights files fix the width."""

from __future__ import annotations

import numpy
import pytest

from framework.serializers import save_npz
from vision.models import SSD300, SSD512
from vision.models.detection.ssd import VGG16Extractor300


@pytest.mark.parametrize('cls', [SSD300, SSD512])
def test_every_layer_follows_the_width(cls):
    slim = cls(n_fg_class=4, base_channels=8)
    full = cls(n_fg_class=4)
    slim_shapes = {name: p.shape for name, p in slim.namedparams()}
    full_shapes = {name: p.shape for name, p in full.namedparams()}
    assert slim_shapes.keys() == full_shapes.keys()
    for name, shape in full_shapes.items():
        if name.startswith('/extractor/') and name.endswith('/W'):
            # Output and input channels an eighth (the image's 3 channels excepted).
            expected = (shape[0] // 8, shape[1] // 8 if shape[1] > 3 else 3, *shape[2:])
        elif name.startswith('/extractor/'):
            expected = (shape[0] // 8,)
        elif name.startswith('/multibox/') and name.endswith('/W'):
            expected = (shape[0], shape[1] // 8, *shape[2:])
        else:
            expected = shape
        assert slim_shapes[name] == expected, name
    assert (full.extractor.base_channels, slim.extractor.base_channels) == (64, 8)


def test_a_slim_model_runs_on_the_full_input():
    model = SSD300(n_fg_class=3, base_channels=4)
    assert model.extractor.channels == (32, 64, 32, 16, 16, 16)
    mb_locs, mb_confs = model(numpy.zeros((1, 3, 300, 300), numpy.float32))
    assert mb_locs.shape == (1, 8732, 4)
    assert mb_confs.shape == (1, 8732, 4)


def test_a_file_fixes_the_width(tmp_path):
    trained = SSD300(n_fg_class=2, base_channels=4)
    path = tmp_path / 'model.npz'
    save_npz(path, trained)
    loaded = SSD300(pretrained_model=path)
    assert loaded.extractor.base_channels == 4
    for (name, p), (_, q) in zip(sorted(trained.namedparams()), sorted(loaded.namedparams())):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
    with pytest.raises(ValueError, match=r'SSD300: base_channels=8 contradicts the file .*'
                                         r'whose conv1_1 has 4 channels'):
        SSD300(pretrained_model=path, base_channels=8)


@pytest.mark.parametrize('base_channels', [0, -8, True, 8.0])
def test_width_must_be_a_positive_int(base_channels):
    with pytest.raises(ValueError, match='VGG16Extractor300: base_channels must be a positive '
                                         'int'):
        VGG16Extractor300(base_channels)
