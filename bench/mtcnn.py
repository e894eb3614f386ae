"""MTCNN face detection of the zoo beside facenet-pytorch's, on a photo and a group photo.

Ours is :class:`vision.models.MTCNN` with the weights of the facenet-pytorch wheel, its
``predict`` on one image at a time, eagerly and after ``hybridize()`` (the nets as static
graphs); the peer is facenet-pytorch 2.6.0's ``MTCNN(keep_all=True).detect(img,
landmarks=True)`` with the same weights and settings (min face 20 px, thresholds 0.6, 0.7,
0.7, factor 0.709). The photos are those of the parity fixtures (``vision.data.
sample_photos``): matplotlib's ``grace_hopper.jpg`` (512x600, one face) and the 1920x1080
group photo (nine faces of 60 to 390 px); ours gets them as ``(3, H, W)`` float32, the peer as
``(H, W, 3)`` uint8, the same pixels.

::

    python bench/mtcnn.py [--repeat 3] [--threads 2] [--weights FOLDER]
    python bench/mtcnn.py --torch-python /tmp/torchvenv/bin/python

The peer runs in a child process, before ours (in one process, the OpenMP threads that torch
leaves spinning slow NumPy's BLAS threads down): this interpreter when it can import
facenet_pytorch, else the one given (which needs torch, torchvision, facenet-pytorch, NumPy,
Pillow and matplotlib, not this project); where torchvision's C++ ops do not load (PyPI's
CUDA builds beside torch's CPU build), ``bench/torchvision_cpu_nms.py`` stands in for its
``nms``, and the table shows the time their best call spent in it and the ratio without
it. torch runs on ``--threads`` threads (default: the cores this process may use), which is
what NumPy's BLAS uses here. Times are the best of ``--repeat``
runs after a warm-up; a ratio is the peer's time / ours (above 1: we are faster). The BLAS
kernel NumPy runs is printed (with threadpoolctl installed), and torch's CPU capability: take
published figures with ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` unset in the command.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys

import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = {'grace_hopper.jpg, 512x600': 'grace_hopper',
          'group photo, 1920x1080': 'group_photo'}
_STATIC = ', hybridized'


def _photos():
    """vision/data/sample_photos.py, loaded by its path (the peer's interpreter has no vision)."""
    spec = importlib.util.spec_from_file_location(
        'sample_photos', os.path.join(ROOT, 'vision', 'data', 'sample_photos.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_ours(repeat: int, weights: str) -> dict[str, dict]:
    from vision.models import MTCNN

    photos = _photos()
    model = MTCNN(pretrained_model=weights)
    rows = {}
    for static in (False, True):
        if static:
            model.hybridize()
        for label, name in IMAGES.items():
            img = getattr(photos, name)()
            seconds, (bboxes, _, _, _), _ = harness.best_of(
                lambda img=img: model.predict([img]), repeat)
            rows[label + (_STATIC if static else '')] = {'seconds': seconds,
                                                         'faces': len(bboxes[0])}
    return rows


def bench_facenet(repeat: int, threads: int) -> dict:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torchvision_cpu_nms

    nms = torchvision_cpu_nms.install()
    import facenet_pytorch
    import numpy
    import torch

    torch.set_num_threads(threads)
    photos = _photos()
    mtcnn = facenet_pytorch.MTCNN(keep_all=True)
    rows = {}
    for label, name in IMAGES.items():
        img = numpy.ascontiguousarray(getattr(photos, name)().astype(numpy.uint8)
                                      .transpose(1, 2, 0))
        nms_of_call = []  # seconds each call spent in the nms port

        def detect(img=img, nms_of_call=nms_of_call):
            in_nms = torchvision_cpu_nms.seconds
            with torch.no_grad():
                result = mtcnn.detect(img, landmarks=True)
            nms_of_call.append(torchvision_cpu_nms.seconds - in_nms)
            return result
        seconds, (boxes, _, _), best = harness.best_of(detect, repeat)
        rows[label] = {'seconds': seconds, 'faces': 0 if boxes is None else len(boxes),
                       'nms_port': nms_of_call[1 + best]}
    capability = getattr(getattr(torch.backends, 'cpu', None), 'get_cpu_capability', None)
    about = (f'torch {torch.__version__} ({torch.get_num_threads()} threads'
             + (f', {capability()}' if capability else '') + f'), nms: {nms}')
    return {'rows': rows, 'about': about, 'blas': harness.blas_kernel()}


def _run_peer(python: str | None, repeat: int, threads: int) -> dict | None:
    """The peer's times, measured in a child process; None when no interpreter has it."""
    python = sys.executable if importlib.util.find_spec('facenet_pytorch') else python
    if not python:
        print('facenet_pytorch is not installed (see --torch-python): the peer is left out')
        return None
    return harness.run_child(python, [os.path.abspath(__file__), '--peer-only', '--repeat',
                                      str(repeat), '--threads', str(threads)])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--threads', type=int, default=harness.cores(),
                        help="torch's threads (default: the cores this process may use)")
    parser.add_argument('--weights', default='facenet-pytorch',
                        help="ours: 'facenet-pytorch' (fetched and cached) or a folder with "
                             'pnet.pt, rnet.pt and onet.pt')
    parser.add_argument('--torch-python',
                        help='an interpreter with facenet-pytorch, if this one has none')
    parser.add_argument('--peer-only', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer_only:
        print(json.dumps(bench_facenet(args.repeat, args.threads)))
        return
    peer = _run_peer(args.torch_python, args.repeat, args.threads)
    harness.print_blas()
    if peer:
        print(f"facenet-pytorch: {peer['about']}; its NumPy's BLAS: {peer['blas']}")
    ours = bench_ours(args.repeat, args.weights)
    ported = peer is not None and any(row['nms_port'] for row in peer['rows'].values())
    print(f'{"MTCNN predict / detect":<40}{"ours":>10}{"faces":>7}'
          + (f'{"facenet-pytorch":>17}{"faces":>7}{"ratio":>8}' if peer else '')
          + (f'{"nms port":>12}{"ratio less port":>17}' if ported else ''))
    for label, row in ours.items():
        line = f'{label:<40}{row["seconds"] * 1e3:>8.1f}ms{row["faces"]:>7}'
        if peer:
            theirs = peer['rows'][label.removesuffix(_STATIC)]
            line += (f'{theirs["seconds"] * 1e3:>15.1f}ms{theirs["faces"]:>7}'
                     f'{theirs["seconds"] / row["seconds"]:>8.2f}')
        if ported:
            line += (f'{theirs["nms_port"] * 1e3:>10.1f}ms'
                     f'{(theirs["seconds"] - theirs["nms_port"]) / row["seconds"]:>17.2f}')
        print(line)
    if ported:
        print("nms port: the time facenet-pytorch's best call spent in "
              "bench/torchvision_cpu_nms.py (torchvision's C++ nms does not load here); 'ratio "
              "less port' leaves it out of their time altogether, a bound that favours them")


if __name__ == '__main__':
    main()
