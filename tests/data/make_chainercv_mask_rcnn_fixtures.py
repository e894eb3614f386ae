"""Write ChainerCV's coding of masks in boxes and its mask head loss on random inputs, for the
tests of vision.models.instance.mask_rcnn.

Runs in the peer environment (Chainer 7.8.1, ChainerCV 0.13.1, NumPy 1.26) with OpenCV, which
ChainerCV's ``segm_to_mask`` and ``mask_to_segm`` require (``opencv-python-headless``
installed apart, ``pip install --target /tmp/cv2peer``), never in the project's::

    PYTHONPATH=/tmp/cv2peer /tmp/chainervenv/bin/python \\
        tests/data/make_chainercv_mask_rcnn_fixtures.py

ChainerCV 0.13.1 still spells ``np.bool``, which NumPy 1.24 removed, and stacks generators
with ``np.hstack``, which NumPy 1.24 refuses: the script puts the alias back as ``bool`` and
makes ``hstack`` take a list of the generator before calling it.

Writes ``chainercv_mask_rcnn_coding.npz``:

- ``segm_to_mask/segm`` (8, 28, 28) uniform probabilities, ``segm_to_mask/bbox`` (8, 4)
  boxes on a 60x80 image (fractional corners; inside, over each edge, larger than the
  image, a few pixels wide), ``segm_to_mask/mask`` ChainerCV's ``segm_to_mask`` of them at
  size (60, 80);
- ``mask_to_segm/mask`` (3, 60, 80) random blobs, ``mask_to_segm/bbox`` (8, 4) boxes as
  above, ``mask_to_segm/index`` (8,) the mask of each, ``mask_to_segm/segm`` ChainerCV's
  ``mask_to_segm`` of them with ``segm_size`` 28 (boxes larger and smaller than 30 pixels:
  OpenCV shrinks and enlarges);
- ``loss/rois/<l>``, ``loss/roi_indices/<l>``, ``loss/gt_head_labels/<l>`` (three levels,
  two images) and ``loss/gt_masks/<n>``, ``loss/gt_bboxes/<n>``: ``mask_head_loss_pre`` of
  them with ``segm_size`` 14 gives ``loss/mask_rois/<l>``, ``loss/mask_roi_indices/<l>``,
  ``loss/gt_segms/<l>``, ``loss/gt_mask_labels/<l>``; ``loss/segms`` normal logits
  (R', 4, 14, 14) and ``mask_head_loss_post`` of them: ``loss/loss``.

and ``chainercv_mask_rcnn_predict_masks.npz``: the masks that ``MaskRCNNFPNResNet50
(n_fg_class=80)``'s ``predict`` gives for ``bboxes`` (three boxes of the shared fixture's
480x640 ``input``, in an order that ``MaskHead.distribute`` changes) and ``labels``, with the
weights of the fixtures' rule (``../shared/fixtures/README.md``): its mask branch run on the
levels of the prepared input (the boxes scaled, distributed, the head's sigmoid put back in
their order, ``MaskHead.decode``): ``masks`` (3, 480, 640) bool and ``probs`` (3, 28, 28),
the probabilities of each box's class.
"""

from __future__ import annotations

import os

import numpy
from _fixture_scripts import load_module

HERE = os.path.dirname(os.path.abspath(__file__))
#: The fixtures' weight rule, ``vision/utils/testing/parity.py``.
RULE = load_module(os.path.join(HERE, '..', '..', 'vision', 'utils', 'testing', 'parity.py'),
                   'parity')
SHARED_INPUT = os.path.join(HERE, 'chainercv_mask_rcnn_fpn_resnet50.npz')
SIZE = (60, 80)


def _bboxes(rng) -> numpy.ndarray:
    return numpy.array([
        [10.3, 12.6, 50.2, 70.9],   # inside, larger than 30 pixels
        [5.5, 5.5, 17.5, 21.5],     # inside, smaller
        [-12.2, 30.1, 20.7, 60.4],  # over the top edge
        [40.8, -9.6, 75.1, 22.2],   # over the left and bottom edges
        [20.4, 60.2, 44.9, 95.3],   # over the right edge
        [-20.0, -30.0, 90.0, 110.0],  # larger than the image
        [30.2, 40.1, 33.4, 42.9],   # a few pixels
        rng.uniform(0, 40, 2).tolist() + rng.uniform(40, 80, 2).tolist(),
    ], numpy.float32)


