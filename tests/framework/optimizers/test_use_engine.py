"""optimizer.use_engine: updates pushed to the dependency engine while backprop goes on give
the numbers of the synchronous update."""

import numpy
import pytest

import framework
import framework.engine
import framework.functions as F
import framework.links as L
from framework import optimizer_hooks, optimizers


class MLP(framework.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 8)
            self.l2 = L.Linear(8, 8)
            self.l3 = L.Linear(8, 3)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


def _run(make_optimizer, use_engine, steps=4):
    framework.random.seed(0)
    model = MLP()
    optimizer = make_optimizer()
    optimizer.setup(model)
    optimizer.add_hook(optimizer_hooks.WeightDecay(1e-3))
    optimizer.use_engine = use_engine
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (5, 4)).astype(numpy.float32)
    t = rng.randint(0, 3, 5).astype(numpy.int32)
    for _ in range(steps):
        optimizer.update(lambda: F.softmax_cross_entropy(model(x), t))
    return model, optimizer


@pytest.fixture(params=['naive', 'threaded'])
def engine(request, monkeypatch):
    monkeypatch.setenv('FRAMEWORK_ENGINE', request.param)
    monkeypatch.setattr(framework.engine, '_engine', None)
    yield request.param
    framework.engine.get_engine().wait_for_all()


@pytest.mark.parametrize('make_optimizer', [lambda: optimizers.MomentumSGD(lr=0.1),
                                            lambda: optimizers.Adam(alpha=0.01)],
                         ids=['MomentumSGD', 'Adam'])
def test_same_numbers_as_the_synchronous_update(engine, make_optimizer):
    sync, sync_opt = _run(make_optimizer, False)
    pushed, pushed_opt = _run(make_optimizer, True)
    assert pushed_opt.t == sync_opt.t == 4
    for (path, a), (_, b) in zip(sync.namedparams(), pushed.namedparams()):
        numpy.testing.assert_array_equal(b.array, a.array, err_msg=path)


def test_a_layer_is_updated_before_backprop_reaches_the_layers_below(monkeypatch):
    # The naive engine runs each update at push, which makes the order observable.
    monkeypatch.setenv('FRAMEWORK_ENGINE', 'naive')
    monkeypatch.setattr(framework.engine, '_engine', None)
    framework.random.seed(0)
    model = MLP()
    optimizer = optimizers.SGD(lr=0.1)
    optimizer.setup(model)
    optimizer.use_engine = True
    events = []
    original = optimizer._update_one

    def record(param):
        events.append(('update', param.name, id(param)))
        original(param)
    monkeypatch.setattr(optimizer, '_update_one', record)

    class Probe(framework.FunctionNode):
        def forward(self, inputs):
            return inputs[0],

        def backward(self, indexes, grad_outputs):
            events.append(('backward below l2',))
            return grad_outputs

    x = numpy.ones((2, 4), numpy.float32)

    def loss():
        h = F.relu(model.l1(x))
        h, = Probe().apply((h,))
        return F.sum(model.l3(F.relu(model.l2(h))))
    optimizer.update(loss)
    probe = events.index(('backward below l2',))
    updated_before = {e[2] for e in events[:probe]}
    assert {id(model.l3.W), id(model.l2.W)} <= updated_before
    assert id(model.l1.W) not in updated_before


def test_a_whole_gradient_hook_falls_back_to_the_synchronous_update():
    model = MLP()
    optimizer = optimizers.SGD()
    optimizer.setup(model)
    optimizer.add_hook(optimizer_hooks.GradientClipping(1.0))
    optimizer.use_engine = True
    assert not optimizer._can_overlap()
