"""train_fpn.py: the warm-up and steps of the learning rate, the transform and the converter of
the samples, the frozen layers, the one-line errors of the options, and short trainings of a
tiny FPN on shapes (repeated with a seed, resumed, over two MPI processes)."""

import json
import pathlib
import random
import sys

import numpy
import pytest

from framework import optimizers
from framework.links import BatchNormalization
from framework.testing.mpi import job_env, mpiexec, requires_mpi, run_job
from vision.models import FasterRCNNFPNResNet50
from vision.transforms import flip, resize

# FPN of a thirty-second the width on 64x64 shapes scaled to 128x128 (large enough for the
# RPN to sample its anchors), 8 training and 4 validation images, batches of 2.
_SHAPES = ['--dataset', 'shapes', '--base-channels', '2', '--size', '64', '--n-train', '8',
           '--n-val', '4', '--batchsize', '2', '--min-size', '128', '--max-size', '128',
           '--lr', '1e-4', '--step', '3', '--log-interval', '1']
_MODEL_KWARGS = {'base_channels': 2, 'min_size': 128, 'max_size': 128}


def _model():
    return FasterRCNNFPNResNet50(n_fg_class=4, **_MODEL_KWARGS)


def _rate(train_fpn, iteration, lr, steps):
    return train_fpn._detection.learning_rate(iteration, lr, steps, train_fpn.RECIPE.warmup,
                                              train_fpn.RECIPE.warmup_rate)


def test_the_learning_rate_warms_up_from_a_third_then_steps(load_script):
    train_fpn = load_script('train_fpn')
    rates = [_rate(train_fpn, iteration, 0.02, [60000, 80000])
             for iteration in (0, 250, 499, 500, 59999, 60000, 79999, 80000, 89999)]
    numpy.testing.assert_allclose(
        rates, [0.02 / 3, 0.02 * 2 / 3, 0.02 * (1 / 3 + 2 / 3 * 499 / 500), 0.02, 0.02, 0.002,
                0.002, 0.0002, 0.0002], rtol=1e-12)
    # A step within the warm-up takes effect after it, as in ChainerCV.
    assert _rate(train_fpn, 100, 0.03, [50]) == pytest.approx(0.03 * (1 / 3 + 2 / 3 / 5))
    assert _rate(train_fpn, 500, 0.03, [50]) == pytest.approx(0.003)


def test_the_transform_flips_scales_and_subtracts_the_mean(load_script):
    train_fpn = load_script('train_fpn')
    model = FasterRCNNFPNResNet50(n_fg_class=4, base_channels=2, min_size=80, max_size=100)
    transform = train_fpn.Transform(model)
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 40, 60)).astype(numpy.float32)
    bbox = numpy.array([[4, 6, 20, 30]], numpy.float32)
    label = numpy.array([2], numpy.int32)
    # The shorter side would be 80 and the longer 120 > 100: the longer side is 100.
    scale = 100 / 60
    flipped = set()
    for seed in range(8):
        random.seed(seed)
        x, out_bbox, out_label = transform((img, bbox, label))
        assert (x.shape, x.dtype, out_bbox.dtype) == ((3, 66, 100), numpy.float32,
                                                      numpy.float32)
        numpy.testing.assert_array_equal(out_label, label)
        x_flip = bool(out_bbox[0, 1] != bbox[0, 1] * scale)
        flipped.add(x_flip)
        expected = resize(flip(img, x_flip=x_flip), (66, 100)) - model.extractor.mean
        numpy.testing.assert_array_equal(x, expected)
        box = [4, 60 - 30, 20, 60 - 6] if x_flip else bbox[0]
        numpy.testing.assert_allclose(out_bbox[0], numpy.array(box) * scale, rtol=1e-6)
    assert flipped == {False, True}


