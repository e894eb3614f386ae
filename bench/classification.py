"""ResNet-50 of the zoo beside PyTorch's and Chainer's: inference at batch 1 and 8, and one
training step.

Ours is :class:`vision.models.ResNet50` (arch ``'fb'``, random weights) run with ``train``
off and without backpropagation, eagerly and compiled by :func:`framework.graph.compile`
(the ``static graph`` rows, compared with the peers' eager inference; on a GPU it replays as
a CUDA graph, and the ``op by op`` rows run it without that); the training step
is a forward in training mode (batch statistics), softmax cross entropy, backward and a
:class:`~framework.optimizers.MomentumSGD` update. PyTorch's is torchvision's ResNet-50
when torchvision is installed, else the same network built from ``torch.nn`` here (ResNet
v1.5: stride on the 3x3 convolutions), with ``torch.optim.SGD(momentum=0.9)``. Chainer's is
``chainer.links.ResNet50Layers`` (random weights; the stride on the 1x1 convolutions) with
``chainer.optimizers.MomentumSGD``. Inputs are 224x224.

::

    python bench/classification.py [--batch 1 8] [--train-batch 8] [--repeat 3]
    python bench/classification.py --torch-python /venv/bin/python --chainer-python /cv/bin/python
    python bench/classification.py --device @cupy:0 --batch 1 32 --train-batch 32

On a GPU (``--device @cupy:0``) PyTorch runs on CUDA (the same GPU) and Chainer is left out;
each timed run ends with the device's synchronization. Our convolutions go to cuDNN where it
is installed; ``--use-cudnn never`` keeps them on our own kernels, ``--cudnn-tensor-core
always`` lets single precision use TF32 tensor cores, as PyTorch's cuDNN convolutions do by
default (``framework.config``'s entries of the same names).

Each peer runs in a child process, before ours (in one process, the OpenMP threads that torch
leaves spinning slow NumPy's BLAS threads down tenfold): this interpreter when it can import
the peer, else the one given (which needs only the peer); a peer found nowhere is left out.
Times are the best of ``--repeat`` runs after a warm-up; a ratio is the peer's time / ours
(above 1: we are faster).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys

import harness
import numpy

_STATIC = ', static graph'
#: On a GPU, the static graph also without its replay as a CUDA graph.
_OP_BY_OP = ', op by op'


def _data(batch: int):
    rng = numpy.random.RandomState(batch)
    x = rng.uniform(-1, 1, (batch, 3, 224, 224)).astype(numpy.float32)
    t = rng.randint(0, 1000, batch).astype(numpy.int32)
    return x, t


def bench_ours(batches: list[int], train_batch: int, repeat: int,
               device_spec: str = '@numpy') -> dict[str, float]:
    import framework
    import framework.functions as F
    import framework.graph
    from framework import backend, optimizers
    from vision.models import ResNet50

    device = backend.get_device(device_spec)
    sync = harness.device_sync(device)
    model = ResNet50(arch='fb')
    model.to_device(device)
    times = {}
    for batch in batches:
        x = device.send(_data(batch)[0])

        def infer(x=x):
            with framework.using_config('train', False), framework.no_backprop_mode():
                model(x)
        times[f'inference, batch {batch}'] = harness.best_of(infer, repeat, sync)[0]
    compiled = framework.graph.compile(model)
    op_by_op = framework.graph.compile(model)
    for batch in batches:
        x = device.send(_data(batch)[0])
        times[f'inference, batch {batch}{_STATIC}'] = harness.best_of(
            lambda x=x: compiled(x), repeat, sync)[0]
        if device.xp is not numpy:
            with framework.using_config('use_cuda_graph', False):
                times[f'inference, batch {batch}{_STATIC}{_OP_BY_OP}'] = harness.best_of(
                    lambda x=x: op_by_op(x), repeat, sync)[0]
    model.pick = 'fc6'
    optimizer = optimizers.MomentumSGD(lr=0.01, momentum=0.9)
    optimizer.setup(model)
    x, t = device.send(_data(train_batch))

    def step():
        with framework.using_config('train', True):
            loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
    times[f'training step, batch {train_batch}'] = harness.best_of(step, repeat, sync)[0]
    return times


def _torch_resnet50(torch):
    """torchvision's ResNet-50, or the same network from torch.nn."""
    if importlib.util.find_spec('torchvision') is not None:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import torchvision_cpu_nms
        torchvision_cpu_nms.install()  # PyPI's torchvision is a CUDA build: its ops may not load
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


