"""A small CNN built from the layers learns: its loss falls over a few steps of plain SGD."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import backend
from framework.testing import devices


class SmallCNN(framework.Chain):
    def __init__(self, n_class):
        super().__init__()
        with self.init_scope():
            self.conv = L.Conv2DBNActiv(None, 8, 3, pad=1)
            self.fc = L.Linear(None, n_class)

    def forward(self, x):
        return self.fc(F.max_pooling_2d(self.conv(x), 2))


def _data(n=32):
    """Images whose class is the quadrant holding a bright blob."""
    rng = numpy.random.RandomState(0)
    x = rng.normal(0, 0.3, (n, 1, 8, 8)).astype(numpy.float32)
    t = rng.randint(0, 4, n).astype(numpy.int32)
    for i, label in enumerate(t):
        r, c = divmod(int(label), 2)
        x[i, 0, 4 * r:4 * r + 4, 4 * c:4 * c + 4] += 1
    return x, t


@pytest.mark.parametrize('device', devices(), ids=str)
def test_loss_falls_with_plain_sgd(device):
    framework.random.seed(0)
    model = SmallCNN(4).to_device(device)
    x, t = (device.send(a) for a in _data())
    losses = []
    for _ in range(15):
        model.cleargrads()
        loss = F.softmax_cross_entropy(model(x), t)
        loss.backward()
        for param in model.params():
            param.array -= 0.1 * param.grad
        losses.append(float(backend.to_cpu(loss.array)))
    assert losses[-1] < 0.3 * losses[0], losses
    assert sorted(p for p, _ in model.namedparams()) == [
        '/conv/bn/beta', '/conv/bn/gamma', '/conv/conv/W', '/fc/W', '/fc/b']
    with framework.using_config('train', False):
        accuracy = F.accuracy(model(x), t)
    assert float(backend.to_cpu(accuracy.array)) > 0.9


def test_same_seed_builds_the_same_model():
    def build():
        framework.random.seed(3)
        model = SmallCNN(4)
        model(_data(2)[0])
        return model

    a, b = build(), build()
    for (path, p), (_, q) in zip(a.namedparams(), b.namedparams()):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=path)
