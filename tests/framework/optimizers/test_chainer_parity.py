"""Differential tests against Chainer itself: the same optimizers, hooks and gradients give
the same parameters, and optimizer snapshots go both ways.

Skipped unless Chainer is importable; see tests/framework/functions/test_chainer_parity.py for
how to make a virtual environment with Chainer 7.8.1.
"""

import io

import numpy
import pytest

import framework.functions as F
from framework import backend, optimizer_hooks, optimizers
from framework.testing import assert_allclose

chainer = pytest.importorskip('chainer')

# (optimizer name, constructor kwargs, hyperparameters set on the optimizer after 2 steps,
#  hook names with arguments)
CASES = [
    ('SGD', {'lr': 0.1}, {'lr': 0.05}, [('WeightDecay', (0.01,))]),
    ('MomentumSGD', {'lr': 0.1, 'momentum': 0.8}, {'lr': 0.02},
     [('GradientClipping', (1.0,)), ('Lasso', (0.01,))]),
    ('CorrectedMomentumSGD', {'lr': 0.1}, {'lr': 0.3}, [('GradientHardClipping', (-0.3, 0.4))]),
    ('NesterovAG', {'lr': 0.05}, {'momentum': 0.5}, [('GradientLARS', (0.5, 0.01))]),
    ('AdaGrad', {'lr': 0.1}, {'eps': 1e-3}, []),
    ('RMSprop', {'lr': 0.05}, {'alpha': 0.5}, [('WeightDecay', (0.1,))]),
    ('RMSprop', {'eps': 1e-2, 'eps_inside_sqrt': True}, {'lr': 0.02}, []),
    ('Adam', {'alpha': 0.01}, {'alpha': 0.05, 'beta1': 0.5}, [('GradientClipping', (0.5,))]),
    ('Adam', {'alpha': 0.01, 'eta': 0.5, 'weight_decay_rate': 0.1}, {'eta': 0.2}, []),
    ('AdamW', {'alpha': 0.02, 'weight_decay_rate': 0.05}, {'weight_decay_rate': 0.2}, []),
    ('AMSGrad', {'alpha': 0.01, 'beta2': 0.5}, {'beta2': 0.9}, []),
    ('AdaBound', {'alpha': 0.01, 'final_lr': 0.05, 'gamma': 0.1}, {'alpha': 0.02}, []),
    ('AMSBound', {'alpha': 0.01, 'gamma': 0.2}, {'final_lr': 0.2}, []),
]


def _chainer_model(model):
    """A Chainer Chain with the parameters (names and values) of ``model``."""
    ours = {path: backend.to_cpu(p.array).copy() for path, p in model.namedparams()}

    def link(**arrays):
        result = chainer.Link()
        with result.init_scope():
            for name, array in arrays.items():
                setattr(result, name, chainer.Parameter(array))
        return result

    return chainer.Chain(a=link(W=ours['/a/W'], b=ours['/a/b']), c=link(W=ours['/c/W']))


def _grads(step):
    rng = numpy.random.RandomState(step)
    return {'/a/W': rng.uniform(-1, 1, (3, 2)).astype(numpy.float32),
            '/a/b': rng.uniform(-1, 1, 2).astype(numpy.float32),
            '/c/W': rng.uniform(-1, 1, 4).astype(numpy.float32)}


