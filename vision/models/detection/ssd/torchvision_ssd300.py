"""The converter of torchvision's COCO-trained SSD300 checkpoint
(``ssd300_vgg16_coco-b556d3b4.pth``) into :class:`~vision.models.SSD300` with
``n_fg_class=80``.

torchvision's ``ssd300_vgg16`` has the layers of ChainerCV's SSD300; it differs in numbers the
converter sets as constructor arguments (:data:`TORCHVISION_SSD300_KWARGS`) and in the layout
of its head, which the conversion rearranges:

- its default boxes have the sizes ``(0.07, 0.15, 0.33, 0.51, 0.69, 0.87, 1.05) * 300`` and
  their heights and widths are cut at 300 (``DefaultBoxGenerator(clip=True)``);
- decoding clamps the log-ratios of sizes at ``log(1000 / 16)``, clips the boxes to the input,
  keeps the best 400 boxes of each class before the suppression and the best 200 detections;
- the input is resized without antialiasing (``interpolate``, bilinear);
- its box offsets are ``(dx, dy, dw, dh)``, this project's ``(dy, dx, dh, dw)``;
- its classification head scores 91 classes: background and the COCO category ids 1 to 90, of
  which ten are not used (``'N/A'``); this project's 81 are background and the 80 categories
  in the order of their ids (:data:`vision.datasets.coco_bbox_label_names`). The ten are
  dropped: the softmax over the 81 equals torchvision's over the 91 where the ten score
  nothing, as a trained head makes them.

Where the outputs still differ from torchvision's (``tests/vision/models/detection/ssd/
test_torchvision_ssd300.py`` measures it on weights made by the rule): scores gain the share
of the ten dropped classes (small for a trained head, which never had them as targets; the
fixture sets them to score nothing); torchvision keeps scores above ``score_thresh`` and
suppresses boxes whose IoU is above ``nms_thresh``, ChainerCV at or above (the same but for
exact ties); with 1000 candidates or fewer, torchvision suppresses the classes together,
their boxes shifted apart by class, so that float32 rounding of the IoU may differ at the
threshold; ``norm4`` divides by
``norm + 1e-5``, torchvision by ``max(norm, 1e-12)`` (a relative difference of ``1e-5 /
norm``); default boxes, resizing and decoding are computed here in float64 and by other
formulas (boxes within 1e-4 px, the prepared input within 1e-2 of 255); detections come
ordered by label then score (ChainerCV's order), torchvision's by score.
"""

from __future__ import annotations

import math

import numpy

from vision.models.classification._torchvision import convert_state_dict
from vision.weights import Preprocessing, register_converter

_WHO = 'torchvision_ssd300'

TORCHVISION_SSD300_KWARGS = {
    'sizes': (21.0, 45.0, 99.0, 153.0, 207.0, 261.0, 315.0),
    'clip_default_bbox': True,
    'bbox_xform_clip': math.log(1000.0 / 16),
    'clip_bbox': True,
    'topk_candidates': 400,
    'detections_per_img': 200,
    'antialias': False,
}
"""The constructor arguments of :class:`~vision.models.SSD300` that torchvision's weights need:
its default boxes, box decoding, postprocessing and resizing."""

#: The COCO category ids without a category: torchvision's classes that the conversion drops.
UNUSED_COCO_IDS = (12, 26, 29, 30, 45, 66, 68, 69, 71, 83)

#: torchvision's class of each class of the converted head: background, then the used ids.
TORCHVISION_CLASSES = tuple(i for i in range(91) if i not in UNUSED_COCO_IDS)

_N_BOXES = (4, 6, 6, 6, 4, 4)
_HEADS = {'head.regression_head.module_list': 'multibox/loc',
          'head.classification_head.module_list': 'multibox/conf'}


