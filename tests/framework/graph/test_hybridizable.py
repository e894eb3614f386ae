"""``framework.graph.Hybridizable``: ``infer`` runs the link in inference, eagerly or through
its static graph after ``hybridize``, which reaches every hybridizable link below."""

import numpy
import pytest

import framework
import framework.links as L
from framework.graph import Hybridizable


class Net(Hybridizable, framework.Chain):
    """A convolution, a batch normalization and a ReLU."""

    def __init__(self, seed=0):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3, pad=1, nobias=True)
            self.bn = L.BatchNormalization(4)
        rng = numpy.random.RandomState(seed)
        self.conv.W.array[...] = rng.standard_normal(self.conv.W.shape)
        self.bn.avg_mean[...] = rng.standard_normal(4)
        self.bn.avg_var[...] = rng.uniform(0.5, 1.5, 4)

    def forward(self, x):
        return framework.functions.relu(self.bn(self.conv(x)))


class Cascade(Hybridizable, framework.Chain):
    """Two networks run one after the other, each through its own ``infer``."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.first = Net(0)
            self.second = Net(1)
            self.plain = L.Linear(2, 2)

    def predict(self, x):
        return self.second.infer(self.first.infer(x)[:, :3]).array


class Wrapper(Hybridizable, framework.Chain):
    """Runs the link it wraps (``hybridized_link``)."""

    def __init__(self, link):
        super().__init__()
        with self.init_scope():
            self.link = link

    def hybridized_link(self):
        return self.link


def _x(shape=(2, 3, 8, 8)):
    return numpy.random.RandomState(5).uniform(-1, 1, shape).astype(numpy.float32)


def test_infer_runs_in_inference_without_backprop():
    net = Net()
    with framework.using_config('train', False):
        expected = net(_x()).array
    with framework.using_config('train', True):
        y = net.infer(_x())
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
    assert y.creator is None
    assert framework.config.train


@pytest.mark.parametrize('shape', [(2, 3, 8, 8), (1, 3, 5, 7)])
def test_hybridized_infer_is_the_eager_one(shape):
    net = Net()
    eager = net.infer(_x(shape)).array
    net.hybridize()
    assert net._static_graph is not None
    numpy.testing.assert_allclose(net.infer(_x(shape)).array, eager, rtol=1e-5, atol=1e-6)
    net.hybridize(False)
    assert net._static_graph is None
    numpy.testing.assert_array_equal(net.infer(_x(shape)).array, eager)


def test_hybridize_reaches_the_hybridizable_links_below():
    model = Cascade()
    eager = model.predict(_x())
    model.hybridize()
    assert model.first._static_graph is not None
    assert model.second._static_graph is not None
    assert not hasattr(model.plain, '_static_graph')
    numpy.testing.assert_allclose(model.predict(_x()), eager, rtol=1e-5, atol=1e-6)
    model.hybridize(False)
    assert model.first._static_graph is None and model.second._static_graph is None


def test_the_graph_holds_the_parameters_of_the_last_hybridize():
    net = Net()
    net.hybridize()
    before = net.infer(_x()).array
    net.conv.W.array[...] *= 2
    numpy.testing.assert_allclose(net.infer(_x()).array, before, rtol=1e-6)
    net.hybridize()
    with framework.using_config('train', False):
        expected = net(_x()).array
    numpy.testing.assert_allclose(net.infer(_x()).array, expected, rtol=1e-5, atol=1e-6)


def test_a_wrapper_compiles_what_it_wraps():
    net = Net()
    wrapper = Wrapper(net)
    eager = wrapper.infer(_x()).array
    wrapper.hybridize()
    assert wrapper._static_graph.fn is net
    numpy.testing.assert_allclose(wrapper.infer(_x()).array, eager, rtol=1e-5, atol=1e-6)


def test_a_link_says_how_many_signatures_keep_their_graph():
    class ManyShapes(Net):
        max_graphs = 3

    model = Cascade()
    model.second = None
    with model.init_scope():
        model.second = ManyShapes()
    model.hybridize()
    assert model.first._static_graph.max_graphs == Hybridizable.max_graphs == 8
    assert model.second._static_graph.max_graphs == 3