def test_the_converter_keeps_the_images_of_different_sizes_in_lists(load_script):
    train_fpn = load_script('train_fpn')
    batch = [(numpy.zeros((3, 4, 5), numpy.float32), numpy.zeros((1, 4), numpy.float32),
              numpy.zeros(1, numpy.int32)),
             (numpy.zeros((3, 6, 2), numpy.float32), numpy.zeros((0, 4), numpy.float32),
              numpy.zeros(0, numpy.int32))]
    imgs, bboxes, labels = train_fpn._detection.converter(batch, -1)
    assert [type(v) for v in (imgs, bboxes, labels)] == [list, list, list]
    assert [img.shape for img in imgs] == [(3, 4, 5), (3, 6, 2)]
    assert all(a is b[1] for a, b in zip(bboxes, batch))
    assert all(a is b[2] for a, b in zip(labels, batch))


def test_conv1_res2_and_the_batch_normalizations_are_frozen(load_script):
    train_fpn = load_script('train_fpn')
    chain = train_fpn.TrainChain(_model(), seed=0, rank=0)
    optimizer = optimizers.MomentumSGD(lr=0.01)
    optimizer.setup(chain)
    train_fpn.setup_hooks(chain)
    before = {name: param.array.copy() for name, param in chain.namedparams()}
    bn_statistics = {name: link.avg_mean.copy() for name, link in chain.namedlinks()
                     if isinstance(link, BatchNormalization)}
    rng = numpy.random.RandomState(0)
    imgs = [rng.uniform(-100, 100, (3, 64, 64)).astype(numpy.float32),
            rng.uniform(-100, 100, (3, 48, 64)).astype(numpy.float32)]
    bboxes = [numpy.array([[8, 8, 40, 40]], numpy.float32),
              numpy.array([[4, 10, 30, 50], [20, 2, 44, 20]], numpy.float32)]
    labels = [numpy.array([1], numpy.int32), numpy.array([0, 3], numpy.int32)]
    optimizer.update(chain, imgs, bboxes, labels)

    bn_params = {f'{name}/{p}' for name in bn_statistics for p in ('gamma', 'beta')}
    frozen = {name for name in before if name.startswith(('/model/extractor/base/conv1/',
                                                          '/model/extractor/base/res2/'))}
    assert frozen and bn_params <= set(before)
    changed = {name for name, param in chain.namedparams()
               if not numpy.array_equal(param.array, before[name])}
    assert not changed & (frozen | bn_params)
    # The rest learns: the third stage of ResNet, the pyramid, the RPN and the head.
    for prefix in ('/model/extractor/base/res3/', '/model/extractor/inner/', '/model/rpn/',
                   '/model/bbox_head/'):
        assert any(name.startswith(prefix) for name in changed), prefix
    for name, link in chain.namedlinks():
        if isinstance(link, BatchNormalization):
            numpy.testing.assert_array_equal(link.avg_mean, bn_statistics[name], name)


def test_weight_decay_of_1e_4_is_on_every_trained_parameter(load_script):
    train_fpn = load_script('train_fpn')
    chain = train_fpn.TrainChain(_model(), seed=0, rank=0)
    optimizer = optimizers.MomentumSGD(lr=0.5)
    optimizer.setup(chain)
    train_fpn.setup_hooks(chain)
    before = {}
    for name, param in chain.namedparams():
        before[name] = param.array.copy()
        param.grad = numpy.zeros_like(param.array)
    # With no gradient, an update only decays the weights: by lr * 1e-4.
    optimizer.update()
    for name, param in chain.namedparams():
        if name.startswith('/model/bbox_head/') or name.startswith('/model/rpn/'):
            numpy.testing.assert_allclose(param.array, before[name] * (1 - 0.5e-4),
                                          rtol=1e-6, atol=1e-12, err_msg=name)


