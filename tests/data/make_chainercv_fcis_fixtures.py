"""Write ChainerCV's FCIS ResNet-101 on weights made by the rule, its ``mask_voting`` and its
``ProposalTargetCreator`` on random inputs, into tests/data/chainercv_fcis_resnet101*.

Runs in the peer environment (Chainer 7.8.1, ChainerCV 0.13.1, NumPy 1.26, Pillow; no OpenCV, so
ChainerCV resizes with Pillow), never in the project's::

    /tmp/chainervenv/bin/python tests/data/make_chainercv_fcis_fixtures.py

ChainerCV 0.13.1 still spells ``np.bool`` and ``np.int``, which NumPy 1.24 removed: the script
puts the aliases back as ``bool`` and ``int``.

``chainercv_fcis_resnet101_params.tsv`` lists every parameter and persistent (path, shape,
dtype, kind) of the experimental ``FCISResNet101(n_fg_class=20)``, as
``make_chainercv_yolo_fixtures.py`` lists them. The weights are then the rule's
(``vision/utils/testing/parity.py``), filled as ``make_chainercv_segmentation_fixtures.py``
fills them, but for one change: the kernels that read the extractor's features,
``rpn/conv1/W`` and ``head/conv1/W`` (the names of ``SCALED``), are multiplied by
``FEATURE_SCALE`` (1e-3). The rule's ResNet-101 gives features of a deviation near 800, whose
offsets overflow ``exp`` in ``loc2bbox`` and leave a single proposal; scaled, the RPN proposes
many regions and the head's scores are near 1. The image is uniform noise in 0-255,
``RandomState(SEED).uniform(0, 255, SHAPE)`` as float32, recorded by its seed and shape only.
The model is built with ``min_size=MIN_SIZE`` and ``max_size=MAX_SIZE``, so that the network
runs on 240x320 pixels, and keeps
``N_TEST_POST_NMS`` (50) proposals instead of 300 (ChainerCV's position-sensitive pooling runs
a Python loop over every output element on the CPU: 300 would take some twenty minutes).

``chainercv_fcis_resnet101.npz`` records:

- ``seed``, ``shape``, ``min_size``, ``max_size``, ``n_test_post_nms``, ``feature_scale``,
  ``scaled`` and ``roi_step``: how the model, its weights and the image are made;
- ``out/*``: the raw outputs of ``model(x)`` (``train`` off, ``scales`` left at 1) for the
  prepared image ``x``: ``out/rois`` (R, 4) and ``out/roi_indices`` (R,) whole,
  ``out/roi_ag_locs`` (R, 2, 4) and ``out/roi_cls_scores`` (R, 21) whole,
  ``out/roi_ag_seg_scores`` every ``ROI_STEP``-th region only (``[::ROI_STEP]``);
- ``predict/*``: ``predict([img])`` with the ``'evaluate'`` preset (stored as
  ``predict/thresholds``: ``nms_thresh``, ``score_thresh``, ``mask_merge_thresh``,
  ``binary_thresh``, ``limit``, ``min_drop_size``): ``predict/masks`` packed with
  ``numpy.packbits`` along the last axis (``predict/mask_shape`` their shape),
  ``predict/labels``, ``predict/scores``;
- ``voting/*``: ``mask_voting`` of random inputs on a 60x80 image (40 boxes around five centres,
  21x21 probabilities, four classes with the background), ``voting/inputs/*`` and, for
  ``limit`` 100 and 5, ``voting/<limit>/seg_prob``, ``bbox``, ``label``, ``score``;
- ``target/*``: ``ProposalTargetCreator()`` (its defaults) of 200 regions jittered around three
  boxes of random blobs on a 60x80 image, with NumPy's global state seeded by
  ``target/seed``: ``target/inputs/*`` and ``target/sample_roi``, ``gt_roi_mask``,
  ``gt_roi_label``, ``gt_roi_loc`` (``mask_size`` 21);
- ``train/*``: ``FCISTrainChain`` of the model with ``roi_size`` 7, without ``iter2`` and with
  50 proposals in training too, sampling 32 regions, on the prepared image with three random
  blobs as objects (``train/mask``, ``train/label``, ``train/bbox``, ``train/scale``), NumPy's
  global state seeded by ``train/seed``: the loss and its parts (``train/loss``,
  ``train/rpn_loc_loss``...). Not its gradients: ChainerCV's backward on the CPU gives NaN
  for every parameter here.
"""

from __future__ import annotations

import importlib.util
import os

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, 'chainercv_fcis_resnet101.npz')
TSV = os.path.join(HERE, 'chainercv_fcis_resnet101_params.tsv')
SEED = 23
SHAPE = (3, 150, 200)
MIN_SIZE, MAX_SIZE = 240, 320
ROI_STEP = 3
N_TEST_POST_NMS = 50
SIZE = (60, 80)
TARGET_SEED = 5
TRAIN_SEED = 13
FEATURE_SCALE = 1e-3
SCALED = ('rpn/conv1/W', 'head/conv1/W')


