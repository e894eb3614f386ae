"""Engine benchmark: the threaded engine against the naive one on NumPy work.

Two workloads, each timed for a plain loop, the naive engine and the threaded engine::

    python bench/engine.py [--chains 8] [--steps 16] [--size 1000000] [--repeat 3]

- chains: ``--chains`` independent chains of ``--steps`` functions; each function applies a
  few ufuncs in place to its chain's array (NumPy releases the GIL in their loops) and writes
  its chain's variable, so a chain runs in order and chains may run side by side. The ratio
  is the naive engine's time / the threaded engine's (above 1: threads help).
- overhead: 20000 empty functions on one variable, the cost of a push and its bookkeeping.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy

from framework.engine import NaiveEngine, ThreadedEngine


def _step(a, b):
    numpy.multiply(a, 1.0001, out=b)
    numpy.sin(b, out=b)
    numpy.add(a, b, out=a)
    numpy.sqrt(numpy.abs(a, out=b), out=a)


def _chains(engine, arrays, steps):
    """Runs the chains on ``engine`` (None: a plain loop) and returns the seconds taken."""
    start = time.perf_counter()
    if engine is None:
        for _ in range(steps):
            for a, b in arrays:
                _step(a, b)
        return time.perf_counter() - start
    variables = [engine.new_var() for _ in arrays]
    for _ in range(steps):
        for (a, b), var in zip(arrays, variables):
            engine.push(lambda run_ctx, a=a, b=b: _step(a, b), mutate_vars=(var,))
    engine.wait_for_all()
    return time.perf_counter() - start


def _overhead(engine, n=20000) -> float:
    """Microseconds per empty function pushed and run."""
    var = engine.new_var()
    start = time.perf_counter()
    for _ in range(n):
        engine.push(_nothing, mutate_vars=(var,))
    engine.wait_for_all()
    return (time.perf_counter() - start) / n * 1e6


def _nothing(run_ctx):
    pass


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--chains', type=int, default=8)
    parser.add_argument('--steps', type=int, default=16)
    parser.add_argument('--size', type=int, default=1_000_000)
    parser.add_argument('--repeat', type=int, default=3)
    args = parser.parse_args(argv)
    rng = numpy.random.RandomState(0)
    initial = [rng.uniform(0, 1, args.size) for _ in range(args.chains)]
    engines = {'loop': None, 'naive': NaiveEngine(), 'threaded': ThreadedEngine()}
    results = {}
    for name, engine in engines.items():
        times = []
        for _ in range(args.repeat):
            arrays = [(a.copy(), numpy.empty_like(a)) for a in initial]
            times.append(_chains(engine, arrays, args.steps))
        results[name] = (min(times), arrays)
    for name in ('naive', 'threaded'):
        for (a, _), (b, _) in zip(results['loop'][1], results[name][1]):
            numpy.testing.assert_array_equal(a, b)
    cores = len(os.sched_getaffinity(0))
    print(f'chains: {args.chains} x {args.steps} steps on {args.size} float64, {cores} cores, '
          f'{engines["threaded"].num_cpu_workers} workers')
    for name, (seconds, _) in results.items():
        print(f'{name:<10}{seconds * 1e3:>10.1f} ms')
    print(f'{"ratio":<10}{results["naive"][0] / results["threaded"][0]:>10.2f}  '
          '(naive / threaded)')
    print('overhead per empty function:')
    for name in ('naive', 'threaded'):
        print(f'{name:<10}{min(_overhead(engines[name]) for _ in range(3)):>10.1f} us')
    for engine in engines.values():
        if engine is not None:
            engine.shutdown()


if __name__ == '__main__':
    main()
