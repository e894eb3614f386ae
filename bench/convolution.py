"""One convolution on a GPU, direction by direction, beside PyTorch's: where cuDNN and our own
kernels stand, layer by layer.

For some of ResNet-50's convolutions (``harness.RESNET50_CONVOLUTIONS``) at batch 1 and
``--batch``, the time of the forward pass, the input's gradient (backward data) and the
weight's gradient (backward filter), each the best of ``--repeat`` synchronized calls:

- ``cudnn``: ours through cuDNN in single precision (FMA, ``use_cudnn_tensor_core='auto'``);
- ``tf32``: ours through cuDNN on TF32 tensor cores (``use_cudnn_tensor_core='always'``);
- ``kernels``: ours without cuDNN (``use_cudnn='never'``: im2col and a matrix product);
- ``torch``/``torch tf32``: ``torch.nn.functional.conv2d`` and ``torch.nn.grad`` with
  ``torch.backends.cudnn.allow_tf32`` off and on (on is PyTorch's default);
- ``nhwc``: our forward pass on channels-last data and filters (as static graphs hold them),
  FMA.

A ratio is PyTorch's time / ours (above 1: we are faster), ``cudnn`` against ``torch`` and
``tf32`` against ``torch tf32``. The last rows time a small convolution's calls back to back
without synchronizing: the host's cost of one call. ::

    python bench/convolution.py [--device @cupy:0] [--batch 32] [--repeat 10]
"""

from __future__ import annotations

import argparse
import time

import harness
import numpy


def _ours(device, x, W, stride, pad, mode):
    """The three directions of our convolution in ``mode``, as functions of nothing."""
    import framework
    from framework.functions.connection import _kernels

    settings = {'cudnn': ('auto', 'auto'), 'tf32': ('auto', 'always'),
                'kernels': ('never', 'auto'), 'nhwc': ('auto', 'auto')}[mode]
    if mode == 'nhwc':
        x = device.xp.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
        W = device.xp.ascontiguousarray(W.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    ksize = W.shape[2:]
    y = _kernels.convolve(x, W, stride, pad, (False, False), (1, 1), 1)
    gy = device.xp.ones_like(y)

    def configured(fn):
        def call():
            with framework.using_config('use_cudnn', settings[0]), \
                    framework.using_config('use_cudnn_tensor_core', settings[1]):
                return fn()
        return call
    return {
        'forward': configured(lambda: _kernels.convolve(x, W, stride, pad, (False, False),
                                                        (1, 1), 1)),
        'backward data': configured(lambda: _kernels.deconvolve(gy, W, stride, pad,
                                                                x.shape[2:], (1, 1), 1)),
        'backward filter': configured(lambda: _kernels.convolve_grad_weight(
            x, gy, ksize, stride, pad, (False, False), (1, 1), 1, W.dtype)),
    }


def _torch(x, W, stride, pad, tf32: bool):
    import torch

    x = torch.as_tensor(x.get(), device='cuda')
    W = torch.as_tensor(W.get(), device='cuda')
    y = torch.nn.functional.conv2d(x, W, stride=stride, padding=pad)
    gy = torch.ones_like(y)

    def allowed(fn):
        def call():
            torch.backends.cudnn.allow_tf32 = tf32
            return fn()
        return call
    return {
        'forward': allowed(lambda: torch.nn.functional.conv2d(x, W, stride=stride,
                                                              padding=pad)),
        'backward data': allowed(lambda: torch.nn.grad.conv2d_input(
            x.shape, W, gy, stride=stride, padding=pad)),
        'backward filter': allowed(lambda: torch.nn.grad.conv2d_weight(
            x, W.shape, gy, stride=stride, padding=pad)),
    }


def _host_cost(fn, calls: int, sync) -> float:
    """Seconds of the host per call, calls queued back to back."""
    fn()
    sync()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter() - start
    sync()
    return elapsed / calls


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--device', default='@cupy:0')
    parser.add_argument('--batch', type=int, default=32)
    parser.add_argument('--repeat', type=int, default=10)
    args = parser.parse_args(argv)
    import torch

    from framework import backend
    from framework.cuda import cudnn

    device = backend.get_device(args.device)
    sync = harness.device_sync(device)
    torch_sync = torch.cuda.synchronize
    print(f'cuDNN {cudnn.version()} (ours), {torch.backends.cudnn.version()} (PyTorch '
          f'{torch.__version__}); times in ms, best of {args.repeat}')
    modes = ('cudnn', 'tf32', 'kernels', 'nhwc')
    print(f'{"layer":<22}{"batch":>6} {"direction":<16}'
          + ''.join(f'{m:>9}' for m in modes + ('torch', 'torch tf32', 'ratio', 'ratio tf32')))
    rng = numpy.random.RandomState(0)
    for name, c, size, o, k, s, p in harness.RESNET50_CONVOLUTIONS:
        for batch in (1, args.batch):
            x = device.send(rng.uniform(-1, 1, (batch, c, size, size)).astype(numpy.float32))
            W = device.send(rng.uniform(-0.1, 0.1, (o, c, k, k)).astype(numpy.float32))
            ours = {m: _ours(device, x, W, (s, s), (p, p), m) for m in modes}
            peers = {tf32: _torch(x, W, (s, s), (p, p), tf32) for tf32 in (False, True)}
            for direction in ('forward', 'backward data', 'backward filter'):
                times = [harness.best_of(ours[m][direction], args.repeat, sync)[0]
                         for m in modes]
                theirs = [harness.best_of(peers[tf32][direction], args.repeat, torch_sync)[0]
                          for tf32 in (False, True)]
                print(f'{name:<22}{batch:>6} {direction:<16}'
                      + ''.join(f'{t * 1e3:>9.3f}' for t in times + theirs)
                      + f'{theirs[0] / times[0]:>9.2f}{theirs[1] / times[1]:>11.2f}')
    x = device.send(rng.uniform(-1, 1, (1, 64, 14, 14)).astype(numpy.float32))
    W = device.send(rng.uniform(-0.1, 0.1, (64, 64, 3, 3)).astype(numpy.float32))
    for mode in ('cudnn', 'kernels'):
        cost = _host_cost(_ours(device, x, W, (1, 1), (1, 1), mode)['forward'], 200, sync)
        print(f'host per forward call, 1x64x14x14 3x3, ours {mode}: {cost * 1e6:.1f} us')
    cost = _host_cost(_torch(x, W, (1, 1), (1, 1), False)['forward'], 200, torch_sync)
    print(f'host per forward call, 1x64x14x14 3x3, torch: {cost * 1e6:.1f} us')


if __name__ == '__main__':
    main()
