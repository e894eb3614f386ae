"""Op benchmark: forward and forward+backward times of single ops on the shapes of real models.

Prints our times beside PyTorch's (CPU), measured in the same run, when torch is importable
here or in the interpreter ``--torch-python`` names (it is not a dependency of the project; use
a separate venv)::

    python bench/ops.py [--op convolution_2d] [--batch 1 8] [--repeat 5] [--torch-python PY]

PyTorch's rows run in a child process, before ours: in one process, the OpenMP threads torch
leaves spinning take the cores NumPy's BLAS threads need.

Each op registers its rows with the :func:`benchmark` decorator: a function of the batch size
that yields :class:`Row` objects, each with a setup for us and one for PyTorch. A setup returns
two callables, the forward pass alone (no graph recorded) and the forward plus backward pass
from a fixed output gradient. The ratio columns are PyTorch's time / ours (above 1: we are
faster). Times are the shortest wall-clock time of one call among ``--repeat`` calls or more
(0.3 s of calls at least), the call that other processes on the machine disturbed least.
``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1`` compares one thread against one thread, which is
steadier on a shared machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import harness
import numpy

import framework
import framework.functions as F

Setup = Callable[[], tuple[Callable[[], None], Callable[[], None]]]


@dataclasses.dataclass
class Row:
    """One benchmark row.

    Attributes:
        label: the shape or case, e.g. ``'3x3 64->64 @56x56, batch 8'``.
        ours: returns our (forward, forward+backward) callables.
        torch: takes the torch module and returns its (forward, forward+backward) callables;
            None when PyTorch has no counterpart.
    """

    label: str
    ours: Setup
    torch: Callable[..., tuple[Callable[[], None], Callable[[], None]]] | None = None


_BENCHMARKS: dict[str, Callable[[int], Iterator[Row]]] = {}


def benchmark(op: str):
    """Registers ``rows(batch) -> iterator of Row`` as the benchmark of ``op``."""
    def register(rows):
        if op in _BENCHMARKS:
            raise ValueError(f'benchmark: {op!r} is already registered')
        _BENCHMARKS[op] = rows
        return rows
    return register


def _best_of(fn, repeat: int, min_time: float = 0.3) -> float:
    """The shortest time of a call of ``fn`` in seconds, over at least ``repeat`` calls and
    ``min_time`` seconds of calls: on a shared machine, the call least disturbed by others."""
    fn()
    best = float('inf')
    count = 0
    spent = 0.0
    while count < repeat or spent < min_time:
        start = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        spent += elapsed
        count += 1
    return best


def _random(shape, seed):
    return numpy.random.RandomState(seed).standard_normal(shape).astype(numpy.float32)


# --- convolution_2d ---------------------------------------------------------------------------

def _convolution_arrays(batch, c, size, o, k, stride, pad):
    out = (size + 2 * pad - k) // stride + 1
    return (_random((batch, c, size, size), 0), _random((o, c, k, k), 1) * (c * k * k) ** -0.5,
            _random((batch, o, out, out), 2))


def _ours_convolution(batch, c, size, o, k, stride, pad):
    x, W, gy = _convolution_arrays(batch, c, size, o, k, stride, pad)
    xv, Wv = framework.Variable(x), framework.Variable(W)

    def forward():
        F.convolution_2d(x, W, stride=stride, pad=pad)

    def forward_backward():
        xv.cleargrad()
        Wv.cleargrad()
        y = F.convolution_2d(xv, Wv, stride=stride, pad=pad)
        y.grad = gy
        y.backward()
    return forward, forward_backward


def _torch_convolution(torch, batch, c, size, o, k, stride, pad):
    x, W, gy = (torch.from_numpy(a) for a in _convolution_arrays(batch, c, size, o, k, stride,
                                                                   pad))
    xv, Wv = x.clone().requires_grad_(), W.clone().requires_grad_()
    conv2d = torch.nn.functional.conv2d

    def forward():
        with torch.no_grad():
            conv2d(x, W, stride=stride, padding=pad)

    def forward_backward():
        xv.grad = Wv.grad = None
        conv2d(xv, Wv, stride=stride, padding=pad).backward(gy)
    return forward, forward_backward


@benchmark('convolution_2d')
def _convolution_2d_rows(batch: int) -> Iterator[Row]:
    for label, *shape in harness.RESNET50_CONVOLUTIONS:
        args = (batch, *shape)
        yield Row(f'{label}, batch {batch}',
                  lambda args=args: _ours_convolution(*args),
                  lambda torch, args=args: _torch_convolution(torch, *args))


# --- max_pooling_2d, average_pooling_2d -------------------------------------------------------

# label, input shape without the batch, our pooling of x, PyTorch's (given torch and x). Max
# pooling keeps Chainer's default cover_all=True, which ceil_mode=True matches on these shapes.
_MAX_POOLINGS = [
    ('3x3/2 pad 1 64 @112', (64, 112, 112), lambda x: F.max_pooling_2d(x, 3, 2, 1),
     lambda torch, x: torch.nn.functional.max_pool2d(x, 3, 2, 1, ceil_mode=True)),
]
_AVERAGE_POOLINGS = [
    ('3x3/2 pad 1 64 @112', (64, 112, 112), lambda x: F.average_pooling_2d(x, 3, 2, 1),
     lambda torch, x: torch.nn.functional.avg_pool2d(x, 3, 2, 1)),
    ('global 2048 @7', (2048, 7, 7), lambda x: F.average_pooling_2d(x, 7),
     lambda torch, x: torch.nn.functional.avg_pool2d(x, 7)),
]


def _ours_pooling(pool, shape):
    x = _random(shape, 0)
    gy = _random(pool(x).shape, 2)
    xv = framework.Variable(x)

    def forward():
        pool(x)

    def forward_backward():
        xv.cleargrad()
        y = pool(xv)
        y.grad = gy
        y.backward()
    return forward, forward_backward


def _torch_pooling(torch, pool, shape):
    x = torch.from_numpy(_random(shape, 0))
    gy = torch.from_numpy(_random(tuple(pool(torch, x).shape), 2))
    xv = x.clone().requires_grad_()

    def forward():
        with torch.no_grad():
            pool(torch, x)

    def forward_backward():
        xv.grad = None
        pool(torch, xv).backward(gy)
    return forward, forward_backward


def _pooling_rows(cases, batch):
    for label, shape, ours, theirs in cases:
        shape = (batch, *shape)
        yield Row(f'{label}, batch {batch}',
                  lambda ours=ours, shape=shape: _ours_pooling(ours, shape),
                  lambda torch, theirs=theirs, shape=shape: _torch_pooling(torch, theirs, shape))


@benchmark('max_pooling_2d')
def _max_pooling_2d_rows(batch: int) -> Iterator[Row]:
    yield from _pooling_rows(_MAX_POOLINGS, batch)


@benchmark('average_pooling_2d')
def _average_pooling_2d_rows(batch: int) -> Iterator[Row]:
    yield from _pooling_rows(_AVERAGE_POOLINGS, batch)


# --- batch_normalization ------------------------------------------------------------------------

# Training mode (batch statistics, running averages updated) on ResNet-50's feature maps: label,
# input shape without the batch.
_BATCH_NORMALIZATIONS = [('64 @56', (64, 56, 56)), ('256 @14', (256, 14, 14))]


def _batch_normalization_arrays(shape):
    c = shape[1]
    return (_random(shape, 0), 1 + 0.1 * _random((c,), 1), 0.1 * _random((c,), 2),
            _random(shape, 3))


def _ours_batch_normalization(shape):
    x, gamma, beta, gy = _batch_normalization_arrays(shape)
    running = {'running_mean': numpy.zeros_like(gamma), 'running_var': numpy.ones_like(gamma)}
    variables = [framework.Variable(a) for a in (x, gamma, beta)]

    def forward():
        F.batch_normalization(x, gamma, beta, **running)

    def forward_backward():
        for v in variables:
            v.cleargrad()
        y = F.batch_normalization(*variables, **running)
        y.grad = gy
        y.backward()
    return forward, forward_backward


def _torch_batch_normalization(torch, shape):
    x, gamma, beta, gy = (torch.from_numpy(a) for a in _batch_normalization_arrays(shape))
    running_mean, running_var = torch.zeros_like(gamma), torch.ones_like(gamma)
    variables = [a.clone().requires_grad_() for a in (x, gamma, beta)]
    batch_norm = torch.nn.functional.batch_norm

    def forward():
        with torch.no_grad():
            batch_norm(x, running_mean, running_var, gamma, beta, training=True, eps=2e-5)

    def forward_backward():
        xv, gammav, betav = variables
        xv.grad = gammav.grad = betav.grad = None
        batch_norm(xv, running_mean, running_var, gammav, betav, training=True,
                   eps=2e-5).backward(gy)
    return forward, forward_backward


@benchmark('batch_normalization')
def _batch_normalization_rows(batch: int) -> Iterator[Row]:
    for label, shape in _BATCH_NORMALIZATIONS:
        shape = (batch, *shape)
        yield Row(f'{label}, batch {batch}',
                  lambda shape=shape: _ours_batch_normalization(shape),
                  lambda torch, shape=shape: _torch_batch_normalization(torch, shape))


# --- roi_average_align_2d -----------------------------------------------------------------------

# FPN's box head: 128 rois over feature maps of stride 16, 7x7 bins of 2x2 points.
_ROI_ALIGN = {'rois': 128, 'channels': 256, 'size': 50, 'scale': 1 / 16, 'outsize': 7,
              'sampling_ratio': 2}


def _roi_align_arrays(batch, case):
    """Feature maps of ``batch`` images, boxes ``(y_min, x_min, y_max, x_max)`` spread over them
    (16 to 400 image pixels high and wide), their batch indices and an output gradient."""
    rng = numpy.random.RandomState(3)
    extent = case['size'] / case['scale']
    low = rng.uniform(0, extent - 16, (case['rois'], 2))
    high = numpy.minimum(low + rng.uniform(16, 400, (case['rois'], 2)), extent)
    boxes = numpy.concatenate([low, high], axis=1).astype(numpy.float32)
    indices = (numpy.arange(case['rois']) % batch).astype(numpy.int32)
    x = _random((batch, case['channels'], case['size'], case['size']), 0)
    gy = _random((case['rois'], case['channels'], case['outsize'], case['outsize']), 2)
    return x, boxes, indices, gy


def _ours_roi_align(batch, case):
    x, boxes, indices, gy = _roi_align_arrays(batch, case)
    args = (boxes, indices, case['outsize'], case['scale'], case['sampling_ratio'])
    xv = framework.Variable(x)

    def forward():
        F.roi_average_align_2d(x, *args)

    def forward_backward():
        xv.cleargrad()
        y = F.roi_average_align_2d(xv, *args)
        y.grad = gy
        y.backward()
    return forward, forward_backward


def _torch_roi_align(torch, batch, case):
    from torchvision.ops import roi_align
    x, boxes, indices, gy = _roi_align_arrays(batch, case)
    # torchvision's boxes are (batch index, x_min, y_min, x_max, y_max); aligned=False is Chainer's
    boxes = torch.from_numpy(numpy.concatenate(
        [indices[:, None].astype(numpy.float32), boxes[:, [1, 0, 3, 2]]], axis=1))
    x, gy = torch.from_numpy(x), torch.from_numpy(gy)
    xv = x.clone().requires_grad_()
    args = (boxes, case['outsize'], case['scale'], case['sampling_ratio'])

    def forward():
        with torch.no_grad():
            roi_align(x, *args, aligned=False)

    def forward_backward():
        xv.grad = None
        roi_align(xv, *args, aligned=False).backward(gy)
    return forward, forward_backward


@benchmark('roi_average_align_2d')
def _roi_average_align_2d_rows(batch: int) -> Iterator[Row]:
    case = _ROI_ALIGN
    label = (f'R={case["rois"]} {case["outsize"]}x{case["outsize"]}/{case["sampling_ratio"]} '
             f'{case["channels"]} @{case["size"]}, batch {batch}')
    has_torchvision = importlib.util.find_spec('torchvision') is not None
    yield Row(label, lambda: _ours_roi_align(batch, case),
              (lambda torch: _torch_roi_align(torch, batch, case)) if has_torchvision else None)


# --- the runner ---------------------------------------------------------------------------------


def _time_pair(setup, repeat):
    forward, forward_backward = setup()
    return _best_of(forward, repeat), _best_of(forward_backward, repeat)


def _rows(ops, batches) -> Iterator[tuple[str, Row]]:
    for op in ops:
        for batch in batches:
            for row in _BENCHMARKS[op](batch):
                yield op, row


def _torch_times(ops, batches, repeat) -> dict[str, tuple[float, float]]:
    """PyTorch's (forward, forward+backward) times by ``'op|label'``."""
    import torch
    return {f'{op}|{row.label}': _time_pair(functools.partial(row.torch, torch), repeat)
            for op, row in _rows(ops, batches) if row.torch is not None}


