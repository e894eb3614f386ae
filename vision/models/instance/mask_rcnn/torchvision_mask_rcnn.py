"""The converter of torchvision's COCO-trained Mask R-CNN with FPN on ResNet-50
(``maskrcnn_resnet50_fpn``, weights ``COCO_V1``, ``maskrcnn_resnet50_fpn_coco-bf2d0c1e.pth``)
into :class:`~vision.models.MaskRCNNFPNResNet50` with ``n_fg_class=80``.

The detector is torchvision's ``fasterrcnn_resnet50_fpn``, converted as
:mod:`~vision.models.detection.fpn.torchvision_fpn` converts it, with the same options
(:data:`~vision.models.detection.fpn.torchvision_fpn.TORCHVISION_FPN_KWARGS`; see there what
stays different). The mask head has this project's layers: ``mask_head.mask_fcn1`` to ``4``
(since torchvision 0.13 ``mask_head.0.0`` to ``3.0``) are ``conv1`` to ``conv4``,
``mask_predictor.conv5_mask`` (a transposed convolution, whose weight has Chainer's layout
``(in, out, kh, kw)``) is ``conv5`` and ``mask_predictor.mask_fcn_logits`` is ``seg``, cut from
91 classes to the 80 used and the background as the box head is. The masks are pooled in the
resized image and pasted as torchvision pastes them (``mask_paste='torchvision'``, see
:func:`~vision.models.instance.mask_rcnn.mask_coding.paste_segm_torchvision`).

Where the masks still differ from torchvision's (``tests/vision/models/instance/mask_rcnn/
test_torchvision_mask_rcnn.py``): the detections' differences (see the FPN converter); pixels
whose pasted probability is within float32 rounding of 0.5; torchvision returns the
probabilities, this project the masks above 0.5.
"""

from __future__ import annotations

import re

import numpy

from vision.models.detection.fpn import torchvision_fpn
from vision.models.detection.fpn.torchvision_fpn import TORCHVISION_FPN_KWARGS, convert_rcnn_state
from vision.weights import Preprocessing, register_converter

_WHO = 'torchvision_mask_rcnn'

TORCHVISION_MASK_RCNN_KWARGS = {**TORCHVISION_FPN_KWARGS, 'mask_paste': 'torchvision'}
"""The options of :class:`~vision.models.MaskRCNNFPNResNet50` that torchvision's weights need:
the detector's and the pasting of the masks."""

_MASK_FCN = re.compile(r'roi_heads\.mask_head\.(?:mask_fcn([1-4])|([0-3])\.0)')
_PREDICTOR = {'roi_heads.mask_predictor.conv5_mask': ('mask_head/conv5', 'conv'),
              'roi_heads.mask_predictor.mask_fcn_logits': ('mask_head/seg', 'conv')}


def module_path(module: str) -> tuple[str, str] | None:
    """torchvision's module path -> ``(link path, kind)`` of
    :class:`~vision.models.MaskRCNNFPNResNet50`: the detector's
    (:func:`torchvision_fpn.module_path <vision.models.detection.fpn.torchvision_fpn.
    module_path>`) and the mask head's; None for a module it does not have."""
    match = _MASK_FCN.fullmatch(module)
    if match is not None:
        old, new = match.groups()
        return f'mask_head/conv{old or int(new) + 1}/conv', 'conv'
    return _PREDICTOR.get(module) or torchvision_fpn.module_path(module)


def rows(module: str, n_rows: int) -> numpy.ndarray | None:
    """The rows of ``module``'s weight and bias that make this project's (None: all): the
    detector's (:func:`torchvision_fpn.rows <vision.models.detection.fpn.torchvision_fpn.
    rows>`), and the 81 classes of ``mask_fcn_logits``.

    Raises:
        ValueError: a head is not 91 classes wide.
    """
    if module == 'roi_heads.mask_predictor.mask_fcn_logits':
        if n_rows != 91:
            raise ValueError(f'{_WHO}: {module} has {n_rows} outputs, not 91; is it a COCO '
                             'checkpoint of torchvision (91 classes)?')
        return numpy.asarray(torchvision_fpn.TORCHVISION_CLASSES)
    return torchvision_fpn.rows(module, n_rows)


@register_converter(_WHO, model_kwargs=TORCHVISION_MASK_RCNN_KWARGS)
def convert_torchvision_mask_rcnn(state: dict, preprocessing: Preprocessing) -> dict:
    """Maps the state dict of torchvision's ``maskrcnn_resnet50_fpn`` (91 classes) to the NPZ
    keys of :class:`~vision.models.MaskRCNNFPNResNet50` with ``n_fg_class=80`` and the options
    of :data:`TORCHVISION_MASK_RCNN_KWARGS`.

    Args:
        state (dict): name -> array, as :func:`framework.serializers.load_torch_state_dict`
            returns (old or new names of the pyramid, the RPN's and the mask head's
            convolutions).
        preprocessing (Preprocessing): torchvision's normalization of the weights; its
            ``1 / std`` (in 0-255 units) is folded into ``conv1``.

    Returns:
        dict: NPZ key -> float32 array (the batch normalizations' ``N`` 0), 307 parameters.

    Raises:
        ValueError: the state dict has a key the model does not have, a batch normalization
            without its running variance, or heads of other widths than 91 classes.
    """
    return convert_rcnn_state(_WHO, state, preprocessing, module_path, rows)
