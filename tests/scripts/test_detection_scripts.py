"""The detection training scripts: the checks of the training boxes, the augmentation's
targets, the one-line errors of the options, and short trainings on tiny shapes (resumed,
repeated with a seed)."""

import importlib.util
import random

import numpy
import pytest

from framework.datasets import TupleDataset

# Detectors of a sixteenth the width on 64x64 shapes, 16 training and 8 validation images.
_SHAPES = ['--dataset', 'shapes', '--base-channels', '4', '--size', '64', '--n-train', '16',
           '--n-val', '8', '--loaderjob', '1', '--log-interval', '2']
_SSD = _SHAPES + ['--batchsize', '4', '--step', '3']
_FASTER_RCNN = _SHAPES + ['--min-size', '128', '--max-size', '160', '--anchor-scales', '2', '4',
                          '--step', '3']
# FPN of a thirty-second the width (--base-channels 2) on shapes scaled to 128x128 (large
# enough for the RPN to sample its anchors); YOLOv3 of an eighth the width on batches of 64 or
# 96 px.
_FPN = [option if option != '4' else '2' for option in _SHAPES] + [
    '--batchsize', '2', '--min-size', '128', '--max-size', '128', '--lr', '1e-4', '--step', '3']
_MASK_RCNN = _FPN  # Mask R-CNN on FPN's options
# FCIS on shapes scaled to 128x128, anchors of 16 to 64 pixels
_FCIS = _SHAPES + ['--min-size', '128', '--max-size', '128', '--anchor-scales', '1', '2', '4',
                   '--step', '3']
_YOLO = _SHAPES + ['--batchsize', '2', '--insize', '64', '--sizes', '64', '96', '--warmup', '2',
                   '--lr', '1e-4', '--step', '3']


def _sample(bbox, label, difficult=None):
    """A dataset of one 10x20 image with these boxes (and difficult flags)."""
    columns = [numpy.zeros((1, 3, 10, 20), numpy.float32),
               [numpy.array(bbox, numpy.float32).reshape(-1, 4)],
               [numpy.array(label, numpy.int32)]]
    if difficult is not None:
        columns.append([numpy.array(difficult, bool)])
    return TupleDataset(*columns)


def test_boxes_across_the_edge_are_clipped_and_those_outside_dropped(load_script):
    detection = load_script('_detection')
    dataset = _sample([[-2, 3, 4, 25], [12, 0, 15, 5], [1, 1, 3, 3], [2, 20, 8, 24]],
                      [0, 1, 2, 3], [False, True, True, False])
    img, bbox, label, difficult = detection.CheckedBboxDataset(dataset, 4)[0]
    assert img.shape == (3, 10, 20)
    numpy.testing.assert_array_equal(bbox, [[0, 3, 4, 20], [1, 1, 3, 3]])
    assert bbox.dtype == numpy.float32
    numpy.testing.assert_array_equal(label, [0, 2])
    numpy.testing.assert_array_equal(difficult, [False, True])


def test_a_sample_without_boxes_passes(load_script):
    detection = load_script('_detection')
    _, bbox, label = detection.CheckedBboxDataset(_sample(numpy.zeros((0, 4)), []), 4)[0]
    assert (bbox.shape, bbox.dtype, label.shape, label.dtype) == (
        (0, 4), numpy.float32, (0,), numpy.int32)


@pytest.mark.parametrize('bbox, label, message', [
    ([[1, 1, 3, 3], [5, 6, 4, 8]], [0, 1],
     r'sample 1 of the training set: box 1 .* = \(5.0, 6.0, 4.0, 8.0\) is not a box'),
    ([[1, numpy.nan, 3, 3]], [0], r'sample 1 .*: box 0 .* is not a box'),
    ([[1, 1, 3, 3]], [4], r'sample 1 .*: box 0 has the label 4, out of \[0, 3\]'),
    ([[1, 1, 3, 3]], [0, 1], r'sample 1 .* boxes of shape \(1, 4\) and labels of shape \(2,\)'),
])
def test_malformed_boxes_are_refused_with_the_sample_index(load_script, bbox, label, message):
    detection = load_script('_detection')
    dataset = detection.ConcatenatedDataset(_sample([[0, 0, 1, 1]], [0]), _sample(bbox, label))
    checked = detection.CheckedBboxDataset(dataset, 4)
    checked[0]
    with pytest.raises(ValueError, match=message):
        checked[1]


