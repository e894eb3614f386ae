"""Darknet's ``.weights`` files as ``pretrained_model``: recognised by content, read in
Darknet's layer order as ChainerCV's ``examples/yolo/darknet2npz.py`` converts them (the
offsets turned from ``(x, y, w, h)`` to ``(y, x, h, w)``), the number of classes taken from the
length, and files of another model refused with both float counts. The files are written here
from tiny models (width 2, 64x64)."""

from __future__ import annotations

import numpy
import pytest

from framework.links import ChainList, Conv2DBNActiv, Convolution2D
from vision.models.detection.yolo import YOLOv2, YOLOv2Tiny, YOLOv3
from vision.models.detection.yolo.darknet_weights import darknet_header_size

CLASSES = [YOLOv2Tiny, YOLOv2, YOLOv3]


def _darknet_order(model):
    """The model's links in Darknet's order, as darknet2npz.py walks them."""
    if isinstance(model, YOLOv3):
        order = []
        for i, link in enumerate(model.extractor):
            order.append(link)
            if i in (33, 39, 45):
                order.append(model.subnet[(i - 33) // 6])
        return order
    return [model.extractor, model.subnet]


def _values(link):
    """The float32 values Darknet stores for a link, in its order; the offsets of a head in
    Darknet's ``(x, y, w, h)``."""
    if isinstance(link, Conv2DBNActiv):
        bn = link.bn
        return [bn.beta.array, bn.gamma.array, bn.avg_mean, bn.avg_var, link.conv.W.array]
    if isinstance(link, Convolution2D):
        arrays = []
        for array in (link.b.array, link.W.array):
            array = array.reshape((-1, 5 + _values.n_fg_class) + array.shape[1:]).copy()
            array[:, :4] = array[:, [1, 0, 3, 2]]
            arrays.append(array)
        return arrays
    assert isinstance(link, ChainList)
    return [v for child in link for v in _values(child)]


def _write_darknet(path, model, version=(0, 2, 0), extra=0):
    """``model`` as a Darknet file of the given header version, with ``extra`` more floats."""
    _values.n_fg_class = model.n_fg_class
    values = [v.ravel() for link in _darknet_order(model) for v in _values(link)]
    values.append(numpy.zeros(extra, numpy.float32))
    major, minor, revision = version
    seen = numpy.array([12345], numpy.int64 if major * 10 + minor >= 2 else numpy.int32)
    with open(path, 'wb') as f:
        f.write(numpy.array(version, '<i4').tobytes())
        f.write(seen.astype(seen.dtype.newbyteorder('<')).tobytes())
        f.write(numpy.concatenate(values).astype('<f4').tobytes())
    return path


def _random(tiny_yolo, cls, n_fg_class=3, seed=0):
    """A tiny model whose batch normalizations have random statistics too."""
    model = tiny_yolo(cls, n_fg_class=n_fg_class, seed=seed)
    rng = numpy.random.RandomState(seed)
    for _, link in model.namedlinks():
        if isinstance(link, Conv2DBNActiv):
            link.bn.avg_mean[...] = rng.standard_normal(link.bn.avg_mean.shape)
            link.bn.avg_var[...] = rng.uniform(0.5, 1.5, link.bn.avg_var.shape)
    for _, param in model.namedparams():
        param.array[...] = rng.standard_normal(param.shape)
    return model


def _assert_same(model, expected):
    params = dict(expected.namedparams())
    for name, param in model.namedparams():
        numpy.testing.assert_array_equal(param.array, params[name].array, err_msg=name)
    persistents = dict(expected.namedpersistents())
    for name, value in model.namedpersistents():
        if isinstance(value, numpy.ndarray):
            numpy.testing.assert_array_equal(value, persistents[name], err_msg=name)


@pytest.mark.parametrize('cls', CLASSES)
@pytest.mark.parametrize('version', [(0, 1, 0), (0, 2, 0)])
def test_a_darknet_file_fills_the_model_as_darknet2npz(tiny_yolo, tmp_path, cls, version):
    expected = _random(tiny_yolo, cls)
    path = _write_darknet(tmp_path / 'yolo.weights', expected, version)
    model = cls(pretrained_model=str(path), base_channels=2, insize=64)
    assert model.n_fg_class == 3 and model.weight_spec is None
    _assert_same(model, expected)


def test_the_offsets_are_turned_to_chainercvs_order(tiny_yolo, tmp_path):
    expected = _random(tiny_yolo, YOLOv2Tiny, n_fg_class=2)
    expected.subnet.b.array[...] = numpy.arange(35)
    path = _write_darknet(tmp_path / 'tiny.weights', expected)
    stored = numpy.fromfile(path, '<f4', offset=20)
    bias_at = stored.size - expected.subnet.W.size - 35
    numpy.testing.assert_array_equal(stored[bias_at:bias_at + 8], [1, 0, 3, 2, 4, 5, 6, 8])
    model = YOLOv2Tiny(pretrained_model=path, base_channels=2, insize=64)
    numpy.testing.assert_array_equal(model.subnet.b.array, numpy.arange(35))


@pytest.mark.parametrize('cls', CLASSES)
def test_n_fg_class_follows_from_the_length(tiny_yolo, tmp_path, cls):
    path = _write_darknet(tmp_path / 'yolo.weights', _random(tiny_yolo, cls, n_fg_class=7))
    assert cls(pretrained_model=path, base_channels=2, insize=64).n_fg_class == 7
    assert cls(n_fg_class=7, pretrained_model=path, base_channels=2, insize=96).insize == 96


def test_a_file_of_other_classes_is_refused_with_both_counts(tiny_yolo, tmp_path):
    model = _random(tiny_yolo, YOLOv3)
    path = _write_darknet(tmp_path / 'yolo.weights', model)
    stored = (path.stat().st_size - 20) // 4
    per_class = (64 + 32 + 16 + 3) * 3
    with pytest.raises(ValueError, match=rf'the Darknet weights file .*yolo\.weights holds '
                                         rf'{stored} float32 values, but YOLOv3\(base_channels'
                                         rf'=2\) with n_fg_class=4 has {stored + per_class}'):
        YOLOv3(n_fg_class=4, pretrained_model=path, base_channels=2, insize=64)


def test_a_file_of_another_model_is_refused_with_the_counts(tiny_yolo, tmp_path):
    path = _write_darknet(tmp_path / 'yolo.weights', _random(tiny_yolo, YOLOv2Tiny), extra=1)
    stored = (path.stat().st_size - 20) // 4
    with pytest.raises(ValueError, match=rf'holds {stored} float32 values, but '
                                         rf'YOLOv2Tiny\(base_channels=2\) has \d+ \+ 645 \* '
                                         r'n_fg_class .*of another model or width'):
        YOLOv2Tiny(pretrained_model=path, base_channels=2, insize=64)
    with pytest.raises(ValueError, match=r'holds \d+ float32 values, but YOLOv2Tiny'):
        YOLOv2Tiny(pretrained_model=path, insize=64)


@pytest.mark.parametrize('head, size, expected', [
    ((0, 2, 0), 20 + 8, 20), ((0, 1, 0), 16 + 8, 16), ((1, 0, 3), 20 + 4, 20),
    ((0, 2, 0), 20 + 6, None), ((0, 2, 0), 20, None), ((-1, 2, 0), 28, None),
    ((5000, 2, 0), 28, None),
])
def test_darknet_files_are_recognised_by_their_header(tmp_path, head, size, expected):
    path = tmp_path / 'file'
    data = numpy.array(head, '<i4').tobytes()
    path.write_bytes(data + bytes(size - len(data)))
    assert darknet_header_size(path) == expected


def test_npz_files_and_short_files_are_no_darknet_files(tmp_path):
    numpy.savez(tmp_path / 'a.npz', W=numpy.zeros(3))
    (tmp_path / 'short').write_bytes(b'\0' * 8)
    assert darknet_header_size(tmp_path / 'a.npz') is None
    assert darknet_header_size(tmp_path / 'short') is None
