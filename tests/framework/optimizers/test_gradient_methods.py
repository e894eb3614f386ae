"""Every optimizer against its published equations, computed here in float64 NumPy.

One scenario runs five updates of a two-level model and checks every parameter, state array and
counter after each: hyperparameters changed on the optimizer half-way (every rule follows), one
parameter with its own learning rate (it keeps it), a parameter without a gradient (updated
with a zero gradient, as Chainer does), and a disabled update rule (left alone, ``t`` too).
"""

import inspect
import math

import numpy
import pytest

import framework.optimizers as O
from framework import backend
from framework.testing import assert_allclose


def _sgd(hp, s, p, g, t):
    p -= hp['lr'] * g


def _momentum_sgd(hp, s, p, g, t):
    s['v'] = hp['momentum'] * s['v'] - hp['lr'] * g
    p += s['v']


def _corrected_momentum_sgd(hp, s, p, g, t):
    s['v'] = hp['momentum'] * s['v'] - g
    p += hp['lr'] * s['v']


def _nesterov_ag(hp, s, p, g, t):
    mu, lr = hp['momentum'], hp['lr']
    s['v'] = mu * s['v'] - lr * g
    p += mu * mu * s['v'] - (1 + mu) * lr * g


def _ada_grad(hp, s, p, g, t):
    s['h'] = s['h'] + g * g
    p -= hp['lr'] * g / (numpy.sqrt(s['h']) + hp['eps'])


def _rmsprop(hp, s, p, g, t):
    s['ms'] = hp['alpha'] * s['ms'] + (1 - hp['alpha']) * g * g
    if hp['eps_inside_sqrt']:
        p -= hp['lr'] * g / numpy.sqrt(s['ms'] + hp['eps'])
    else:
        p -= hp['lr'] * g / (numpy.sqrt(s['ms']) + hp['eps'])


def _adam(hp, s, p, g, t):
    """Kingma and Ba's Algorithm 1 in the form of their section 2 (bias corrections folded
    into the step size), with AdamW's decoupled decay, AMSGrad's maximum and AdaBound's
    clipping."""
    b1, b2 = hp['beta1'], hp['beta2']
    s['m'] = b1 * s['m'] + (1 - b1) * g
    s['v'] = b2 * s['v'] + (1 - b2) * g * g
    v = s['v']
    if hp['amsgrad']:
        s['vhat'] = numpy.maximum(s['vhat'], s['v'])
        v = s['vhat']
    alpha_t = hp['alpha'] * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
    step = alpha_t / (numpy.sqrt(v) + hp['eps'])
    if hp['adabound']:
        final_lr = hp['final_lr'] * hp['alpha'] / hp['initial_alpha']
        lower = final_lr * (1 - 1 / (hp['gamma'] * t + 1))
        upper = final_lr * (1 + 1 / (hp['gamma'] * t))
        step = numpy.clip(step, lower, upper)
    p -= hp['eta'] * (step * s['m'] + hp['weight_decay_rate'] * p)


_ADAM_DEFAULTS = dict(alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0,
                      weight_decay_rate=0, amsgrad=False, adabound=False, final_lr=0.1,
                      gamma=1e-3)
_ADAM_STATE = ('m', 'v')

