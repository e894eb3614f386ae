"""The optimizer machinery: hyperparameters, setup, hooks, update paths, loss scaling,
float32 updates of float16 parameters and serialization (framework/optimizer.py)."""

import copy
import pathlib
import pickle

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import Parameter, backend, optimizers
from framework.links import Chain
from framework.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy, UpdateRule
from framework.optimizer_hooks import WeightDecay
from framework.testing import assert_allclose

_DATA = pathlib.Path(__file__).parents[2] / 'data'


def _set_grads(model, device, seed=0):
    rng = numpy.random.RandomState(seed)
    grads = {}
    for path, param in model.namedparams(include_uninit=False):
        grads[path] = rng.uniform(-1, 1, param.shape).astype(param.dtype)
        param.grad = device.send(grads[path])
    return grads


def _arrays(model):
    return {path: backend.to_cpu(p.array).copy() for path, p in model.namedparams()}


# --- Hyperparameter -------------------------------------------------------------------------


def test_hyperparameter_reads_missing_entries_from_parent():
    parent = Hyperparameter(lr=0.1, momentum=0.9)
    child = Hyperparameter(parent)
    child.lr = 0.5
    assert (child.lr, child.momentum) == (0.5, 0.9)
    parent.momentum = 0.8
    assert child.momentum == 0.8
    assert child.parent is parent
    assert child.get_dict() == {'lr': 0.5, 'momentum': 0.8}
    assert repr(child) == 'Hyperparameter(lr=0.5, momentum=0.8)'
    with pytest.raises(AttributeError, match="'eps' is not set"):
        _ = child.eps


def test_hyperparameter_copies_and_pickles():
    child = Hyperparameter(Hyperparameter(lr=0.1), eps=1e-8)
    for clone in (copy.deepcopy(child), pickle.loads(pickle.dumps(child))):
        assert clone.get_dict() == {'lr': 0.1, 'eps': 1e-8}


def test_hyperparameter_proxy():
    class Opt:
        lr = HyperparameterProxy('lr')

        def __init__(self):
            self.hyperparam = Hyperparameter(lr=0.1)

    opt = Opt()
    opt.lr = 0.3
    assert opt.hyperparam.lr == 0.3 and opt.lr == 0.3
    assert isinstance(Opt.lr, HyperparameterProxy)
    assert 'hyperparam.lr' in Opt.lr.__doc__


# --- setup ----------------------------------------------------------------------------------


def test_setup(model):
    opt = optimizers.MomentumSGD(lr=0.2)
    assert opt.setup(model) is opt
    assert opt.target is model and opt.t == 0 and opt.epoch == 0
    rules = [p.update_rule for p in model.params()]
    assert len({id(r) for r in rules}) == 3
    for rule in rules:
        assert isinstance(rule, optimizers.MomentumSGDRule)
        assert rule.hyperparam.parent is opt.hyperparam
        assert rule.enabled and rule.t == 0 and rule.state is None


def test_setup_rejects_non_links():
    with pytest.raises(TypeError, match='MomentumSGD.setup: link must be a Link, but got int'):
        optimizers.MomentumSGD().setup(3)


def test_setup_respects_disabled_links(model):
    model.disable_update()
    model.c.enable_update()
    optimizers.SGD().setup(model)
    assert [p.update_rule.enabled for p in model.params()] == [False, False, True]


def test_disable_update_after_setup(model, device):
    opt = optimizers.SGD(lr=1.0).setup(model)
    model.a.disable_update()
    before = _arrays(model)
    grads = _set_grads(model, device)
    opt.update()
    after = _arrays(model)
    for path in ('/a/W', '/a/b'):
        numpy.testing.assert_array_equal(after[path], before[path])
    assert_allclose(after['/c/W'], before['/c/W'] - grads['/c/W'])
    model.a.enable_update()
    opt.update()
    assert model.a.W.update_rule.t == 1


def test_update_before_setup():
    with pytest.raises(RuntimeError, match='not set up; call setup'):
        optimizers.SGD().update()


def test_abstract_methods(model):
    with pytest.raises(NotImplementedError, match='create_update_rule'):
        GradientMethod().setup(model)
    param = Parameter(numpy.zeros(2, numpy.float32))
    param.grad = numpy.zeros(2, numpy.float32)
    with pytest.raises(NotImplementedError, match='update_core'):
        UpdateRule().update(param)


# --- update paths ---------------------------------------------------------------------------


