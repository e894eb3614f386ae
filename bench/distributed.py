"""Data-parallel training over MPI on this machine: throughput, all-reduce bandwidth, overlap.

For each model, the training step (forward, backward, gradients averaged, MomentumSGD update)
of the same global batch runs three ways, each in a fresh job:

- ``1 process``: one process with the whole batch and two BLAS threads (no communication);
- ``2 processes``: ``mpiexec -n 2``, half the batch and one BLAS thread each, the gradients
  averaged by :func:`~framework.distributed.create_multi_node_optimizer` in buckets that
  overlap the backward pass (its default);
- ``2 processes, no buckets``: the same with ``bucket_size=None``: one all-reduce of every
  gradient after the backward pass.

The models are ResNet-50 (``resnet50``, the zoo's, compute bound) and ``mlp``, six 2048x2048
linear layers on a batch of a few vectors: 100 MB of gradients for almost no computation,
bound by the all-reduce. For each two-process run the table gives the time of the all-reduces
per step, and the share of it hidden behind the backward pass (the time buckets spent
all-reducing while backprop was still running, over their total); the timeline of the last
step follows. The bandwidth line compares the communicator's ``multi_node_mean_grad`` of the
model's gradients (``flat``: packed into one buffer, all-reduced, unpacked) with MPI's own
``MPI_Allreduce`` of a buffer of the same size, measured in the same job: algorithm bandwidth,
bytes / time.

::

    python bench/distributed.py [--model resnet50 mlp] [--batchsize 8] [--steps 3]

Times are the median of ``--steps`` steps after one warm-up step; take published figures
with ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` unset in the command.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy
from harness import print_blas

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ('resnet50', 'mlp')
RUNS = (('1 process', 1, 'buckets'), ('2 processes', 2, 'buckets'),
        ('2 processes, no buckets', 2, 'none'))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--model', nargs='+', choices=MODELS, default=list(MODELS))
    parser.add_argument('--batchsize', type=int, default=8,
                        help='the global batch of a step (ResNet-50; mlp takes 4)')
    parser.add_argument('--size', type=int, default=224, help="ResNet-50's image side")
    parser.add_argument('--steps', type=int, default=3)
    parser.add_argument('--worker', nargs=2, metavar=('MODEL', 'BUCKETS'),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args, *args.worker)
        return
    print_blas()
    print(f'mpiexec: {_mpiexec()}')
    for model in args.model:
        results = [(name, _job(args, model, n, buckets)) for name, n, buckets in RUNS]
        _report(model, results)


def _mpiexec() -> str:
    """The mpiexec next to this interpreter (the mpich wheel of the ``dist`` extra), or on the
    PATH; exits with a line naming the extra when there is none."""
    from framework.testing.mpi import mpiexec
    found = mpiexec()
    if found is None:
        sys.exit("bench/distributed.py: no mpiexec next to this Python nor on the PATH; "
                 "pip install '.[dist]' installs mpi4py and the mpich wheel, whose mpiexec "
                 "lands next to python")
    return found


def _job(args, model: str, n: int, buckets: str) -> dict:
    """Runs one worker job and returns what its rank 0 printed."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(2 // n), OMP_NUM_THREADS=str(2 // n),
               PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, 'bench')]))
    command = [sys.executable, os.path.abspath(__file__), '--worker', model, buckets,
               '--batchsize', str(args.batchsize), '--size', str(args.size),
               '--steps', str(args.steps)]
    if n > 1:
        command = [_mpiexec(), '-n', str(n), *command]
    out = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True, env=env,
                         cwd=ROOT).stdout
    return json.loads(out.strip().splitlines()[-1])


def _report(model: str, results: list) -> None:
    alone = results[0][1]['step']
    print(f'\n{model}: global batch {results[0][1]["batch"]}, '
          f'{results[0][1]["grad_mb"]:.1f} MB of gradients')
    print(f'{"run":<26}{"step":>10}{"items/s":>10}{"speed-up":>10}{"all-reduce":>12}'
          f'{"hidden":>9}')
    for name, result in results:
        allreduce = result.get('allreduce')
        print(f'{name:<26}{1e3 * result["step"]:>8.0f}ms{result["batch"] / result["step"]:>10.1f}'
              f'{alone / result["step"]:>10.2f}'
              + (f'{1e3 * allreduce:>10.0f}ms{100 * result["hidden"]:>8.0f}%'
                 if allreduce is not None else f'{"-":>12}{"-":>9}'))
    bucketed = results[1][1]
    print(f'bandwidth of the gradients\' all-reduce (2 processes): ours '
          f'{bucketed["ours_gbs"]:.2f} GB/s, MPI_Allreduce {bucketed["mpi_gbs"]:.2f} GB/s, '
          f'ratio {bucketed["ours_gbs"] / bucketed["mpi_gbs"]:.2f}')
    print('timeline of the last bucketed step (ms from the start of backward):')
    print(f'  backward ends at {bucketed["timeline"]["backward_end"]:.0f}')
    for i, (start, end) in enumerate(bucketed['timeline']['buckets']):
        print(f'  bucket {i}: all-reduce {start:.0f} .. {end:.0f}')


