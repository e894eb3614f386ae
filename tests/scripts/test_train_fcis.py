"""train_fcis.py: ChainerCV's recipe by default, the transform of the masks, the frozen and
scaled parameters, and short trainings of a tiny FCIS on shapes: the losses, the evaluation of
the masks, the model written, images without objects."""

import json
import random

import numpy

from vision.datasets import ShapesInstanceSegmentationDataset
from vision.models import FCISResNet101

# FCIS of a sixteenth the width on 64x64 shapes scaled to 128x128, anchors of 16 to 64 pixels,
# 8 training and 4 validation images.
_SHAPES = ['--dataset', 'shapes', '--base-channels', '4', '--size', '64', '--n-train', '8',
           '--n-val', '4', '--min-size', '128', '--max-size', '128', '--anchor-scales', '1',
           '2', '4', '--log-interval', '1', '--loaderjob', '0']
_MODEL_KWARGS = {'base_channels': 4, 'min_size': 128, 'max_size': 128,
                 'anchor_scales': (1, 2, 4)}


def test_the_defaults_are_chainercvs_recipe(load_script):
    script = load_script('train_fcis')
    args = script.parse_args([])
    assert (args.dataset, args.model, args.pretrained_model, args.lr, args.iteration, args.step,
            args.min_size, args.max_size, args.anchor_scales) == (
        'sbd', 'fcis_resnet101', 'imagenet', 5e-4, 42 * 5623, [28 * 5623], 600, 1000,
        [8, 16, 32])
    assert script.parse_args(['--dataset', 'shapes']).pretrained_model is None


def test_the_transform_scales_and_flips_the_masks_with_the_image(load_script):
    script = load_script('train_fcis')
    model = FCISResNet101(n_fg_class=4, base_channels=4, min_size=80, max_size=200)
    transform = script.Transform(model)
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 40, 60)).astype(numpy.float32)
    mask = numpy.zeros((1, 40, 60), bool)
    mask[0, 4:20, 6:30] = True
    bbox = numpy.array([[4, 6, 20, 30]], numpy.float32)
    flipped = set()
    for seed in range(8):
        random.seed(seed)
        x, out_mask, label, out_bbox, scale = transform(
            (img, bbox, numpy.array([2], numpy.int32), mask))
        assert x.shape == (3, 80, 120) and out_mask.shape == (1, 80, 120) and scale == 2
        assert out_mask.dtype == numpy.float32 and label.tolist() == [2]
        x_flip = bool(out_bbox[0, 1] != 12)
        flipped.add(x_flip)
        numpy.testing.assert_array_equal(out_bbox, [[8, 60 if x_flip else 12, 40,
                                                     108 if x_flip else 60]])
        # the probabilities are 1 inside, 0 outside, between on the edges
        inside = out_mask[0, 10:38, 62:106] if x_flip else out_mask[0, 10:38, 14:58]
        assert (inside == 1).all() and out_mask[0].sum() == numpy.float32(32 * 48)
    assert flipped == {False, True}


def test_the_frozen_and_scaled_parameters(load_script):
    script = load_script('train_fcis')
    model = FCISResNet101(n_fg_class=4, base_channels=4, iter2=False)
    chain = script.TrainChain(model)
    optimizer = script._training.optimizers.MomentumSGD(lr=0.1)
    optimizer.setup(chain)
    script.setup_hooks(chain)
    before = {name: param.array.copy() for name, param in chain.namedparams()}
    for param in chain.params():
        param.grad = numpy.ones_like(param.array)
    optimizer.update()
    for name, param in chain.namedparams():
        frozen = name.startswith(('/fcis/extractor/conv1/', '/fcis/extractor/res2/')) \
            or name.endswith(('/beta', '/gamma'))
        rate = 3 if name.startswith('/fcis/head/conv1/') else 1
        # one step of MomentumSGD from no momentum: the decayed gradient times the rate
        expected = before[name] if frozen else \
            before[name] - 0.1 * rate * (1 + 0.0005 * before[name])
        numpy.testing.assert_allclose(param.array, expected, rtol=1e-5, atol=1e-7,
                                      err_msg=name)


def test_a_short_training_evaluates_the_masks_and_writes_a_model_its_class_loads(
        load_script, tmp_path):
    script = load_script('train_fcis')
    last = script.main(_SHAPES + ['--iteration', '4', '--step', '3', '--out', str(tmp_path)])
    assert last['iteration'] == 4
    assert 0 <= last['validation/main/map'] <= 1
    log = json.loads((tmp_path / 'log').read_text())
    assert all(numpy.isfinite(entry[f'main/{key}']) for entry in log
               for key in ('loss',) + script.LOSS_KEYS)
    loaded = FCISResNet101(pretrained_model=tmp_path / 'model.npz', **_MODEL_KWARGS)
    assert loaded.n_class == 5
    with numpy.load(tmp_path / 'model.npz') as npz:
        for name, param in loaded.namedparams():
            numpy.testing.assert_array_equal(param.array, npz[name[1:]], name)


def test_images_without_objects_train_with_a_zero_loss(load_script, tmp_path, monkeypatch):
    script = load_script('train_fcis')

    def shapes(n, size, seed):
        samples = list(ShapesInstanceSegmentationDataset(n, size, seed))
        if seed == 0:  # the training set: empty arrays of the right shapes and dtypes
            samples = [(img, numpy.zeros((0,) + img.shape[1:], bool),
                        numpy.zeros(0, numpy.int32)) for img, _, _ in samples]
        return samples

    monkeypatch.setattr(script, 'ShapesInstanceSegmentationDataset', shapes)
    last = script.main(_SHAPES + ['--n-train', '4', '--iteration', '2', '--step', '1',
                                  '--out', str(tmp_path)])
    assert last['main/loss'] == 0