def bench_torch(batches: list[int], train_batch: int, repeat: int,
                device_spec: str = '@numpy') -> dict[str, float]:
    import torch

    device, sync = harness.torch_device(torch, device_spec)
    model = _torch_resnet50(torch).to(device)
    times = {}
    model.eval()
    for batch in batches:
        x = torch.from_numpy(_data(batch)[0]).to(device)

        def infer(x=x):
            with torch.no_grad():
                model(x)
        times[f'inference, batch {batch}'] = harness.best_of(infer, repeat, sync)[0]
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, t = (torch.from_numpy(a).to(device) for a in _data(train_batch))
    t = t.long()

    def step():
        loss = torch.nn.functional.cross_entropy(model(x), t)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    times[f'training step, batch {train_batch}'] = harness.best_of(step, repeat, sync)[0]
    return times


def bench_chainer(batches: list[int], train_batch: int, repeat: int,
                  device_spec: str = '@numpy') -> dict[str, float]:
    import chainer
    import chainer.functions as CF

    model = chainer.links.ResNet50Layers(pretrained_model=None)
    times = {}
    for batch in batches:
        x = _data(batch)[0]

        def infer(x=x):
            with chainer.using_config('train', False), chainer.no_backprop_mode():
                model(x, layers=['prob'])
        times[f'inference, batch {batch}'] = harness.best_of(infer, repeat)[0]
    optimizer = chainer.optimizers.MomentumSGD(lr=0.01, momentum=0.9)
    optimizer.setup(model)
    x, t = _data(train_batch)

    def step():
        with chainer.using_config('train', True):
            loss = CF.softmax_cross_entropy(model(x, layers=['fc6'])['fc6'], t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
    times[f'training step, batch {train_batch}'] = harness.best_of(step, repeat)[0]
    return times


_PEERS = {'pytorch': ('torch', bench_torch), 'chainer': ('chainer', bench_chainer)}


def _run_peer(name: str, python: str | None, settings) -> dict[str, float] | None:
    """The peer's times, measured in a child process; None when no interpreter has it."""
    module = _PEERS[name][0]
    python = sys.executable if importlib.util.find_spec(module) else python
    if not python:
        print(f'{module} is not installed (see --{module}-python): {name} left out')
        return None
    batches, train_batch, repeat, device = settings
    command = [python, __file__, '--peer-only', name, '--batch', *map(str, batches),
               '--train-batch', str(train_batch), '--repeat', str(repeat), '--device', device]
    return json.loads(subprocess.run(command, check=True, capture_output=True,
                                     text=True).stdout)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--batch', type=int, nargs='+', default=[1, 8])
    parser.add_argument('--train-batch', type=int, default=8)
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--device', default='@numpy',
                        help="where ours and PyTorch run: '@numpy' or '@cupy:N'")
    parser.add_argument('--torch-python', help='an interpreter with torch, if this one has none')
    parser.add_argument('--chainer-python',
                        help='an interpreter with chainer, if this one has none')
    parser.add_argument('--use-cudnn', choices=('always', 'auto', 'never'), default='auto')
    parser.add_argument('--cudnn-tensor-core', choices=('always', 'auto', 'never'),
                        default='auto')
    parser.add_argument('--peer-only', choices=sorted(_PEERS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    settings = (args.batch, args.train_batch, args.repeat, args.device)
    if args.peer_only:
        print(json.dumps(_PEERS[args.peer_only][1](*settings)))
        return
    import framework
    framework.global_config.use_cudnn = args.use_cudnn
    framework.global_config.use_cudnn_tensor_core = args.cudnn_tensor_core
    peers = {name: _run_peer(name, getattr(args, f'{module}_python'), settings)
             for name, (module, _) in _PEERS.items()
             if args.device == '@numpy' or name == 'pytorch'}
    peers = {name: times for name, times in peers.items() if times is not None}
    ours = bench_ours(*settings)
    print(f'{"ResNet-50, 224x224, " + args.device:<44}{"ours":>12}'
          + ''.join(f'{name:>12}{"ratio":>8}' for name in peers))
    for name, seconds in ours.items():
        peer_name = name.removesuffix(_OP_BY_OP).removesuffix(_STATIC)
        print(f'{name:<44}{seconds * 1e3:>10.1f}ms' + ''.join(
            f'{times[peer_name] * 1e3:>10.1f}ms{times[peer_name] / seconds:>8.2f}'
            for times in peers.values()))


if __name__ == '__main__':
    main()
