"""scripts/eval_semantic_segmentation.py on a CamVid directory in the SegNet tutorial's layout,
with the weights of a small random SegNetBasic in a file: ChainerCV's protocol, the numbers
``vision evaluate`` prints, and one line for a mistake."""

import importlib.util
import sys
from pathlib import Path

import numpy
import pytest

from framework.serializers import save_npz
from vision.__main__ import main as vision_main
from vision.datasets import camvid_label_names
from vision.evaluations import eval_semantic_segmentation
from vision.models import SegNetBasic

_TESTS = Path(__file__).resolve().parents[1]
_SCRIPTS = _TESTS.parent / 'scripts'


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def eval_semantic_segmentation_script(monkeypatch):
    monkeypatch.syspath_prepend(str(_SCRIPTS))
    return _module(_SCRIPTS / 'eval_semantic_segmentation.py', 'eval_semantic_segmentation')


@pytest.fixture
def camvid_test(tmp_path):
    """``(root, labels)``: a CamVid directory whose test split has two 20x24 images."""
    write = _module(_TESTS / 'vision/evaluations/conftest.py',
                    '_evaluations_tests').write_segmentation_split
    rng = numpy.random.default_rng(0)
    labels = [rng.integers(-1, 11, (20, 24)).astype(numpy.int32) for _ in range(2)]
    return write('camvid', tmp_path / 'CamVid', 'test', labels), labels


@pytest.fixture
def segnet_file(tmp_path):
    """A random SegNetBasic of 11 classes and 4 channels saved in a file; returns its path."""
    numpy.random.seed(0)
    path = tmp_path / 'segnet.npz'
    save_npz(str(path), SegNetBasic(n_class=11, base_channels=4))
    return path


def test_camvid_prints_chainercvs_scores_and_each_class_as_vision_evaluate(
        eval_semantic_segmentation_script, camvid_test, segnet_file, capsys):
    root, _ = camvid_test
    result = eval_semantic_segmentation_script.main([
        '--dataset', 'camvid', '--data-dir', str(root), '--pretrained-model', str(segnet_file),
        '--batchsize', '2', '--loaderjob', '0'])
    lines = capsys.readouterr().out.split('\n')
    model = SegNetBasic(pretrained_model=str(segnet_file))
    imgs, labels = zip(*eval_semantic_segmentation_script.SEMANTIC_SEGMENTATION_BENCHMARKS[
        'camvid'].dataset(str(root)))
    expected = eval_semantic_segmentation(model.predict(imgs), labels)
    assert 0 < result['miou'] == expected['miou'] < 1
    numpy.testing.assert_array_equal(result['iou'], expected['iou'])
    assert lines[0] == f'segnet_basic ({segnet_file}) on CamVid test, 2 images:'
    assert lines[1].startswith('\r2 of 2 samples')
    assert lines[2:5] == [f'mIoU: {100 * result["miou"]:.2f} %',
                          f'pixel accuracy: {100 * result["pixel_accuracy"]:.2f} %',
                          f'mean class accuracy: {100 * result["mean_class_accuracy"]:.2f} %']
    assert [line.split(':')[0] for line in lines[5:-1]] == list(camvid_label_names)
    assert vision_main(['evaluate', '--model', 'segnet_basic', '--weights', str(segnet_file),
                        '--dataset', str(root), '--loaderjob', '0']) == 0
    assert [line.strip() for line in capsys.readouterr().out.splitlines()[1:]] == lines[2:-1]


def test_defaults_are_chainercvs(eval_semantic_segmentation_script, capsys):
    args = eval_semantic_segmentation_script.parse_args([])
    assert (args.dataset, args.model, args.pretrained_model, args.batchsize) == (
        'camvid', 'segnet_basic', 'camvid', 1)
    args = eval_semantic_segmentation_script.parse_args(
        ['--dataset', 'ade20k', '--model', 'pspnet_resnet101'])
    assert args.pretrained_model == 'ade20k'
    with pytest.raises(SystemExit):
        eval_semantic_segmentation_script.parse_args(['--dataset', 'voc'])
    assert ("segnet_basic has no weights named 'voc' (vision list --model segnet_basic): give "
            '--pretrained-model') in capsys.readouterr().err


def test_a_mistake_is_one_line(eval_semantic_segmentation_script, camvid_test, segnet_file,
                               tmp_path, capsys):
    root, _ = camvid_test
    with pytest.raises(SystemExit) as exit_:
        eval_semantic_segmentation_script.main([
            '--dataset', 'voc', '--data-dir', str(root), '--pretrained-model',
            str(segnet_file), '--loaderjob', '0'])
    assert exit_.value.code == (
        f'eval_semantic_segmentation.py: error: segnet_basic: n_class=21 contradicts the file '
        f'{segnet_file}, made for n_class=11: leave n_class out or pass n_class=11')
    with pytest.raises(SystemExit) as exit_:  # a directory without CamVid's test.txt
        eval_semantic_segmentation_script.main([
            '--data-dir', str(tmp_path), '--pretrained-model', str(segnet_file)])
    assert exit_.value.code.startswith('eval_semantic_segmentation.py: error: CamVidDataset: ')
    assert 'test.txt' in exit_.value.code and '\n' not in exit_.value.code
    for argv, message in ((['--data-dir', str(tmp_path / 'missing')],
                           f"--data-dir must be a directory (or auto), but "
                           f"'{tmp_path / 'missing'}' is not"),
                          (['--dataset', 'shapes', '--data-dir', str(root),
                            '--pretrained-model', 'x.npz'],
                           '--data-dir is not for --dataset shapes, which are drawn')):
        with pytest.raises(SystemExit):
            eval_semantic_segmentation_script.parse_args(argv)
        assert capsys.readouterr().err.endswith(f'error: {message}\n')
