"""Write the parameter list of ChainerCV's LightHeadRCNNResNet101 and its outputs on a small
noise image, for the tests of vision.models.detection.light_head_rcnn.

ChainerCV's Light-Head R-CNN came after its last release (0.13.1): it is on its master branch
only (``chainercv/links/model/light_head_rcnn``, the 2019 versions with ``max_n_predict`` and
the head's ``-inf`` bins set to zero). The script runs in the peer environment (Chainer 7.8.1,
ChainerCV 0.13.1, NumPy 1.26), never in the project's, with ``CHAINERCV_MASTER`` naming a
checkout of ChainerCV's master whose ``chainercv/links/model/light_head_rcnn`` it adds to the
installed ChainerCV (everything else, the RPN, ResNet blocks, ``ps_roi_max_align_2d``, is
0.13.1's)::

    git clone https://github.com/chainer/chainercv /tmp/chainercv_master
    CHAINERCV_MASTER=/tmp/chainercv_master /tmp/chainervenv/bin/python \\
        tests/data/make_chainercv_light_head_rcnn_fixtures.py

ChainerCV 0.13.1 still spells ``np.bool``, which NumPy 1.24 removed: the script puts the alias
back as ``bool``. Without OpenCV ChainerCV resizes with Pillow, as the project does.

Writes:

- ``chainercv_light_head_rcnn_resnet101_params.tsv``: ``path``, ``shape``, ``dtype``, ``kind``
  of every parameter (``param``) and floating-point persistent (``persistent``) of
  ``LightHeadRCNNResNet101(n_fg_class=80)``, as ``../shared/fixtures`` lists them;
- ``chainercv_light_head_rcnn_resnet101.npz``: for that model with ``min_size`` 160 and
  ``max_size`` 256 and the weights of the fixtures' rule (``vision/utils/testing/parity.py``),
  those of the output layers of the RPN and the head scaled by ``OUTPUT_SCALES``:
  ``input``, a (3, 96, 128) uniform noise image; ``model(x, [scale])`` on its prepared image
  (1, 3, 160, 213): ``out/rois`` and ``out/roi_indices`` (all of them), ``out/roi_cls_locs``
  and ``out/roi_scores`` at the rows ``out/rows`` (every tenth); ``predict`` with the
  ``'evaluate'`` preset (``nms_thresh``, ``score_thresh``, ``max_n_predict``):
  ``predict/bbox``, ``predict/label``, ``predict/score``.
"""

from __future__ import annotations

import os
import sys

import numpy
from _fixture_scripts import load_module

HERE = os.path.dirname(os.path.abspath(__file__))
#: The fixtures' weight rule, ``vision/utils/testing/parity.py``.
RULE = load_module(os.path.join(HERE, '..', '..', 'vision', 'utils', 'testing', 'parity.py'),
                   'parity')
NAME = 'chainercv_light_head_rcnn_resnet101'
MIN_SIZE, MAX_SIZE = 160, 256
#: The rule's ResNet-101 gives features in the thousands, which saturate the offsets (boxes
#: clipped to the image's edges) and the softmax (ties at 1): the output layers of the RPN and
#: the head, weights and biases, are scaled by these factors after the rule.
OUTPUT_SCALES = {'/rpn/loc/': 1e-4, '/rpn/score/': 1e-3, '/head/cls_loc/': 1e-3,
                 '/head/score/': 1e-3}


def _float_persistents(model):
    for path, link in model.namedlinks():
        for key in link._persistent:
            value = getattr(link, key)
            if isinstance(value, numpy.ndarray) and value.dtype.kind == 'f':
                yield f"{path.rstrip('/')}/{key}", value


def _import_light_head_rcnn():
    root = os.environ.get('CHAINERCV_MASTER')
    if not root:
        sys.exit('CHAINERCV_MASTER must name a checkout of ChainerCV master (see the docstring)')
    numpy.bool = bool  # ChainerCV 0.13.1 predates NumPy 1.24
    import chainercv.links.model
    chainercv.links.model.__path__.append(os.path.join(root, 'chainercv', 'links', 'model'))
    from chainercv.links.model.light_head_rcnn.light_head_rcnn_resnet101 import (
        LightHeadRCNNResNet101,
    )
    return LightHeadRCNNResNet101


def main() -> None:
    import chainer

    LightHeadRCNNResNet101 = _import_light_head_rcnn()
    model = LightHeadRCNNResNet101(n_fg_class=80, min_size=MIN_SIZE, max_size=MAX_SIZE)
    rows = [(name, param.shape, param.dtype, 'param') for name, param in model.namedparams()]
    rows += [(name, value.shape, value.dtype, 'persistent')
             for name, value in _float_persistents(model)]
    path = os.path.join(HERE, f'{NAME}_params.tsv')
    with open(path, 'w') as f:
        f.write('path\tshape\tdtype\tkind\n')
        for name, shape, dtype, kind in sorted(rows, key=lambda row: (row[3], row[0])):
            f.write(f"{name}\t{','.join(map(str, shape))}\t{numpy.dtype(dtype).name}\t{kind}\n")
    print(path, len(rows))

    for name, param in model.namedparams():
        param.array[...] = RULE.rule_array(name, param.array.shape, param.array.dtype)
        for layer, factor in OUTPUT_SCALES.items():
            if name.startswith(layer):
                param.array *= factor
    for name, value in _float_persistents(model):
        value[...] = RULE.rule_array(name, value.shape, value.dtype)

    img = numpy.random.RandomState(0).uniform(0, 255, (3, 96, 128)).astype(numpy.float32)
    x = model.prepare(img)[None]
    scale = x.shape[3] / img.shape[2]
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        roi_cls_locs, roi_scores, rois, roi_indices = model(x, [scale])
    picked = numpy.arange(0, len(rois), 10)
    model.use_preset('evaluate')
    bboxes, labels, scores = model.predict([img])
    out = {'input': img, 'scale': numpy.float32(scale),
           'min_size': numpy.int32(MIN_SIZE), 'max_size': numpy.int32(MAX_SIZE),
           'out/rois': rois, 'out/roi_indices': roi_indices, 'out/rows': picked,
           'out/roi_cls_locs': roi_cls_locs.array[picked],
           'out/roi_scores': roi_scores.array[picked],
           'nms_thresh': numpy.float32(model.nms_thresh),
           'score_thresh': numpy.float32(model.score_thresh),
           'max_n_predict': numpy.int32(model.max_n_predict),
           'predict/bbox': bboxes[0], 'predict/label': labels[0], 'predict/score': scores[0]}
    path = os.path.join(HERE, f'{NAME}.npz')
    numpy.savez_compressed(path, **out)
    for key, value in out.items():
        print(key, numpy.shape(value), numpy.asarray(value).dtype)
    print(path, os.path.getsize(path))


if __name__ == '__main__':
    main()