def test_a_malformed_box_ends_the_run_with_one_line(load_script, monkeypatch, tmp_path,
                                                  capsys):
    train_faster_rcnn = load_script('train_faster_rcnn')
    monkeypatch.setattr(train_faster_rcnn._detection, 'ShapesBboxDataset',
                        lambda n, size, seed: _sample([[1, 1, 3, 3], [5, 6, 4, 8]], [0, 1]))
    with pytest.raises(SystemExit) as exit_info:
        train_faster_rcnn.main(_FASTER_RCNN + ['--loaderjob', '0', '--out', str(tmp_path)])
    assert exit_info.value.code.startswith(
        'train_faster_rcnn.py: error: CheckedBboxDataset: sample 0 of the training set: box 1 ')
    assert 'Traceback' not in capsys.readouterr().err


def test_ssd_transform_gives_the_targets_of_the_augmented_boxes(load_script):
    train_ssd = load_script('train_ssd')
    from vision.models import SSD300
    model = SSD300(n_fg_class=4, base_channels=4)
    transform = train_ssd.Transform(model.coder, model.insize, model.mean)
    img = numpy.full((3, 40, 50), 128, numpy.float32)
    # The augmentation draws from Python's random and NumPy's global generator: both seeded.
    random.seed(0)
    numpy.random.seed(0)
    x, mb_loc, mb_label = transform((img, numpy.array([[5, 5, 30, 40]], numpy.float32),
                                     numpy.array([2], numpy.int32)))
    assert (x.shape, x.dtype) == ((3, 300, 300), numpy.float32)
    assert (mb_loc.shape, mb_loc.dtype) == ((8732, 4), numpy.float32)
    assert (mb_label.shape, mb_label.dtype) == ((8732,), numpy.int32)
    # These draws crop around the box's centre, so the box stays, as class 2 + 1 (a crop
    # without its centre drops it, as ChainerCV's transform does: seeds 7, 9 and 15).
    assert set(numpy.unique(mb_label)) == {0, 3}
    # An image without boxes is all background.
    _, mb_loc, mb_label = transform((img, numpy.zeros((0, 4), numpy.float32),
                                     numpy.zeros(0, numpy.int32)))
    assert not mb_label.any() and not mb_loc.any()


@pytest.mark.parametrize('script', ['train_ssd', 'train_yolo'])
def test_the_flip_augmentation_only_flips(load_script, script):
    module = load_script(script)
    args = module.parse_args(['--augmentation', 'flip'])
    assert args.augmentation == 'flip' and module.parse_args([]).augmentation == 'ssd'
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 40, 50)).astype(numpy.float32)
    bbox = numpy.array([[5, 5, 30, 20], [10, 30, 40, 50]], numpy.float32)
    label = numpy.array([2, 0], numpy.int32)
    flips = set()
    for seed in range(8):
        random.seed(seed)
        numpy.random.seed(seed)
        out, out_bbox, out_label = module._detection.augment(img, bbox, label, fill=0,
                                                             augmentation='flip')
        flipped = bool(out_bbox[0, 1] != 5)
        flips.add(flipped)
        numpy.testing.assert_array_equal(out, img[:, :, ::-1] if flipped else img)
        numpy.testing.assert_array_equal(
            out_bbox, [[5, 30, 30, 45], [10, 0, 40, 20]] if flipped else bbox)
        numpy.testing.assert_array_equal(out_label, label)
    assert flips == {False, True}
    with pytest.raises(ValueError, match="augmentation must be one of .*, but got 'crop'"):
        module._detection.augment(img, bbox, label, fill=0, augmentation='crop')


