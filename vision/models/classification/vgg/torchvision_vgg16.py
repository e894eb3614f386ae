"""The converter of torchvision's VGG-16 checkpoint (``vgg16-397923af.pth``) into
:class:`~vision.models.classification.VGG16`."""

from __future__ import annotations

from vision.models.classification._torchvision import convert_state_dict
from vision.models.classification.vgg.vgg16 import _STAGES
from vision.weights import Preprocessing, register_converter


def _module_paths() -> dict[str, tuple[str, str]]:
    """``features.<i>`` of each convolution (ReLUs and poolings take indices too) and
    ``classifier.<i>`` of each linear layer."""
    paths, index = {}, 0
    for stage in _STAGES:
        for name, _ in stage:
            paths[f'features.{index}'] = (f'{name}/conv', 'conv')
            index += 2
        index += 1
    for i, name in enumerate(('fc6', 'fc7', 'fc8')):
        paths[f'classifier.{3 * i}'] = (name, 'linear')
    return paths


_MODULE_PATHS = _module_paths()


@register_converter('torchvision_vgg16')
def convert_torchvision_vgg16(state: dict, preprocessing: Preprocessing) -> dict:
    """Maps torchvision's VGG-16 state dict to the NPZ keys of :class:`VGG16`."""
    return convert_state_dict('torchvision_vgg16', state, _MODULE_PATHS.get, 'features.0',
                              preprocessing)