# name: (optimizer class, constructor kwargs, defaults, change half-way, per-parameter
#        override, reference step, state keys)
CASES = {
    'SGD': (O.SGD, {'lr': 0.1}, {'lr': 0.01}, {'lr': 0.05}, {'lr': 0.3}, _sgd, ()),
    'MomentumSGD': (O.MomentumSGD, {'lr': 0.1, 'momentum': 0.8},
                    {'lr': 0.01, 'momentum': 0.9}, {'momentum': 0.5}, {'lr': 0.3},
                    _momentum_sgd, ('v',)),
    'CorrectedMomentumSGD': (O.CorrectedMomentumSGD, {'lr': 0.1},
                             {'lr': 0.01, 'momentum': 0.9}, {'lr': 0.02}, {'momentum': 0.5},
                             _corrected_momentum_sgd, ('v',)),
    'NesterovAG': (O.NesterovAG, {'lr': 0.1, 'momentum': 0.7}, {'lr': 0.01, 'momentum': 0.9},
                   {'lr': 0.05}, {'momentum': 0.3}, _nesterov_ag, ('v',)),
    'AdaGrad': (O.AdaGrad, {'lr': 0.1}, {'lr': 0.001, 'eps': 1e-8}, {'lr': 0.05},
                {'eps': 0.1}, _ada_grad, ('h',)),
    'RMSprop': (O.RMSprop, {'lr': 0.1, 'alpha': 0.9},
                {'lr': 0.01, 'alpha': 0.99, 'eps': 1e-8, 'eps_inside_sqrt': False},
                {'alpha': 0.5}, {'lr': 0.01}, _rmsprop, ('ms',)),
    'RMSprop-eps_inside_sqrt': (O.RMSprop, {'eps': 0.01, 'eps_inside_sqrt': True},
                                {'lr': 0.01, 'alpha': 0.99, 'eps': 1e-8,
                                 'eps_inside_sqrt': False},
                                {'lr': 0.05}, {'eps': 0.5}, _rmsprop, ('ms',)),
    'Adam': (O.Adam, {'alpha': 0.01}, _ADAM_DEFAULTS, {'alpha': 0.003, 'beta1': 0.5},
             {'beta2': 0.9}, _adam, _ADAM_STATE),
    'Adam-weight_decay': (O.Adam, {'alpha': 0.01, 'eta': 0.5, 'weight_decay_rate': 0.1},
                          _ADAM_DEFAULTS, {'eta': 0.25}, {'weight_decay_rate': 0.3}, _adam,
                          _ADAM_STATE),
    'AdamW': (O.AdamW, {'alpha': 0.02, 'weight_decay_rate': 0.05}, _ADAM_DEFAULTS,
              {'weight_decay_rate': 0.01}, {'alpha': 0.05}, _adam, _ADAM_STATE),
    'AMSGrad': (O.AMSGrad, {'alpha': 0.01, 'beta2': 0.5}, dict(_ADAM_DEFAULTS, amsgrad=True),
                {'beta2': 0.9}, {'beta1': 0.3}, _adam, _ADAM_STATE + ('vhat',)),
    'AdaBound': (O.AdaBound, {'alpha': 0.01, 'final_lr': 0.05, 'gamma': 0.1},
                 dict(_ADAM_DEFAULTS, adabound=True), {'alpha': 0.02}, {'gamma': 0.5}, _adam,
                 _ADAM_STATE),
    'AMSBound': (O.AMSBound, {'alpha': 0.01, 'gamma': 0.2},
                 dict(_ADAM_DEFAULTS, amsgrad=True, adabound=True), {'final_lr': 0.2},
                 {'beta2': 0.5}, _adam, _ADAM_STATE + ('vhat',)),
}

_N_STEPS = 5
_OVERRIDDEN = '/a/b'  # has its own hyperparameter entry from the start
_NO_GRAD_STEP = 3     # /c/W has no gradient at this step
_DISABLED_STEP = 4    # /c/W's rule is disabled during this step
_CHANGE_AFTER = 2     # the optimizer's hyperparameters change after this step


def _grads(paths, shapes, step):
    rng = numpy.random.RandomState(10 + step)
    grads = {path: rng.uniform(-1, 1, shapes[path]) for path in paths}
    if step == _NO_GRAD_STEP:
        grads['/c/W'] = None
    return grads


class _Reference:
    """The scenario in float64 NumPy."""

    def __init__(self, case, arrays):
        cls, kwargs, defaults, self.change, self.override, self.step_fn, self.keys = case
        hp = dict(defaults, **kwargs)
        hp['initial_alpha'] = hp.get('alpha')
        self.hp = {path: dict(hp) for path in arrays}
        self.hp[_OVERRIDDEN].update(self.override)
        self.params = {path: a.astype(numpy.float64) for path, a in arrays.items()}
        self.state = {path: {k: numpy.zeros_like(a) for k in self.keys}
                      for path, a in self.params.items()}
        self.t = dict.fromkeys(arrays, 0)

    def step(self, step, grads):
        for path, p in self.params.items():
            if path == '/c/W' and step == _DISABLED_STEP:
                continue
            self.t[path] += 1
            g = grads[path] if grads[path] is not None else numpy.zeros_like(p)
            self.step_fn(self.hp[path], self.state[path], p, g, self.t[path])
        if step == _CHANGE_AFTER:
            for path, hp in self.hp.items():
                hp.update({k: v for k, v in self.change.items()
                           if path != _OVERRIDDEN or k not in self.override})


@pytest.mark.parametrize('name', list(CASES))
def test_scenario(name, model, device):
    case = CASES[name]
    cls, kwargs, _, change, override, _, keys = case
    params = dict(model.namedparams())
    reference = _Reference(case, {path: backend.to_cpu(p.array) for path, p in params.items()})
    opt = cls(**kwargs).setup(model)
    for key, value in override.items():
        setattr(params[_OVERRIDDEN].update_rule.hyperparam, key, value)
    shapes = {path: p.shape for path, p in params.items()}

    for step in range(1, _N_STEPS + 1):
        grads = _grads(params, shapes, step)
        for path, param in params.items():
            g = grads[path]
            param.grad = None if g is None else device.send(g.astype(numpy.float32))
        params['/c/W'].update_rule.enabled = step != _DISABLED_STEP
        opt.update()
        reference.step(step, grads)
        if step == _CHANGE_AFTER:
            for key, value in change.items():
                setattr(opt, key, value)

        assert opt.t == step
        for path, param in params.items():
            rule = param.update_rule
            where = f'{name}, step {step}, {path}'
            assert param.device == device, where
            assert_allclose(param.array, reference.params[path], rtol=1e-5, atol=1e-6,
                            err_msg=where)
            assert rule.t == reference.t[path], where
            assert sorted(rule.state) == sorted(keys), where
            for key in keys:
                state = rule.state[key]
                assert backend.get_device_from_array(state) == device, where
                assert state.dtype == numpy.float32, where
                assert_allclose(state, reference.state[path][key], rtol=1e-5, atol=1e-6,
                                err_msg=f'{where}, state {key}')