def test_faster_rcnn_learns_nothing_from_an_image_without_boxes(load_script):
    train_faster_rcnn = load_script('train_faster_rcnn')
    from vision.models import FasterRCNNVGG16
    model = FasterRCNNVGG16(n_fg_class=4, base_channels=4, min_size=64, max_size=64)
    chain = train_faster_rcnn.TrainChain(model)
    loss = chain(numpy.ones((1, 3, 64, 64), numpy.float32), numpy.zeros((1, 0, 4), numpy.float32),
                 numpy.zeros((1, 0), numpy.int32), 1.0)
    assert float(loss.array) == 0
    loss.backward()
    for name, param in chain.namedparams():
        assert param.grad is not None and not param.grad.any(), name


@pytest.mark.parametrize('script, warmup, warmup_rate', [
    ('train_ssd', 0, 0), ('train_faster_rcnn', 0, 0), ('train_fpn', 500, 1 / 3),
    ('train_mask_rcnn', 500, 1 / 3), ('train_light_head_rcnn', 500, 1 / 3),
    ('train_fcis', 0, 0), ('train_yolo', 518, 0)])
def test_every_detector_warms_up_as_its_recipe_unless_told(load_script, script, warmup,
                                                           warmup_rate):
    module = load_script(script)
    assert module.parse_args([]).warmup == warmup
    assert module.RECIPE.warmup_rate == warmup_rate
    args = module.parse_args(['--warmup', '10', '--lr', '0.1', '--step', '20'])
    rates = [module._detection.learning_rate(i, args.lr, args.step, args.warmup, warmup_rate)
             for i in (0, 5, 10, 20)]
    numpy.testing.assert_allclose(
        rates, [0.1 * warmup_rate, 0.1 * (warmup_rate + (1 - warmup_rate) / 2), 0.1, 0.01])


@pytest.mark.parametrize('script, options, message', [
    ('train_ssd', ['--step', '5', '4'], '--step must be increasing, but got 5 4'),
    ('train_ssd', ['--iteration', '10', '--step', '10'],
     '--step must be below --iteration (10), but got 10'),
    ('train_ssd', ['--batchsize', '0'], "argument --batchsize: must be 1 or more, but got 0"),
    ('train_ssd', ['--lr', '-1'], '--lr must be positive, but got -1'),
    ('train_ssd', ['--dataset', 'voc', '--data-dir', 'no/such/dir'],
     "--data-dir must be a directory (or auto), but 'no/such/dir' is not"),
    ('train_ssd', ['--dataset', 'kitti'], "argument --dataset: invalid choice: 'kitti'"),
    ('train_faster_rcnn', ['--min-size', '800', '--max-size', '600'],
     '--min-size must be positive and at most --max-size (600), but got 800'),
    ('train_faster_rcnn', ['--batchsize', '2'], 'unrecognized arguments: --batchsize 2'),
    ('train_faster_rcnn', ['--warmup', '-1'], '--warmup must be at least 0, but got -1'),
    ('train_yolo', ['--augmentation', 'crop'], "argument --augmentation: invalid choice: 'crop'"),
    ('train_faster_rcnn', ['--augmentation', 'flip'], 'unrecognized arguments: --augmentation'),
])
def test_mistaken_options_get_one_line(load_script, capsys, script, options, message):
    module = load_script(script)
    with pytest.raises(SystemExit) as exit_info:
        module.parse_args(options)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert f'error: {message}' in err[-1], err[-1]
    assert err[0].startswith('usage:') and not any('Traceback' in line for line in err)


@pytest.mark.parametrize('script, options, message', [
    ('train_ssd', _SSD, "SSD300: base_channels=4 contradicts the weights 'imagenet'"),
    ('train_faster_rcnn', _FASTER_RCNN,
     "faster_rcnn_vgg16: pretrained_model='imagenet' is VGG-16 of base_channels 64, but got "
     'base_channels=4'),
])
def test_weights_that_contradict_the_width_get_one_line(load_script, tmp_path, capsys, script,
                                                        options, message):
    module = load_script(script)
    with pytest.raises(SystemExit) as exit_info:
        module.main(options + ['--pretrained-model', 'imagenet', '--out', str(tmp_path)])
    assert exit_info.value.code.startswith(f'{script}.py: error: {message}')
    assert 'Traceback' not in capsys.readouterr().err


