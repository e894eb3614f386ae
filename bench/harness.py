"""What the benchmarks beside a peer share: the best time of a few calls, the cores, the BLAS
kernel NumPy runs, a peer's times measured by a child process, and the convolutions they time
one by one.

A benchmark runs its peer in a child process, before its own measurements (in one process, the
OpenMP threads that torch leaves spinning slow NumPy's BLAS threads down): the child runs the
same script with its own arguments and prints a JSON object. This module imports only the
standard library (NumPy when asked for the BLAS), so a peer's interpreter, which has no
``framework`` nor ``vision``, imports it too.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import subprocess
import sys
import time

#: the variables that force an OpenBLAS kernel: published figures are taken with them unset
FORCING_VARIABLES = ('OPENBLAS_CORETYPE', 'OPENBLAS_L2_SIZE')

#: Some of ResNet-50's convolutions (224x224 input): label, in channels, size, out channels,
#: kernel, stride, pad.
RESNET50_CONVOLUTIONS = [
    ('7x7/2 3->64 @224', 3, 224, 64, 7, 2, 3),
    ('3x3 64->64 @56', 64, 56, 64, 3, 1, 1),
    ('1x1 64->256 @56', 64, 56, 256, 1, 1, 0),
    ('1x1/2 256->512 @56', 256, 56, 512, 1, 2, 0),
    ('3x3 128->128 @28', 128, 28, 128, 3, 1, 1),
    ('3x3 256->256 @14', 256, 14, 256, 3, 1, 1),
]


def best_of(fn, repeat: int, sync=None) -> tuple[float, object, int]:
    """The best time of ``repeat`` calls after a warm-up, the warm-up's result, which call;
    ``sync()``, when given, ends each call (it waits for a GPU's work)."""
    sync = sync or (lambda: None)
    result = fn()
    sync()
    best, which = float('inf'), 0
    for i in range(repeat):
        start = time.perf_counter()
        fn()
        sync()
        seconds = time.perf_counter() - start
        if seconds < best:
            best, which = seconds, i
    return best, result, which


def device_sync(device):
    """What waits for the work queued on ``device`` (a framework Device): its synchronization
    on a GPU, None on the host (and on any device without a ``device_id``)."""
    if not hasattr(device, 'device_id'):
        return None
    return device.xp.cuda.Device(device.device_id).synchronize


def torch_device(torch, device_spec: str):
    """PyTorch's device for a framework device name (``'@numpy'`` or ``'@cupy:N'``) and what
    waits for its work (None on the CPU)."""
    if device_spec == '@numpy':
        return torch.device('cpu'), None
    device = torch.device(f'cuda:{device_spec.rpartition(":")[2]}')
    return device, lambda: torch.cuda.synchronize(device)


def add_peer_options(parser) -> None:
    """Adds the options of a benchmark beside torchvision and ChainerCV: ``--threads`` (torch's
    threads), ``--torch-python`` and ``--chainer-python`` (the peers' interpreters)."""
    parser.add_argument('--threads', type=int, default=cores(),
                        help="torch's threads (default: the cores this process may use)")
    parser.add_argument('--torch-python',
                        help='an interpreter with torch and torchvision, if this one has none')
    parser.add_argument('--chainer-python',
                        help='an interpreter with chainer and chainercv, if this one has none')


def cores() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()


def blas_kernel() -> str:
    """The BLAS NumPy runs in this process: library, kernel and threads."""
    try:
        import threadpoolctl
    except ImportError:
        return 'unknown (pip install threadpoolctl to see it)'
    import numpy  # noqa: F401  (loads the BLAS that threadpoolctl then finds)

    found = [f"{i.get('internal_api')} {i.get('version')}, kernel {i.get('architecture')}, "
             f"{i.get('num_threads')} threads"
             for i in threadpoolctl.threadpool_info() if i.get('user_api') == 'blas']
    return '; '.join(found) or 'none found'


def print_blas() -> None:
    """Prints the BLAS kernel of this process and warns of a forced kernel."""
    print(f'BLAS (ours): {blas_kernel()}')
    for name in FORCING_VARIABLES:
        if os.environ.get(name):
            print(f'warning: {name}={os.environ[name]} forces an OpenBLAS kernel; unset it '
                  'for published figures')


def peak_rss() -> int:
    """The peak resident memory of this process so far, in bytes (``ru_maxrss``: KiB on
    Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == 'darwin' else peak * 1024


def print_memory(found: dict) -> None:
    """A row for each process of ``found`` (name -> ``{'before', 'after'[, 'pool']}``, in
    bytes): its peak resident memory before and after the call measured, and the framework's
    memory pool where given."""
    width = max(12, *(len(name) + 1 for name in found))
    print(f'{"":<{width}}{"before":>10}{"after":>10}{"pool":>10}')
    for name, row in found.items():
        pool = f'{row["pool"] / 2 ** 20:>8.0f}MB' if 'pool' in row else f'{"-":>10}'
        print(f'{name:<{width}}{row["before"] / 2 ** 20:>8.0f}MB{row["after"] / 2 ** 20:>8.0f}MB'
              + pool)


def run_child(python: str, argv: list[str], path: str | None = None):
    """What a child process ``python argv...`` prints, as JSON; its errors go to ours.
    ``path``: a folder put first on the child's ``PYTHONPATH``."""
    env = None
    if path:
        env = {**os.environ, 'PYTHONPATH': os.pathsep.join(
            filter(None, (path, os.environ.get('PYTHONPATH'))))}
    return json.loads(subprocess.run([python, *argv], check=True, stdout=subprocess.PIPE,
                                     text=True, env=env).stdout)


def peer_python(name: str, module: str, option: str, given: str | None) -> str | None:
    """The interpreter for the peer ``name``, which needs ``module``: this one when it can
    import it, else ``given`` (the value of the option ``option``, e.g. ``'torch_python'``);
    None, with a message, when there is neither."""
    python = sys.executable if importlib.util.find_spec(module) else given
    if not python:
        print(f"{name}: not installed ({module} is not importable here; see "
              f"--{option.replace('_', '-')}), left out")
    return python


def about_chainercv() -> str:
    """ChainerCV's, Chainer's and NumPy's versions and NumPy's BLAS, in a peer's process."""
    import chainer
    import chainercv
    import numpy

    return (f'ChainerCV {chainercv.__version__} on Chainer {chainer.__version__}, its NumPy '
            f'{numpy.__version__} with {blas_kernel()}')


def about_torch() -> str:
    """torchvision's and torch's versions, torch's threads and CPU capability, in a peer's
    process."""
    import torch
    import torchvision

    capability = getattr(getattr(torch.backends, 'cpu', None), 'get_cpu_capability', None)
    return (f'torchvision {torchvision.__version__} on torch {torch.__version__} '
            f'({torch.get_num_threads()} threads' + (f', {capability()}' if capability else '')
            + ')')
