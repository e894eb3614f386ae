"""Write torchvision's Mask R-CNN with FPN on ResNet-50 (``maskrcnn_resnet50_fpn``, 91 classes,
as its ``COCO_V1`` weights run) on weights made by the rule into
tests/data/tv_maskrcnn_resnet50_fpn.npz and its state-dict keys into
tests/data/tv_maskrcnn_resnet50_fpn_params.tsv.

Runs in the peer environment, never in the project's::

    /tmp/torchvenv/bin/python tests/data/make_torchvision_mask_rcnn_fixture.py

Everything but the mask head is ``make_torchvision_fpn_fixture.py``'s (loaded by its path): the
model built as ``maskrcnn_resnet50_fpn(weights=COCO_V1)`` builds it (frozen batch
normalizations of eps 0) with ``min_size=200``, ``max_size=333``, the rule's weights (the same
names give the same values, so that the detector's parts are the Faster R-CNN fixture's) with
the ten unused categories' biases of ``cls_score`` at -1000, the NumPy ``nms`` and the noise
image (3, 300, 400).

Recorded (boxes ``(x1, y1, x2, y2)``): ``image``; ``predict/boxes`` (in the image's pixels),
``predict/labels`` (category ids), ``predict/scores``; ``mask_rows`` (every ``MASK_STEP``-th
detection), their ``mask_probs``, the sigmoid of the mask head's 28x28 logits of their label
(``(R, 28, 28)``), and ``masks``, the pasted probabilities above 0.5 (``(R, H, W)`` bool,
``numpy.packbits`` along the last axis); ``categories``, ``unused_bias``, the settings.
"""

from __future__ import annotations

import os
import sys

import numpy
from _fixture_scripts import load_module, write_params_tsv  # this folder

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = 'tv_maskrcnn_resnet50_fpn'
MASK_STEP = 4


def build_model(fpn, n_class: int):
    """``maskrcnn_resnet50_fpn`` as its COCO_V1 weights build it, without weights."""
    from torchvision.models import resnet50
    from torchvision.models.detection._utils import overwrite_eps
    from torchvision.models.detection.backbone_utils import _resnet_fpn_extractor
    from torchvision.models.detection.mask_rcnn import MaskRCNN
    from torchvision.ops import misc as misc_nn_ops

    backbone = resnet50(weights=None, norm_layer=misc_nn_ops.FrozenBatchNorm2d)
    backbone = _resnet_fpn_extractor(backbone, 3)
    model = MaskRCNN(backbone, num_classes=n_class, min_size=fpn.MIN_SIZE,
                     max_size=fpn.MAX_SIZE)
    overwrite_eps(model, 0.0)
    return model


def main() -> None:
    sys.path.insert(0, os.path.join(ROOT, 'bench'))
    import torchvision_cpu_nms

    nms_kernel = torchvision_cpu_nms.install()
    import torch
    import torchvision
    from torchvision.models.detection import MaskRCNN_ResNet50_FPN_Weights

    fpn = load_module(os.path.join(HERE, 'make_torchvision_fpn_fixture.py'), 'fpn_fixture')
    parity = load_module(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')
    torch.set_num_threads(1)
    categories = MaskRCNN_ResNet50_FPN_Weights.COCO_V1.meta['categories']
    unused = [i for i, name in enumerate(categories) if name == 'N/A']
    model = build_model(fpn, len(categories))
    model.eval()
    write_params_tsv(model.state_dict(), os.path.join(HERE, f'{NAME}_params.tsv'))
    model.load_state_dict(fpn.rule_filled_state(parity, model, unused))

    img = numpy.random.RandomState(0).randint(0, 256, fpn.IMAGE_SHAPE).astype(numpy.uint8)
    seen = {}
    model.roi_heads.mask_predictor.register_forward_hook(
        lambda m, i, o: seen.update(mask_logits=o))
    with torch.no_grad():
        detections, = model([torch.from_numpy(img.astype(numpy.float32) / 255)])
    labels = detections['labels']
    rows = numpy.arange(0, len(labels), MASK_STEP)
    probs = seen['mask_logits'].sigmoid()[torch.arange(len(labels)), labels]
    masks = detections['masks'][rows, 0].numpy() > 0.5
    record = {
        'image': img,
        'predict/boxes': detections['boxes'].numpy(),
        'predict/labels': labels.numpy(),
        'predict/scores': detections['scores'].numpy(),
        'mask_rows': rows,
        'mask_probs': probs[rows].numpy(),
        'masks': numpy.packbits(masks, axis=-1),
        'mask_width': masks.shape[-1],
        'categories': numpy.array(categories),
        'unused_bias': numpy.float32(fpn.UNUSED_BIAS),
        'min_size': fpn.MIN_SIZE, 'max_size': fpn.MAX_SIZE,
        'score_thresh': model.roi_heads.score_thresh, 'nms_thresh': model.roi_heads.nms_thresh,
        'detections_per_img': model.roi_heads.detections_per_img,
        'peer': numpy.array(f'torch {torch.__version__}, torchvision {torchvision.__version__}'
                            f' (nms: {nms_kernel}), numpy {numpy.__version__}'),
    }
    numpy.savez_compressed(os.path.join(HERE, f'{NAME}.npz'), **record)
    print(f'{NAME}.npz: {len(labels)} detections, {len(rows)} masks of '
          f'{masks.sum(axis=(1, 2)).min()}-{masks.sum(axis=(1, 2)).max()} pixels')


if __name__ == '__main__':
    main()