@pytest.mark.parametrize('script, options', [('train_ssd', _SSD),
                                             ('train_faster_rcnn', _FASTER_RCNN)])
def test_from_random_weights_the_vgg_extractor_keeps_the_scale_of_its_input(
        load_script, monkeypatch, script, options):
    module = load_script(script)
    trained = {}
    monkeypatch.setattr(module._detection, 'run',
                        lambda args, recipe, setup, comm: trained.setdefault('model', setup.model))
    module.main(options)
    extractor = trained['model'].extractor
    for name in ('conv1_1', 'conv3_3', 'conv5_3'):
        layer = getattr(extractor, name)
        W = getattr(layer, 'conv', layer).W.array  # Faster R-CNN's VGG-16 has Conv2DActiv
        fan_in = W[0].size
        assert W.std() == pytest.approx((2 / fan_in) ** 0.5, rel=0.15), name
    # ChainerCV's Normal(0.01) shrank Faster R-CNN's features ~8x a layer: 1e-9 at conv5_3.
    # (The ReLU is applied again after Conv2DActiv's own: no change.)
    x = numpy.random.RandomState(0).uniform(-50, 50, (1, 3, 64, 64)).astype(numpy.float32)
    h = x
    for name in ('conv1_1', 'conv1_2', 'conv2_1', 'conv2_2', 'conv3_1', 'conv3_2', 'conv3_3'):
        h = numpy.maximum(getattr(extractor, name)(h).array, 0)
    assert 0.1 < h.std() / x.std() < 10


def test_from_random_weights_ssds_heads_start_with_small_scores(load_script, monkeypatch):
    train_ssd = load_script('train_ssd')
    trained = {}
    monkeypatch.setattr(train_ssd._detection, 'run',
                        lambda args, recipe, setup, comm: trained.setdefault('model', setup.model))
    train_ssd.main(_SSD)
    model = trained['model']
    heads = [link for link in model.multibox.links(skipself=True) if hasattr(link, 'W')]
    assert len(heads) == 12
    for link in heads:
        assert link.W.array.std() == pytest.approx(0.01, rel=0.1)
    # Under the He extractor the sources keep the input's scale (pixels minus the mean), and
    # LeCun's heads gave scores of it: mean magnitudes of 8 and 9 on this input (near 20 on
    # shapes, a first loss above 1,000); these give 2 to 3.5.
    x = numpy.random.RandomState(0).uniform(-60, 60, (1, 3, 300, 300)).astype(numpy.float32)
    locs, confs = model(x)
    assert abs(locs.array).mean() < 5 and abs(confs.array).mean() < 5


def test_weights_given_are_left_as_they_are(load_script, monkeypatch, tmp_path):
    from vision.models import SSD300
    path = tmp_path / 'start.npz'
    numpy.random.seed(0)
    start = SSD300(n_fg_class=4, base_channels=4)
    from framework.serializers import save_npz
    save_npz(path, start)
    module = load_script('train_ssd')
    trained = {}
    monkeypatch.setattr(module._detection, 'run',
                        lambda args, recipe, setup, comm: trained.setdefault('model', setup.model))
    options = list(_SSD)
    i = options.index('--base-channels')
    del options[i:i + 2]  # the width is the file's
    module.main(options + ['--pretrained-model', str(path)])
    numpy.testing.assert_array_equal(trained['model'].extractor.conv3_3.W.array,
                                     start.extractor.conv3_3.W.array)


def test_communicator_without_mpi4py_names_the_extra(load_script, monkeypatch, capsys):
    train_ssd = load_script('train_ssd')
    monkeypatch.setattr(importlib.util, 'find_spec', lambda name: None)
    with pytest.raises(SystemExit):
        train_ssd.parse_args(['--communicator', 'flat'])
    assert "pip install '.[dist]'" in capsys.readouterr().err


