"""Converting the state dicts of torchvision's classifiers into the parameters of this
project's models, whose layers carry ChainerCV's names.

A converter names, for each module path of the checkpoint (``layer1.0.bn1``), the link path of
this project (``res2/a/conv1/bn``) and the kind of layer; the leaf names follow from the kind.
torchvision normalizes its input as ``(img / 255 - mean) / std``, while the models here take
``img - mean`` (in 0-255 units): ``1 / std`` is folded into the kernel of the first
convolution, which is exact (zero padding stays zero).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy

from vision.weights import Preprocessing

_LEAVES = {
    'conv': {'weight': 'W', 'bias': 'b'},
    'linear': {'weight': 'W', 'bias': 'b'},
    'linear_as_conv': {'weight': 'W', 'bias': 'b'},
    'bn': {'weight': 'gamma', 'bias': 'beta', 'running_mean': 'avg_mean',
           'running_var': 'avg_var', 'num_batches_tracked': None},
}


def convert_state_dict(who: str, state: dict[str, numpy.ndarray],
                       module_path: Callable[[str], tuple[str, str] | None], first_conv: str,
                       preprocessing: Preprocessing) -> dict[str, numpy.ndarray]:
    """Maps a torchvision state dict to NPZ keys of this project.

    Args:
        who (str): the converter's name, for error messages.
        state (dict): name -> array, as :func:`framework.serializers.load_torch_state_dict`
            returns.
        module_path (callable): module path -> ``(link path, kind)`` with kind ``'conv'``,
            ``'linear'``, ``'linear_as_conv'`` (a linear layer held by a 1x1 convolution) or
            ``'bn'``; None for a module the model does not have.
        first_conv (str): the module path of the first convolution.
        preprocessing (Preprocessing): the normalization the weights were trained with.

    Returns:
        dict: key -> float32 array, with the batch normalizations' counter ``N`` set to 0.

    Raises:
        ValueError: the state dict holds a key the model does not have.
    """
    scale = preprocessing.input_scale()
    arrays = {}
    for key, value in state.items():
        module, leaf = key.rsplit('.', 1)
        target = module_path(module)
        if target is None or leaf not in _LEAVES[target[1]]:
            raise ValueError(f'{who}: the checkpoint has the key {key!r}, which the model does '
                             'not have; is it the right architecture?')
        path, kind = target
        name = _LEAVES[kind][leaf]
        if name is None:
            continue
        value = numpy.array(value, numpy.float32)
        if module == first_conv and leaf == 'weight' and scale is not None:
            value *= scale.astype(numpy.float32)[None, :, None, None]
        if kind == 'linear_as_conv' and leaf == 'weight':
            value = value.reshape(value.shape + (1, 1))
        if kind == 'bn' and leaf == 'running_mean':
            arrays[f'{path}/N'] = numpy.asarray(0)
        arrays[f'{path}/{name}'] = value
    return arrays