# The worker: one process of a job.

def _worker(args, model_name: str, buckets: str) -> None:
    import framework.functions as F
    from framework import _backprop, distributed, optimizers

    comm = distributed.create_communicator('flat')
    model, x, t = _model_and_batch(model_name, args, comm.size, comm.rank)
    optimizer = distributed.create_multi_node_optimizer(
        optimizers.MomentumSGD(lr=1e-3), comm,
        bucket_size=None if buckets == 'none' else distributed.multi_node_optimizer.BUCKET_SIZE)
    optimizer.setup(model)

    def lossfun(x, t):
        return F.softmax_cross_entropy(model(x), t)

    optimizer.update(lossfun, x, t)  # warm-up; initialises lazy parameters and buckets
    events = _instrument(_backprop, optimizer, comm)
    steps, allreduce, hidden, timeline = [], [], [], None
    for _ in range(args.steps):
        events.clear()
        comm.mpi_comm.Barrier()
        start = time.perf_counter()
        optimizer.update(lossfun, x, t)
        steps.append(time.perf_counter() - start)
        if comm.size > 1:
            spent, overlap, timeline = _overlap(events)
            allreduce.append(spent)
            hidden.append(overlap / spent if spent else 0.0)
    result = {'step': statistics.median(steps), 'batch': len(x) * comm.size,
              'grad_mb': sum(p.array.nbytes for p in model.params()) / 1e6}
    if comm.size > 1:
        result.update(allreduce=statistics.median(allreduce), hidden=statistics.median(hidden),
                      timeline=timeline, **_bandwidth(comm, model))
    if comm.rank == 0:
        print(json.dumps(result), flush=True)


def _model_and_batch(name: str, args, n_process: int, rank: int):
    """The model and this process's part of the global batch (the same data on every run)."""
    import framework.links as L
    from vision.models import ResNet50

    random = numpy.random.RandomState(0)
    if name == 'resnet50':
        model = ResNet50(n_class=1000, arch='fb')
        model.pick = 'fc6'
        x = random.uniform(-1, 1, (args.batchsize, 3, args.size, args.size))
        t = random.randint(0, 1000, args.batchsize)
    else:
        model = L.Sequential(*[L.Linear(2048, 2048) for _ in range(6)])
        x = random.uniform(-1, 1, (4, 2048))
        t = random.randint(0, 2048, 4)
    part = len(x) // n_process
    x, t = x[rank * part:(rank + 1) * part], t[rank * part:(rank + 1) * part]
    return model, x.astype(numpy.float32), t.astype(numpy.int32)


def _instrument(backprop_module, optimizer, comm) -> list:
    """Records when backprop runs and when each all-reduce runs, as ``(what, start, end)``."""
    events = []

    def timed(what, fn):
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                events.append((what, start, time.perf_counter()))
        return wrapper

    backprop_module.backward = timed('backward', backprop_module.backward)
    for communicator in (comm, optimizer._bucket_communicator):
        if communicator is not None:
            communicator._mean_arrays = timed('allreduce', communicator._mean_arrays)
    return events


def _overlap(events) -> tuple[float, float, dict]:
    """The all-reduce time of a step, the part of it during backprop, and the timeline."""
    (_, b_start, b_end), = [e for e in events if e[0] == 'backward']
    reduces = [(start, end) for what, start, end in events if what == 'allreduce']
    spent = sum(end - start for start, end in reduces)
    overlap = sum(max(0.0, min(end, b_end) - max(start, b_start)) for start, end in reduces)
    timeline = {'backward_end': 1e3 * (b_end - b_start),
                'buckets': [(1e3 * (s - b_start), 1e3 * (e - b_start)) for s, e in reduces]}
    return spent, overlap, timeline


def _bandwidth(comm, model) -> dict:
    """GB/s of ``multi_node_mean_grad`` of the model and of ``MPI_Allreduce`` of as many
    bytes, each the median of 5 calls."""
    from mpi4py import MPI

    for param in model.params():
        param.grad = numpy.ones_like(param.array)
    nbytes = sum(param.grad.nbytes for param in model.params())
    buffer = numpy.ones(nbytes // 4, numpy.float32)

    def seconds(fn) -> float:
        times = []
        for _ in range(5):
            comm.mpi_comm.Barrier()
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    ours = seconds(lambda: comm.multi_node_mean_grad(model))
    theirs = seconds(lambda: comm.mpi_comm.Allreduce(MPI.IN_PLACE, buffer, op=MPI.SUM))
    return {'ours_gbs': nbytes / ours / 1e9, 'mpi_gbs': nbytes / theirs / 1e9}


if __name__ == '__main__':
    main()
