"""Write ChainerCV's DeepLabV3plusXception65 on weights made by the rule, on small images padded,
rescaled and flipped, into tests/data/chainercv_deeplab_sizes.npz.

Runs in the peer environment (Chainer 7.8.1, ChainerCV 0.13.1, NumPy 1.26, Pillow; no OpenCV, so
ChainerCV resizes with Pillow), never in the project's::

    /tmp/chainervenv/bin/python tests/data/make_chainercv_deeplab_fixtures.py

The weights are the rule's, filled as ``make_chainercv_segmentation_fixtures.py`` fills them.
The images are uniform noise in 0-255 (``numpy.random.RandomState(seed)``, recorded as
``*/input``). The model is ``DeepLabV3plusXception65(n_class=21, min_input_size=(64, 64))``.

Recorded: ``padded/*``, a (3, 40, 56) image (padded to 64x64) at scale 1 without flip;
``multiscale/*``, a (3, 70, 90) image at the scales in ``multiscale/scales`` (0.5, 1.25: it
is padded at the first, larger than ``min_input_size`` at the second), each flipped too.
``*/probs`` is the mean of ChainerCV's ``_get_proba`` over the runs, every ``STEP``-th row and
column; ``*/label`` is the label map of ChainerCV's ``predict`` with those ``scales`` and
``flip``.
"""

from __future__ import annotations

import importlib.util
import os

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, 'chainercv_deeplab_sizes.npz')
STEP = 3


def _load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    segmentation = _load(os.path.join(HERE, 'make_chainercv_segmentation_fixtures.py'),
                         'make_chainercv_segmentation_fixtures')
    parity = _load(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')
    # Chainer 7.8.1's resize_images still spells numpy.float, an alias of the builtin that
    # NumPy 1.24 removed.
    if not hasattr(numpy, 'float'):
        numpy.float = float
    import chainer
    from chainercv.links import DeepLabV3plusXception65

    model = DeepLabV3plusXception65(n_class=21, min_input_size=(64, 64))
    segmentation.fill_by_rule(parity, model)
    out = {}
    for key, shape, seed, scales, flip in (('padded', (3, 40, 56), 3, (1.0,), False),
                                           ('multiscale', (3, 70, 90), 4, (0.5, 1.25), True)):
        img = segmentation._image(shape, seed)
        model.scales, model.flip = scales, flip
        flips = (False, True) if flip else (False,)
        with chainer.using_config('train', False), chainer.no_backprop_mode():
            probs = [model._get_proba(img, scale, f) for scale in scales for f in flips]
        out[f'{key}/input'] = img
        out[f'{key}/scales'] = numpy.array(scales, numpy.float32)
        out[f'{key}/flip'] = numpy.bool_(flip)
        out[f'{key}/probs'] = (sum(probs) / len(probs))[:, ::STEP, ::STEP]
        out[f'{key}/label'], = model.predict([img])
    out['step'] = numpy.int32(STEP)
    numpy.savez_compressed(OUT, **out)
    for key, value in out.items():
        print(key, value.shape, value.dtype)


if __name__ == '__main__':
    main()
