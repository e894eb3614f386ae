"""Write torchvision's Faster R-CNN with FPN on ResNet-50 (``fasterrcnn_resnet50_fpn``, 91
classes, as its ``COCO_V1`` weights run) on weights made by the rule into
tests/data/tv_fasterrcnn_resnet50_fpn.npz and its state-dict keys into
tests/data/tv_fasterrcnn_resnet50_fpn_params.tsv.

Runs in the peer environment (torch, torchvision, NumPy; see tests/data/README.md), never in
the project's::

    /tmp/torchvenv/bin/python tests/data/make_torchvision_fpn_fixture.py

The model is built as ``fasterrcnn_resnet50_fpn(weights=COCO_V1)`` builds it (ResNet-50 with
frozen batch normalizations, ``overwrite_eps(model, 0.0)``), without downloading anything, and
with ``min_size=MIN_SIZE``, ``max_size=MAX_SIZE`` to keep the fixture small. The weights are the
rule's (``vision/utils/testing/parity.py``, loaded by its path), except the biases of the ten
unused COCO category ids (``'N/A'``) in ``cls_score``, set to ``UNUSED_BIAS``: a trained head
never scores them, and the project's 81-class head, which has no place for them, then gives the
same softmax. torchvision's compiled ``nms`` is replaced by the NumPy port of
``bench/torchvision_cpu_nms.py`` when it does not load; ``roi_align`` then runs torchvision's
own PyTorch fallback (``torchvision.ops.roi_align._roi_align``). The image is uniform noise
(3, 300, 400) from ``numpy.random.RandomState(0)``, integer values 0-255, given as
``img / 255``.

Recorded (torchvision's layouts: boxes ``(x1, y1, x2, y2)``, offsets ``(dx, dy, dw, dh)``):

- ``image``: the image (uint8); ``image_size`` ``(H, W)`` resized, ``in_size`` padded;
- ``prepared``: the rows ``prepared_rows`` (every ``ROW_STEP``-th) of the normalized, resized
  and padded input ``(3, H', W')``;
- ``features/{0,1,2,3,pool}``: the pyramid's levels, channels ``channels`` (every
  ``CHANNEL_STEP``-th);
- ``anchors``: every anchor of the five levels, in the RPN's order;
- ``rpn/objectness`` and ``rpn/deltas``: the RPN's logits and offsets of the anchors ``rows``
  (every ``ROW_STEP``-th), levels concatenated in the order of the anchors (cell-major,
  anchor-minor);
- ``proposals``: the RPN's proposals, in its order (by decreasing probability);
- ``box/class_logits``, ``box/box_regression``: the box head's outputs (91 and 91 x 4) for the
  proposals ``proposal_rows`` (every ``PROPOSAL_STEP``-th);
- ``predict/boxes`` (in the image's pixels), ``predict/labels`` (category ids),
  ``predict/scores``: the eval-mode detections;
- ``categories`` (the 91 names) and the settings of the model.
"""

from __future__ import annotations

import os
import sys

import numpy
from _fixture_scripts import load_module, write_params_tsv  # this folder

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = 'tv_fasterrcnn_resnet50_fpn'
UNUSED_BIAS = -1000.0
MIN_SIZE, MAX_SIZE = 200, 333
IMAGE_SHAPE = (3, 300, 400)
ROW_STEP = 7
CHANNEL_STEP = 32
PROPOSAL_STEP = 10


def rule_filled_state(parity, model, unused: list[int]) -> dict:
    import torch

    state = {key: torch.from_numpy(parity.rule_array(key, tuple(v.shape),
                                                     str(v.dtype).replace('torch.', '')))
             for key, v in model.state_dict().items()}
    state['roi_heads.box_predictor.cls_score.bias'][unused] = UNUSED_BIAS
    return state


def build_model(n_class: int):
    """``fasterrcnn_resnet50_fpn`` as its COCO_V1 weights build it, without weights."""
    from torchvision.models import resnet50
    from torchvision.models.detection._utils import overwrite_eps
    from torchvision.models.detection.backbone_utils import _resnet_fpn_extractor
    from torchvision.models.detection.faster_rcnn import FasterRCNN
    from torchvision.ops import misc as misc_nn_ops

    backbone = resnet50(weights=None, norm_layer=misc_nn_ops.FrozenBatchNorm2d)
    backbone = _resnet_fpn_extractor(backbone, 3)
    model = FasterRCNN(backbone, num_classes=n_class, min_size=MIN_SIZE, max_size=MAX_SIZE)
    overwrite_eps(model, 0.0)
    return model


