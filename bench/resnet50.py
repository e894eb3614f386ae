"""ResNet-50 inference built from framework functions alone, beside PyTorch's, in one run.

The network is ResNet-50 (v1.5, torchvision's layout: stride on the 3x3 convolution) with
random weights held as plain arrays, evaluated with ``F.convolution_2d``,
``F.fixed_batch_normalization``, ``F.relu``, ``F.max_pooling_2d``, ``F.average_pooling_2d`` and
``F.linear`` under ``no_backprop_mode``. When torch is importable, the same weights are run with
``torch.nn.functional`` and the outputs are compared before timing::

    python bench/resnet50.py [--batch 1 8] [--repeat 5]

The ratio is PyTorch's time / ours (above 1: we are faster).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import time

import numpy

import framework
import framework.functions as F

_STAGES = ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2))


def _conv(rng, out_c, in_c, k):
    return rng.normal(0, (in_c * k * k) ** -0.5, (out_c, in_c, k, k)).astype(numpy.float32)


def _bn(rng, c):
    return {'gamma': rng.uniform(0.5, 1.5, c).astype(numpy.float32),
            'beta': rng.normal(0, 0.1, c).astype(numpy.float32),
            'mean': rng.normal(0, 0.1, c).astype(numpy.float32),
            'var': rng.uniform(0.5, 1.5, c).astype(numpy.float32)}


def make_weights(seed: int = 0) -> dict:
    """Random ResNet-50 weights: a dict of plain float32 arrays and nested block lists."""
    rng = numpy.random.RandomState(seed)
    weights = {'conv1': _conv(rng, 64, 3, 7), 'bn1': _bn(rng, 64), 'stages': []}
    in_c = 64
    for width, n_blocks, stride in _STAGES:
        blocks = []
        for i in range(n_blocks):
            out_c = width * 4
            block = {'stride': stride if i == 0 else 1,
                     'conv1': _conv(rng, width, in_c, 1), 'bn1': _bn(rng, width),
                     'conv2': _conv(rng, width, width, 3), 'bn2': _bn(rng, width),
                     'conv3': _conv(rng, out_c, width, 1), 'bn3': _bn(rng, out_c)}
            if i == 0:
                block['down'] = _conv(rng, out_c, in_c, 1)
                block['down_bn'] = _bn(rng, out_c)
            blocks.append(block)
            in_c = out_c
        weights['stages'].append(blocks)
    weights['fc_W'] = rng.normal(0, 2048 ** -0.5, (1000, 2048)).astype(numpy.float32)
    weights['fc_b'] = numpy.zeros(1000, numpy.float32)
    return weights


def _ours_bn(h, p):
    return F.fixed_batch_normalization(h, p['gamma'], p['beta'], p['mean'], p['var'], eps=1e-5)


def ours_forward(weights: dict, x: numpy.ndarray) -> numpy.ndarray:
    """Logits (N, 1000) of ResNet-50 computed with framework functions."""
    with framework.no_backprop_mode():
        h = F.relu(_ours_bn(F.convolution_2d(x, weights['conv1'], stride=2, pad=3),
                            weights['bn1']))
        h = F.max_pooling_2d(h, 3, stride=2, pad=1, cover_all=False)
        for blocks in weights['stages']:
            for b in blocks:
                t = F.relu(_ours_bn(F.convolution_2d(h, b['conv1']), b['bn1']))
                t = F.relu(_ours_bn(F.convolution_2d(t, b['conv2'], stride=b['stride'], pad=1),
                                    b['bn2']))
                t = _ours_bn(F.convolution_2d(t, b['conv3']), b['bn3'])
                if 'down' in b:
                    h = _ours_bn(F.convolution_2d(h, b['down'], stride=b['stride']),
                                 b['down_bn'])
                h = F.relu(t + h)
        h = F.average_pooling_2d(h, h.shape[2:])
        return F.linear(F.reshape(h, (h.shape[0], -1)), weights['fc_W'], weights['fc_b']).array


def torch_forward_fn(torch, weights: dict):
    """A callable computing the same logits with torch.nn.functional."""
    fn = torch.nn.functional

    def t(a):
        return torch.from_numpy(a)

    def bn(h, p):
        return fn.batch_norm(h, t(p['mean']), t(p['var']), t(p['gamma']), t(p['beta']),
                             training=False, eps=1e-5)

    def forward(x):
        with torch.no_grad():
            h = fn.relu(bn(fn.conv2d(t(x), t(weights['conv1']), stride=2, padding=3),
                           weights['bn1']))
            h = fn.max_pool2d(h, 3, stride=2, padding=1)
            for blocks in weights['stages']:
                for b in blocks:
                    u = fn.relu(bn(fn.conv2d(h, t(b['conv1'])), b['bn1']))
                    u = fn.relu(bn(fn.conv2d(u, t(b['conv2']), stride=b['stride'], padding=1),
                                   b['bn2']))
                    u = bn(fn.conv2d(u, t(b['conv3'])), b['bn3'])
                    if 'down' in b:
                        h = bn(fn.conv2d(h, t(b['down']), stride=b['stride']), b['down_bn'])
                    h = fn.relu(u + h)
            h = fn.adaptive_avg_pool2d(h, 1).flatten(1)
            return fn.linear(h, t(weights['fc_W']), t(weights['fc_b'])).numpy()
    return forward


def _best_of(fn, repeat):
    fn()
    best = float('inf')
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--batch', type=int, nargs='+', default=[1, 8])
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args(argv)
    weights = make_weights()
    torch = importlib.import_module('torch') if importlib.util.find_spec('torch') else None
    if torch is None:
        print('torch is not installed: ours alone')
    print(f'{"ResNet-50 forward":<24}{"ours":>12}' + (f'{"pytorch":>12}{"ratio":>8}' if torch
                                                     else ''))
    for batch in args.batch:
        x = numpy.random.RandomState(1).uniform(-1, 1, (batch, 3, 224, 224)).astype('f')
        ours = _best_of(functools.partial(ours_forward, weights, x), args.repeat)
        line = f'{"batch " + str(batch):<24}{ours * 1e3:>10.1f}ms'
        if torch is not None:
            theirs_fn = torch_forward_fn(torch, weights)
            diff = numpy.abs(ours_forward(weights, x) - theirs_fn(x)).max()
            if diff > 1e-2:
                raise AssertionError(f'outputs differ from PyTorch by {diff}')
            theirs = _best_of(functools.partial(theirs_fn, x), args.repeat)
            line += f'{theirs * 1e3:>10.1f}ms{theirs / ours:>8.2f}'
        print(line)


if __name__ == '__main__':
    main()
