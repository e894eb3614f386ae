"""ResNet-50 of the zoo beside PyTorch's: inference at batch 1 and 8, and one training step.

Ours is :class:`vision.models.ResNet50` (arch ``'fb'``, random weights) run with ``train``
off and without backpropagation; the training step is a forward in training mode (batch
statistics), softmax cross entropy, backward and a :class:`~framework.optimizers.MomentumSGD`
update. PyTorch's is torchvision's ResNet-50 when torchvision is installed, else the same
network built from ``torch.nn`` here (ResNet v1.5: stride on the 3x3 convolutions), with
``torch.optim.SGD(momentum=0.9)``. Inputs are 224x224.

::

    python bench/classification.py [--batch 1 8] [--train-batch 8] [--repeat 3]
    python bench/classification.py --torch-python /path/to/venv/bin/python

PyTorch's half runs in a child process, before ours (in one process, the OpenMP threads that
torch leaves spinning slow NumPy's BLAS threads down tenfold): this interpreter when it can
import torch, else ``--torch-python`` (which needs only torch); without either, ours is timed
alone. Times are the best
of ``--repeat`` runs after a warm-up; the ratio is PyTorch's time / ours (above 1: we are
faster).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time

import numpy


def _best_of(fn, repeat: int) -> float:
    fn()
    best = float('inf')
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _data(batch: int):
    rng = numpy.random.RandomState(batch)
    x = rng.uniform(-1, 1, (batch, 3, 224, 224)).astype(numpy.float32)
    t = rng.randint(0, 1000, batch).astype(numpy.int32)
    return x, t


def bench_ours(batches: list[int], train_batch: int, repeat: int) -> dict[str, float]:
    import framework
    import framework.functions as F
    from framework import optimizers
    from vision.models import ResNet50

    model = ResNet50(arch='fb')
    times = {}
    for batch in batches:
        x, _ = _data(batch)

        def infer(x=x):
            with framework.using_config('train', False), framework.no_backprop_mode():
                model(x)
        times[f'inference, batch {batch}'] = _best_of(infer, repeat)
    model.pick = 'fc6'
    optimizer = optimizers.MomentumSGD(lr=0.01, momentum=0.9)
    optimizer.setup(model)
    x, t = _data(train_batch)

    def step():
        with framework.using_config('train', True):
            loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
    times[f'training step, batch {train_batch}'] = _best_of(step, repeat)
    return times


def _torch_resnet50(torch):
    """torchvision's ResNet-50, or the same network from torch.nn."""
    if importlib.util.find_spec('torchvision') is not None:
        import torchvision
        return torchvision.models.resnet50()
    nn = torch.nn

    def conv_bn(c_in, c_out, k, stride=1, relu=True):
        layers = [nn.Conv2d(c_in, c_out, k, stride, k // 2, bias=False), nn.BatchNorm2d(c_out)]
        return nn.Sequential(*layers, *([nn.ReLU(inplace=True)] if relu else []))

    class Bottleneck(nn.Module):
        def __init__(self, c_in, mid, stride):
            super().__init__()
            self.branch = nn.Sequential(conv_bn(c_in, mid, 1), conv_bn(mid, mid, 3, stride),
                                        conv_bn(mid, mid * 4, 1, relu=False))
            self.shortcut = (conv_bn(c_in, mid * 4, 1, stride, relu=False)
                             if stride != 1 or c_in != mid * 4 else nn.Identity())

        def forward(self, x):
            return torch.relu(self.branch(x) + self.shortcut(x))

    layers, c_in = [conv_bn(3, 64, 7, 2), nn.MaxPool2d(3, 2, 1)], 64
    for mid, n, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(n):
            layers.append(Bottleneck(c_in, mid, stride if i == 0 else 1))
            c_in = mid * 4
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000))


def bench_torch(batches: list[int], train_batch: int, repeat: int) -> dict[str, float]:
    import torch

    model = _torch_resnet50(torch)
    times = {}
    model.eval()
    for batch in batches:
        x = torch.from_numpy(_data(batch)[0])

        def infer(x=x):
            with torch.no_grad():
                model(x)
        times[f'inference, batch {batch}'] = _best_of(infer, repeat)
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, t = (torch.from_numpy(a) for a in _data(train_batch))
    t = t.long()

    def step():
        loss = torch.nn.functional.cross_entropy(model(x), t)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    times[f'training step, batch {train_batch}'] = _best_of(step, repeat)
    return times


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--batch', type=int, nargs='+', default=[1, 8])
    parser.add_argument('--train-batch', type=int, default=8)
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--torch-python', help='an interpreter with torch, if this one has none')
    parser.add_argument('--torch-only', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    settings = (args.batch, args.train_batch, args.repeat)
    if args.torch_only:
        print(json.dumps(bench_torch(*settings)))
        return
    theirs, label = None, 'pytorch'
    torch_python = sys.executable if importlib.util.find_spec('torch') else args.torch_python
    if torch_python:
        command = [torch_python, __file__, '--torch-only', '--batch',
                   *map(str, args.batch), '--train-batch', str(args.train_batch),
                   '--repeat', str(args.repeat)]
        theirs = json.loads(subprocess.run(command, check=True, capture_output=True,
                                           text=True).stdout)
    else:
        print('torch is not installed (see --torch-python): ours alone')
    ours = bench_ours(*settings)
    header = f'{"ResNet-50, 224x224":<28}{"ours":>12}'
    print(header + (f'{label:>12}{"ratio":>8}' if theirs else ''))
    for name, seconds in ours.items():
        line = f'{name:<28}{seconds * 1e3:>10.1f}ms'
        if theirs:
            line += f'{theirs[name] * 1e3:>10.1f}ms{theirs[name] / seconds:>8.2f}'
        print(line)


if __name__ == '__main__':
    main()
