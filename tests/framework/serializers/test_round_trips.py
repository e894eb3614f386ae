"""Every layer and every optimizer survives save_npz / load_npz with exactly its values."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
import framework.optimizers as O
from framework.serializers import load_npz, save_npz

LAYERS = {
    'Linear': lambda: L.Linear(3, 4),
    'Convolution2D': lambda: L.Convolution2D(3, 4, 3, pad=1),
    'Convolution1D': lambda: L.Convolution1D(3, 4, 3),
    'Convolution3D': lambda: L.Convolution3D(3, 4, 2),
    'Deconvolution2D': lambda: L.Deconvolution2D(3, 4, 3),
    'Deconvolution1D': lambda: L.Deconvolution1D(3, 4, 3),
    'DilatedConvolution2D': lambda: L.DilatedConvolution2D(3, 4, 3, dilate=2),
    'DepthwiseConvolution2D': lambda: L.DepthwiseConvolution2D(3, 2, 3),
    'BatchNormalization': lambda: L.BatchNormalization(4),
    'GroupNormalization': lambda: L.GroupNormalization(2, 4),
    'LayerNormalization': lambda: L.LayerNormalization(4),
    'PReLU': lambda: L.PReLU((4,)),
    'Scale': lambda: L.Scale(axis=1, W_shape=(4,), bias_term=True),
    'Bias': lambda: L.Bias(axis=1, shape=(4,)),
    'EmbedID': lambda: L.EmbedID(10, 4),
    'Maxout': lambda: L.Maxout(4, 3, 2),
    'Conv2DActiv': lambda: L.Conv2DActiv(3, 4, 3),
    'Conv2DBNActiv': lambda: L.Conv2DBNActiv(3, 4, 3),
    'SeparableConv2DBNActiv': lambda: L.SeparableConv2DBNActiv(4, 6, 3),
    'SEBlock': lambda: L.SEBlock(8, ratio=4),
}


def _perturbed(link):
    rng = numpy.random.RandomState(0)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)
    return link


@pytest.mark.parametrize('name', sorted(LAYERS))
def test_layer_round_trip(name, tmp_path):
    framework.random.seed(1)
    saved = _perturbed(LAYERS[name]())
    save_npz(tmp_path / 'layer.npz', saved)
    framework.random.seed(2)
    loaded = LAYERS[name]()
    load_npz(tmp_path / 'layer.npz', loaded)
    params = dict(loaded.namedparams())
    assert sorted(params) == sorted(p for p, _ in saved.namedparams())
    for path, param in saved.namedparams():
        numpy.testing.assert_array_equal(params[path].array, param.array, err_msg=path)
    persistents = dict(loaded.namedpersistents())
    for path, value in saved.namedpersistents():
        numpy.testing.assert_array_equal(persistents[path], value, err_msg=path)


OPTIMIZERS = {
    'SGD': O.SGD, 'MomentumSGD': O.MomentumSGD, 'CorrectedMomentumSGD': O.CorrectedMomentumSGD,
    'NesterovAG': O.NesterovAG, 'AdaGrad': O.AdaGrad, 'RMSprop': O.RMSprop, 'Adam': O.Adam,
    'AdamW': O.AdamW, 'AMSGrad': O.AMSGrad, 'AdaBound': O.AdaBound, 'AMSBound': O.AMSBound,
}


def _train(optimizer, model, steps, x):
    for _ in range(steps):
        optimizer.update(lambda: F.sum(F.tanh(model(x)) ** 2))


@pytest.mark.parametrize('name', sorted(OPTIMIZERS))
def test_optimizer_round_trip_resumes_exactly(name, tmp_path):
    x = numpy.random.RandomState(3).uniform(-1, 1, (5, 3)).astype(numpy.float32)
    framework.random.seed(0)
    model = L.Linear(3, 2)
    optimizer = OPTIMIZERS[name]()
    optimizer.setup(model)
    _train(optimizer, model, 3, x)
    save_npz(tmp_path / 'model.npz', model)
    save_npz(tmp_path / 'optimizer.npz', optimizer)
    _train(optimizer, model, 2, x)

    framework.random.seed(5)
    resumed = L.Linear(3, 2)
    resumed_optimizer = OPTIMIZERS[name]()
    resumed_optimizer.setup(resumed)
    load_npz(tmp_path / 'model.npz', resumed)
    load_npz(tmp_path / 'optimizer.npz', resumed_optimizer)
    assert resumed_optimizer.t == 3
    _train(resumed_optimizer, resumed, 2, x)
    for (path, a), (_, b) in zip(model.namedparams(), resumed.namedparams()):
        numpy.testing.assert_array_equal(b.array, a.array, err_msg=path)
