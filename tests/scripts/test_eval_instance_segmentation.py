"""scripts/eval_instance_segmentation.py and ``vision evaluate`` of instance segmentation on an
MS COCO val2017 directory and an SBD directory in their real layouts (the COCO and SBD tests'
small files), and on shapes, with a random Mask R-CNN of a sixteenth the width: ChainerCV's
protocol, and the numbers both print."""

import importlib.util
import math
import sys
from pathlib import Path

import numpy
import pytest

from vision.__main__ import main as vision_main
from vision.datasets import (
    COCOInstanceSegmentationDataset,
    SBDInstanceSegmentationDataset,
    ShapesInstanceSegmentationDataset,
)
from vision.evaluations import eval_instance_segmentation_coco, eval_instance_segmentation_voc
from vision.models import MaskRCNNFPNResNet50

_TESTS = Path(__file__).resolve().parents[1]
_KWARGS = {'base_channels': 2, 'min_size': 64, 'max_size': 64}
_OPTIONS = ['--base-channels', '2', '--min-size', '64', '--max-size', '64', '--loaderjob', '0',
            '--eager']


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def weights(tmp_path_factory):
    """``{n_fg_class: path}``: random Mask R-CNNs of 80, 20 and 4 classes, saved."""
    from framework.serializers import save_npz
    root = tmp_path_factory.mktemp('weights')
    paths = {}
    for n_fg_class in (80, 20, 4):
        paths[n_fg_class] = root / f'{n_fg_class}.npz'
        save_npz(paths[n_fg_class], MaskRCNNFPNResNet50(n_fg_class=n_fg_class, **_KWARGS))
    return paths


def _model(path, n_fg_class):
    model = MaskRCNNFPNResNet50(n_fg_class=n_fg_class, pretrained_model=path, **_KWARGS)
    model.use_preset('evaluate')
    return model


@pytest.fixture
def coco_val2017(tmp_path):
    """A COCO directory: ``images/val2017`` and ``annotations/instances_val2017.json`` of the
    COCO tests (objects drawn as polygons, RLE and crowds)."""
    coco = _module(_TESTS / 'vision/datasets/coco/conftest.py', '_coco_archives')
    images, annotations = coco.make_split(numpy.random.default_rng(0), 1, 3)
    root = tmp_path / 'coco'
    (root / 'images' / 'val2017').mkdir(parents=True)
    (root / 'annotations').mkdir()
    for image in images:
        (root / 'images' / 'val2017' / image.file_name).write_bytes(image.jpeg)
    (root / 'annotations' / 'instances_val2017.json').write_bytes(annotations)
    return root


@pytest.fixture
def sbd_dataset(tmp_path):
    """SBD's ``benchmark_RELEASE/dataset`` with two val images (``val_voc2012.txt``, ``img``,
    ``cls``, ``inst``), MAT-files as the SBD tests write them."""
    sbd = _module(_TESTS / 'vision/datasets/sbd/conftest.py', '_sbd_archive')
    root = tmp_path / 'benchmark_RELEASE' / 'dataset'
    for folder in ('img', 'cls', 'inst'):
        (root / folder).mkdir(parents=True)
    rng = numpy.random.default_rng(0)
    ids = ['2008_000002', '2008_000003']
    for id_ in ids:
        jpeg, class_map, inst_map, labels, _ = sbd.make_example(rng)
        (root / 'img' / f'{id_}.jpg').write_bytes(jpeg)
        (root / 'cls' / f'{id_}.mat').write_bytes(sbd.mat_bytes({'GTcls': {
            'Segmentation': class_map}}))
        (root / 'inst' / f'{id_}.mat').write_bytes(sbd.mat_bytes({'GTinst': {
            'Segmentation': inst_map,
            'Categories': numpy.array(labels, numpy.uint8)[:, None] + 1}}))
    (root / 'val_voc2012.txt').write_text(''.join(f'{id_}\n' for id_ in ids))
    return root


def _vision_evaluate(capsys, path, n_fg_class, dataset, *extra):
    argv = ['evaluate', '--model', 'mask_rcnn_fpn_resnet50', '--weights', str(path),
            '--dataset', str(dataset), '--loaderjob', '0', '--eager',
            '--arg', f'n_fg_class={n_fg_class}', *extra]
    for name, value in _KWARGS.items():
        argv += ['--arg', f'{name}={value}']
    assert vision_main(argv) == 0
    return [line.strip() for line in capsys.readouterr().out.splitlines()[1:]]


def _same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b


