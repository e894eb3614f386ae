"""FCISTrainChain: ChainerCV's loss for the fixture's model (NumPy's global state
seeded alike); on a small FCIS ResNet-101, reported parts that add up to the loss, gradients
in the layers that train and none in the frozen ones (``conv1``, ``res2``), a loss that
decreases over a few steps on one synthetic image, and a head that pools twice refused. The
small model's anchors are of 16 to 48 pixels, so that some lie inside the 64x85 image."""

from __future__ import annotations

import numpy
import pytest

import framework
from framework import optimizers
from vision.models.instance.fcis import FCISTrainChain, ProposalTargetCreator

from .conftest import chainercv_image, chainercv_model, small_fcis

PARTS = ('rpn_loc_loss', 'rpn_cls_loss', 'roi_loc_loss', 'roi_cls_loss', 'roi_mask_loss')


def _batch(model):
    """One prepared 64x85 image with two objects: boxes, labels, masks (the left half of each
    box) and the scale."""
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 96, 128)).astype(numpy.float32)
    x = model.prepare(img)
    scale = x.shape[1] / img.shape[1]
    bbox = numpy.array([[10, 20, 60, 90], [30, 5, 90, 50]], numpy.float32) * scale
    mask = numpy.zeros((2, *x.shape[1:]), bool)
    for m, (y_min, x_min, y_max, x_max) in zip(mask, bbox.astype(int)):
        m[y_min:y_max, x_min:(x_min + x_max) // 2] = True
    return x[None], mask[None], numpy.array([[0, 2]], numpy.int32), bbox[None], \
        numpy.array([scale], numpy.float32)


def _loss(chain, batch):
    reporter = framework.Reporter()
    observation = {}
    reporter.add_observer('main', chain)
    with reporter.scope(observation):
        loss = chain(*batch)
    return loss, {key[len('main/'):]: float(value.array) for key, value in observation.items()}


def test_the_loss_is_chainercvs(chainercv_fcis):
    """``make_chainercv_fcis_fixtures.py``'s ``train/*``: the same proposals, the same draws of
    regions and anchors from NumPy's global state, the same loss (ChainerCV's gradients are
    NaN there, so only ours are checked: finite)."""
    f = chainercv_fcis
    model = chainercv_model(f, roi_size=7, iter2=False,
                            proposal_creator_params={'n_train_post_nms':
                                                     int(f['n_test_post_nms'])})
    chain = FCISTrainChain(model, proposal_target_creator=ProposalTargetCreator(n_sample=32))
    x = model.prepare(chainercv_image(f))
    numpy.random.seed(int(f['train/seed']))
    with framework.using_config('train', True):
        loss, parts = _loss(chain, (x[None], f['train/mask'][None], f['train/label'][None],
                                    f['train/bbox'][None], f['train/scale']))
    for key in ('loss',) + PARTS:
        numpy.testing.assert_allclose(parts[key], f[f'train/{key}'], rtol=1e-4, err_msg=key)
    model.cleargrads()
    loss.backward()
    for name in ('head/cls_seg/W', 'head/conv1/W', 'rpn/loc/W', 'extractor/res3/a/conv1/conv/W'):
        grad = dict(model.namedparams())['/' + name].grad
        assert numpy.isfinite(grad).all() and numpy.abs(grad).sum() > 0, name


def test_the_parts_add_up_and_the_frozen_layers_get_no_gradient():
    model = small_fcis(iter2=False, anchor_scales=(1, 2, 3))
    chain = FCISTrainChain(model, rng=numpy.random.default_rng(0))
    with framework.using_config('train', True):
        loss, parts = _loss(chain, _batch(model))
    assert loss.shape == () and loss.dtype == numpy.float32 and numpy.isfinite(loss.array)
    assert all(parts[k] > 0 for k in PARTS), parts
    numpy.testing.assert_allclose(sum(parts[k] for k in PARTS), parts['loss'], rtol=1e-5)
    model.cleargrads()
    loss.backward()
    for name, param in model.namedparams():
        frozen = name.startswith(('/extractor/conv1/', '/extractor/res2/'))
        if frozen or name.endswith(('/beta', '/gamma')) and '/extractor/' in name:
            # conv1 and res2 are cut off; the batch normalizations of the rest run in
            # inference but their scales and shifts still learn, as in ChainerCV
            assert frozen is (param.grad is None), name
        else:
            assert param.grad is not None and numpy.isfinite(param.grad).all(), name


def test_the_loss_decreases_on_one_image():
    model = small_fcis(iter2=False, anchor_scales=(1, 2, 3))
    chain = FCISTrainChain(model, rng=numpy.random.default_rng(0))
    optimizer = optimizers.MomentumSGD(lr=1e-2, momentum=0.9)
    optimizer.setup(chain)
    batch = _batch(model)
    losses = []
    with framework.using_config('train', True):
        for _ in range(10):
            chain.rng = numpy.random.default_rng(0)  # the same samples each step
            loss, _ = _loss(chain, batch)
            chain.cleargrads()
            loss.backward()
            optimizer.update()
            losses.append(float(loss.array))
    # the proposals, and so the sampled regions, change with the weights: the loss is noisy
    assert numpy.mean(losses[-3:]) < 0.9 * numpy.mean(losses[:3]), losses


def test_a_head_that_pools_twice_is_refused():
    with pytest.raises(ValueError, match='iter2=False'):
        FCISTrainChain(small_fcis())