def _load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _blobs(rng, n: int) -> numpy.ndarray:
    y, x = numpy.mgrid[:SIZE[0], :SIZE[1]]
    masks = []
    for _ in range(n):
        cy, cx = rng.uniform(10, SIZE[0] - 10), rng.uniform(10, SIZE[1] - 10)
        ry, rx = rng.uniform(6, 20, 2)
        masks.append(((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2 + rng.uniform(-.3, .3, SIZE)
                     < 1)
    return numpy.array(masks)


def _boxes_of(masks: numpy.ndarray) -> numpy.ndarray:
    boxes = []
    for m in masks:
        ys, xs = numpy.nonzero(m)
        boxes.append([ys.min(), xs.min(), ys.max() + 1, xs.max() + 1])
    return numpy.array(boxes, numpy.float32)


def _voting(mask_voting) -> dict:
    rng = numpy.random.RandomState(7)
    centres = numpy.concatenate((rng.uniform(0, 40, (5, 2)), rng.uniform(15, 40, (5, 2))),
                                axis=1)
    which = rng.randint(0, 5, 40)
    y_min, x_min = (centres[which, :2] + rng.uniform(-4, 4, (40, 2))).T
    h, w = (centres[which, 2:] + rng.uniform(-5, 5, (40, 2))).T
    bbox = numpy.stack((y_min, x_min, y_min + h, x_min + w), axis=1)
    bbox[:, 0::2] = numpy.clip(bbox[:, 0::2], 0, SIZE[0])
    bbox[:, 1::2] = numpy.clip(bbox[:, 1::2], 0, SIZE[1])
    bbox = bbox.astype(numpy.float32)
    seg_prob = rng.uniform(size=(40, 21, 21)).astype(numpy.float32)
    logits = 2 * rng.standard_normal((40, 4))
    cls_prob = (numpy.exp(logits) / numpy.exp(logits).sum(axis=1, keepdims=True)).astype(
        numpy.float32)
    out = {'voting/inputs/seg_prob': seg_prob, 'voting/inputs/bbox': bbox,
           'voting/inputs/cls_prob': cls_prob, 'voting/inputs/size': numpy.array(SIZE)}
    for limit in (100, 5):
        v_seg_prob, v_bbox, v_label, v_score = mask_voting(
            seg_prob, bbox, cls_prob, SIZE, 0.1, 0.3, 0.5, 0.4, limit=limit)
        out.update({f'voting/{limit}/seg_prob': v_seg_prob.astype(numpy.float32),
                    f'voting/{limit}/bbox': v_bbox.astype(numpy.float32),
                    f'voting/{limit}/label': v_label.astype(numpy.int32),
                    f'voting/{limit}/score': v_score.astype(numpy.float32)})
    return out


def _targets(creator_class) -> dict:
    rng = numpy.random.RandomState(11)
    mask = _blobs(rng, 3)
    bbox = _boxes_of(mask)
    label = numpy.array([4, 0, 17], numpy.int32)
    which = rng.randint(0, 3, 200)
    roi = bbox[which] + rng.uniform(-8, 8, (200, 4)).astype(numpy.float32)
    roi[:, 0::2] = numpy.clip(roi[:, 0::2], 0, SIZE[0])
    roi[:, 1::2] = numpy.clip(roi[:, 1::2], 0, SIZE[1])
    roi = roi.astype(numpy.float32)
    numpy.random.seed(TARGET_SEED)
    sample_roi, gt_roi_mask, gt_roi_label, gt_roi_loc = creator_class()(
        roi, mask, label, bbox, mask_size=21)
    return {'target/seed': numpy.int32(TARGET_SEED), 'target/inputs/roi': roi,
            'target/inputs/mask': mask, 'target/inputs/label': label,
            'target/inputs/bbox': bbox, 'target/sample_roi': sample_roi,
            'target/gt_roi_mask': gt_roi_mask.astype(numpy.int32),
            'target/gt_roi_label': gt_roi_label.astype(numpy.int32),
            'target/gt_roi_loc': gt_roi_loc.astype(numpy.float32)}


def _train_loss(FCISResNet101, FCISTrainChain, ProposalTargetCreator, fill, img) -> dict:
    """The loss of ``FCISTrainChain`` (``train`` on, one image: the fixture's, prepared, with
    three blobs as its objects) for a model of ``roi_size`` 7 (of the same parameters; a
    ninth of the pooled bins, which ChainerCV's CPU pooling visits one by one in Python)
    without ``iter2``, 50 proposals and 32 sampled regions, NumPy's global state seeded by
    ``TRAIN_SEED``."""
    import chainer

    model = FCISResNet101(n_fg_class=20, min_size=MIN_SIZE, max_size=MAX_SIZE, roi_size=7,
                          iter2=False,
                          proposal_creator_params={**FCISResNet101.proposal_creator_params,
                                                   'n_train_post_nms': N_TEST_POST_NMS})
    fill(model)
    x = model.prepare(img)
    rng = numpy.random.RandomState(17)
    y, xx = numpy.mgrid[:x.shape[1], :x.shape[2]]
    masks = []
    for cy, cx, ry, rx in ((80, 90, 50, 60), (160, 230, 40, 70), (120, 160, 90, 40)):
        masks.append(((y - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2
                     + rng.uniform(-.2, .2, x.shape[1:]) < 1)
    mask = numpy.array(masks)
    bbox = _boxes_of(mask)
    label = numpy.array([3, 11, 19], numpy.int32)
    scale = numpy.array([x.shape[1] / img.shape[1]], numpy.float32)
    chain = FCISTrainChain(model, proposal_target_creator=ProposalTargetCreator(n_sample=32))
    reporter = chainer.Reporter()
    reporter.add_observer('main', chain)
    observation = {}
    numpy.random.seed(TRAIN_SEED)
    with reporter.scope(observation), chainer.using_config('train', True):
        chain(x[None], mask[None], label[None], bbox[None], scale)
    out = {'train/seed': numpy.int32(TRAIN_SEED), 'train/mask': mask, 'train/label': label,
           'train/bbox': bbox, 'train/scale': scale}
    for key, value in observation.items():
        out[f'train/{key[len("main/"):]}'] = numpy.float32(value.array)
    return out


def main() -> None:
    # ChainerCV 0.13.1 predates NumPy 1.24
    numpy.bool = bool
    numpy.int = int
    import chainer
    from chainercv.experimental.links.model.fcis import (
        FCISResNet101,
        FCISTrainChain,
        ProposalTargetCreator,
        mask_voting,
    )

    segmentation = _load(os.path.join(HERE, 'make_chainercv_segmentation_fixtures.py'),
                         'make_chainercv_segmentation_fixtures')
    yolo = _load(os.path.join(HERE, 'make_chainercv_yolo_fixtures.py'),
                 'make_chainercv_yolo_fixtures')
    parity = _load(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')

    def fill(model):
        segmentation.fill_by_rule(parity, model)
        params = dict(model.namedparams())
        for name in SCALED:
            params['/' + name].array *= FEATURE_SCALE

    model = FCISResNet101(n_fg_class=20, min_size=MIN_SIZE, max_size=MAX_SIZE,
                          proposal_creator_params={**FCISResNet101.proposal_creator_params,
                                                   'n_test_post_nms': N_TEST_POST_NMS})
    yolo._write_tsv(TSV, model)
    fill(model)
    img = numpy.random.RandomState(SEED).uniform(0, 255, SHAPE).astype(numpy.float32)
    x = model.prepare(img)[None]
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        seg, locs, cls, rois, roi_indices = model(x)
    out = {'seed': numpy.int32(SEED), 'shape': numpy.array(SHAPE, numpy.int32),
           'feature_scale': numpy.float32(FEATURE_SCALE), 'scaled': numpy.array(SCALED),
           'min_size': numpy.int32(MIN_SIZE), 'max_size': numpy.int32(MAX_SIZE),
           'n_test_post_nms': numpy.int32(N_TEST_POST_NMS),
           'roi_step': numpy.int32(ROI_STEP),
           'out/rois': rois, 'out/roi_indices': roi_indices, 'out/roi_ag_locs': locs.array,
           'out/roi_cls_scores': cls.array, 'out/roi_ag_seg_scores': seg.array[::ROI_STEP]}
    model.use_preset('evaluate')
    (masks,), (labels,), (scores,) = model.predict([img])
    thresholds = [model.nms_thresh, model.score_thresh, model.mask_merge_thresh,
                  model.binary_thresh, model.limit, model.min_drop_size]
    out.update({'predict/masks': numpy.packbits(masks, axis=-1),
                'predict/mask_shape': numpy.array(masks.shape, numpy.int32),
                'predict/labels': labels.astype(numpy.int32),
                'predict/scores': scores.astype(numpy.float32),
                'predict/thresholds': numpy.array(thresholds, numpy.float64)})
    out.update(_voting(mask_voting))
    out.update(_targets(ProposalTargetCreator))
    out.update(_train_loss(FCISResNet101, FCISTrainChain, ProposalTargetCreator, fill, img))
    numpy.savez_compressed(OUT, **out)
    for key, value in out.items():
        print(key, numpy.shape(value), numpy.asarray(value).dtype)
    print(OUT, os.path.getsize(OUT), 'bytes; masks', masks.sum(axis=(1, 2)))


if __name__ == '__main__':
    main()
