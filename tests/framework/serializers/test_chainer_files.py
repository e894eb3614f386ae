"""Files written by Chainer 7 (``tests/data/tiny_chain*.npz``) load with the same keys.

The fixture is ``chainer.serializers.save_npz`` of ``Chain(conv=Convolution2D(3, 4, 3, pad=1),
bn=BatchNormalization(4), fc=Linear(256, 5))`` (forward ``fc(relu(bn(conv(x))))``) after three
``MomentumSGD(lr=0.1)`` steps, and of that optimizer; ``tiny_chain_expected.npz`` holds an input
``x`` and Chainer's eval-mode output ``y_eval``.
"""

import numpy
import pytest

import framework.links as L
from framework import Chain, Link, Parameter, backend, optimizers, using_config
from framework.serializers import NpzMismatchError, load_npz, save_npz
from framework.testing import devices

EPS = 2e-5  # Chainer's BatchNormalization default


class _Params(Link):
    """A stand-in for a Chainer layer: parameters (and persistents) of the given shapes."""

    def __init__(self, params, persistents=()):
        super().__init__()
        with self.init_scope():
            for name, shape in params.items():
                setattr(self, name, Parameter(numpy.zeros(shape, numpy.float32)))
        for name, value in persistents:
            self.add_persistent(name, value)


def _stand_in_chain():
    return Chain(
        conv=_Params({'W': (4, 3, 3, 3), 'b': (4,)}),
        bn=_Params({'gamma': (4,), 'beta': (4,)},
                   [('avg_mean', numpy.zeros(4, numpy.float32)),
                    ('avg_var', numpy.ones(4, numpy.float32)), ('N', 0)]),
        fc=_Params({'W': (5, 256), 'b': (5,)}))


def _reference_forward(chain, x):
    """``fc(relu(bn(conv(x))))`` in NumPy, from the chain's arrays."""
    conv, bn, fc = chain.conv, chain.bn, chain.fc
    padded = numpy.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = numpy.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
    h = numpy.einsum('bchwij,ocij->bohw', windows, conv.W.array) + conv.b.array[:, None, None]
    h = (h - bn.avg_mean[:, None, None]) / numpy.sqrt(bn.avg_var[:, None, None] + EPS)
    h = bn.gamma.array[:, None, None] * h + bn.beta.array[:, None, None]
    h = numpy.maximum(h, 0).reshape(len(x), -1)
    return h @ fc.W.array.T + fc.b.array


@pytest.fixture
def expected(data_dir):
    with numpy.load(data_dir / 'tiny_chain_expected.npz') as f:
        return f['x'], f['y_eval']


def test_tiny_chain_loads_strictly_with_chainer_keys(data_dir, expected):
    chain = _stand_in_chain()
    load_npz(data_dir / 'tiny_chain.npz', chain)
    with numpy.load(data_dir / 'tiny_chain.npz') as f:
        numpy.testing.assert_array_equal(chain.conv.W.array, f['conv/W'])
        numpy.testing.assert_array_equal(chain.bn.avg_var, f['bn/avg_var'])
        assert chain.bn.N == f['bn/N'] and type(chain.bn.N) is int
    x, y_eval = expected
    numpy.testing.assert_allclose(_reference_forward(chain, x), y_eval, rtol=1e-5, atol=1e-5)


_LAYERS = ('Convolution2D', 'BatchNormalization', 'Linear')


@pytest.mark.skipif(not all(hasattr(L, name) for name in _LAYERS),
                    reason='framework.links does not have the layers yet')
