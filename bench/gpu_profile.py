"""Where ResNet-50's time goes on a GPU: the kernels (their GPU time, by name) and the host.

For each case (eager inference at batch 1, the static graph at batch 1 and at ``--batch``, a
training step at ``--batch``) it prints the wall time of a call, the GPU time of the kernels
the call launched (summed, and as a share of the wall time: a low share means the GPU waits
for the host), the kernels that took the most GPU time, and the host functions that took the
most time (cProfile, by own time). The kernels' times come from CUPTI through PyTorch's
profiler, which records every kernel the process launches, CuPy's included (PyTorch serves
here as a profiler only, and is needed only for the kernel tables)::

    python bench/gpu_profile.py [--device @cupy:0] [--batch 32] [--calls 5]

``CUPY_TF32=1`` in the environment lets CuPy's matrix products use TF32 tensor cores (as
PyTorch's convolutions do by default through cuDNN).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import pstats
import time

import harness
import numpy


def _cases(device, batch: int):
    import framework
    import framework.functions as F
    import framework.graph
    from framework import optimizers
    from vision.models import ResNet50

    model = ResNet50(arch='fb')
    model.to_device(device)
    rng = numpy.random.RandomState(0)
    x1 = device.send(rng.uniform(-1, 1, (1, 3, 224, 224)).astype(numpy.float32))
    xb = device.send(rng.uniform(-1, 1, (batch, 3, 224, 224)).astype(numpy.float32))
    t = device.send(rng.randint(0, 1000, batch).astype(numpy.int32))

    def eager():
        with framework.using_config('train', False), framework.no_backprop_mode():
            model(x1)
    compiled = framework.graph.compile(model)
    train_model = ResNet50(arch='fb')
    train_model.to_device(device)
    train_model.pick = 'fc6'
    optimizer = optimizers.MomentumSGD(lr=0.01, momentum=0.9)
    optimizer.setup(train_model)

    def step():
        with framework.using_config('train', True):
            loss = F.softmax_cross_entropy(train_model(xb), t)
        train_model.cleargrads()
        loss.backward()
        optimizer.update()
    return {'eager inference, batch 1': eager,
            'static graph, batch 1': lambda: compiled(x1),
            f'static graph, batch {batch}': lambda: compiled(xb),
            f'training step, batch {batch}': step}


def _kernel_table(fn, sync, calls: int) -> tuple[float, str]:
    """The kernels' GPU time per call (seconds) and a table of the heaviest, through PyTorch's
    profiler; (nan, why) without PyTorch."""
    if importlib.util.find_spec('torch') is None:
        return float('nan'), 'PyTorch is not installed: no kernel table'
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        sync()
    averages = prof.key_averages()
    total = sum(event.self_device_time_total for event in averages) * 1e-6 / calls
    lines = sorted(((event.self_device_time_total / calls, event.count // calls, event.key)
                    for event in averages), reverse=True)[:12]
    table = '\n'.join(f'    {us / 1e3:8.2f} ms {count:5d}x  {key[:90]}' for us, count, key in lines)
    return total, table


def _host_table(fn, sync, calls: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        fn()
    sync()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats('tottime').print_stats(12)
    return '\n'.join(line for line in out.getvalue().splitlines()[6:] if line.strip())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--device', default='@cupy:0')
    parser.add_argument('--batch', type=int, default=32)
    parser.add_argument('--calls', type=int, default=5)
    args = parser.parse_args(argv)
    from framework import backend

    device = backend.get_device(args.device)
    sync = harness.device_sync(device) or (lambda: None)
    for name, fn in _cases(device, args.batch).items():
        fn()
        fn()
        sync()
        start = time.perf_counter()
        for _ in range(args.calls):
            fn()
        sync()
        wall = (time.perf_counter() - start) / args.calls
        gpu, table = _kernel_table(fn, sync, args.calls)
        print(f'== {name}: {wall * 1e3:.2f} ms a call, kernels {gpu * 1e3:.2f} ms '
              f'({gpu / wall:.0%} of it)')
        print(table)
        print('  host (cProfile, own time):')
        print(_host_table(fn, sync, args.calls))


if __name__ == '__main__':
    main()