def test_update_with_lossfun(model, device):
    """update(lossfun, *args, **kwds) clears old gradients, computes the loss, runs backward;
    parameters the loss does not reach get zero gradients."""
    opt = optimizers.SGD(lr=0.5).setup(model)
    x = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    for param in model.params():
        param.grad = param.xp.full_like(param.array, 100)
    before = _arrays(model)
    calls = []

    def lossfun(x, scale):
        calls.append(scale)
        return F.sum(model.a.W * device.send(x)) * scale

    opt.update(lossfun, x, scale=2.0)
    assert calls == [2.0]
    after = _arrays(model)
    assert_allclose(after['/a/W'], before['/a/W'] - 0.5 * 2.0 * x)
    numpy.testing.assert_array_equal(after['/c/W'], before['/c/W'])
    numpy.testing.assert_array_equal(backend.to_cpu(model.c.W.grad), numpy.zeros(4))


def test_uninitialized_parameter_is_skipped(model, device):
    model.c.add_param('u')
    opt = optimizers.MomentumSGD().setup(model)
    _set_grads(model, device)
    opt.update()
    rule = model.c.u.update_rule
    assert rule.t == 1 and rule.state is None and model.c.u.array is None
    model.c.u.initialize((2,))
    model.c.u.array[...] = device.send(numpy.ones(2, numpy.float32))
    model.c.u.grad = device.send(numpy.ones(2, numpy.float32))
    opt.update()
    assert rule.state['v'].shape == (2,)
    assert_allclose(model.c.u.array, numpy.full(2, 0.99))


def test_parameter_added_after_setup_is_not_updated(model, device):
    opt = optimizers.SGD().setup(model)
    with model.c.init_scope():
        model.c.late = Parameter(device.send(numpy.ones(2, numpy.float32)))
    _set_grads(model, device)
    opt.update()
    numpy.testing.assert_array_equal(backend.to_cpu(model.c.late.array), numpy.ones(2))


# --- hooks ----------------------------------------------------------------------------------


class _Recorder:
    """Records, at each call, the value of /c/W[0]."""

    def __init__(self, name, log, timing=None, each=False):
        self.name = name
        self.log = log
        if timing is not None:
            self.timing = timing
        self.call_for_each_param = each

    def __call__(self, *args):
        if self.call_for_each_param:
            rule, param = args
            assert param.update_rule is rule
            self.log.append((self.name, param.name))
        else:
            (opt,) = args
            self.log.append((self.name, float(opt.target.c.W.array[0])))


def test_optimizer_hooks_order_and_timing(model, device):
    opt = optimizers.SGD(lr=1.0).setup(model)
    log = []
    opt.add_hook(_Recorder('pre1', log, 'pre'))
    opt.add_hook(_Recorder('post', log, 'post'))
    opt.add_hook(_Recorder('pre2', log), timing='pre')
    opt.add_hook(_Recorder('each', log, 'pre', each=True))
    start = float(model.c.W.array[0])
    grads = _set_grads(model, device)
    opt.update()
    end = start - float(grads['/c/W'][0])
    assert log == [('pre1', start), ('pre2', start), ('each', 'W'), ('each', 'b'),
                   ('each', 'W'), ('post', pytest.approx(end))]
    opt.remove_hook('pre2')
    opt.remove_hook('post')
    log.clear()
    opt.update()
    assert [entry[0] for entry in log] == ['pre1', 'each', 'each', 'each']


def test_optimizer_add_hook_errors(model):
    opt = optimizers.SGD()
    with pytest.raises(RuntimeError, match='not set up'):
        opt.add_hook(WeightDecay(0.1))
    opt.setup(model)
    with pytest.raises(TypeError, match='hook must be callable, but got int'):
        opt.add_hook(3)
    with pytest.raises(ValueError, match="timing must be 'pre', 'post' or 'auto'"):
        opt.add_hook(WeightDecay(0.1), timing='later')
    opt.add_hook(WeightDecay(0.1))
    with pytest.raises(KeyError, match="'WeightDecay' already exists"):
        opt.add_hook(WeightDecay(0.2))
    opt.add_hook(WeightDecay(0.2), name='decay2')

    class Nameless:
        def __call__(self, opt):
            pass

    with pytest.raises(ValueError, match='no name attribute; pass name='):
        opt.add_hook(Nameless())
    with pytest.raises(KeyError, match="no hook named 'missing'"):
        opt.remove_hook('missing')
    with pytest.raises(ValueError, match="timing must be 'pre' or 'post'"):
        opt.call_hooks('auto')


def test_hook_with_invalid_timing_attribute_warns(model):
    opt = optimizers.SGD().setup(model)
    log = []
    with pytest.warns(UserWarning, match="timing attribute is 'soon'"):
        opt.add_hook(_Recorder('odd', log, 'soon'))
    opt.call_hooks('pre')
    assert len(log) == 1


def test_function_hook_named_by_dunder_name(model):
    opt = optimizers.SGD().setup(model)
    seen = []

    def my_hook(opt):
        seen.append(opt)

    opt.add_hook(my_hook)
    opt.call_hooks('pre')
    assert seen == [opt]
    opt.remove_hook('my_hook')


