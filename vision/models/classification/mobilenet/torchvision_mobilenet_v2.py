"""The converter of torchvision's MobileNetV2 checkpoints (``mobilenet_v2-b0353104.pth``...)
into :class:`~vision.models.classification.MobileNetV2` with arch ``'torchvision'``."""

from __future__ import annotations

from vision.models.classification._torchvision import convert_state_dict
from vision.weights import Preprocessing, register_converter


def _module_paths() -> dict[str, tuple[str, str]]:
    """torchvision's module paths -> (link path, kind).

    ``features.0`` and ``features.18`` are convolution-normalization-activation sequences;
    ``features.1`` to ``features.17`` are the inverted residual blocks, whose ``conv`` holds
    the (absent in the first block) expansion and the depthwise sequences, then the projection's
    convolution and normalization; ``classifier.1`` is the linear classifier."""
    paths = {'classifier.1': ('logits_conv/conv', 'linear_as_conv')}

    def conv_bn(prefix: str, target: str) -> None:
        paths[f'{prefix}.0'] = (f'{target}/conv/conv', 'conv')
        paths[f'{prefix}.1'] = (f'{target}/bn', 'bn')

    conv_bn('features.0', 'conv')
    conv_bn('features.18', 'conv1')
    for index in range(1, 18):
        block = 'expanded_conv' if index == 1 else f'expanded_conv_{index - 1}'
        parts = ('depthwise',) if index == 1 else ('expand', 'depthwise')
        for i, part in enumerate(parts):
            conv_bn(f'features.{index}.conv.{i}', f'{block}/{part}')
        paths[f'features.{index}.conv.{len(parts)}'] = (f'{block}/project/conv/conv', 'conv')
        paths[f'features.{index}.conv.{len(parts) + 1}'] = (f'{block}/project/bn', 'bn')
    return paths


_MODULE_PATHS = _module_paths()


@register_converter('torchvision_mobilenet_v2', model_kwargs={'arch': 'torchvision'})
def convert_torchvision_mobilenet_v2(state: dict, preprocessing: Preprocessing) -> dict:
    """Maps a torchvision MobileNetV2 state dict to the NPZ keys of :class:`MobileNetV2`."""
    return convert_state_dict('torchvision_mobilenet_v2', state, _MODULE_PATHS.get,
                              'features.0.0', preprocessing)