def _blobs(rng, n: int) -> numpy.ndarray:
    y, x = numpy.mgrid[:SIZE[0], :SIZE[1]]
    masks = []
    for _ in range(n):
        cy, cx = rng.uniform(0, SIZE[0]), rng.uniform(0, SIZE[1])
        ry, rx = rng.uniform(8, 30, 2)
        masks.append(((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2 + rng.uniform(-.3, .3, SIZE)
                     < 1)
    return numpy.array(masks)


def write_predict_masks() -> None:
    import chainer
    import chainer.functions as F
    from chainercv.links import MaskRCNNFPNResNet50

    model = MaskRCNNFPNResNet50(n_fg_class=80)
    img = numpy.load(SHARED_INPUT)['input']
    x, scales = model.prepare([img])
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        # a first call sizes the parameters Chainer infers
        hs = model.extractor(x)
        model.rpn(hs)
        rois = [numpy.array([[0, 0, 32, 32]], numpy.float32)] + [
            numpy.zeros((0, 4), numpy.float32)] * 4
        indices = [numpy.zeros(len(r), numpy.int32) for r in rois]
        model.bbox_head(hs, rois, indices)
        model.mask_head(hs, rois, indices)
        for name, param in model.namedparams():
            param.array[...] = RULE.rule_array(name, param.array.shape, param.array.dtype)
        for path, link in model.namedlinks():
            for key in link._persistent:
                value = getattr(link, key)
                if isinstance(value, numpy.ndarray) and value.dtype.kind == 'f':
                    value[...] = RULE.rule_array(f"{path.rstrip('/')}/{key}", value.shape,
                                                 value.dtype)
        hs = model.extractor(x)
        bboxes = numpy.array([[100, 120, 400, 520], [10, 20, 40, 70], [50, 200, 210, 330]],
                             numpy.float32)
        labels = numpy.array([5, 0, 79], numpy.int32)
        rois, roi_indices, order = model.mask_head.distribute(
            bboxes * numpy.float32(scales[0]), numpy.zeros(3, numpy.int32))
        segms = F.sigmoid(model.mask_head(hs, rois, roi_indices)).array[order]
    masks = model.mask_head.decode([segms], [bboxes], [labels], [img.shape[1:]])[0]
    path = os.path.join(HERE, 'chainercv_mask_rcnn_predict_masks.npz')
    numpy.savez_compressed(path, bboxes=bboxes, labels=labels, masks=masks,
                           probs=segms[numpy.arange(3), labels + 1], order=order)
    print(path, masks.sum(axis=(1, 2)), order)


def main() -> None:
    # ChainerCV 0.13.1 predates NumPy 1.24
    numpy.bool = bool
    hstack = numpy.hstack
    numpy.hstack = lambda arrays, *args, **kwargs: hstack(list(arrays), *args, **kwargs)
    import chainer
    from chainercv.links.model.fpn.mask_head import mask_head_loss_post, mask_head_loss_pre
    from chainercv.links.model.fpn.mask_utils import mask_to_segm, segm_to_mask

    rng = numpy.random.RandomState(20)
    out = {}
    segm = rng.uniform(size=(8, 28, 28)).astype(numpy.float32)
    bbox = _bboxes(rng)
    out.update({'segm_to_mask/segm': segm, 'segm_to_mask/bbox': bbox,
                'segm_to_mask/mask': segm_to_mask(segm, bbox, SIZE)})
    mask = _blobs(rng, 3)
    bbox = _bboxes(rng)
    index = rng.randint(0, 3, 8).astype(numpy.int32)
    out.update({'mask_to_segm/mask': mask, 'mask_to_segm/bbox': bbox,
                'mask_to_segm/index': index,
                'mask_to_segm/segm': mask_to_segm(mask, bbox, 28, index)})

    gt_masks = [_blobs(rng, 3), _blobs(rng, 2)]
    gt_bboxes = []
    for masks in gt_masks:
        boxes = []
        for m in masks:
            ys, xs = numpy.nonzero(m)
            boxes.append([ys.min(), xs.min(), ys.max() + 1, xs.max() + 1])
        gt_bboxes.append(numpy.array(boxes, numpy.float32))
    rois, roi_indices, labels = [], [], []
    for n in (7, 5, 3):
        index = rng.randint(0, 2, n).astype(numpy.int32)
        jitter = rng.uniform(-6, 6, (n, 4)).astype(numpy.float32)
        which = [rng.randint(len(gt_bboxes[i])) for i in index]
        rois.append(numpy.array([gt_bboxes[i][j] for i, j in zip(index, which)],
                                numpy.float32) + jitter)
        roi_indices.append(index)
        labels.append(rng.randint(0, 4, n).astype(numpy.int32))
    mask_rois, mask_roi_indices, gt_segms, gt_mask_labels = mask_head_loss_pre(
        rois, roi_indices, gt_masks, gt_bboxes, labels, 14)
    n_fg = sum(len(r) for r in mask_rois)
    segms = rng.standard_normal((n_fg, 4, 14, 14)).astype(numpy.float32)
    loss = mask_head_loss_post(chainer.Variable(segms), mask_roi_indices, gt_segms,
                               gt_mask_labels, 2)
    for lv in range(3):
        out.update({f'loss/rois/{lv}': rois[lv], f'loss/roi_indices/{lv}': roi_indices[lv],
                    f'loss/gt_head_labels/{lv}': labels[lv],
                    f'loss/mask_rois/{lv}': mask_rois[lv],
                    f'loss/mask_roi_indices/{lv}': mask_roi_indices[lv],
                    f'loss/gt_segms/{lv}': gt_segms[lv],
                    f'loss/gt_mask_labels/{lv}': gt_mask_labels[lv]})
    for n in range(2):
        out.update({f'loss/gt_masks/{n}': gt_masks[n], f'loss/gt_bboxes/{n}': gt_bboxes[n]})
    out.update({'loss/segms': segms, 'loss/loss': numpy.float32(loss.array)})
    path = os.path.join(HERE, 'chainercv_mask_rcnn_coding.npz')
    numpy.savez_compressed(path, **out)
    print(path, {k: v.shape for k, v in out.items()})
    write_predict_masks()


if __name__ == '__main__':
    main()
