"""``torchvision::nms`` for a torchvision whose C++ ops cannot load (used by peers only).

PyPI's torchvision wheels are CUDA builds: beside the CPU build of torch (the one this
project's peer environments install) their ``_C`` extension fails to load, importing
``torchvision`` fails with ``operator torchvision::nms does not exist``, and
facenet-pytorch, which calls ``torchvision.ops.batched_nms``, cannot run. :func:`install`,
called before the first ``import torchvision``, loads the extension when it can and
otherwise defines ``torchvision::nms`` (and ``qnms``, which torchvision registers beside
it) with a NumPy port of torchvision's CPU kernel (``csrc/ops/cpu/nms_kernel.cpp``): boxes
ordered by a stable descending sort of the scores, areas and IoU in the boxes' dtype, a
box suppressed when its IoU with a kept box is above the threshold compared in double, as
the kernel does. It keeps the same boxes in the same order; it is slower than the C++ loop
on thousands of boxes. Nothing here is imported by the project itself.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import time

import numpy

#: seconds spent in :func:`_nms` so far (a benchmark reports the port's share)
seconds = 0.0


def _nms(dets, scores, iou_threshold: float):
    global seconds
    start = time.perf_counter()
    try:
        return _nms_kernel(dets, scores, iou_threshold)
    finally:
        seconds += time.perf_counter() - start


def _nms_kernel(dets, scores, iou_threshold: float):
    import torch

    if dets.numel() == 0:
        return torch.empty((0,), dtype=torch.long, device=dets.device)
    boxes = dets.detach().cpu().numpy()
    x1, y1, x2, y2 = (numpy.ascontiguousarray(boxes[:, k]) for k in range(4))
    areas = (x2 - x1) * (y2 - y1)
    order = torch.sort(scores.detach().cpu(), stable=True, dim=0, descending=True)[1].numpy()
    suppressed = numpy.zeros(len(boxes), bool)
    keep = []
    for n, i in enumerate(order):
        if suppressed[i]:
            continue
        keep.append(i)
        rest = order[n + 1:]
        rest = rest[~suppressed[rest]]
        if not len(rest):
            continue
        w = numpy.maximum(numpy.minimum(x2[i], x2[rest]) - numpy.maximum(x1[i], x1[rest]), 0)
        h = numpy.maximum(numpy.minimum(y2[i], y2[rest]) - numpy.maximum(y1[i], y1[rest]), 0)
        inter = w * h
        ovr = inter / (areas[i] + areas[rest] - inter)
        suppressed[rest[ovr.astype(numpy.float64) > iou_threshold]] = True
    return torch.as_tensor(numpy.array(keep, numpy.int64), device=dets.device)


def _extension_loads() -> bool:
    import torch

    spec = importlib.util.find_spec('torchvision')
    if spec is None or not spec.submodule_search_locations:
        return False
    for folder in spec.submodule_search_locations:
        for path in glob.glob(os.path.join(folder, '_C*.so')) + glob.glob(
                os.path.join(folder, '_C*.pyd')):
            try:
                torch.ops.load_library(path)
                return True
            except (OSError, RuntimeError):
                pass
    return False


_LIBRARY = None


def install() -> str:
    """Make ``torchvision`` importable with a working ``nms``; say which kernel it runs."""
    global _LIBRARY
    import torch

    if _LIBRARY is not None or _extension_loads():
        return 'numpy port of the CPU kernel' if _LIBRARY is not None else 'torchvision C++'
    _LIBRARY = torch.library.Library('torchvision', 'DEF')
    for name in ('nms', 'qnms'):
        _LIBRARY.define(f'{name}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor')
        _LIBRARY.impl(name, _nms, 'CPU')
    import torchvision.ops.boxes

    # torchvision asks for its extension before every nms; the op it needs is defined now.
    torchvision.ops.boxes._assert_has_ops = lambda: None
    return 'numpy port of the CPU kernel'
