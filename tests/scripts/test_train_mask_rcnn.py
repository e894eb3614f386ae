"""train_mask_rcnn.py: ChainerCV's recipe by default, the transform of the masks, the checks of
the training samples (one line naming the sample), and short trainings of a tiny Mask R-CNN on
shapes: the losses, the evaluation of the masks, the model written, a run resumed from its
snapshot as it would have gone on."""

import json
import random

import numpy
import pytest

from vision.datasets import ShapesInstanceSegmentationDataset
from vision.models import MaskRCNNFPNResNet50

# Mask R-CNN of a thirty-second the width on 64x64 shapes scaled to 128x128, 8 training and 4
# validation images, batches of 2 (as tests/scripts/test_train_fpn.py trains FPN).
_SHAPES = ['--dataset', 'shapes', '--base-channels', '2', '--size', '64', '--n-train', '8',
           '--n-val', '4', '--batchsize', '2', '--min-size', '128', '--max-size', '128',
           '--lr', '1e-4', '--log-interval', '1']
_MODEL_KWARGS = {'base_channels': 2, 'min_size': 128, 'max_size': 128}


def test_the_defaults_are_chainercvs_recipe(load_script, capsys):
    script = load_script('train_mask_rcnn')
    args = script.parse_args([])
    assert (args.dataset, args.model, args.pretrained_model, args.batchsize, args.lr,
            args.iteration, args.step, args.min_size, args.max_size) == (
        'coco', 'mask_rcnn_fpn_resnet50', 'imagenet', 16, 0.02, 90000, [60000, 80000], 800,
        1333)
    assert script.parse_args(['--dataset', 'shapes']).pretrained_model is None
    with pytest.raises(SystemExit):
        script.parse_args(['--dataset', 'voc'])
    assert "argument --dataset: invalid choice: 'voc'" in capsys.readouterr().err


def test_the_transform_flips_and_scales_the_masks_with_the_image(load_script):
    script = load_script('train_mask_rcnn')
    model = MaskRCNNFPNResNet50(n_fg_class=4, base_channels=2, min_size=80, max_size=200)
    transform = script._fpn.Transform(model)
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 40, 60)).astype(numpy.float32)
    mask = numpy.zeros((1, 40, 60), bool)
    mask[0, 4:20, 6:30] = True
    bbox = numpy.array([[4, 6, 20, 30]], numpy.float32)
    flipped = set()
    for seed in range(8):
        random.seed(seed)
        x, out_bbox, _, out_mask = transform((img, bbox, numpy.array([2], numpy.int32), mask))
        assert x.shape == (3, 80, 120) and out_mask.shape == (1, 80, 120)
        assert out_mask.dtype == bool
        x_flip = bool(out_bbox[0, 1] != 12)
        flipped.add(x_flip)
        expected = numpy.zeros((80, 120), bool)
        if x_flip:
            expected[8:40, 60:108] = True
        else:
            expected[8:40, 12:60] = True
        numpy.testing.assert_array_equal(out_mask[0], expected)
    assert flipped == {False, True}
    # An image without objects keeps masks of no object at the new size.
    random.seed(0)
    *_, out_mask = transform((img, numpy.zeros((0, 4), numpy.float32),
                              numpy.zeros(0, numpy.int32), numpy.zeros((0, 40, 60), bool)))
    assert out_mask.shape == (0, 80, 120) and out_mask.dtype == bool


def _sample(mask_shape=(1, 10, 12), bbox=None):
    img = numpy.zeros((3, 10, 12), numpy.float32)
    mask = numpy.zeros(mask_shape, bool)
    mask[:, 2:5, 3:7] = True
    label = numpy.zeros(mask_shape[0], numpy.int32)
    return (img, mask, label) if bbox is None else (img, mask, label,
                                                   numpy.array(bbox, numpy.float32))


def test_the_samples_get_the_boxes_of_their_masks_or_their_own(load_script):
    script = load_script('train_mask_rcnn')
    dataset = script._detection.CheckedMaskDataset([_sample(), _sample(bbox=[[1, 2, 6, 8]])])
    numpy.testing.assert_array_equal(dataset[0][1], [[2, 3, 5, 7]])
    numpy.testing.assert_array_equal(dataset[1][1], [[1, 2, 6, 8]])
    assert dataset[0][3].shape == (1, 10, 12)


@pytest.mark.parametrize('sample, message', [
    (_sample((1, 10, 11)), 'CheckedMaskDataset: sample 1 of the training set has masks of '
                           'shape (1, 10, 11) for an image of 10x12 pixels and 1 labels; '
                           'expected (1, 10, 12)'),
    (_sample(bbox=[[6, 8, 9, 12]]),
     'CheckedMaskDataset: sample 1 of the training set: mask 0 covers (y_min, x_min, y_max, '
     'x_max) = (2.0, 3.0, 5.0, 7.0), outside its box (6.0, 8.0, 9.0, 12.0): the masks do not '
     'match the boxes'),
    (_sample(bbox=[[1, 2, 6, 8], [0, 0, 1, 1]]),
     'CheckedMaskDataset: sample 1 of the training set has 1 masks but boxes of shape (2, 4); '
     'expected (1, 4)'),
])
def test_masks_that_do_not_fit_are_refused_with_the_index_of_the_sample(load_script, sample,
                                                                          message):
    script = load_script('train_mask_rcnn')
    dataset = script._detection.CheckedMaskDataset([_sample(), sample])
    with pytest.raises(script._detection._training.DatasetError) as error:
        dataset[1]
    assert str(error.value) == message