@pytest.mark.parametrize('device', devices(), ids=str)
def test_tiny_chain_with_the_layers_and_momentum_sgd(data_dir, tmp_path, expected, device):
    import framework.functions as F

    chain = Chain(conv=L.Convolution2D(3, 4, 3, pad=1), bn=L.BatchNormalization(4),
                  fc=L.Linear(256, 5)).to_device(device)
    load_npz(data_dir / 'tiny_chain.npz', chain, strict=True)
    save_npz(tmp_path / 'again.npz', chain)
    with numpy.load(data_dir / 'tiny_chain.npz') as f, numpy.load(tmp_path / 'again.npz') as g:
        assert set(g.files) == set(f.files)
        for key in f.files:
            numpy.testing.assert_array_equal(g[key], f[key], err_msg=key)
            assert g[key].dtype == f[key].dtype, key
    x, y_eval = expected
    x = chain.device.send(x)
    with using_config('train', False):
        y = chain.fc(F.relu(chain.bn(chain.conv(x))))
    numpy.testing.assert_allclose(backend.to_cpu(y.array), y_eval, rtol=1e-5, atol=1e-5)

    optimizer = optimizers.MomentumSGD(lr=0.1).setup(chain)
    load_npz(data_dir / 'tiny_chain_momentum_sgd.npz', optimizer, strict=True)
    assert optimizer.t == 3
    with numpy.load(data_dir / 'tiny_chain_momentum_sgd.npz') as f:
        for path, param in chain.namedparams():
            assert param.update_rule.t == 3
            numpy.testing.assert_array_equal(backend.to_cpu(param.update_rule.state['v']),
                                             f[path.lstrip('/') + '/v'])
    chain.cleargrads()
    F.sum(chain.fc(F.relu(chain.bn(chain.conv(x))))).backward()
    optimizer.update()
    assert optimizer.t == 4 and chain.fc.W.update_rule.t == 4


def test_momentum_sgd_state_loads_and_saves_with_chainer_keys(data_dir, tmp_path):
    chain = _stand_in_chain()
    optimizer = optimizers.MomentumSGD(lr=0.1)
    optimizer.setup(chain)
    fixture = data_dir / 'tiny_chain_momentum_sgd.npz'
    load_npz(fixture, optimizer, strict=True)
    with numpy.load(fixture) as f:
        stored = {key: f[key] for key in f.files}
    assert optimizer.t == 3 and optimizer.epoch == 0
    for path, param in chain.namedparams():
        key = path.lstrip('/')
        assert param.update_rule.t == 3
        numpy.testing.assert_array_equal(param.update_rule.state['v'], stored[key + '/v'])
    save_npz(tmp_path / 'opt.npz', optimizer)
    with numpy.load(tmp_path / 'opt.npz') as f:
        assert set(f.files) == set(stored)
        for key, value in stored.items():
            numpy.testing.assert_array_equal(f[key], value, err_msg=key)


def test_optimizer_loads_from_a_trainer_snapshot_path(data_dir, tmp_path):
    with numpy.load(data_dir / 'tiny_chain_momentum_sgd.npz') as f:
        snapshot = {'updater/optimizer:main/' + key: f[key] for key in f.files}
    numpy.savez(tmp_path / 'snapshot.npz', iteration=numpy.asarray(3), **snapshot)
    optimizer = optimizers.MomentumSGD(lr=0.1).setup(_stand_in_chain())
    load_npz(tmp_path / 'snapshot.npz', optimizer, path='updater/optimizer:main/')
    numpy.testing.assert_array_equal(optimizer.target.fc.b.update_rule.state['v'],
                                     snapshot['updater/optimizer:main/fc/b/v'])


def test_state_of_parameters_not_updated_may_be_missing(data_dir, tmp_path):
    # As in Chainer, a strict load leaves the state of a disabled update rule to be made later.
    with numpy.load(data_dir / 'tiny_chain_momentum_sgd.npz') as f:
        stored = {key: f[key] for key in f.files
                  if not (key.startswith('conv/') and key.endswith('/v'))}
    numpy.savez(tmp_path / 'opt.npz', **stored)
    chain = _stand_in_chain()
    optimizer = optimizers.MomentumSGD(lr=0.1).setup(chain)
    with pytest.raises(NpzMismatchError, match="keys missing from the file .*: conv/W/v"):
        load_npz(tmp_path / 'opt.npz', optimizer)
    chain = _stand_in_chain()
    optimizer = optimizers.MomentumSGD(lr=0.1).setup(chain)
    chain.conv.disable_update()
    load_npz(tmp_path / 'opt.npz', optimizer)
    assert chain.conv.W.update_rule.state is None and chain.conv.W.update_rule.t == 3
    numpy.testing.assert_array_equal(chain.fc.W.update_rule.state['v'], stored['fc/W/v'])