def test_update_rule_hooks(model, device):
    opt = optimizers.SGD(lr=1.0).setup(model)
    rule = model.c.W.update_rule
    log = []

    def before(rule_, param):
        log.append(('pre', float(param.array[0])))

    def after(rule_, param):
        log.append(('post', float(param.array[0])))

    rule.add_hook(after, timing='post')
    rule.add_hook(before)
    with pytest.raises(KeyError, match='already exists'):
        rule.add_hook(before)
    start = float(model.c.W.array[0])
    grads = _set_grads(model, device)
    opt.update()
    assert log == [('pre', start), ('post', pytest.approx(start - float(grads['/c/W'][0])))]
    rule.remove_hook('before')
    rule.remove_hook('after')
    with pytest.raises(KeyError, match='no hook named'):
        rule.remove_hook('after')


# --- loss scaling ---------------------------------------------------------------------------


def _loss(model, device):
    x = device.send(numpy.linspace(-1, 1, 6, dtype=numpy.float32).reshape(3, 2))
    return F.sum(model.a.W * x) + F.sum(model.c.W * model.c.W)


def test_static_loss_scaling_gives_unscaled_updates(make_model, device):
    results = []
    for scale in (None, 64.0):
        model = make_model(device)
        opt = optimizers.MomentumSGD(lr=0.1).setup(model)
        opt.add_hook(WeightDecay(0.01))
        if scale is not None:
            opt.set_loss_scale(scale)
        for _ in range(3):
            opt.update(_loss, model, device)
        assert all(p._loss_scale is None for p in model.params())
        results.append(_arrays(model))
    for path in results[0]:
        assert_allclose(results[1][path], results[0][path], rtol=1e-6, atol=1e-7)


def test_rule_divides_by_loss_scale(model, device):
    """Updating a parameter directly after backward(loss_scale=...)."""
    optimizers.SGD(lr=1.0).setup(model)
    before = backend.to_cpu(model.c.W.array).copy()
    F.sum(model.c.W * model.c.W).backward(loss_scale=8.0)
    assert model.c.W._loss_scale == 8.0
    model.c.W.update()
    assert_allclose(model.c.W.array, before - 2 * before)


def test_loss_scaling_arguments():
    opt = optimizers.SGD()
    with pytest.raises(ValueError, match='interval must be at least 1, but got 0'):
        opt.loss_scaling(interval=0)
    with pytest.raises(ValueError, match='scale must be positive, but got -1'):
        opt.set_loss_scale(-1)


def test_dynamic_loss_scaling(model, device):
    opt = optimizers.SGD(lr=0.1).setup(model)
    opt.loss_scaling(interval=2)
    assert opt._loss_scale == 1.0
    opt.update(_loss, model, device)
    opt.update(_loss, model, device)
    assert opt._loss_scale == 4.0
    before = _arrays(model)

    def overflowing_loss():
        return F.sum(model.c.W) * float('inf')

    with pytest.warns(UserWarning, match='non-finite gradient in /c/W'):
        opt.update(overflowing_loss)
    assert opt.t == 3 and opt._loss_scale == 2.0
    after = _arrays(model)
    for path in before:
        numpy.testing.assert_array_equal(after[path], before[path])
    opt.update(_loss, model, device)
    assert opt._loss_scale == pytest.approx(2.0 * 2 ** 0.5)


# --- float32 updates of float16 parameters --------------------------------------------------


def test_use_fp32_update(make_model, device):
    results = {}
    for flag in (False, True):
        model = make_model(device, numpy.float16)
        opt = optimizers.SGD(lr=1e-4)
        opt.use_fp32_update(flag)
        opt.setup(model)
        for param in model.params():
            param.array[...] = param.xp.ones_like(param.array)
        for _ in range(10):
            for param in model.params():
                param.grad = param.xp.ones_like(param.array)
            opt.update()
        assert all(p.dtype == numpy.float16 and p.grad.dtype == numpy.float16
                   for p in model.params())
        results[flag] = _arrays(model)
    for array in results[False].values():  # each step is below float16's resolution at 1
        numpy.testing.assert_array_equal(array, numpy.ones_like(array))
    for array in results[True].values():
        expected = numpy.full_like(array, numpy.float16(1 - 1e-3))
        numpy.testing.assert_array_equal(array, expected)


# --- epochs ---------------------------------------------------------------------------------


def test_new_epoch(model):
    opt = optimizers.SGD().setup(model)
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError, match='use_auto_new_epoch is False'):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError, match='already counts epochs'):
        opt.new_epoch()


# --- serialization --------------------------------------------------------------------------


