"""Write torchvision's ``deeplabv3_resnet50`` and ``fcn_resnet50`` (21 classes, with their
auxiliary classifiers) on weights made by the rule into tests/data/tv_<model>.npz, their
state-dict keys into tests/data/tv_<model>_params.tsv, and a small checkpoint of
``deeplabv3_resnet50``'s layout into tests/data/tv_deeplabv3_resnet50_tiny.pth.

Runs in the peer environment (torch, torchvision, NumPy; see tests/data/README.md), never in
the project's::

    /tmp/torchvenv/bin/python tests/data/make_torchvision_segmentation_fixture.py

The weights are the rule's (``vision/utils/testing/parity.py``, loaded by its path), by
state-dict key. The image is ``input``: uint8 values from ``RandomState(SEED)``, (3, 120,
160), given as a float image ``input / 255`` to the weights' transforms,
``SemanticSegmentation(resize_size=RESIZE_SIZE)`` (the published weights' use 520; a smaller
size keeps the fixture and its test small): resized on its shorter side (bilinear,
antialiased), normalized with ImageNet's mean and std.

Recorded: ``prepared``, every ``STEP``-th row of that input (3, 96, 128); ``out`` and ``aux``,
every ``STEP``-th row and column of the model's raw outputs (1, 21, 96, 128) in eval mode;
``label``, the argmax over the classes of ``out`` resized to the image's size (bilinear,
``align_corners=False``), (120, 160); the settings and the versions in ``peer``.

The tiny checkpoint has every key of ``deeplabv3_resnet50(num_classes=21, aux_loss=True)``
(``num_batches_tracked`` too) with every channel axis divided by ``TINY_DIVISOR`` but the RGB
input and the 21 classes, filled by the rule for its own shapes: a checkpoint of the real
layout, ``torch.save`` of a state dict, of 0.3 MB instead of 161 MB.
"""

from __future__ import annotations

import os
import sys

import numpy
from _fixture_scripts import load_module, write_params_tsv  # this folder

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = ('deeplabv3_resnet50', 'fcn_resnet50')
N_CLASS = 21
SEED = 19
SHAPE = (3, 120, 160)
RESIZE_SIZE = 96
STEP = 4
TINY_DIVISOR = 32


def rule_filled_state(parity, state: dict, shape_of=lambda key, shape: shape) -> dict:
    """The rule's tensors for the keys of ``state``, of the shapes ``shape_of`` gives."""
    import torch

    return {key: torch.from_numpy(parity.rule_array(key, shape_of(key, tuple(v.shape)),
                                                    str(v.dtype).replace('torch.', '')))
            for key, v in state.items()}


def tiny_shape(key: str, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of ``key`` with its channel axes (the first two) divided by TINY_DIVISOR, but
    the RGB input of ``backbone.conv1`` and the classes."""
    return tuple(n if i > 1 or n in (3, N_CLASS) else n // TINY_DIVISOR
                 for i, n in enumerate(shape))


def main() -> None:
    sys.path.insert(0, os.path.join(ROOT, 'bench'))
    import torchvision_cpu_nms

    torchvision_cpu_nms.install()
    import torch
    import torch.nn.functional as F
    import torchvision
    from torchvision.models import segmentation
    from torchvision.transforms._presets import SemanticSegmentation

    parity = load_module(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')
    torch.set_num_threads(1)
    img = numpy.random.RandomState(SEED).randint(0, 256, SHAPE).astype(numpy.uint8)
    transform = SemanticSegmentation(resize_size=RESIZE_SIZE)
    prepared = transform(torch.from_numpy(img.astype(numpy.float32) / 255))[None]
    for name in MODELS:
        model = getattr(segmentation, name)(weights=None, weights_backbone=None,
                                            num_classes=N_CLASS, aux_loss=True)
        model.eval()
        write_params_tsv(model.state_dict(), os.path.join(HERE, f'tv_{name}_params.tsv'))
        model.load_state_dict(rule_filled_state(parity, model.state_dict()))
        with torch.no_grad():
            outputs = model(prepared)
        label = F.interpolate(outputs['out'], size=SHAPE[1:], mode='bilinear',
                              align_corners=False).argmax(1)[0]
        record = {
            'input': img,
            'resize_size': RESIZE_SIZE,
            'step': STEP,
            'prepared': prepared[0, :, ::STEP].numpy(),
            'out': outputs['out'][0, :, ::STEP, ::STEP].numpy(),
            'aux': outputs['aux'][0, :, ::STEP, ::STEP].numpy(),
            'out_shape': numpy.array(outputs['out'].shape),
            'label': label.numpy().astype(numpy.int32),
            'image_mean': numpy.array(transform.mean), 'image_std': numpy.array(transform.std),
            'peer': numpy.array(f'torch {torch.__version__}, torchvision '
                                f'{torchvision.__version__}, numpy {numpy.__version__}'),
        }
        numpy.savez_compressed(os.path.join(HERE, f'tv_{name}.npz'), **record)
        out = record['out']
        print(f'tv_{name}.npz: out {out.min():.3f} to {out.max():.3f}, '
              f'{len(numpy.unique(record["label"]))} labels')
        if name == 'deeplabv3_resnet50':
            tiny = rule_filled_state(parity, model.state_dict(), tiny_shape)
            torch.save(tiny, os.path.join(HERE, f'tv_{name}_tiny.pth'))


if __name__ == '__main__':
    main()
