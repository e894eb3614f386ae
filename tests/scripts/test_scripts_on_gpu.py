"""Each training script runs a few iterations on GPU 0 (``--device @cupy:0``) and validates:
its model, train chain, updater, evaluator and snapshot on CuPy (skipped where no GPU is)."""

import math

import pytest

from framework.testing import attr

_SHAPES = ['--dataset', 'shapes', '--n-train', '8', '--n-val', '4', '--loaderjob', '1',
           '--log-interval', '1', '--device', '@cupy:0']
# script: options of a small model on small shapes
_RUNS = {
    'train_ssd': ['--base-channels', '4', '--size', '64', '--batchsize', '4', '--step', '3'],
    'train_faster_rcnn': ['--base-channels', '4', '--size', '64', '--min-size', '128',
                          '--max-size', '160', '--anchor-scales', '2', '4', '--step', '3'],
    'train_fpn': ['--base-channels', '2', '--size', '64', '--batchsize', '2', '--min-size',
                  '128', '--max-size', '128', '--lr', '1e-4', '--step', '3'],
    'train_mask_rcnn': ['--base-channels', '2', '--size', '64', '--batchsize', '2',
                        '--min-size', '128', '--max-size', '128', '--lr', '1e-4', '--step', '3'],
    'train_yolo': ['--base-channels', '4', '--size', '64', '--batchsize', '2', '--insize', '64',
                   '--sizes', '64', '96', '--warmup', '2', '--lr', '1e-4', '--step', '3'],
    'train_segnet': ['--base-channels', '4', '--size', '32', '--batchsize', '4'],
    'train_pspnet': ['--model', 'pspnet_resnet50', '--base-channels', '2', '--size', '48',
                     '--batchsize', '2'],
}


@attr.gpu
@pytest.mark.parametrize('script', sorted(_RUNS))
def test_the_script_trains_on_the_gpu(load_script, tmp_path, script):
    module = load_script(script)
    log = module.main(_SHAPES + _RUNS[script] + ['--iteration', '4', '--snapshot-interval', '2',
                                                 '--out', str(tmp_path)])
    assert log['iteration'] == 4
    assert math.isfinite(log['main/loss'])
    assert (tmp_path / 'snapshot_iter_4').exists()


@attr.gpu
def test_train_imagenet_trains_on_the_gpu(load_script, tmp_path):
    module = load_script('train_imagenet')
    log = module.main(['--dataset', 'shapes', '--model', 'resnet14', '--base-channels', '4',
                       '--size', '20', '--n-train', '32', '--n-val', '16', '--batchsize', '8',
                       '--loaderjob', '1', '--epoch', '1', '--device', '@cupy:0',
                       '--out', str(tmp_path)])
    assert math.isfinite(log['main/loss'])