def test_serialize_keys(model, device, save):
    opt = optimizers.Adam(amsgrad=True).setup(model)
    assert sorted(save(opt)) == ['a/W/t', 'a/b/t', 'c/W/t', 'epoch', 't']
    _set_grads(model, device)
    opt.update()
    opt.new_epoch()
    snapshot = save(opt)
    assert sorted(snapshot) == sorted(
        ['t', 'epoch'] + [f'{p}/{k}' for p in ('a/W', 'a/b', 'c/W')
                          for k in ('t', 'm', 'v', 'vhat')])
    assert snapshot['epoch'] == 1 and snapshot['a/b/v'].shape == (2,)
    assert type(snapshot['a/b/v']) is numpy.ndarray


def test_load_without_state_entries(model, load):
    """State entries missing from a snapshot (saved before any update) leave the state to be
    made at the first update when the deserializer is not strict; a strict one raises KeyError
    unless the rule is disabled."""
    opt = optimizers.MomentumSGD().setup(model)
    load(opt, {'t': 0, 'epoch': 0, 'a/W/t': 0, 'a/b/t': 0, 'c/W/t': 0}, strict=False)
    assert all(p.update_rule.state is None for p in model.params())
    snapshot = {'t': 1, 'epoch': 0, 'a/W/t': 1, 'a/b/t': 1, 'c/W/t': 1,
                'a/W/v': numpy.ones((3, 2), numpy.float32), 'a/b/v': numpy.ones(2, numpy.float32)}
    with pytest.raises(KeyError, match='c/W/v'):
        load(opt, snapshot)
    model.c.W.update_rule.enabled = False
    load(opt, snapshot)
    assert model.c.W.update_rule.state is None
    numpy.testing.assert_array_equal(model.a.b.update_rule.state['v'], numpy.ones(2))


class _TinyChain(Chain):
    """The parameter names and shapes of the Chain that wrote the Chainer snapshot."""

    def __init__(self, params_link):
        super().__init__()
        with self.init_scope():
            self.conv = params_link(W=numpy.zeros((4, 3, 3, 3), numpy.float32),
                                    b=numpy.zeros(4, numpy.float32))
            self.bn = params_link(gamma=numpy.ones(4, numpy.float32),
                                  beta=numpy.zeros(4, numpy.float32))
            self.fc = params_link(W=numpy.zeros((5, 256), numpy.float32),
                                  b=numpy.zeros(5, numpy.float32))


def test_loads_chainer_snapshot(device, params_link, load, save):
    """An optimizer snapshot written by Chainer 7.8.1 (MomentumSGD(lr=0.1), three updates)."""
    with numpy.load(_DATA / 'tiny_chain_momentum_sgd.npz') as npz:
        snapshot = dict(npz)
    model = _TinyChain(params_link).to_device(device)
    opt = optimizers.MomentumSGD(lr=0.1).setup(model)
    load(opt, snapshot)
    assert opt.t == 3 and opt.epoch == 0
    for path, param in model.namedparams():
        rule = param.update_rule
        assert rule.t == 3
        numpy.testing.assert_array_equal(rule.state['v'], snapshot[path[1:] + '/v'])
    assert sorted(save(opt)) == sorted(snapshot)

    grad = numpy.full(4, 0.5, numpy.float32)
    model.bn.gamma.grad = device.send(grad)
    opt.update()
    v = snapshot['bn/gamma/v'] * 0.9 - 0.1 * grad
    assert backend.get_device_from_array(model.bn.gamma.update_rule.state['v']) == device
    assert_allclose(model.bn.gamma.update_rule.state['v'], v)
    assert_allclose(model.bn.gamma.array, 1 + v)


def test_read_only_gradients_are_copied(model, device):
    """The backward of sum leaves a read-only broadcast view as the gradient; hooks and
    rules change gradients in place."""
    opt = optimizers.SGD(lr=1.0).setup(model)
    opt.add_hook(WeightDecay(0.5))
    before = backend.to_cpu(model.c.W.array).copy()
    opt.update(lambda: F.sum(model.c.W))
    assert_allclose(model.c.W.array, before - (1 + 0.5 * before))
    F.sum(model.c.W).backward(loss_scale=2.0)
    model.c.W.update()


@pytest.mark.parametrize('name, kwargs', [('SGD', {'lr': 0.1}), ('MomentumSGD', {'lr': 0.05}),
                                          ('Adam', {'alpha': 0.05}), ('RMSprop', {'lr': 0.05})])
def test_trains_a_linear_layer(name, kwargs, device):
    framework.random.seed(0)
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((16, 3)).astype(numpy.float32)
    t = x @ numpy.array([[1, 2], [0, -1], [3, 0.5]], numpy.float32) + 0.25
    x, t = device.send(x), device.send(t)
    layer = L.Linear(3, 2).to_device(device)
    opt = getattr(optimizers, name)(**kwargs).setup(layer)
    for _ in range(200):
        opt.update(lambda: F.mean_squared_error(layer(x), t))
    assert float(F.mean_squared_error(layer(x), t).array) < 1e-2  # from about 10
