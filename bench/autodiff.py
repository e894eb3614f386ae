"""Autodiff benchmark: per-operation overhead and an MLP's forward and backward pass.

Prints our time beside PyTorch's and Chainer's, measured in the same run, when they are
installed (neither is a dependency of the project; install them in a separate venv)::

    python bench/autodiff.py [--repeat 5]

Two regimes are timed: tiny arrays, where the time is the framework's own bookkeeping per
operation (graph recording, type checks, backprop traversal), and an MLP large enough that NumPy's
BLAS does most of the work. The ratio column is peer time / our time (above 1: we are faster).
"""

from __future__ import annotations

import argparse
import time

import numpy

import framework
import framework.functions as F


def _best_of(fn, repeat: int, number: int) -> float:
    """The best mean time of ``number`` calls of ``fn``, over ``repeat`` rounds, in seconds."""
    fn()
    best = float('inf')
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def _mlp_arrays(batch, width, depth, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.normal(size=(batch, width)).astype(numpy.float32)
    weights = [rng.normal(0, width ** -0.5, (width, width)).astype(numpy.float32)
               for _ in range(depth)]
    biases = [numpy.zeros(width, numpy.float32) for _ in range(depth)]
    return x, weights, biases


class Ours:
    name = 'ours'

    def small_ops(self):
        x = framework.Variable(numpy.ones((4, 4), numpy.float32))
        w = framework.Variable(numpy.ones((4, 4), numpy.float32))

        def run():
            x.cleargrad()
            w.cleargrad()
            y = F.sum(F.relu(F.linear(x, w)) * x + x)
            y.backward()
        return run, 5

    def mlp(self, batch, width, depth):
        x, weights, biases = _mlp_arrays(batch, width, depth)
        params = [(framework.Variable(w), framework.Variable(b)) for w, b in zip(weights, biases)]

        def run():
            for w, b in params:
                w.cleargrad()
                b.cleargrad()
            h = x
            for w, b in params:
                h = F.relu(F.linear(h, w, b))
            F.sum(h).backward()
        return run


class Torch:
    name = 'pytorch'

    def __init__(self):
        import torch
        self.torch = torch

    def small_ops(self):
        torch = self.torch
        x = torch.ones((4, 4), requires_grad=True)
        w = torch.ones((4, 4), requires_grad=True)

        def run():
            x.grad = w.grad = None
            y = (torch.relu(torch.nn.functional.linear(x, w)) * x + x).sum()
            y.backward()
        return run, 5

    def mlp(self, batch, width, depth):
        torch = self.torch
        x, weights, biases = _mlp_arrays(batch, width, depth)
        x = torch.from_numpy(x)
        params = [(torch.from_numpy(w).requires_grad_(), torch.from_numpy(b).requires_grad_())
                  for w, b in zip(weights, biases)]

        def run():
            for w, b in params:
                w.grad = b.grad = None
            h = x
            for w, b in params:
                h = torch.relu(torch.nn.functional.linear(h, w, b))
            h.sum().backward()
        return run


class Chainer:
    name = 'chainer'

    def __init__(self):
        import chainer
        self.chainer = chainer

    def small_ops(self):
        chainer = self.chainer
        cf = chainer.functions
        x = chainer.Variable(numpy.ones((4, 4), numpy.float32))
        w = chainer.Variable(numpy.ones((4, 4), numpy.float32))

        def run():
            x.cleargrad()
            w.cleargrad()
            y = cf.sum(cf.relu(cf.linear(x, w)) * x + x)
            y.backward()
        return run, 5

    def mlp(self, batch, width, depth):
        chainer = self.chainer
        cf = chainer.functions
        x, weights, biases = _mlp_arrays(batch, width, depth)
        params = [(chainer.Variable(w), chainer.Variable(b)) for w, b in zip(weights, biases)]

        def run():
            for w, b in params:
                w.cleargrad()
                b.cleargrad()
            h = x
            for w, b in params:
                h = cf.relu(cf.linear(h, w, b))
            cf.sum(h).backward()
        return run


def _peers():
    peers = []
    for cls in (Torch, Chainer):
        try:
            peers.append(cls())
        except ImportError:
            print(f'{cls.name} is not installed: not compared')
    return peers


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args(argv)
    ours = Ours()
    peers = _peers()

    rows = []
    run, n_ops = ours.small_ops()
    per_op = _best_of(run, args.repeat, 2000) / n_ops
    rows.append(('fwd+bwd per op, 4x4 arrays', per_op,
                 [_best_of(p.small_ops()[0], args.repeat, 2000) / n_ops for p in peers]))
    for batch, width, depth in ((64, 1024, 4), (256, 256, 8)):
        label = f'MLP fwd+bwd, batch {batch}, {depth}x{width}'
        ours_t = _best_of(ours.mlp(batch, width, depth), args.repeat, 20)
        rows.append((label, ours_t,
                     [_best_of(p.mlp(batch, width, depth), args.repeat, 20) for p in peers]))

    header = f'{"benchmark":<38}{"ours":>12}' + ''.join(
        f'{p.name:>12}{"ratio":>8}' for p in peers)
    print(header)
    for label, ours_t, peer_ts in rows:
        line = f'{label:<38}{ours_t * 1e6:>10.1f}us'
        for t in peer_ts:
            line += f'{t * 1e6:>10.1f}us{t / ours_t:>8.2f}'
        print(line)


if __name__ == '__main__':
    main()
