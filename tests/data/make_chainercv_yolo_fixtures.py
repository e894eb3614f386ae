"""Write the parameters of ChainerCV's YOLOv2 and YOLOv2Tiny, and their outputs on weights made
by the rule, into tests/data/chainercv_yolo_v2*.

Runs in the peer environment (Chainer 7.8.1, ChainerCV 0.13.1, NumPy 1.26, Pillow; no OpenCV, so
ChainerCV resizes with Pillow), never in the project's::

    /tmp/chainervenv/bin/python tests/data/make_chainercv_yolo_fixtures.py

For ``YOLOv2(n_fg_class=20)`` (``yolo_v2``) and the experimental ``YOLOv2Tiny(n_fg_class=20)``
(``yolo_v2_tiny``): ``chainercv_<name>_params.tsv`` lists every parameter and persistent (path,
shape, dtype, kind) as ``namedparams()`` and the links' persistents give them. The weights are
then the rule's (``vision/utils/testing/parity.py``), filled as
``make_chainercv_segmentation_fixtures.py`` fills them. The image is uniform noise in 0-255,
``RandomState(SEED).uniform(0, 255, SHAPE)`` as float32 (a tall image that ``resize_contain``
shrinks and pads on both sides), recorded by its seed and shape only, so the tests make it
again. ``chainercv_<name>.npz`` records ``out/locs``, ``out/objs``, ``out/confs``, the raw
outputs of ``model(x)`` for the letterboxed image, and ``predict/bbox``, ``predict/label``,
``predict/score`` of ``predict`` with ``nms_thresh`` and ``score_thresh``, which it stores too.
"""

from __future__ import annotations

import csv
import importlib.util
import os

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SEED = 18
SHAPE = (3, 500, 230)
NMS_THRESH = 0.45
SCORE_THRESH = {'yolo_v2': 0.035, 'yolo_v2_tiny': 0.035}


def _load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write_tsv(path: str, model) -> None:
    rows = [(name, param.shape, param.dtype, 'param') for name, param in model.namedparams()]
    for prefix, link in model.namedlinks():
        for key in sorted(link._persistent):
            value = getattr(link, key)
            if isinstance(value, numpy.ndarray):
                rows.append((f'{prefix.rstrip("/")}/{key}', value.shape, value.dtype,
                             'persistent'))
    with open(path, 'w', newline='', encoding='utf-8') as f:
        writer = csv.writer(f, delimiter='\t', lineterminator='\n')
        writer.writerow(('path', 'shape', 'dtype', 'kind'))
        for name, shape, dtype, kind in rows:
            writer.writerow((name, ','.join(map(str, shape)), numpy.dtype(dtype).name, kind))


def main() -> None:
    import chainer
    from chainercv import transforms
    from chainercv.experimental.links import YOLOv2Tiny
    from chainercv.links import YOLOv2

    segmentation = _load(os.path.join(HERE, 'make_chainercv_segmentation_fixtures.py'),
                         'make_chainercv_segmentation_fixtures')
    parity = _load(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')
    img = numpy.random.RandomState(SEED).uniform(0, 255, SHAPE).astype(numpy.float32)
    for name, cls in (('yolo_v2', YOLOv2), ('yolo_v2_tiny', YOLOv2Tiny)):
        model = cls(n_fg_class=20)
        x = transforms.resize_contain(img / 255, (model.insize, model.insize), fill=0.5)
        with chainer.using_config('train', False), chainer.no_backprop_mode():
            model(x[None])  # the convolutions learn their input channels
            segmentation.fill_by_rule(parity, model)
            locs, objs, confs = model(x[None])
        _write_tsv(os.path.join(HERE, f'chainercv_{name}_params.tsv'), model)
        model.nms_thresh, model.score_thresh = NMS_THRESH, SCORE_THRESH[name]
        (bbox,), (label,), (score,) = model.predict([img])
        out = {'seed': numpy.int32(SEED), 'shape': numpy.array(SHAPE, numpy.int32),
               'out/locs': locs.array, 'out/objs': objs.array, 'out/confs': confs.array,
               'predict/bbox': bbox, 'predict/label': label, 'predict/score': score,
               'nms_thresh': numpy.float32(NMS_THRESH),
               'score_thresh': numpy.float32(SCORE_THRESH[name])}
        numpy.savez_compressed(os.path.join(HERE, f'chainercv_{name}.npz'), **out)
        for key, value in out.items():
            print(name, key, value.shape, value.dtype)


if __name__ == '__main__':
    main()
