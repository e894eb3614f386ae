"""The converters of torchvision's DeepLabV3 and FCN checkpoints on ResNet-50
(``deeplabv3_resnet50_coco-cd0a2569.pth``, ``fcn_resnet50_coco-1167a1af.pth``) into
:class:`~vision.models.DeepLabV3ResNet50` and :class:`~vision.models.FCNResNet50`.

The layers are torchvision's, under this project's names: ``backbone`` is the ResNet-50 of
:mod:`vision.models.classification.resnet.torchvision_resnet` (``extractor``), ``classifier``
the head (``head``), ``aux_classifier`` the auxiliary head (``aux_head``, kept in the
converted arrays; a model without one leaves them unread). torchvision's ``1 / std`` is folded
into ``conv1``, as for its classifiers.
"""

from __future__ import annotations

from collections.abc import Callable

from vision.models.classification._torchvision import convert_state_dict
from vision.models.classification.resnet.torchvision_resnet import module_path as resnet_path
from vision.weights import Preprocessing, register_converter

_Paths = dict[str, tuple[str, str]]


def _conv_bn(module: str, path: str, conv: int = 0, bn: int = 1) -> _Paths:
    """The convolution ``module.<conv>`` and the batch normalization ``module.<bn>`` of a
    torchvision ``Sequential`` as the ``conv`` and ``bn`` of a ``Conv2DBNActiv`` at ``path``."""
    return {f'{module}.{conv}': (f'{path}/conv', 'conv'), f'{module}.{bn}': (f'{path}/bn', 'bn')}


def _fcn_head(module: str, path: str) -> _Paths:
    """torchvision's ``FCNHead`` (convolution, batch normalization, ReLU, dropout,
    convolution) as :class:`FCNHead` at ``path``."""
    return {**_conv_bn(module, f'{path}/conv'), f'{module}.4': (f'{path}/classifier', 'conv')}


def _deeplabv3_head(n_rates: int = 3) -> _Paths:
    """torchvision's ``DeepLabHead`` (ASPP, convolution, batch normalization, ReLU,
    convolution) as :class:`DeepLabV3Head` at ``head``: the ASPP's ``convs`` are the 1x1
    branch, the dilated ones and the pooling (average pooling, convolution, batch
    normalization, ReLU)."""
    aspp = 'classifier.0'
    paths = {}
    for i in range(n_rates + 1):
        paths.update(_conv_bn(f'{aspp}.convs.{i}', f'head/aspp/conv{i}'))
    paths.update(_conv_bn(f'{aspp}.convs.{n_rates + 1}', 'head/aspp/pool_conv', 1, 2))
    paths.update(_conv_bn(f'{aspp}.project', 'head/aspp/project'))
    paths.update(_conv_bn('classifier', 'head/conv', 1, 2))
    paths['classifier.4'] = ('head/classifier', 'conv')
    return paths


def _module_path(heads: _Paths) -> Callable[[str], tuple[str, str] | None]:
    """torchvision's module path -> (link path, kind): the backbone's, the auxiliary head's
    and ``heads``."""
    paths = {**heads, **_fcn_head('aux_classifier', 'aux_head')}

    def module_path(module: str) -> tuple[str, str] | None:
        if module.startswith('backbone.'):
            target = resnet_path(module[len('backbone.'):])
            if target is not None and target[1] != 'linear':
                return f'extractor/{target[0]}', target[1]
            return None
        return paths.get(module)

    return module_path


_DEEPLABV3_PATH = _module_path(_deeplabv3_head())
_FCN_PATH = _module_path(_fcn_head('classifier', 'head'))


@register_converter('torchvision_deeplabv3')
def convert_torchvision_deeplabv3(state: dict, preprocessing: Preprocessing) -> dict:
    """Maps the state dict of torchvision's ``deeplabv3_resnet50`` to the NPZ keys of
    :class:`~vision.models.DeepLabV3ResNet50`.

    Args:
        state (dict): name -> array, as :func:`framework.serializers.load_torch_state_dict`
            returns.
        preprocessing (Preprocessing): torchvision's normalization of the weights; its
            ``1 / std`` (in 0-255 units) is folded into ``conv1``.

    Returns:
        dict: NPZ key -> float32 array.

    Raises:
        ValueError: the state dict has a key the model does not have.
    """
    return convert_state_dict('torchvision_deeplabv3', state, _DEEPLABV3_PATH, 'backbone.conv1',
                              preprocessing)


@register_converter('torchvision_fcn')
def convert_torchvision_fcn(state: dict, preprocessing: Preprocessing) -> dict:
    """Maps the state dict of torchvision's ``fcn_resnet50`` to the NPZ keys of
    :class:`~vision.models.FCNResNet50`; see :func:`convert_torchvision_deeplabv3`."""
    return convert_state_dict('torchvision_fcn', state, _FCN_PATH, 'backbone.conv1',
                              preprocessing)