def test_faster_rcnn_starts_from_imagenet_on_voc_only(load_script):
    train_faster_rcnn = load_script('train_faster_rcnn')
    assert train_faster_rcnn.parse_args([]).pretrained_model == 'imagenet'
    assert train_faster_rcnn.parse_args(['--dataset', 'shapes']).pretrained_model is None


@pytest.mark.slow
@pytest.mark.parametrize('script, options', [('train_ssd', _SSD),
                                             ('train_faster_rcnn', _FASTER_RCNN)])
def test_training_resumes_and_writes_a_model_its_class_loads(load_script, tmp_path, script,
                                                             options):
    module = load_script(script)
    out = ['--out', str(tmp_path), '--snapshot-interval', '2']
    first = module.main(options + out + ['--iteration', '4'])
    assert first['iteration'] == 4
    assert 0 <= first['validation/main/map'] <= 1
    assert sorted(p.name for p in tmp_path.glob('snapshot_*')) == ['snapshot_iter_4']
    assert (tmp_path / 'loss.png').exists() and (tmp_path / 'map.png').exists()

    # Started again with more iterations, it resumes from the snapshot.
    second = module.main(options + out + ['--iteration', '6'])
    assert second['iteration'] == 6
    assert sorted(p.name for p in tmp_path.glob('snapshot_*')) == ['snapshot_iter_6']

    from vision.models import get_model
    model = get_model(module.RECIPE.models[0])
    kwargs = ({} if script == 'train_ssd' else {'base_channels': 4, 'min_size': 128,
                                                'max_size': 160, 'anchor_scales': (2, 4)})
    loaded = model(pretrained_model=tmp_path / 'model.npz', **kwargs)
    with numpy.load(tmp_path / 'model.npz') as npz:
        for name, param in loaded.namedparams():
            numpy.testing.assert_array_equal(param.array, npz[name[1:]], name)


def _trained_parameters(module, options, out, loaderjob):
    options = options + ['--iteration', '4', '--eval-interval', '100', '--out', str(out)]
    options[options.index('--loaderjob') + 1] = str(loaderjob)
    module.main(options)
    with numpy.load(out / 'model.npz') as npz:
        return {key: npz[key].tobytes() for key in npz.files}


@pytest.mark.slow
@pytest.mark.parametrize('script, options', [('train_ssd', _SSD),
                                             ('train_faster_rcnn', _FASTER_RCNN),
                                             ('train_fpn', _FPN),
                                             ('train_mask_rcnn', _MASK_RCNN),
                                             ('train_fcis', _FCIS),
                                             ('train_yolo', _YOLO)])
def test_runs_with_the_same_seed_are_bit_identical(load_script, tmp_path, script, options):
    module = load_script(script)
    first = _trained_parameters(module, options, tmp_path / 'a', 1)
    # The augmentation is drawn in the loader processes, seeded by example.
    assert _trained_parameters(module, options, tmp_path / 'b', 2) == first
    # --loaderjob 0 loads in the main process, seeded too.
    in_process = _trained_parameters(module, options, tmp_path / 'c', 0)
    assert _trained_parameters(module, options, tmp_path / 'd', 0) == in_process
    # Another seed trains another model.
    other = _trained_parameters(module, options + ['--seed', '1'], tmp_path / 'e', 1)
    assert other != first


@pytest.mark.slow
@pytest.mark.parametrize('script, options', [('train_fpn', _FPN), ('train_yolo', _YOLO)])
def test_a_resumed_training_equals_an_uninterrupted_one(load_script, tmp_path, script, options):
    # What the train chains draw (FPN's samples, YOLOv3's sides and interpolations) follows
    # the number of the batch, which the snapshots keep.
    module = load_script(script)
    options = options + ['--snapshot-interval', '2', '--step', '1']
    uninterrupted = _trained_parameters(module, options, tmp_path / 'a', 1)
    module.main(options + ['--iteration', '2', '--out', str(tmp_path / 'b')])
    assert sorted(p.name for p in (tmp_path / 'b').glob('snapshot_*')) == ['snapshot_iter_2']
    assert _trained_parameters(module, options, tmp_path / 'b', 1) == uninterrupted