@pytest.mark.parametrize('case', CASES, ids=lambda c: f'{c[0]}-{"-".join(c[1])}')
def test_same_updates(case, model, device):
    name, kwargs, change, hooks = case
    theirs = _chainer_model(model)
    opts = [getattr(optimizers, name)(**kwargs).setup(model),
            getattr(chainer.optimizers, name)(**kwargs)]
    opts[1].setup(theirs)
    for hook_name, args in hooks:
        opts[0].add_hook(getattr(optimizer_hooks, hook_name)(*args))
        opts[1].add_hook(getattr(chainer.optimizer_hooks, hook_name)(*args))
    ours_params, their_params = dict(model.namedparams()), dict(theirs.namedparams())
    ours_params['/a/b'].update_rule.hyperparam.beta2 = 0.8  # harmless where unused
    their_params['/a/b'].update_rule.hyperparam.beta2 = 0.8
    for step in range(1, 6):
        grads = _grads(step)
        for path, g in grads.items():
            ours_params[path].grad = device.send(g.copy())
            their_params[path].grad = g.copy()
        if step == 3:  # no gradient: both optimizers use zeros
            ours_params['/c/W'].cleargrad()
            their_params['/c/W'].cleargrad()
        for opt in opts:
            opt.update()
            if step == 2:
                for key, value in change.items():
                    setattr(opt, key, value)
        for path, param in ours_params.items():
            assert_allclose(param.array, their_params[path].array, rtol=1e-5, atol=1e-6,
                            err_msg=f'step {step}, {path}')
            for key, value in their_params[path].update_rule.state.items():
                assert_allclose(param.update_rule.state[key], value, rtol=1e-5, atol=1e-6,
                                err_msg=f'step {step}, {path}/{key}')


@pytest.mark.parametrize('name', ['MomentumSGD', 'Adam', 'AMSGrad', 'RMSprop'])
def test_snapshots_both_ways(name, model, device, save, load):
    theirs = _chainer_model(model)
    ours_opt = getattr(optimizers, name)().setup(model)
    their_opt = getattr(chainer.optimizers, name)()
    their_opt.setup(theirs)
    grads = _grads(1)
    for path, param in model.namedparams():
        param.grad = device.send(grads[path].copy())
    for path, param in theirs.namedparams():
        param.grad = grads[path].copy()
    their_opt.update()
    their_opt.new_epoch()

    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, their_opt)
    buffer.seek(0)
    with numpy.load(buffer) as npz:
        snapshot = dict(npz)
    load(ours_opt, snapshot)
    assert (ours_opt.t, ours_opt.epoch) == (1, 1)
    for path, param in model.namedparams():
        rule, their_rule = param.update_rule, dict(theirs.namedparams())[path].update_rule
        assert rule.t == their_rule.t == 1
        for key, value in their_rule.state.items():
            numpy.testing.assert_array_equal(rule.state[key], value)

    ours_snapshot = save(ours_opt)
    assert sorted(ours_snapshot) == sorted(snapshot)
    buffer = io.BytesIO()
    numpy.savez(buffer, **ours_snapshot)
    buffer.seek(0)
    reloaded = getattr(chainer.optimizers, name)()
    reloaded.setup(_chainer_model(model))
    chainer.serializers.load_npz(buffer, reloaded)
    assert (reloaded.t, reloaded.epoch) == (1, 1)
    for path, param in reloaded.target.namedparams():
        for key, value in param.update_rule.state.items():
            numpy.testing.assert_array_equal(value, snapshot[path[1:] + '/' + key])


def test_loss_scaling_with_weight_decay(model, device):
    """Chainer's WeightDecay multiplies its rate by the loss scale (its optimizer hooks see
    scaled gradients); ours see unscaled gradients: the updates agree."""
    theirs = _chainer_model(model)
    x = numpy.linspace(-1, 1, 6, dtype=numpy.float32).reshape(3, 2)
    ours_opt = optimizers.MomentumSGD(lr=0.1).setup(model)
    their_opt = chainer.optimizers.MomentumSGD(lr=0.1)
    their_opt.setup(theirs)
    for opt, hooks in ((ours_opt, optimizer_hooks), (their_opt, chainer.optimizer_hooks)):
        opt.add_hook(hooks.WeightDecay(0.05))
        opt.set_loss_scale(256.0)
    for _ in range(3):
        ours_opt.update(lambda: F.sum(model.a.W * device.send(x)) + F.sum(model.c.W ** 2))
        their_opt.update(lambda: chainer.functions.sum(theirs.a.W * x)
                         + chainer.functions.sum(theirs.c.W ** 2))
    for path, param in model.namedparams():
        assert_allclose(param.array, dict(theirs.namedparams())[path].array, rtol=1e-5,
                        atol=1e-6, err_msg=path)
