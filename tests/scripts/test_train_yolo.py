"""train_yolo.py: the warm-up and steps of the learning rate, the augmentation, the multi-scale
train chain, the one-line errors of the options, and short trainings of a tiny YOLOv3 on
shapes (repeated with a seed, resumed)."""

import json
import random

import numpy
import pytest

from vision.models import YOLOv3

# YOLOv3 of an eighth the width on 64x64 shapes, batches of 64 or 96 px, 8 training and 4
# validation images, batches of 2.
_SHAPES = ['--dataset', 'shapes', '--base-channels', '4', '--size', '64', '--n-train', '8',
           '--n-val', '4', '--batchsize', '2', '--insize', '64', '--sizes', '64', '96',
           '--warmup', '2', '--lr', '1e-4', '--step', '3', '--log-interval', '1']
_MODEL_KWARGS = {'base_channels': 4, 'insize': 64}


def test_the_learning_rate_warms_up_from_zero_then_steps(load_script):
    train_yolo = load_script('train_yolo')
    shift = train_yolo._detection.learning_rate
    rates = [shift(iteration, 1e-3, [41380, 46550], 518, 0)
             for iteration in (0, 259, 517, 518, 41379, 41380, 46550)]
    numpy.testing.assert_allclose(rates, [0, 0.5e-3, 1e-3 * 517 / 518, 1e-3, 1e-3, 1e-4, 1e-5],
                                  rtol=1e-12, atol=1e-15)


def test_the_defaults_are_gluoncvs_recipe(load_script):
    train_yolo = load_script('train_yolo')
    args = train_yolo.parse_args([])
    assert (args.dataset, args.model, args.pretrained_model, args.batchsize, args.lr,
            args.iteration, args.step, args.insize, args.warmup) == (
        'voc', 'yolo_v3', None, 64, 1e-3, 51700, [41380, 46550], 416, 518)
    assert args.sizes == list(range(320, 609, 32))


def test_the_transform_augments_within_the_crop_and_scales_to_one(load_script):
    train_yolo = load_script('train_yolo')
    rng = numpy.random.RandomState(0)
    img = rng.uniform(0, 255, (3, 60, 80)).astype(numpy.float32)
    bbox = numpy.array([[10, 10, 40, 50], [5, 60, 20, 75]], numpy.float32)
    label = numpy.array([1, 3], numpy.int32)
    for seed in range(6):
        random.seed(seed)
        numpy.random.seed(seed)
        x, out_bbox, out_label = train_yolo.Transform()((img, bbox, label))
        assert x.dtype == numpy.float32 and x.ndim == 3 and x.shape[0] == 3
        assert 0 <= x.min() and x.max() <= 1
        assert out_bbox.dtype == numpy.float32 and out_label.dtype == numpy.int32
        assert len(out_bbox) == len(out_label) and set(out_label) <= {1, 3}
        assert (out_bbox >= 0).all()
        assert (out_bbox[:, 2:] <= numpy.array(x.shape[1:], numpy.float32)).all()


def test_the_train_chain_draws_a_side_for_ten_batches_and_resizes_the_boxes(load_script):
    train_yolo = load_script('train_yolo')
    numpy.random.seed(0)
    model = YOLOv3(n_fg_class=4, **_MODEL_KWARGS)
    chain = train_yolo.TrainChain(model, (64, 96, 128), 10, seed=3, rank=0)
    sides = [chain.side(batch) for batch in range(40)]
    assert all(len(set(sides[i:i + 10])) == 1 for i in range(0, 40, 10))
    assert set(sides) > {sides[0]}
    seen = {}

    def targets(locs, bboxes, labels, insize=None):
        seen['insize'], seen['bboxes'] = insize, bboxes
        return original(locs, bboxes, labels, insize)

    original = chain.targets
    chain.targets = targets
    imgs = [numpy.zeros((3, 40, 50), numpy.float32), numpy.zeros((3, 20, 20), numpy.float32)]
    bboxes = [numpy.array([[4, 5, 20, 25]], numpy.float32), numpy.zeros((0, 4), numpy.float32)]
    labels = [numpy.array([2], numpy.int32), numpy.zeros(0, numpy.int32)]
    loss = chain(imgs, bboxes, labels)
    side = sides[0]
    assert numpy.isfinite(float(loss.array)) and seen['insize'] == side
    numpy.testing.assert_allclose(seen['bboxes'][0], [[4 * side / 40, 5 * side / 50,
                                                       20 * side / 40, 25 * side / 50]],
                                  rtol=1e-6)
    assert int(chain.batch_count) == 1


@pytest.mark.parametrize('options, message', [
    (['--insize', '100'], '--insize must be multiples of 32, but got 100'),
    (['--sizes', '64', '70'], '--sizes must be multiples of 32, but got 64 70'),
    (['--warmup', '-1'], '--warmup must be at least 0, but got -1'),
    (['--model', 'ssd300'], "argument --model: invalid choice: 'ssd300'"),
    (['--iteration', '10', '--step', '10'], '--step must be below --iteration (10), but got 10'),
])
def test_mistaken_options_get_one_line(load_script, capsys, options, message):
    train_yolo = load_script('train_yolo')
    with pytest.raises(SystemExit) as exit_info:
        train_yolo.parse_args(options)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert f'error: {message}' in err[-1], err[-1]
    assert err[0].startswith('usage:') and not any('Traceback' in line for line in err)


def test_a_short_training_logs_the_schedule_and_writes_a_model_its_class_loads(
        load_script, tmp_path):
    train_yolo = load_script('train_yolo')
    last = train_yolo.main(_SHAPES + ['--iteration', '4', '--loaderjob', '0',
                                      '--out', str(tmp_path)])
    assert last['iteration'] == 4
    assert 0 <= last['validation/main/map'] <= 1
    log = json.loads((tmp_path / 'log').read_text())
    assert [entry['lr'] for entry in log] == pytest.approx(
        [train_yolo._detection.learning_rate(i, 1e-4, [3], 2, 0) for i in range(4)])
    assert all(numpy.isfinite(entry[f'main/{key}']) for entry in log
               for key in ('loss', 'loc_loss', 'obj_loss', 'conf_loss'))
    loaded = YOLOv3(n_fg_class=4, pretrained_model=tmp_path / 'model.npz', **_MODEL_KWARGS)
    with numpy.load(tmp_path / 'model.npz') as npz:
        for name, param in loaded.namedparams():
            numpy.testing.assert_array_equal(param.array, npz[name[1:]], name)