def _module_paths() -> dict[str, tuple[str, str]]:
    """torchvision's module paths of the convolutions -> (link path, ``'conv'``).

    ``backbone.features`` is VGG-16's ``features`` up to ``conv4_3`` (ReLUs and poolings take
    indices too); ``backbone.extra.0`` is the pooling after ``conv4_3``, ``conv5_*``, and
    ``fc`` (``7``: pooling, ``conv6``, ReLU, ``conv7``); ``backbone.extra.1`` to ``4`` are
    ``conv8_*`` to ``conv11_*``; the heads are one convolution per feature map."""
    names = ('conv1_1', 'conv1_2', None, 'conv2_1', 'conv2_2', None, 'conv3_1', 'conv3_2',
             'conv3_3', None, 'conv4_1', 'conv4_2', 'conv4_3')
    paths, index = {}, 0
    for name in names:
        if name is not None:
            paths[f'backbone.features.{index}'] = (f'extractor/{name}', 'conv')
            index += 1
        index += 1
    for i, name in ((1, 'conv5_1'), (3, 'conv5_2'), (5, 'conv5_3'), ('7.1', 'conv6'),
                    ('7.3', 'conv7')):
        paths[f'backbone.extra.0.{i}'] = (f'extractor/{name}', 'conv')
    for i in range(1, 5):
        for j, part in ((0, 1), (2, 2)):
            paths[f'backbone.extra.{i}.{j}'] = (f'extractor/conv{i + 7}_{part}', 'conv')
    for module, path in _HEADS.items():
        for k in range(len(_N_BOXES)):
            paths[f'{module}.{k}'] = (f'{path}/{k}', 'conv')
    return paths


_MODULE_PATHS = _module_paths()


def _head_rows(module: str, n_rows: int) -> numpy.ndarray:
    """The rows of a head convolution of torchvision that make this project's, in order.

    Its output channels are ``box * columns + column``, box by box: the regression head's
    columns are ``(dx, dy, dw, dh)`` and become ``(dy, dx, dh, dw)``; the classification
    head's 91 become the 81 of :data:`TORCHVISION_CLASSES`.

    Raises:
        ValueError: the rows are not a whole number of boxes of 4 or 91 columns.
    """
    columns = (1, 0, 3, 2) if module.startswith('head.regression') else TORCHVISION_CLASSES
    width = 4 if module.startswith('head.regression') else 91
    if n_rows % width:
        raise ValueError(f'{_WHO}: {module} has {n_rows} output channels, not a whole number '
                         f'of boxes of {width}; is it the COCO checkpoint of ssd300_vgg16?')
    boxes = numpy.arange(n_rows // width)[:, None] * width
    return (boxes + numpy.asarray(columns)[None, :]).ravel()


@register_converter(_WHO, model_kwargs=TORCHVISION_SSD300_KWARGS)
def convert_torchvision_ssd300(state: dict, preprocessing: Preprocessing) -> dict:
    """Maps the state dict of torchvision's ``ssd300_vgg16`` (91 classes) to the NPZ keys of
    :class:`~vision.models.SSD300` with ``n_fg_class=80``.

    Args:
        state (dict): name -> array, as :func:`framework.serializers.load_torch_state_dict`
            returns.
        preprocessing (Preprocessing): torchvision's normalization of the weights; its
            ``1 / std`` (in 0-255 units) is folded into ``conv1_1``.

    Returns:
        dict: NPZ key -> float32 array.

    Raises:
        ValueError: the state dict has a key the model does not have, misses
            ``backbone.scale_weight``, or its head is not 91 classes wide.
    """
    state = dict(state)
    try:
        scale = numpy.array(state.pop('backbone.scale_weight'), numpy.float32)
    except KeyError:
        raise ValueError(f'{_WHO}: the checkpoint has no backbone.scale_weight (the scale of '
                         "norm4); is it torchvision's ssd300_vgg16?") from None
    for key, value in state.items():
        if key.rsplit('.', 2)[0] in _HEADS:
            state[key] = numpy.asarray(value)[_head_rows(key.rsplit('.', 1)[0], len(value))]
    arrays = convert_state_dict(_WHO, state, _MODULE_PATHS.get, 'backbone.features.0',
                                preprocessing)
    arrays['extractor/norm4/scale'] = scale
    return arrays