def test_a_bad_sample_ends_the_run_with_one_line(load_script, tmp_path, monkeypatch, capsys):
    script = load_script('train_mask_rcnn')

    def shapes(n, size, seed):
        samples = list(ShapesInstanceSegmentationDataset(n, size, seed))
        if seed == 0:
            img, mask, label = samples[5]
            samples[5] = (img, mask[:, :-1], label)
        return samples

    monkeypatch.setattr(script, 'ShapesInstanceSegmentationDataset', shapes)
    with pytest.raises(SystemExit) as exit_info:
        script.main(_SHAPES + ['--iteration', '4', '--step', '3', '--loaderjob', '0',
                               '--out', str(tmp_path)])
    assert str(exit_info.value.code).startswith(
        'train_mask_rcnn.py: error: CheckedMaskDataset: sample 5 of the training set has masks '
        'of shape')
    assert 'Traceback' not in capsys.readouterr().err


def test_images_without_objects_train_with_no_box_or_mask_loss(load_script, tmp_path,
                                                               monkeypatch):
    script = load_script('train_mask_rcnn')

    def shapes(n, size, seed):
        samples = list(ShapesInstanceSegmentationDataset(n, size, seed))
        if seed == 0:  # the training set: empty arrays of the right shapes and dtypes
            samples = [(img, numpy.zeros((0,) + img.shape[1:], bool),
                        numpy.zeros(0, numpy.int32)) for img, _, _ in samples]
        return samples

    monkeypatch.setattr(script, 'ShapesInstanceSegmentationDataset', shapes)
    last = script.main(_SHAPES + ['--n-train', '4', '--iteration', '2', '--step', '1',
                                  '--loaderjob', '0', '--out', str(tmp_path)])
    assert last['main/loss/mask'] == last['main/loss/bbox_head/loc'] == 0
    assert last['main/loss/rpn/loc'] == 0 and numpy.isfinite(last['main/loss'])


def test_a_short_training_evaluates_the_masks_and_writes_a_model_its_class_loads(
        load_script, tmp_path):
    script = load_script('train_mask_rcnn')
    last = script.main(_SHAPES + ['--iteration', '4', '--step', '3', '--loaderjob', '0',
                                  '--out', str(tmp_path)])
    assert last['iteration'] == 4
    assert 0 <= last['validation/main/map'] <= 1
    log = json.loads((tmp_path / 'log').read_text())
    assert all(numpy.isfinite(entry[f'main/{key}']) for entry in log
               for key in ('loss',) + script.LOSS_KEYS)
    loaded = MaskRCNNFPNResNet50(pretrained_model=tmp_path / 'model.npz', **_MODEL_KWARGS)
    assert loaded.n_class == 5
    with numpy.load(tmp_path / 'model.npz') as npz:
        assert any(key.startswith('mask_head/') for key in npz.files)
        for name, param in loaded.namedparams():
            numpy.testing.assert_array_equal(param.array, npz[name[1:]], name)


def test_a_resumed_run_goes_on_as_the_uninterrupted_one(load_script, tmp_path, monkeypatch):
    script = load_script('train_mask_rcnn')
    options = _SHAPES + ['--step', '--loaderjob', '1', '--seed', '3']
    script.main(options + ['--iteration', '4', '--out', str(tmp_path / 'whole')])
    script.main(options + ['--iteration', '2', '--out', str(tmp_path / 'parts')])
    batches = []
    forward = script.TrainChain.forward

    def counted(self, *inputs):
        batches.append(int(self.batch_count))
        return forward(self, *inputs)

    monkeypatch.setattr(script.TrainChain, 'forward', counted)
    last = script.main(options + ['--iteration', '4', '--out', str(tmp_path / 'parts')])
    assert last['iteration'] == 4
    assert batches == [2, 3]  # from the snapshot of the first two
    with numpy.load(tmp_path / 'whole' / 'model.npz') as whole, \
            numpy.load(tmp_path / 'parts' / 'model.npz') as parts:
        assert whole.files == parts.files
        for key in whole.files:
            numpy.testing.assert_array_equal(whole[key], parts[key], key)


def test_the_run_on_the_emulated_device_is_the_run_on_the_cpu(load_script, tmp_path):
    # A device that refuses what CuPy refuses: the samples, the masks' targets, the
    # evaluator's predictions and the snapshot all cross to it and back as on a GPU.
    from framework.testing.emulated_device import EmulatedDevice  # noqa: F401 (registers it)
    script = load_script('train_mask_rcnn')
    options = _SHAPES + ['--iteration', '2', '--step', '1', '--loaderjob', '0']
    on_cpu = script.main(options + ['--out', str(tmp_path / 'cpu')])
    emulated = script.main(options + ['--device', '@emulated', '--out', str(tmp_path / 'dev')])
    for key in ('main/loss',) + tuple(f'main/{key}' for key in script.LOSS_KEYS):
        assert emulated[key] == pytest.approx(on_cpu[key], rel=1e-5), key
    assert emulated['validation/main/map'] == pytest.approx(on_cpu['validation/main/map'])
    assert (tmp_path / 'dev' / 'snapshot_iter_2').exists()