def test_coco_prints_the_mask_aps_by_iou_and_size_as_vision_evaluate(
        load_script, coco_val2017, weights, capsys):
    script = load_script('eval_instance_segmentation')
    result = script.main(['--dataset', 'coco', '--data-dir', str(coco_val2017),
                          '--pretrained-model', str(weights[80]), *_OPTIONS])
    lines = capsys.readouterr().out.split('\n')
    # ChainerCV's protocol: the 'evaluate' preset, crowds and areas of the annotations.
    dataset = COCOInstanceSegmentationDataset(str(coco_val2017), split='val', use_crowded=True,
                                              return_area=True, return_crowded=True)
    examples = [dataset[i] for i in range(len(dataset))]
    expected = eval_instance_segmentation_coco(
        *_model(weights[80], 80).predict([e[0] for e in examples]),
        *([e[k] for e in examples] for k in range(1, 5)))
    assert result.keys() == expected.keys()
    for key in result:
        if key.startswith('map'):
            assert _same(result[key], expected[key]), key
    assert lines[0] == (f'mask_rcnn_fpn_resnet50 ({weights[80]}) on MS COCO 2017 val, 3 '
                        'images:')
    assert lines[1].split('\r')[-1].startswith('3 of 3 samples')
    means = [line.split(': ')[0] for line in lines[2:8]]
    assert means == ['mask mmAP (all, IoU 0.50:0.95)', 'mask mAP (all, IoU 0.50)',
                     'mask mAP (all, IoU 0.75)', 'mask mmAP (large, IoU 0.50:0.95)',
                     'mask mmAP (medium, IoU 0.50:0.95)', 'mask mmAP (small, IoU 0.50:0.95)']
    assert lines[8].startswith('person: ') and len(lines) == 2 + 6 + 80 + 1
    assert _vision_evaluate(capsys, weights[80], 80, coco_val2017) == lines[2:-1]


def test_sbd_prints_chainercvs_map_and_each_class_as_vision_evaluate(
        load_script, sbd_dataset, weights, capsys):
    script = load_script('eval_instance_segmentation')
    result = script.main(['--dataset', 'sbd', '--data-dir', str(sbd_dataset),
                          '--pretrained-model', str(weights[20]), *_OPTIONS])
    lines = capsys.readouterr().out.split('\n')
    dataset = SBDInstanceSegmentationDataset(str(sbd_dataset), split='val')
    examples = [dataset[i] for i in range(len(dataset))]
    expected = eval_instance_segmentation_voc(
        *_model(weights[20], 20).predict([e[0] for e in examples]),
        [e[1] for e in examples], [e[2] for e in examples], iou_thresh=0.5, use_07_metric=True)
    assert _same(result['map'], expected['map'])
    numpy.testing.assert_array_equal(result['ap'], expected['ap'])
    assert lines[0] == f'mask_rcnn_fpn_resnet50 ({weights[20]}) on SBD val, 2 images:'
    assert lines[2].startswith('mAP (VOC2007 11-point, mask IoU 0.5): ')
    assert lines[3].startswith('aeroplane: ') and len(lines) == 2 + 1 + 20 + 1
    assert _vision_evaluate(capsys, weights[20], 20, sbd_dataset) == lines[2:-1]


def test_shapes_of_the_validation_seed(load_script, weights, capsys):
    script = load_script('eval_instance_segmentation')
    result = script.main(['--dataset', 'shapes', '--n-images', '2', '--size', '32',
                          '--pretrained-model', str(weights[4]), *_OPTIONS])
    examples = list(ShapesInstanceSegmentationDataset(2, 32, seed=1))
    expected = eval_instance_segmentation_voc(
        *_model(weights[4], 4).predict([e[0] for e in examples]),
        [e[1] for e in examples], [e[2] for e in examples], iou_thresh=0.5)
    assert _same(result['map'], expected['map'])
    lines = capsys.readouterr().out.split('\n')
    assert lines[0] == (f'mask_rcnn_fpn_resnet50 ({weights[4]}) on shapes (2 images of 32x32, '
                        'seed 1), 2 images:')
    assert lines[2].startswith('mAP (area under the PR curve, mask IoU 0.5): ')


def test_defaults_are_chainercvs(load_script, capsys):
    script = load_script('eval_instance_segmentation')
    args = script.parse_args([])
    assert (args.dataset, args.model, args.pretrained_model, args.batchsize) == (
        'coco', 'mask_rcnn_fpn_resnet50', 'coco', 1)
    with pytest.raises(SystemExit):
        script.parse_args(['--dataset', 'sbd'])
    assert 'ChainerCV publishes no weights of mask_rcnn_fpn_resnet50 for --dataset sbd: give ' \
           '--pretrained-model' in capsys.readouterr().err

