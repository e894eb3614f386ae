"""Train a small multi-layer perceptron on generated spirals with the framework's autodiff.

The main job of the project until the zoo has a pretrained model: it exercises the define-by-run
graph, backprop, links, an optimizer and the loss functions end to end, and prints the loss and
accuracy of each epoch.

Usage::

    python scripts/train_toy_classifier.py [--epochs 30] [--seed 0] [--device @numpy]
"""

from __future__ import annotations

import argparse
import time

import numpy

import framework
import framework.functions as F
import framework.initializers as I
import framework.links as L
from framework import backend, no_backprop_mode, optimizers


def make_spirals(n_per_class: int, n_class: int, noise: float, rng) -> tuple:
    """Points on interleaved spiral arms, one arm per class.

    Returns:
        tuple: ``x`` float32 (N, 2) and ``t`` int32 (N,), shuffled.
    """
    radius = numpy.tile(numpy.linspace(0.05, 1.0, n_per_class), n_class)
    label = numpy.repeat(numpy.arange(n_class), n_per_class)
    angle = radius * 4.0 + label * (2 * numpy.pi / n_class)
    angle += rng.normal(0.0, noise, angle.shape)
    x = numpy.stack([radius * numpy.sin(angle), radius * numpy.cos(angle)], axis=1)
    order = rng.permutation(len(x))
    return x[order].astype(numpy.float32), label[order].astype(numpy.int32)


class MLP(framework.Chain):
    """Fully connected layers with ReLU between them."""

    def __init__(self, sizes: list[int]):
        super().__init__()
        with self.init_scope():
            self.layers = L.Sequential(*(L.Linear(n_in, n_out, initialW=I.HeNormal())
                                         for n_in, n_out in zip(sizes[:-1], sizes[1:])))

    def forward(self, x):
        h = x
        for layer in self.layers[:-1]:
            h = F.relu(layer(h))
        return self.layers[-1](h)


def train(epochs: int, seed: int, device: str, batch_size: int = 64, lr: float = 0.1,
          momentum: float = 0.9, log=print) -> float:
    """Trains the MLP and returns the final accuracy on held-out points."""
    rng = numpy.random.RandomState(seed)
    device = backend.get_device(device)
    x_train, t_train = make_spirals(300, 3, 0.2, rng)
    x_test, t_test = make_spirals(100, 3, 0.2, rng)
    x_train, t_train, x_test, t_test = device.send((x_train, t_train, x_test, t_test))
    framework.random.seed(seed)
    model = MLP([2, 64, 64, 3]).to_device(device)
    optimizer = optimizers.MomentumSGD(lr=lr, momentum=momentum)
    optimizer.setup(model)

    log(f'training a {len(model.layers)}-layer MLP on {len(x_train)} spiral points ({device})')
    accuracy = 0.0
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        order = rng.permutation(len(x_train))
        total_loss = 0.0
        for i in range(0, len(order), batch_size):
            batch = device.send(order[i:i + batch_size])
            loss = F.softmax_cross_entropy(model(x_train[batch]), t_train[batch])
            model.cleargrads()
            loss.backward()
            optimizer.update()
            total_loss += float(loss.array) * len(batch)
        with no_backprop_mode():
            accuracy = float(F.accuracy(model(x_test), t_test).array)
        log(f'epoch {epoch:3d}  loss {total_loss / len(order):.4f}  '
            f'test accuracy {accuracy:.3f}  ({time.perf_counter() - start:.2f} s)')
    return accuracy


def main(argv=None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--epochs', type=int, default=30)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--device', default='@numpy', help="'@numpy' or '@cupy:0'")
    args = parser.parse_args(argv)
    return train(args.epochs, args.seed, args.device)


if __name__ == '__main__':
    main()
