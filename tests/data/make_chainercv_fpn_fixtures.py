"""Write the parameter list of ChainerCV's FasterRCNNFPNResNet101 and the decoding of its FPN
parts on random inputs, for the tests of vision.models.detection.fpn.

Runs in the peer environment (Chainer 7.8.1, ChainerCV 0.13.1, NumPy 1.26), never in the
project's::

    /tmp/chainervenv/bin/python tests/data/make_chainercv_fpn_fixtures.py

Writes:

- ``chainercv_faster_rcnn_fpn_resnet101_params.tsv``: ``path``, ``shape``, ``dtype``, ``kind``
  of every parameter (``param``) and floating-point persistent (``persistent``) of
  ``FasterRCNNFPNResNet101(n_fg_class=80)`` (after a call on a 64x64 input, which sizes the
  parameters Chainer infers), as ``../shared/fixtures`` lists them;
- ``chainercv_fpn_decoding.npz``: ``RPN.anchors`` of the five levels of a 64x96 input
  (``anchors/<l>``); ``RPN.decode`` (inference, its limits set to ``n_pre_nms`` before and
  ``n_post_nms`` after the suppression) of normal offsets (``rpn/locs/<l>``, scale 0.5) and
  objectness (``rpn/confs/<l>``) on them: ``rpn/rois``, ``rpn/roi_indices``;
  ``BboxHead.distribute`` of ``head/rois`` (image 0), and ``BboxHead.decode`` of normal
  ``head/locs`` and ``head/confs`` (4 classes) for the distributed regions at ``head/scale``,
  image ``head/size``, ``nms_thresh`` 0.5 and ``score_thresh`` 0.05: ``head/bbox``,
  ``head/label``, ``head/score``, and the distributed ``head/rois_order``.
"""

from __future__ import annotations

import os

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = ((16, 24), (8, 12), (4, 6), (2, 3), (1, 2))
IN_SHAPE = (1, 3, 64, 96)


def write_params_tsv() -> None:
    import chainer
    from chainercv.links import FasterRCNNFPNResNet101

    # Chainer infers some input sizes at the first call: one small input initializes them.
    model = FasterRCNNFPNResNet101(n_fg_class=80)
    with chainer.using_config('train', False):
        hs = model.extractor(numpy.zeros((1, 3, 64, 64), numpy.float32))
        model.rpn(hs)
        rois = [numpy.array([[0, 0, 32, 32]], numpy.float32)] + [
            numpy.zeros((0, 4), numpy.float32)] * 4
        model.bbox_head(hs, rois, [numpy.zeros(len(r), numpy.int32) for r in rois])
    rows = [(name, param.shape, param.dtype, 'param') for name, param in model.namedparams()]
    for path, link in model.namedlinks():
        for name in link._persistent:
            value = getattr(link, name)
            if isinstance(value, numpy.ndarray) and value.dtype.kind == 'f':
                rows.append((f"{path.rstrip('/')}/{name}", value.shape, value.dtype,
                             'persistent'))
    path = os.path.join(HERE, 'chainercv_faster_rcnn_fpn_resnet101_params.tsv')
    with open(path, 'w') as f:
        f.write('path\tshape\tdtype\tkind\n')
        for name, shape, dtype, kind in sorted(rows, key=lambda row: (row[3], row[0])):
            f.write(f"{name}\t{','.join(map(str, shape))}\t{numpy.dtype(dtype).name}\t{kind}\n")
    print(path, len(rows))


def write_decoding() -> None:
    import chainer
    from chainercv.links.model.fpn import RPN, BboxHead

    scales = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)
    rng = numpy.random.RandomState(0)
    out = {}
    rpn = RPN(scales)
    rpn._test_nms_limit_pre, rpn._test_nms_limit_post = 40, 30
    anchors = rpn.anchors(SIZES)
    locs, confs = [], []
    for level, anchor in enumerate(anchors):
        out[f'anchors/{level}'] = anchor
        locs.append(0.5 * rng.standard_normal((1, len(anchor), 4)).astype(numpy.float32))
        confs.append(rng.standard_normal((1, len(anchor))).astype(numpy.float32))
        out[f'rpn/locs/{level}'], out[f'rpn/confs/{level}'] = locs[-1], confs[-1]
    with chainer.using_config('train', False):
        rois, roi_indices = rpn.decode([chainer.Variable(a) for a in locs],
                                       [chainer.Variable(a) for a in confs], anchors, IN_SHAPE)
    out['rpn/rois'], out['rpn/roi_indices'] = rois, roi_indices
    out['n_pre_nms'], out['n_post_nms'] = numpy.int32(40), numpy.int32(30)

    head = BboxHead(4, scales)
    yx = rng.uniform(0, 400, (60, 2))
    hw = numpy.exp(rng.uniform(numpy.log(4), numpy.log(500), (60, 2)))
    head_rois = numpy.concatenate((yx, yx + hw), axis=1).astype(numpy.float32)
    rois, roi_indices = head.distribute(head_rois, numpy.zeros(60, numpy.int32))
    locs = rng.standard_normal((60, 4, 4)).astype(numpy.float32)
    confs = 2 * rng.standard_normal((60, 4)).astype(numpy.float32)
    scale, size = 1.25, (400, 500)
    bboxes, labels, scores = head.decode(rois, roi_indices, chainer.Variable(locs),
                                         chainer.Variable(confs), [scale], [size], 0.5, 0.05)
    out.update({'head/rois': head_rois, 'head/locs': locs, 'head/confs': confs,
                'head/rois_order': numpy.concatenate(rois),
                'head/scale': numpy.float32(scale), 'head/size': numpy.array(size, numpy.int32),
                'head/bbox': bboxes[0], 'head/label': labels[0], 'head/score': scores[0]})
    path = os.path.join(HERE, 'chainercv_fpn_decoding.npz')
    numpy.savez_compressed(path, **out)
    for key, value in out.items():
        print(key, value.shape, value.dtype)


if __name__ == '__main__':
    write_params_tsv()
    write_decoding()
