"""Storage pool benchmark: what pooled workspace saves on a ResNet-50 training step.

A training step (forward with batch statistics, softmax cross entropy, backward) of ResNet-50
built from framework functions, with bench/resnet50.py's random weights, timed in two modes:
``pool``, the CPU memory pool as it is (the convolutions' column matrices reuse cached
blocks), and ``no pool``, the pool's cache disabled (``set_limit(0)``: every column matrix is
fresh memory from the system, as plain ``numpy.empty`` would give). Each mode runs in fresh
processes, alternating, so that neither inherits the other's heap; a process makes one step to
fill the pool, then times ``--steps`` steps. Page faults are the minor faults of the process
(``ru_minflt``) during a step::

    python bench/memory.py [--batch 8] [--steps 2] [--rounds 2]

The time is the best step over all rounds; faults, hits and misses are medians per step.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time

import numpy
from resnet50 import make_weights

import framework
import framework.functions as F
from framework import memory


def _variables(weights):
    """The weights as Variables (running statistics stay arrays, updated in place)."""
    if isinstance(weights, dict):
        return {k: v if k in ('mean', 'var', 'stride') else _variables(v)
                for k, v in weights.items()}
    if isinstance(weights, list):
        return [_variables(w) for w in weights]
    return framework.Variable(weights)


def _params(tree):
    if isinstance(tree, dict):
        for value in tree.values():
            yield from _params(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _params(value)
    elif isinstance(tree, framework.Variable):
        yield tree


def _bn(h, p):
    return F.batch_normalization(h, p['gamma'], p['beta'], eps=1e-5, running_mean=p['mean'],
                                 running_var=p['var'])


def train_step(params, x, t):
    """One forward and backward pass; the gradients are left in ``params``."""
    for p in _params(params):
        p.cleargrad()
    h = F.relu(_bn(F.convolution_2d(x, params['conv1'], stride=2, pad=3), params['bn1']))
    h = F.max_pooling_2d(h, 3, stride=2, pad=1, cover_all=False)
    for blocks in params['stages']:
        for b in blocks:
            u = F.relu(_bn(F.convolution_2d(h, b['conv1']), b['bn1']))
            u = F.relu(_bn(F.convolution_2d(u, b['conv2'], stride=b['stride'], pad=1), b['bn2']))
            u = _bn(F.convolution_2d(u, b['conv3']), b['bn3'])
            if 'down' in b:
                h = _bn(F.convolution_2d(h, b['down'], stride=b['stride']), b['down_bn'])
            h = F.relu(u + h)
    h = F.average_pooling_2d(h, h.shape[2:])
    logits = F.linear(F.reshape(h, (h.shape[0], -1)), params['fc_W'], params['fc_b'])
    loss = F.softmax_cross_entropy(logits, t)
    loss.backward()
    return float(loss.array)


def _measure(params, x, t, steps):
    """(seconds, minor page faults) of each step."""
    results = []
    for _ in range(steps):
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        start = time.perf_counter()
        train_step(params, x, t)
        elapsed = time.perf_counter() - start
        results.append((elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults))
    return results


def _run_mode(mode: str, batch: int, steps: int) -> dict:
    """Times ``steps`` steps in this process with the pool in ``mode``."""
    params = _variables(make_weights())
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (batch, 3, 224, 224)).astype(numpy.float32)
    t = rng.randint(0, 1000, batch).astype(numpy.int32)
    pool = memory.get_pool()
    pool.set_limit(0 if mode == 'no pool' else None)
    train_step(params, x, t)
    hits, misses = pool.n_hits, pool.n_misses
    results = _measure(params, x, t, steps)
    return {'seconds': [r[0] for r in results], 'faults': [r[1] for r in results],
            'hits': (pool.n_hits - hits) / steps, 'misses': (pool.n_misses - misses) / steps,
            'cached': pool.free_bytes()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--batch', type=int, default=8)
    parser.add_argument('--steps', type=int, default=2)
    parser.add_argument('--rounds', type=int, default=2)
    parser.add_argument('--mode', choices=['pool', 'no pool'], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.mode is not None:
        print(json.dumps(_run_mode(args.mode, args.batch, args.steps)))
        return
    runs: dict[str, list[dict]] = {'no pool': [], 'pool': []}
    for _ in range(args.rounds):
        for mode in runs:
            out = subprocess.run([sys.executable, __file__, '--mode', mode, '--batch',
                                  str(args.batch), '--steps', str(args.steps)],
                                 check=True, capture_output=True, text=True).stdout
            runs[mode].append(json.loads(out.splitlines()[-1]))
    print(f'ResNet-50 training step, batch {args.batch}: {args.rounds} processes x '
          f'{args.steps} steps per mode')
    print(f'{"":<10}{"best":>10}{"faults":>10}{"hits":>8}{"misses":>8}{"cached":>10}')
    for mode, results in runs.items():
        seconds = min(s for r in results for s in r['seconds'])
        faults = statistics.median(f for r in results for f in r['faults'])
        print(f'{mode:<10}{seconds * 1e3:>8.0f}ms{faults:>10.0f}{results[0]["hits"]:>8.0f}'
              f'{results[0]["misses"]:>8.0f}{results[0]["cached"] / 2 ** 20:>8.0f}MB')


if __name__ == '__main__':
    main()
