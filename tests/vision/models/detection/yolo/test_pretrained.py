"""The weights of the YOLO models: ChainerCV's NPZ files (the classes and the width taken from
them, at the root or under a path), the manifest's rows of ChainerCV's published weights, and
the arguments that contradict them."""

from __future__ import annotations

import numpy
import pytest

from framework.links.link import Chain
from framework.serializers import save_npz
from vision.models.detection.yolo import YOLOv2, YOLOv2Tiny, YOLOv3
from vision.weights import get_weight

CLASSES = [YOLOv2Tiny, YOLOv2, YOLOv3]


def _write_npz(path, model, prefix=''):
    target = model
    if prefix:
        target = Chain()
        with target.init_scope():
            target.model = model
    save_npz(str(path), target)
    return path


@pytest.mark.parametrize('cls', CLASSES)
@pytest.mark.parametrize('prefix', ['', 'model/'])
def test_an_npz_file_fixes_the_classes_and_the_width(tiny_yolo, tmp_path, cls, prefix):
    saved = tiny_yolo(cls, n_fg_class=4, seed=1)
    path = _write_npz(tmp_path / 'yolo.npz', saved, prefix)
    model = cls(pretrained_model=path, insize=64)
    assert model.n_fg_class == 4 and model.weight_spec is None
    assert model.extractor[0].conv.W.shape[0] == 2
    saved_params = dict(saved.namedparams())
    for name, param in model.namedparams():
        numpy.testing.assert_array_equal(param.array, saved_params[name].array, err_msg=name)


def test_arguments_contradicting_a_file_are_refused(tiny_yolo, tmp_path):
    path = _write_npz(tmp_path / 'yolo.npz', tiny_yolo(YOLOv3, n_fg_class=4))
    with pytest.raises(ValueError, match=r'YOLOv3: n_fg_class=20 contradicts the file '
                                         r'.*yolo\.npz, which detect 4 foreground classes'):
        YOLOv3(n_fg_class=20, pretrained_model=path, insize=64)
    with pytest.raises(ValueError, match=r'YOLOv3: base_channels=32 contradicts the file '
                                         r'.*whose first convolution has 2 channels'):
        YOLOv3(pretrained_model=path, base_channels=32, insize=64)


def test_files_of_no_yolo_head_are_refused(tmp_path):
    numpy.savez(tmp_path / 'other.npz', W=numpy.zeros(3))
    with pytest.raises(ValueError, match=r"YOLOv3: the NPZ file .*other\.npz holds no YOLOv3 "
                                         r"head \(no key 'subnet/0/1/b'"):
        YOLOv3(pretrained_model=tmp_path / 'other.npz')
    (tmp_path / 'text').write_text('PK not a zip file, nor Darknet weights\n' * 3)
    with pytest.raises(ValueError, match="must be an NPZ file in ChainerCV's layout or a "
                                         "Darknet weights file, but it is neither"):
        YOLOv2(pretrained_model=tmp_path / 'text')


@pytest.mark.parametrize('cls', CLASSES)
def test_n_fg_class_contradicting_the_voc_weights_is_refused(cls):
    with pytest.raises(ValueError, match=rf"{cls.__name__}: n_fg_class=5 contradicts the "
                                         r"weights 'voc0712' .*which detect 20 foreground"):
        cls(n_fg_class=5, pretrained_model='voc0712')


def test_unknown_weights_are_refused():
    with pytest.raises(ValueError, match="unknown pretrained_model 'coco'.*yolo_v3/voc0712"):
        YOLOv3(pretrained_model='coco')


def test_manifest_rows_are_chainercvs():
    for model, url, value in (
            ('yolo_v2', 'yolo_v2_voc0712_converted_2018_05_03.npz', 75.8),
            ('yolo_v2_tiny', 'yolo_v2_tiny_voc0712_converted_2018_10_19.npz', 53.5),
            ('yolo_v3', 'yolo_v3_voc0712_converted_2018_05_01.npz', 80.2)):
        spec = get_weight(model, 'voc0712')
        assert spec.source['url'] == f'https://chainercv-models.preferred.jp/{url}'
        assert spec.n_class == 20 and spec.label_names[0] == 'aeroplane'
        assert spec.converter == 'chainercv_npz' and spec.sha256 is None
        numpy.testing.assert_array_equal(spec.preprocessing.model_mean(), 0)
        numpy.testing.assert_allclose(spec.preprocessing.input_scale(), 1 / 255)
        assert [s['value'] for s in spec.scores] == [value]
        assert 'score_thresh 0.005' in spec.scores[0]['protocol']


def test_weights_by_name_are_fetched_and_loaded(tiny_yolo, tmp_path, file_server, vision_home,
                                                weights_manifest, weight_row):
    saved = tiny_yolo(YOLOv2Tiny, n_fg_class=20, seed=2)
    data = _write_npz(tmp_path / 'served.npz', saved).read_bytes()
    url = file_server.serve('/yolo_v2_tiny_voc0712.npz', data)
    weights_manifest([weight_row(
        model='yolo_v2_tiny', name='voc0712', source={'url': url}, converter='chainercv_npz',
        n_class=20, categories='voc', model_kwargs={'base_channels': 2})])
    with pytest.warns(UserWarning, match='without a published hash'):
        model = YOLOv2Tiny(pretrained_model='voc0712', insize=64)
    assert model.n_fg_class == 20 and model.weight_spec.name == 'voc0712'
    numpy.testing.assert_array_equal(model.subnet.W.array, saved.subnet.W.array)
    assert file_server.count('/yolo_v2_tiny_voc0712.npz') == 1
