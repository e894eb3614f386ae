"""The converter of torchvision's COCO-trained Faster R-CNN with FPN on ResNet-50
(``fasterrcnn_resnet50_fpn``, weights ``COCO_V1``, ``fasterrcnn_resnet50_fpn_coco-258fb6c6.pth``)
into :class:`~vision.models.FasterRCNNFPNResNet50` with ``n_fg_class=80``.

torchvision's model has the layers of ChainerCV's, parameter for parameter (295 tensors of the
same shapes); the conversion renames them and absorbs what weights can absorb:

- its ResNet's frozen batch normalizations run with ``eps = 0`` (``overwrite_eps(model, 0.0)``
  of ``COCO_V1``), this project's with Chainer's ``2e-5``: each scale becomes
  ``gamma * sqrt(var + 2e-5) / sqrt(var)``;
- it normalizes the input as ``(img / 255 - mean) / std``: ``1 / (255 std)`` is folded into
  ``conv1`` (exact: the padding stays zero), the model subtracting ``255 mean``;
- its box offsets are ``(dx, dy, dw, dh)``, this project's ``(dy, dx, dh, dw)``: the rows of the
  RPN's ``bbox_pred`` and of the box head's are rearranged;
- its box head scores 91 classes: background and the COCO category ids 1 to 90, of which ten
  are not used (``'N/A'``); this project's 81 are background and the 80 categories in the order
  of their ids. The ten are dropped (their rows of ``cls_score`` and ``bbox_pred``): the
  softmax over the 81 equals torchvision's over the 91 where the ten score nothing, as a
  trained head makes them;
- both the old names of the checkpoint (``backbone.fpn.inner_blocks.0.weight``,
  ``rpn.head.conv.weight``) and those of torchvision's modules since 0.13
  (``inner_blocks.0.0.weight``, ``rpn.head.conv.0.0.weight``) are read.

The box coder's weights ``(10, 10, 5, 5)`` are the head's ``std`` ``(0.1, 0.2)``, the RoI
features are flattened ``(C, 7, 7)`` in both, and the pyramid (nearest upsampling, the fifth
level a max pooling of stride 2), RoI align (7x7, 2 samples per bin and axis, not aligned), the
level of the regions (level 4 for a side of 224), the padding to multiples of 32, the RPN's
1000 regions per level and 1000 in all and its suppression at 0.7 are ChainerCV's. What the
weights cannot absorb are constructor arguments of this project's model, set by
:data:`TORCHVISION_FPN_KWARGS`:

- ``arch='fb'``: torchvision's ResNet strides on the 3x3 convolutions (v1.5);
- ``anchor_layout='torchvision'``: its anchors have rounded corners (46x22 where ChainerCV's
  are 48x24), are centred on the cells' top-left corners and the fifth level's stride is the
  input's side divided by the level's (61 for an input of 800 rows); the RPN's head is shared
  by the levels, so that no change of its weights could move them;
- ``clip_to_image=True`` and ``min_roi_size=1e-3``: the proposals are clipped to the resized
  image, not to the padded input, and those narrower than 1e-3 pixels dropped;
- ``rank_by_probability=True``: the proposals of all levels are ranked by their float32
  sigmoid (which rounds every logit above 17 to 1), not by their logit;
- ``antialias=False``: the images are resized by bilinear interpolation without widening the
  filter when it shrinks them (``interpolate``);
- ``per_axis_rescale=True``, ``min_bbox_size=1e-2`` and ``detections_per_img=100``: the
  detections are decoded and clipped in the resized image, those narrower than 1e-2 pixels
  dropped, the best 100 kept, then each axis scaled by the original side over the resized
  one.

Where the outputs still differ from torchvision's (``tests/vision/models/detection/fpn/
test_torchvision_fpn.py`` measures it on weights made by the rule): scores gain the share of
the ten dropped classes (small for a trained head, which never had them as targets; the
fixture sets them to score nothing); torchvision keeps detections scored above
``score_thresh`` and suppresses boxes whose IoU is above the threshold, this project at or
above (the same but for exact ties); its suppression shifts the boxes of different classes (or
levels) apart, so that float32 rounding of an IoU may differ at the threshold; the level of a
region is ``floor(4 + log2(sqrt(area) / 224) + 1e-6)`` in torchvision,
``floor(4 + log2(sqrt(area) / 224 + 1e-6))`` here (ChainerCV's), which differ only for
regions within about 1e-6 of a power of two times 224; ties of scores (at the 1000th proposal
of a level, at the 100th detection) may be broken otherwise; the float32 arithmetic of
decoding, resizing and the convolutions differs in rounding (about 1e-5 of the levels'
magnitude), so that two proposals whose logits are closer than that may come in the other
order (two of the fixture's 477 do) and a box within that of a threshold may fall on the
other side.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy

from vision.models.classification._torchvision import convert_state_dict
from vision.models.classification.resnet.torchvision_resnet import module_path as resnet_path
from vision.models.detection.ssd.torchvision_ssd300 import TORCHVISION_CLASSES
from vision.weights import Preprocessing, register_converter

_WHO = 'torchvision_fpn'

TORCHVISION_FPN_KWARGS = {
    'arch': 'fb',
    'anchor_layout': 'torchvision',
    'clip_to_image': True,
    'min_roi_size': 1e-3,
    'rank_by_probability': True,
    'antialias': False,
    'per_axis_rescale': True,
    'min_bbox_size': 1e-2,
    'detections_per_img': 100,
}
"""The options of :class:`~vision.models.FasterRCNNFPNResNet50` that torchvision's weights
need: its ResNet, anchors, proposals, resizing and postprocessing."""

#: The epsilon of this project's batch normalizations (Chainer's), which the conversion
#: absorbs in place of torchvision's 0.
BN_EPS = 2e-5
#: torchvision's epsilon of the frozen batch normalizations of ``COCO_V1``.
TORCHVISION_BN_EPS = 0.0

_HEAD = {
    'rpn.head.conv': ('rpn/conv', 'conv'),
    'rpn.head.conv.0.0': ('rpn/conv', 'conv'),
    'rpn.head.cls_logits': ('rpn/conf', 'conv'),
    'rpn.head.bbox_pred': ('rpn/loc', 'conv'),
    'roi_heads.box_head.fc6': ('bbox_head/fc1', 'linear'),
    'roi_heads.box_head.fc7': ('bbox_head/fc2', 'linear'),
    'roi_heads.box_predictor.cls_score': ('bbox_head/conf', 'linear'),
    'roi_heads.box_predictor.bbox_pred': ('bbox_head/loc', 'linear'),
}
_FPN = re.compile(r'backbone\.fpn\.(inner|layer)_blocks\.([0-3])(?:\.0)?')


def module_path(module: str) -> tuple[str, str] | None:
    """torchvision's module path -> ``(link path, kind)`` of
    :class:`~vision.models.FasterRCNNFPNResNet50`, None for a module it does not have.

    ``backbone.body`` is the ResNet (:mod:`~vision.models.classification.resnet.
    torchvision_resnet`'s names, under ``extractor/base``), ``backbone.fpn.inner_blocks.i``
    and ``layer_blocks.i`` the pyramid's ``inner`` and ``outer`` convolutions, ``rpn.head``
    the RPN and ``roi_heads`` the box head."""
    if module.startswith('backbone.body.'):
        target = resnet_path(module[len('backbone.body.'):])
        if target is None or target[0] == 'fc6':
            return None
        return f'extractor/base/{target[0]}', target[1]
    match = _FPN.fullmatch(module)
    if match is not None:
        kind, index = match.groups()
        return f"extractor/{'inner' if kind == 'inner' else 'outer'}/{index}", 'conv'
    return _HEAD.get(module)


def rows(module: str, n_rows: int) -> numpy.ndarray | None:
    """The rows of ``module``'s weight and bias that make this project's, in order (None:
    all, as they are).

    The RPN's ``bbox_pred`` has ``(dx, dy, dw, dh)`` per anchor and becomes
    ``(dy, dx, dh, dw)``; the box head's ``bbox_pred`` has them per class of 91 and keeps the
    81 of :data:`TORCHVISION_CLASSES`, its ``cls_score`` keeps those 81.

    Raises:
        ValueError: the rows are not a whole number of anchors, or not 91 classes.
    """
    if module == 'rpn.head.bbox_pred':
        if n_rows % 4:
            raise ValueError(f'{_WHO}: {module} has {n_rows} output channels, not four per '
                             'anchor')
        return (numpy.arange(n_rows // 4)[:, None] * 4 + [1, 0, 3, 2]).ravel()
    if module.startswith('roi_heads.box_predictor.'):
        width = 4 if module.endswith('bbox_pred') else 1
        if n_rows != 91 * width:
            raise ValueError(f'{_WHO}: {module} has {n_rows} outputs, not {91 * width}; is it '
                             'a COCO checkpoint of torchvision (91 classes)?')
        columns = [1, 0, 3, 2] if width == 4 else [0]
        classes = numpy.asarray(TORCHVISION_CLASSES)[:, None] * width
        return (classes + numpy.asarray(columns)[None, :]).ravel()
    return None


def fold_bn_eps(gamma: numpy.ndarray, var: numpy.ndarray, eps: float = TORCHVISION_BN_EPS,
                target_eps: float = BN_EPS) -> numpy.ndarray:
    """The scale of a batch normalization with ``target_eps`` that computes what ``gamma``
    computes with ``eps``: ``gamma * sqrt(var + target_eps) / sqrt(var + eps)``.

    Args:
        gamma (numpy.ndarray): ``(C,)``, the scale.
        var (numpy.ndarray): ``(C,)``, the running variance (positive when ``eps`` is 0).
        eps (float): the epsilon the scale was used with.
        target_eps (float): the epsilon of the model it goes to.

    Returns:
        numpy.ndarray: ``(C,)`` float32, computed in float64.
    """
    var = numpy.asarray(var, numpy.float64)
    return (numpy.asarray(gamma, numpy.float64) * numpy.sqrt(var + target_eps)
            / numpy.sqrt(var + eps)).astype(numpy.float32)


@register_converter(_WHO, model_kwargs=TORCHVISION_FPN_KWARGS)
def convert_torchvision_fpn(state: dict, preprocessing: Preprocessing) -> dict:
    """Maps the state dict of torchvision's ``fasterrcnn_resnet50_fpn`` (91 classes) to the NPZ
    keys of :class:`~vision.models.FasterRCNNFPNResNet50` with ``n_fg_class=80`` and the options
    of :data:`TORCHVISION_FPN_KWARGS`.

    Args:
        state (dict): name -> array, as :func:`framework.serializers.load_torch_state_dict`
            returns (old or new names of the pyramid and the RPN's convolution).
        preprocessing (Preprocessing): torchvision's normalization of the weights; its
            ``1 / std`` (in 0-255 units) is folded into ``conv1``.

    Returns:
        dict: NPZ key -> float32 array (the batch normalizations' ``N`` 0), 295 parameters.

    Raises:
        ValueError: the state dict has a key the model does not have, a batch normalization
            without its running variance, or heads of other widths than 91 classes.
    """
    return convert_rcnn_state(_WHO, state, preprocessing, module_path, rows)


def convert_rcnn_state(who: str, state: dict, preprocessing: Preprocessing,
                       module_path: Callable[[str], tuple[str, str] | None],
                       rows: Callable[[str, int], numpy.ndarray | None]) -> dict:
    """What the converters of torchvision's R-CNNs on ResNet-50 FPN share: each weight and
    bias cut to ``rows(module, n_rows)`` (None: kept whole), the batch normalizations' eps
    folded (:func:`fold_bn_eps`), then :func:`~vision.models.classification._torchvision.
    convert_state_dict` with ``module_path``.

    Raises:
        ValueError: as :func:`convert_torchvision_fpn`; ``who`` names the converter.
    """
    state = {key: numpy.asarray(value) for key, value in state.items()}
    for key, value in list(state.items()):
        module, leaf = key.rsplit('.', 1)
        kept = rows(module, len(value)) if leaf in ('weight', 'bias') else None
        if kept is not None:
            state[key] = value[kept]
        target = module_path(module)
        if target is not None and target[1] == 'bn' and leaf == 'weight':
            try:
                var = state[f'{module}.running_var']
            except KeyError:
                raise ValueError(f'{who}: the checkpoint has {key} but no '
                                 f'{module}.running_var') from None
            state[key] = fold_bn_eps(value, var)
    return convert_state_dict(who, state, module_path, 'backbone.body.conv1', preprocessing)
