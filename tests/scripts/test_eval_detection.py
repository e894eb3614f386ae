"""scripts/eval_detection.py on a VOC2007 test directory in the layout of the VOC tests'
archives, with the SSD tests' tiny SSD registered as ``ssd300``: ChainerCV's protocol, and the
numbers ``vision evaluate`` prints."""

import importlib.util
import io
import sys
import tarfile
from pathlib import Path

import numpy
import pytest

from vision.__main__ import main as vision_main
from vision.evaluations import eval_detection_voc
from vision.models import _registry

_TESTS = Path(__file__).resolve().parents[1]
_SCRIPTS = _TESTS.parent / 'scripts'


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)  # the dataclasses of a module look it up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def eval_detection(monkeypatch):
    monkeypatch.syspath_prepend(str(_SCRIPTS))
    return _module(_SCRIPTS / 'eval_detection.py', 'eval_detection')


@pytest.fixture
def voc2007_test(tmp_path):
    """``(root, examples)``: the VOC tests' small VOC2007 test archive, extracted."""
    archive = _module(_TESTS / 'vision/datasets/voc/conftest.py', '_voc_archives').build(
        1, '2007', test=True)
    with tarfile.open(fileobj=io.BytesIO(archive.data)) as tar:
        tar.extractall(tmp_path, filter='data')
    return tmp_path / 'VOCdevkit' / 'VOC2007', archive.splits['test']


@pytest.fixture
def tiny_ssd300(monkeypatch):
    """Registers as ``ssd300`` a builder of the SSD tests' tiny SSD whose only weights are
    ``'voc0712'`` (20 classes); its boxes are its default boxes, some of which cover objects of
    the VOC tests' images. Returns the builder."""
    build = _module(_TESTS / 'vision/models/detection/ssd/conftest.py',
                    '_ssd_tests')._tiny_voc_ssd300
    monkeypatch.setitem(_registry._MODELS, 'ssd300', build)
    return build


def test_voc_prints_chainercvs_map_and_each_class_as_vision_evaluate(
        eval_detection, voc2007_test, tiny_ssd300, capsys):
    root, examples = voc2007_test
    result = eval_detection.main(['--dataset', 'voc', '--data-dir', str(root), '--model',
                                  'ssd300', '--loaderjob', '0', '--eager'])
    lines = capsys.readouterr().out.split('\n')
    # ChainerCV's protocol: the 'evaluate' preset, difficult objects, the 11-point metric.
    model = tiny_ssd300(pretrained_model='voc0712')
    model.use_preset('evaluate')
    expected = eval_detection_voc(*model.predict([e.img for e in examples]),
                                  [e.bbox for e in examples], [e.label for e in examples],
                                  [e.difficult for e in examples], use_07_metric=True)
    assert 0 < result['map'] == expected['map']
    numpy.testing.assert_array_equal(result['ap'], expected['ap'])
    assert lines[0] == 'ssd300 (voc0712) on PASCAL VOC 2007 test, 2 images:'
    assert lines[1].startswith('\r2 of 2 samples')
    assert lines[2] == f'mAP (VOC2007 11-point, IoU 0.5): {100 * result["map"]:.2f} %'
    assert vision_main(['evaluate', '--model', 'ssd300', '--weights', 'voc0712', '--dataset',
                        str(root), '--loaderjob', '0', '--eager']) == 0
    assert [line.strip() for line in capsys.readouterr().out.splitlines()[1:]] == lines[2:-1]


def test_defaults_are_chainercvs(eval_detection):
    args = eval_detection.parse_args(['--model', 'ssd512'])
    assert (args.dataset, args.pretrained_model, args.batchsize) == ('voc', 'voc0712', 16)
    args = eval_detection.parse_args(['--model', 'faster_rcnn_vgg16', '--batchsize', '2'])
    assert (args.pretrained_model, args.batchsize) == ('voc07', 2)


def test_coco_needs_weights(eval_detection, capsys):
    with pytest.raises(SystemExit):
        eval_detection.parse_args(['--dataset', 'coco', '--model', 'ssd300'])
    assert 'ChainerCV publishes no weights of ssd300 for --dataset coco: give ' \
           '--pretrained-model' in capsys.readouterr().err
    args = eval_detection.parse_args(['--dataset', 'coco', '--pretrained-model', 'x.npz'])
    assert (args.model, args.pretrained_model, args.batchsize) == ('ssd300', 'x.npz', 32)


def test_the_coco_detectors_default_to_chainercvs_coco_weights(eval_detection, capsys):
    for model in ('faster_rcnn_fpn_resnet50', 'faster_rcnn_fpn_resnet101',
                  'light_head_rcnn_resnet101'):
        args = eval_detection.parse_args(['--dataset', 'coco', '--model', model])
        assert (args.pretrained_model, args.batchsize) == ('coco', 1)
        with pytest.raises(SystemExit):
            eval_detection.parse_args(['--dataset', 'voc', '--model', model])
        assert f'ChainerCV publishes no weights of {model} for --dataset voc' in \
            capsys.readouterr().err
