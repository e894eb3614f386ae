"""StandardUpdater: batch, convert, optimizer.update, epochs, serialization."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import iterators, optimizers, training
from framework.dataset import converter
from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.testing import devices


class Regressor(framework.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(2, 1, initialW=numpy.ones((1, 2), numpy.float32))
        self.calls = []

    def forward(self, x, t):
        self.calls.append((x, t))
        return F.mean_squared_error(self.fc(x), t)


def _dataset(n=6):
    x = numpy.arange(2 * n, dtype=numpy.float32).reshape(n, 2) / 10
    t = x.sum(axis=1, keepdims=True) * 0.5
    return list(zip(x, t))


def _updater(batch_size=2, **kwargs):
    model = Regressor()
    optimizer = optimizers.SGD(lr=0.1).setup(model)
    it = iterators.SerialIterator(_dataset(), batch_size, shuffle=False)
    return training.StandardUpdater(it, optimizer, **kwargs), model, optimizer


def test_update_takes_a_batch_and_steps_the_optimizer():
    updater, model, optimizer = _updater()
    w0 = model.fc.W.array.copy()
    updater.update()
    assert updater.iteration == 1 and optimizer.t == 1
    (x, t), = model.calls
    numpy.testing.assert_array_equal(x, numpy.stack([d[0] for d in _dataset()[:2]]))
    x64, t64 = x.astype(numpy.float64), t.astype(numpy.float64)
    grad = 2 * ((x64 @ w0.T.astype(numpy.float64)) - t64).T @ x64 / x64.shape[0]
    numpy.testing.assert_allclose(model.fc.W.array, w0 - 0.1 * grad, rtol=1e-5)


def test_epochs_follow_the_main_iterator_and_count_in_the_optimizer():
    updater, _, optimizer = _updater()
    details = []
    for _ in range(4):
        updater.update()
        details.append((updater.epoch, updater.epoch_detail, updater.is_new_epoch))
    assert details == [(0, 1 / 3, False), (0, 2 / 3, False), (1, 1.0, True),
                       (1, 4 / 3, False)]
    assert updater.previous_epoch_detail == 1.0
    assert optimizer.epoch == 1 and optimizer.use_auto_new_epoch


def test_auto_new_epoch_false_leaves_the_epoch_count_alone():
    updater, _, optimizer = _updater(auto_new_epoch=False)
    for _ in range(3):
        updater.update()
    assert optimizer.epoch == 0 and not optimizer.use_auto_new_epoch


def test_loss_func_and_dict_arrays():
    seen = []
    model = Regressor()
    optimizer = optimizers.SGD().setup(model)
    data = [{'x': x, 't': t} for x, t in _dataset()]
    it = iterators.SerialIterator(data, 3, shuffle=False)

    def loss_func(x, t):
        seen.append(x.shape)
        return model(x, t)

    updater = training.StandardUpdater(it, optimizer, loss_func=loss_func)
    updater.update()
    assert seen == [(3, 2)]


def test_old_style_converter_gets_an_int_device():
    seen = []

    def old_converter(batch, device=None):
        seen.append(device)
        return framework.dataset.concat_examples(batch)

    updater, _, _ = _updater(converter=old_converter, device=-1)
    updater.update()
    updater_none, _, _ = _updater(converter=old_converter)
    updater_none.update()
    assert seen == [-1, None]


def test_old_style_converter_without_a_default_gets_none_as_in_chainer():
    seen = []

    def old_converter(batch, device):
        seen.append(device)
        return framework.dataset.concat_examples(batch)

    updater, _, _ = _updater(converter=old_converter)
    updater.update()
    assert seen == [None]


@pytest.mark.parametrize('device', devices(), ids=str)
def test_device_moves_the_model_and_the_arrays(device):
    seen = []

    @converter()
    def recording(batch, device):
        seen.append(device)
        return framework.dataset.concat_examples(batch, device)

    updater, model, _ = _updater(converter=recording, device=device)
    assert updater.device == device and updater.input_device == device
    assert model.fc.W.device == device
    updater.update()
    assert seen == [device]
    assert framework.backend.get_device_from_array(model.calls[0][0]) == device


def test_dicts_of_iterators_and_optimizers_need_main():
    updater, _, optimizer = _updater()
    it = updater.get_iterator('main')
    with pytest.raises(ValueError, match="'main' entry"):
        training.StandardUpdater({'train': it}, optimizer)
    assert updater.get_optimizer('main') is optimizer
    assert updater.get_all_optimizers() == {'main': optimizer}


def test_loss_scale_is_given_to_the_optimizers():
    _, _, optimizer = _updater(loss_scale=8.0)
    assert optimizer._loss_scale == 8.0


def test_serialize_uses_chainer_keys_and_resumes():
    updater, model, _ = _updater(batch_size=4)
    updater.update()
    saver = DictionarySerializer()
    updater.serialize(saver)
    keys = set(saver.target)
    assert {'iteration', 'iterator:main/current_position', 'iterator:main/epoch',
            'optimizer:main/t', 'optimizer:main/epoch', 'model:main/fc/W',
            'model:main/fc/b'} <= keys

    resumed, resumed_model, _ = _updater(batch_size=4)
    resumed.serialize(NpzDeserializer(saver.target))
    assert resumed.iteration == 1 and type(resumed.iteration) is int
    updater.update()
    resumed.update()
    numpy.testing.assert_array_equal(resumed_model.fc.W.array, model.fc.W.array)
    numpy.testing.assert_array_equal(resumed_model.calls[-1][0], model.calls[-1][0])


def test_finalize_finalizes_the_iterators():
    updater, _, _ = _updater()
    finalized = []
    updater.get_iterator('main').finalize = lambda: finalized.append(True)
    updater.finalize()
    assert finalized == [True]


def test_updater_base_is_abstract():
    base = training.Updater()
    base.connect_trainer(None)
    base.finalize()
    for call in (lambda: base.get_optimizer('main'), base.get_all_optimizers, base.update,
                 lambda: base.serialize(None)):
        with pytest.raises(NotImplementedError):
            call()