def _run_torch(ops, batches, repeat, python) -> dict[str, list[float]] | None:
    """PyTorch's times measured in a child process; None when no interpreter has torch."""
    python = sys.executable if importlib.util.find_spec('torch') else python
    if not python:
        print('torch is not installed (see --torch-python): not compared')
        return None
    command = [python, __file__, '--torch-only', '--op', *ops, '--batch', *map(str, batches),
               '--repeat', str(repeat)]
    return json.loads(subprocess.run(command, check=True, capture_output=True,
                                     text=True).stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--op', nargs='*', choices=sorted(_BENCHMARKS),
                        help='the ops to time (default: all)')
    parser.add_argument('--batch', nargs='*', type=int, default=[1, 8])
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--torch-python', help='an interpreter with torch, if this one has none')
    parser.add_argument('--torch-only', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    ops = args.op or sorted(_BENCHMARKS)
    if args.torch_only:
        print(json.dumps(_torch_times(ops, args.batch, args.repeat)))
        return
    theirs = _run_torch(ops, args.batch, args.repeat, args.torch_python)

    header = f'{"op":<22}{"case":<34}{"fwd":>10}{"fwd+bwd":>10}'
    if theirs is not None:
        header += f'{"torch fwd":>11}{"ratio":>7}{"torch f+b":>11}{"ratio":>7}'
    print(header + '   (ms)')
    for op, row in _rows(ops, args.batch):
        ours = _time_pair(row.ours, args.repeat)
        line = f'{op:<22}{row.label:<34}{ours[0] * 1e3:>10.2f}{ours[1] * 1e3:>10.2f}'
        key = f'{op}|{row.label}'
        if theirs is not None and key in theirs:
            line += ''.join(f'{t * 1e3:>11.2f}{t / o:>7.2f}' for t, o in zip(theirs[key], ours))
        print(line, flush=True)


if __name__ == '__main__':
    main()
