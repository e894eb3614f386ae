"""Write facenet-pytorch's MTCNN detections on the sample photos into tests/data/mtcnn/.

Runs in the peer environment (torch, torchvision, facenet-pytorch, NumPy, Pillow, matplotlib;
see tests/data/README.md), never in the project's::

    /tmp/torchvenv/bin/python tests/data/make_mtcnn_fixtures.py

The photos come from ``vision/data/sample_photos.py`` (loaded by its path: it imports nothing
of the project). Each is given to ``facenet_pytorch.MTCNN(keep_all=True).detect(img,
landmarks=True)`` as an ``(H, W, 3)`` uint8 RGB array (a grayscale photo as its one channel
three times), which is what facenet-pytorch makes of a PIL image too. ``grace_hopper.json``
is the shared fixture and is not written here; this script checks that it reproduces.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, 'mtcnn')


def _load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def peer_input(img: numpy.ndarray) -> numpy.ndarray:
    """The project's ``(C, H, W)`` float32 image as facenet-pytorch takes it."""
    hwc = img.astype(numpy.uint8).transpose(1, 2, 0)
    return numpy.ascontiguousarray(numpy.repeat(hwc, 3, axis=2) if hwc.shape[2] == 1 else hwc)


def image_sha256(img: numpy.ndarray) -> str:
    """sha256 of the image's pixels as uint8 in (C, H, W) order."""
    return hashlib.sha256(numpy.ascontiguousarray(img.astype(numpy.uint8)).tobytes()).hexdigest()


def detect(mtcnn, img: numpy.ndarray) -> dict:
    boxes, probs, landmarks = mtcnn.detect(peer_input(img), landmarks=True)
    if boxes is None:
        boxes, probs, landmarks = numpy.zeros((0, 4)), numpy.zeros(0), numpy.zeros((0, 5, 2))
    to_list = lambda a: numpy.asarray(a, numpy.float64).tolist()  # noqa: E731
    return {'boxes_x1y1x2y2': to_list(boxes), 'probs': to_list(probs),
            'landmarks_xy': to_list(landmarks)}


def main() -> None:
    sys.path.insert(0, os.path.join(ROOT, 'bench'))
    import torchvision_cpu_nms

    nms_kernel = torchvision_cpu_nms.install()
    import facenet_pytorch
    import matplotlib
    import PIL
    import torch
    import torchvision

    photos = _load(os.path.join(ROOT, 'vision', 'data', 'sample_photos.py'), 'sample_photos')
    mtcnn = facenet_pytorch.MTCNN(keep_all=True)
    settings = {'min_face_size': mtcnn.min_face_size, 'thresholds': list(mtcnn.thresholds),
                'factor': mtcnn.factor, 'post_process': mtcnn.post_process,
                'select_largest': mtcnn.select_largest}
    peer = {'facenet-pytorch': '2.6.0', 'torch': torch.__version__,
            'torchvision': torchvision.__version__, 'torchvision nms': nms_kernel,
            'numpy': numpy.__version__, 'pillow': PIL.__version__,
            'matplotlib': matplotlib.__version__}

    shared = os.path.join(ROOT, '..', 'shared', 'fixtures', 'mtcnn', 'grace_hopper.json')
    if os.path.exists(shared):
        with open(shared) as f:
            ref = json.load(f)
        got = detect(mtcnn, photos.grace_hopper())
        for key in ('boxes_x1y1x2y2', 'probs', 'landmarks_xy'):
            err = numpy.abs(numpy.subtract(got[key], ref[key])).max()
            print(f'grace_hopper.json (shared) reproduces: max |{key} difference| = {err:.2g}')

    os.makedirs(OUT, exist_ok=True)
    inputs = {
        'grace_hopper_gray_small': 'vision.data.sample_photos.grace_hopper_gray_small(): '
                                   '(1, 188, 160), given as (188, 160, 3) uint8',
        'group_photo': 'vision.data.sample_photos.group_photo(): (3, 1080, 1920)',
        'noise': 'vision.data.sample_photos.noise_photo(): (3, 480, 640), no face',
    }
    for name, description in inputs.items():
        img = photos.PHOTOS[name]()
        record = {'image': name, 'input': description,
                  'size_wh': [img.shape[2], img.shape[1]],
                  'image_sha256_uint8_chw': image_sha256(img), **detect(mtcnn, img),
                  'settings': settings, 'peer': peer}
        with open(os.path.join(OUT, f'{name}.json'), 'w') as f:
            json.dump(record, f, indent=1)
            f.write('\n')
        print(f'{name}.json: {len(record["probs"])} faces, probabilities '
              + ', '.join(f'{p:.4f}' for p in record['probs']))


if __name__ == '__main__':
    main()
