"""The converter of torchvision's ResNet checkpoints (``resnet50-0676ba61.pth``...) into
:class:`~vision.models.classification.ResNet` with arch ``'fb'``.

torchvision's ResNet is arch ``'fb'`` (stride on the 3x3 convolutions) with two differences
the converter sets as constructor arguments: its batch normalizations use ``eps=1e-5`` and its
``pool1`` pads by one without covering the whole input.
"""

from __future__ import annotations

import re

from vision.models.classification._torchvision import convert_state_dict
from vision.weights import Preprocessing, register_converter

TORCHVISION_RESNET_KWARGS = {
    'arch': 'fb',
    'bn_kwargs': {'eps': 1e-5},
    'pool1_kwargs': {'ksize': 3, 'stride': 2, 'pad': 1, 'cover_all': False},
}


def module_path(module: str) -> tuple[str, str] | None:
    """``layer1.0.bn1`` -> ``('res2/a/conv1/bn', 'bn')``."""
    stem = {'conv1': ('conv1/conv', 'conv'), 'bn1': ('conv1/bn', 'bn'), 'fc': ('fc6', 'linear')}
    if module in stem:
        return stem[module]
    match = re.fullmatch(r'layer([1-4])\.(\d+)\.(?:(conv|bn)([1-3])|downsample\.([01]))', module)
    if match is None:
        return None
    stage, block, layer, index, downsample = match.groups()
    block = 'a' if block == '0' else f'b{block}'
    path = f'res{int(stage) + 1}/{block}/'
    if downsample is not None:
        kind = 'conv' if downsample == '0' else 'bn'
        return path + f'residual_conv/{kind}', kind
    return path + f'conv{index}/{layer}', layer


@register_converter('torchvision_resnet', model_kwargs=TORCHVISION_RESNET_KWARGS)
def convert_torchvision_resnet(state: dict, preprocessing: Preprocessing) -> dict:
    """Maps a torchvision ResNet state dict to the NPZ keys of :class:`ResNet`."""
    return convert_state_dict('torchvision_resnet', state, module_path, 'conv1', preprocessing)