@pytest.mark.parametrize('name', ['SGD', 'MomentumSGD', 'Adam', 'AdaGrad'])
def test_rule_without_grad_leaves_param(name, model):
    """Called directly (not through the optimizer), a rule skips a parameter without a
    gradient but counts the call."""
    cls, kwargs = CASES[name][:2]
    cls(**kwargs).setup(model)
    param = model.c.W
    before = param.array.copy()
    param.update()
    assert param.update_rule.t == 1
    numpy.testing.assert_array_equal(backend.to_cpu(param.array), backend.to_cpu(before))


@pytest.mark.parametrize('name', list(CASES))
def test_serialize_round_trip(name, make_model, device, save, load):
    """Saving after two updates and loading into a fresh model and optimizer, then updating
    both: the same parameters and state as without the interruption."""
    cls, kwargs = CASES[name][:2]
    steps = [_grads(('/a/W', '/a/b', '/c/W'), {'/a/W': (3, 2), '/a/b': (2,), '/c/W': (4,)},
                    step) for step in (1, 2, 4, 5)]

    def run(opt, model, grads_list):
        params = dict(model.namedparams())
        for grads in grads_list:
            for path, g in grads.items():
                params[path].grad = device.send(g.astype(numpy.float32))
            opt.update()

    model = make_model(device)
    opt = cls(**kwargs).setup(model)
    run(opt, model, steps[:2])
    snapshot = save(opt)
    assert snapshot['t'] == 2 and snapshot['epoch'] == 0
    assert int(snapshot['a/W/t']) == 2

    resumed = make_model(device)
    resumed.copyparams(model)
    resumed_opt = cls(**kwargs).setup(resumed)
    load(resumed_opt, snapshot)
    assert resumed_opt.t == 2 and isinstance(resumed_opt.t, int)
    run(opt, model, steps[2:])
    run(resumed_opt, resumed, steps[2:])
    for (path, p), (_, q) in zip(model.namedparams(), resumed.namedparams()):
        assert_allclose(q.array, p.array, rtol=0, atol=0, err_msg=path)
        for key, value in p.update_rule.state.items():
            resumed_value = q.update_rule.state[key]
            assert backend.get_device_from_array(resumed_value) == device
            assert_allclose(resumed_value, value, rtol=0, atol=0, err_msg=f'{path}/{key}')


_ADAM_ARGS = [('alpha', 0.001), ('beta1', 0.9), ('beta2', 0.999), ('eps', 1e-08), ('eta', 1.0)]
_BOUND_ARGS = _ADAM_ARGS[:3] + [('final_lr', 0.1), ('gamma', 0.001)] + _ADAM_ARGS[3:]
SIGNATURES = {  # Chainer 7.8.1's
    'SGD': [('lr', 0.01)],
    'MomentumSGD': [('lr', 0.01), ('momentum', 0.9)],
    'CorrectedMomentumSGD': [('lr', 0.01), ('momentum', 0.9)],
    'NesterovAG': [('lr', 0.01), ('momentum', 0.9)],
    'AdaGrad': [('lr', 0.001), ('eps', 1e-08)],
    'RMSprop': [('lr', 0.01), ('alpha', 0.99), ('eps', 1e-08), ('eps_inside_sqrt', False)],
    'Adam': _ADAM_ARGS + [('weight_decay_rate', 0), ('amsgrad', False), ('adabound', False),
                          ('final_lr', 0.1), ('gamma', 0.001)],
    'AdamW': _ADAM_ARGS + [('weight_decay_rate', 0)],
    'AMSGrad': _ADAM_ARGS,
    'AdaBound': _BOUND_ARGS,
    'AMSBound': _BOUND_ARGS,
}


@pytest.mark.parametrize('name', list(SIGNATURES))
def test_signature(name):
    cls = getattr(O, name)
    parameters = inspect.signature(cls).parameters.values()
    assert [(p.name, p.default) for p in parameters] == SIGNATURES[name]
    opt = cls()
    for key, default in SIGNATURES[name]:
        assert getattr(opt, key) == default
    rule = opt.create_update_rule()
    rule_args = list(inspect.signature(type(rule)).parameters)
    assert rule_args[0] == 'parent_hyperparam'
    assert set(SIGNATURES[name]) <= {(k, getattr(rule.hyperparam, k)) for k in rule_args[1:]}