@pytest.mark.parametrize('options, message', [
    (['--min-size', '800', '--max-size', '600'],
     '--min-size must be at most --max-size (600), but got 800'),
    (['--min-size', '0'], 'argument --min-size: must be 1 or more, but got 0'),
    (['--model', 'faster_rcnn_vgg16'], "argument --model: invalid choice: 'faster_rcnn_vgg16'"),
    (['--step', '5', '4'], '--step must be increasing, but got 5 4'),
    (['--iteration', '10', '--step', '10'], '--step must be below --iteration (10), but got 10'),
    (['--lr', '0'], '--lr must be positive, but got 0'),
])
def test_mistaken_options_get_one_line(load_script, capsys, options, message):
    train_fpn = load_script('train_fpn')
    with pytest.raises(SystemExit) as exit_info:
        train_fpn.parse_args(options)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert f'error: {message}' in err[-1], err[-1]
    assert err[0].startswith('usage:') and not any('Traceback' in line for line in err)


def test_weights_that_contradict_the_width_get_one_line(load_script, tmp_path, capsys):
    train_fpn = load_script('train_fpn')
    with pytest.raises(SystemExit) as exit_info:
        train_fpn.main(_SHAPES + ['--pretrained-model', 'imagenet', '--out', str(tmp_path)])
    assert exit_info.value.code == (
        "train_fpn.py: error: faster_rcnn_fpn_resnet50: pretrained_model='imagenet' is ResNet "
        'of base_channels 64, but got base_channels=2')
    assert 'Traceback' not in capsys.readouterr().err


def test_the_defaults_are_chainercvs_recipe(load_script):
    train_fpn = load_script('train_fpn')
    args = train_fpn.parse_args([])
    assert (args.dataset, args.model, args.pretrained_model, args.batchsize, args.lr,
            args.iteration, args.step, args.min_size, args.max_size) == (
        'coco', 'faster_rcnn_fpn_resnet50', 'imagenet', 16, 0.02, 90000, [60000, 80000], 800,
        1333)
    assert train_fpn.parse_args(['--dataset', 'shapes']).pretrained_model is None
    assert train_fpn.parse_args(['--base-channels', '8']).pretrained_model is None


def test_a_short_training_logs_the_schedule_and_writes_a_model_its_class_loads(
        load_script, tmp_path):
    train_fpn = load_script('train_fpn')
    last = train_fpn.main(_SHAPES + ['--iteration', '4', '--loaderjob', '0',
                                     '--out', str(tmp_path)])
    assert last['iteration'] == 4
    assert 0 <= last['validation/main/map'] <= 1
    log = json.loads((tmp_path / 'log').read_text())
    # Each entry shows the rate of the update it follows: warm-up from a third of --lr.
    assert [entry['lr'] for entry in log] == pytest.approx(
        [_rate(train_fpn, i, 1e-4, [3]) for i in range(4)])
    assert all(numpy.isfinite(entry[f'main/{key}']) for entry in log
               for key in ('loss', 'loss/rpn/loc', 'loss/rpn/conf', 'loss/bbox_head/loc',
                           'loss/bbox_head/conf'))
    loaded = FasterRCNNFPNResNet50(pretrained_model=tmp_path / 'model.npz', **_MODEL_KWARGS)
    assert loaded.n_class == 5
    with numpy.load(tmp_path / 'model.npz') as npz:
        for name, param in loaded.namedparams():
            numpy.testing.assert_array_equal(param.array, npz[name[1:]], name)


@pytest.mark.slow
@requires_mpi
def test_two_mpi_processes_train_on_lists_and_repeat_with_a_seed(tmp_path):
    root = pathlib.Path(__file__).resolve().parents[2]
    models = []
    for out in (tmp_path / 'a', tmp_path / 'b'):
        command = [mpiexec(), '-n', '2', sys.executable, str(root / 'scripts' / 'train_fpn.py'),
                   *_SHAPES, '--iteration', '2', '--step', '1', '--loaderjob', '1',
                   '--communicator', 'flat', '--out', str(out)]
        job = run_job(command, root, job_env(root), timeout=300)
        assert job.returncode == 0, job.stdout
        assert 'on 2 process(es), batches of 2' in job.stdout
        with numpy.load(out / 'model.npz') as npz:
            models.append({key: npz[key].tobytes() for key in npz.files})
    assert models[0] == models[1]