def _rpn_layout(tensors, width: int) -> numpy.ndarray:
    """The RPN's ``(1, A * width, H, W)`` maps as rows ``(H W A, width)``, levels
    concatenated."""
    rows = []
    for t in tensors:
        _, c, h, w = t.shape
        rows.append(t[0].reshape(c // width, width, h, w).permute(2, 3, 0, 1)
                    .reshape(-1, width).numpy())
    return numpy.concatenate(rows)


def main() -> None:
    sys.path.insert(0, os.path.join(ROOT, 'bench'))
    import torchvision_cpu_nms

    nms_kernel = torchvision_cpu_nms.install()
    import torch
    import torchvision
    from torchvision.models.detection import FasterRCNN_ResNet50_FPN_Weights

    parity = load_module(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')
    torch.set_num_threads(1)
    categories = FasterRCNN_ResNet50_FPN_Weights.COCO_V1.meta['categories']
    unused = [i for i, name in enumerate(categories) if name == 'N/A']
    model = build_model(len(categories))
    model.eval()
    write_params_tsv(model.state_dict(), os.path.join(HERE, f'{NAME}_params.tsv'))
    model.load_state_dict(rule_filled_state(parity, model, unused))

    img = numpy.random.RandomState(0).randint(0, 256, IMAGE_SHAPE).astype(numpy.uint8)
    seen = {}
    model.transform.register_forward_hook(
        lambda m, i, o: seen.update(prepared=o[0].tensors, image_size=o[0].image_sizes[0]))
    model.backbone.register_forward_hook(lambda m, i, o: seen.update(features=o))
    model.rpn.head.register_forward_hook(
        lambda m, i, o: seen.update(objectness=o[0], deltas=o[1]))
    model.rpn.anchor_generator.register_forward_hook(lambda m, i, o: seen.update(anchors=o[0]))
    model.rpn.register_forward_hook(lambda m, i, o: seen.update(proposals=o[0][0]))
    model.roi_heads.box_predictor.register_forward_hook(
        lambda m, i, o: seen.update(class_logits=o[0], box_regression=o[1]))
    with torch.no_grad():
        detections, = model([torch.from_numpy(img.astype(numpy.float32) / 255)])
    objectness = _rpn_layout(seen['objectness'], 1)[:, 0]
    deltas = _rpn_layout(seen['deltas'], 4)
    rows = numpy.arange(0, len(objectness), ROW_STEP)
    prepared = seen['prepared'][0]
    proposal_rows = numpy.arange(0, len(seen['proposals']), PROPOSAL_STEP)
    channels = numpy.arange(0, 256, CHANNEL_STEP)
    record = {
        'image': img,
        'image_size': numpy.array(seen['image_size']),
        'in_size': numpy.array(prepared.shape[1:]),
        'prepared_rows': numpy.arange(0, prepared.shape[1], ROW_STEP),
        'prepared': prepared[:, ::ROW_STEP].numpy(),
        'channels': channels,
        **{f'features/{k}': v[0, channels].numpy() for k, v in seen['features'].items()},
        'anchors': seen['anchors'].numpy(),
        'rows': rows,
        'rpn/objectness': objectness[rows],
        'rpn/deltas': deltas[rows],
        'proposals': seen['proposals'].numpy(),
        'proposal_rows': proposal_rows,
        'box/class_logits': seen['class_logits'][proposal_rows].numpy(),
        'box/box_regression': seen['box_regression'][proposal_rows].numpy(),
        'predict/boxes': detections['boxes'].numpy(),
        'predict/labels': detections['labels'].numpy(),
        'predict/scores': detections['scores'].numpy(),
        'categories': numpy.array(categories),
        'unused_bias': numpy.float32(UNUSED_BIAS),
        'min_size': MIN_SIZE, 'max_size': MAX_SIZE,
        'score_thresh': model.roi_heads.score_thresh, 'nms_thresh': model.roi_heads.nms_thresh,
        'detections_per_img': model.roi_heads.detections_per_img,
        'image_mean': numpy.array(model.transform.image_mean),
        'image_std': numpy.array(model.transform.image_std),
        'peer': numpy.array(f'torch {torch.__version__}, torchvision {torchvision.__version__}'
                            f' (nms: {nms_kernel}), numpy {numpy.__version__}'),
    }
    numpy.savez_compressed(os.path.join(HERE, f'{NAME}.npz'), **record)
    scores = record['predict/scores']
    print(f'{NAME}.npz: {len(seen["proposals"])} proposals, {len(scores)} detections, '
          f'scores {scores.min() if len(scores) else 0:.4f}-'
          f'{scores.max() if len(scores) else 0:.4f}; logits '
          f'{numpy.abs(objectness).max():.3g}, features '
          f'{max(float(v.abs().max()) for v in seen["features"].values()):.3g}')


if __name__ == '__main__':
    main()
