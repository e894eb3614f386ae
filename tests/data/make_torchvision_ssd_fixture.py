"""Write torchvision's SSD300 (``ssd300_vgg16``, 91 classes) on weights made by the rule into
tests/data/tv_ssd300_vgg16.npz and its state-dict keys into tests/data/tv_ssd300_vgg16_params.tsv.

Runs in the peer environment (torch, torchvision, NumPy, Pillow, matplotlib; see
tests/data/README.md), never in the project's::

    /tmp/torchvenv/bin/python tests/data/make_torchvision_ssd_fixture.py

The weights are the rule's (``vision/utils/testing/parity.py``, loaded by its path), except
the biases of the ten unused COCO category ids (``'N/A'`` in torchvision's categories), set to
``UNUSED_BIAS`` in every box of the classification head: a trained head never scores them, and
the project's 81-class head, which has no place for them, then gives the same softmax. The image
is ``vision.data.sample_photos.grace_hopper()`` (3, 600, 512), given as ``img / 255``.

Recorded: ``anchors`` (8732, 4), torchvision's default boxes ``(x1, y1, x2, y2)`` in the
300x300 input; the head's raw ``out/bbox_regression`` (4 columns) and ``out/cls_logits`` (91)
of every ``ROW_STEP``-th box (``rows``); ``prepared``, the rows ``prepared_rows`` (every
``ROW_STEP``-th) of the resized and normalized input (3, 300, 300); the eval-mode detections
``predict/boxes`` ``(x1, y1, x2, y2)`` in the image's pixels, ``predict/labels``
(torchvision's category ids), ``predict/scores``; ``categories`` (the 91 names) and the
settings of the model.
"""

from __future__ import annotations

import hashlib
import os
import sys

import numpy
from _fixture_scripts import load_module, write_params_tsv  # this folder

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = 'tv_ssd300_vgg16'
UNUSED_BIAS = -1000.0
ROW_STEP = 7


def rule_filled_state(parity, model, unused: list[int]) -> dict:
    import torch

    state = {key: torch.from_numpy(parity.rule_array(key, tuple(v.shape),
                                                     str(v.dtype).replace('torch.', '')))
             for key, v in model.state_dict().items()}
    n_class = len(model.head.classification_head.module_list[0].weight) // 4
    for key, value in state.items():
        if key.startswith('head.classification_head.') and key.endswith('.bias'):
            value.view(-1, n_class)[:, unused] = UNUSED_BIAS
    return state


def main() -> None:
    sys.path.insert(0, os.path.join(ROOT, 'bench'))
    import torchvision_cpu_nms

    nms_kernel = torchvision_cpu_nms.install()
    import torch
    import torchvision
    from torchvision.models.detection import SSD300_VGG16_Weights, ssd300_vgg16

    parity = load_module(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')
    photos = load_module(os.path.join(ROOT, 'vision', 'data', 'sample_photos.py'), 'sample_photos')
    torch.set_num_threads(1)
    categories = SSD300_VGG16_Weights.COCO_V1.meta['categories']
    unused = [i for i, name in enumerate(categories) if name == 'N/A']
    model = ssd300_vgg16(weights=None, weights_backbone=None, num_classes=len(categories))
    model.eval()
    write_params_tsv(model.state_dict(), os.path.join(HERE, f'{NAME}_params.tsv'))
    model.load_state_dict(rule_filled_state(parity, model, unused))

    img = photos.grace_hopper()
    seen = {}
    model.transform.register_forward_hook(lambda m, i, o: seen.update(prepared=o[0].tensors))
    model.head.register_forward_hook(lambda m, i, o: seen.update(o))
    model.anchor_generator.register_forward_hook(lambda m, i, o: seen.update(anchors=o[0]))
    with torch.no_grad():
        detections, = model([torch.from_numpy(img / 255)])
    rows = numpy.arange(0, len(seen['anchors']), ROW_STEP)
    transform, generator = model.transform, model.anchor_generator
    record = {
        'image_sha256_uint8_chw': hashlib.sha256(img.astype(numpy.uint8).tobytes()).hexdigest(),
        'anchors': seen['anchors'].numpy(),
        'rows': rows,
        'out/bbox_regression': seen['bbox_regression'][0, rows].numpy(),
        'out/cls_logits': seen['cls_logits'][0, rows].numpy(),
        'prepared_rows': numpy.arange(0, 300, ROW_STEP),
        'prepared': seen['prepared'][0, :, ::ROW_STEP].numpy(),
        'predict/boxes': detections['boxes'].numpy(),
        'predict/labels': detections['labels'].numpy(),
        'predict/scores': detections['scores'].numpy(),
        'categories': numpy.array(categories),
        'unused_bias': numpy.float32(UNUSED_BIAS),
        'score_thresh': model.score_thresh, 'nms_thresh': model.nms_thresh,
        'topk_candidates': model.topk_candidates,
        'detections_per_img': model.detections_per_img,
        'image_mean': numpy.array(transform.image_mean),
        'image_std': numpy.array(transform.image_std),
        'scales': numpy.array(generator.scales), 'steps': numpy.array(generator.steps),
        'clip': generator.clip, 'bbox_xform_clip': model.box_coder.bbox_xform_clip,
        'peer': numpy.array(f'torch {torch.__version__}, torchvision {torchvision.__version__}'
                            f' (nms: {nms_kernel}), numpy {numpy.__version__}'),
    }
    numpy.savez_compressed(os.path.join(HERE, f'{NAME}.npz'), **record)
    scores = record['predict/scores']
    print(f'{NAME}.npz: {len(scores)} detections, scores {scores.min():.4f}-{scores.max():.4f}')


if __name__ == '__main__':
    main()
