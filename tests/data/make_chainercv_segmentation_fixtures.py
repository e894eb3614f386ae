"""Write ChainerCV's SegNetBasic and PSPNetResNet50 on weights made by the rule, on images of
sizes that the shared fixtures do not reach, into tests/data/chainercv_segmentation_sizes.npz.

Runs in the peer environment (Chainer 7.8.1, ChainerCV 0.13.1, NumPy 1.26, Pillow; no OpenCV, so
ChainerCV resizes with Pillow), never in the project's::

    /tmp/chainervenv/bin/python tests/data/make_chainercv_segmentation_fixtures.py

The weights are the rule's (``vision/utils/testing/parity.py``, loaded by its path), every
parameter and floating-point persistent by its Chainer path. The images are uniform noise in
0-255 (``numpy.random.RandomState(seed)``, recorded as ``*/input``).

Recorded, for ``SegNetBasic(n_class=11)`` on a (3, 37, 51) image (sides that are not multiples
of 16): ``segnet/score``, the raw scores (1, 11, 38, 52) of ``model(x)``, and ``segnet/label``,
``predict``'s label map. For ``PSPNetResNet50(n_class=21, input_size=(64, 64))`` on a
(3, 100, 150) image (cut into six tiles) and a (3, 40, 56) image (padded): ``*/probs``, the
probabilities ``_tile_predict`` averages, every ``STEP``-th row and column, and ``*/label``,
``predict``'s label map.
"""

from __future__ import annotations

import importlib.util
import os

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, 'chainercv_segmentation_sizes.npz')
STEP = 3


def _load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fill_by_rule(parity, model) -> None:
    """Every parameter and floating-point persistent of a Chainer link, by its path."""
    for name, param in model.namedparams():
        param.array[...] = parity.rule_array(name, param.shape, param.dtype)
    for path, link in model.namedlinks():
        for key in link._persistent:
            value = getattr(link, key)
            if isinstance(value, numpy.ndarray) and value.dtype.kind == 'f':
                value[...] = parity.rule_array(f'{path.rstrip("/")}/{key}', value.shape,
                                               value.dtype)


def _image(shape, seed):
    return numpy.random.RandomState(seed).uniform(0, 255, shape).astype(numpy.float32)


def main() -> None:
    # Chainer 7.8.1's resize_images still spells numpy.float, an alias of the builtin that
    # NumPy 1.24 removed.
    if not hasattr(numpy, 'float'):
        numpy.float = float
    import chainer
    from chainercv.experimental.links import PSPNetResNet50
    from chainercv.links import SegNetBasic

    parity = _load(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')
    out = {}
    segnet = SegNetBasic(n_class=11)
    img = _image((3, 37, 51), 0)
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        segnet(img[None])  # conv1 learns its input channels
        fill_by_rule(parity, segnet)
        out['segnet/score'] = segnet(img[None]).array
    out['segnet/input'] = img
    out['segnet/label'], = segnet.predict([img])

    pspnet = PSPNetResNet50(n_class=21, input_size=(64, 64))
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        pspnet(numpy.zeros((1, 3, 64, 64), numpy.float32))
        fill_by_rule(parity, pspnet)
        for key, shape, seed in (('tiled', (3, 100, 150), 1), ('padded', (3, 40, 56), 2)):
            img = _image(shape, seed)
            out[f'pspnet_{key}/input'] = img
            out[f'pspnet_{key}/probs'] = pspnet._tile_predict(img)[:, ::STEP, ::STEP]
            out[f'pspnet_{key}/label'], = pspnet.predict([img])
    out['step'] = numpy.int32(STEP)
    numpy.savez_compressed(OUT, **out)
    for key, value in out.items():
        print(key, value.shape, value.dtype)


if __name__ == '__main__':
    main()
