"""A small CNN (Convolution2D, BatchNormalization, Linear in an L.Classifier) trains on
generated images through the Trainer with every extension on; the outputs are checked."""

import functools
import io
import json
import os

import numpy
import pytest
from PIL import Image

from framework import iterators, serializers
from framework.engine import get_engine


@pytest.fixture(scope='module')
def trained(small_cnn, tmp_path_factory):
    out = str(tmp_path_factory.mktemp('small_cnn'))
    progress, printed = io.StringIO(), io.StringIO()
    trainer, model = small_cnn.build_trainer(out, progress_out=progress, print_out=printed)
    trainer.run()
    return trainer, model, out, progress.getvalue(), printed.getvalue()


def _log(out, name='log'):
    with open(os.path.join(out, name)) as f:
        return json.load(f)


def test_it_learns(trained):
    _, _, out, _, _ = trained
    log = _log(out)
    assert log[-1]['main/loss'] < 0.7 * log[0]['main/loss']
    assert log[-1]['main/accuracy'] > 0.6
    assert log[-1]['validation/main/accuracy'] > 0.5


def test_output_files(trained, small_cnn):
    _, _, out, _, _ = trained
    files = sorted(os.listdir(out))
    models = [f for f in files if f.startswith('model_epoch_')]
    assert [f for f in files if not f.startswith('model_epoch_')] == [
        'cg.dot', 'log', 'log_iter', 'loss.png',
        'snapshot_iter_10', 'snapshot_iter_15', 'snapshot_iter_20']  # n_retains=3
    # snapshot_object fired when the validation loss reached a new minimum
    best, expected = float('inf'), []
    for entry in _log(out):
        if entry['validation/main/loss'] < best:
            best = entry['validation/main/loss']
            expected.append(f"model_epoch_{entry['epoch']}")
    assert models == sorted(expected)


def test_log(trained, small_cnn):
    trainer, _, out, _, _ = trained
    log = _log(out)
    assert [(e['epoch'], e['iteration']) for e in log] == [
        (e, e * small_cnn.ITERATIONS_PER_EPOCH) for e in range(1, small_cnn.N_EPOCH + 1)]
    for entry in log:
        assert {'main/loss', 'main/accuracy', 'validation/main/loss',
                'validation/main/accuracy', 'lr', 'alpha', 'main/micro_accuracy', 'elapsed_time',
                'predictor/conv1/W/data/mean', 'predictor/fc/b/grad/mean'} <= set(entry)
        # accuracy is a mean over equal batches: the micro average is the same
        assert entry['main/micro_accuracy'] == pytest.approx(entry['main/accuracy'])
    assert [e['alpha'] for e in log] == pytest.approx([0.01 * 0.9 ** k for k in range(4)])
    optimizer = trainer.updater.get_optimizer('main')
    assert (optimizer.beta1, optimizer.eta, optimizer.eps) == pytest.approx((0.8, 1.0, 1e-6))
    assert optimizer.weight_decay_rate == pytest.approx(0, abs=1e-12)
    assert optimizer.beta2 == pytest.approx(0.999 * 0.9995 ** 4)
    assert log == trainer.get_extension('LogReport').log
    assert len(_log(out, 'log_iter')) == 12
    with open(os.path.join(out, 'log')) as f:
        assert f.read() == json.dumps(log, indent=4)


def test_printed_table_and_progress(trained):
    _, _, _, progress, printed = trained
    lines = printed.splitlines()
    assert lines[0].split() == ['epoch', 'iteration', 'main/loss', 'main/accuracy',
                                'validation/main/loss', 'validation/main/accuracy', 'lr']
    assert [line.split()[:2] for line in lines[1:]] == [['1', '6'], ['2', '12'], ['3', '18'],
                                                        ['4', '24']]
    progress_lines = progress.splitlines()
    assert len(progress_lines) == 12 and '\033' not in progress
    assert progress_lines[-1].startswith('24 iter, 4 epoch / 4 epochs: total 100.00%')


def test_plot(trained):
    trainer, _, out, _, _ = trained
    with Image.open(os.path.join(out, 'loss.png')) as image:
        assert image.format == 'PNG'
        pixels = numpy.asarray(image.convert('RGB'))
    assert pixels.shape[0] > 200 and pixels.shape[1] > 300
    assert len(numpy.unique(pixels.reshape(-1, 3), axis=0)) > 10  # lines, not a blank image
    data = trainer.get_extension('PlotReport')._data
    assert [x for x, _ in data['main/loss']] == [1, 2, 3, 4]
    log = _log(out)
    assert [y for _, y in data['validation/main/loss']] == pytest.approx(
        [e['validation/main/loss'] for e in log])


def test_graph(trained):
    _, _, out, _, _ = trained
    with open(os.path.join(out, 'cg.dot')) as f:
        dot = f.read()
    assert dot.startswith('digraph graphname{')
    for label in ('SoftmaxCrossEntropy', 'LinearFunction', 'ReLU', 'MaxPoolingND',
                  'W: (4, 1, 3, 3), float32', 'gamma: (4), float32', 'W: (3, 128), float32'):
        assert label in dot


def test_snapshots_hold_the_training_state(trained, small_cnn, tmp_path):
    trainer, model, out, _, _ = trained
    with numpy.load(os.path.join(out, 'snapshot_iter_20')) as npz:
        assert int(npz['updater/iteration']) == 20
        assert int(npz['updater/iterator:main/epoch']) == 3
        assert {'updater/model:main/predictor/bn1/avg_mean',
                'updater/optimizer:main/predictor/conv1/W/v',
                'updater/iterator:main/order', 'extensions/LogReport/_log',
                'stop_trigger/previous_iteration', '_snapshot_elapsed_time'} <= set(npz.files)
    resumed, resumed_model = small_cnn.build_trainer(str(tmp_path), autoload=False)
    serializers.load_npz(os.path.join(out, 'snapshot_iter_20'), resumed)
    assert resumed.updater.iteration == 20
    assert resumed.get_extension('LogReport').log == _log(out)[:3]
    # the last epoch has the lowest validation loss: its model snapshot is the final model
    log = _log(out)
    assert log[-1]['validation/main/loss'] == min(e['validation/main/loss'] for e in log)
    _, fresh = small_cnn.build_trainer(str(tmp_path / 'x'), autoload=False)
    serializers.load_npz(os.path.join(out, f'model_epoch_{small_cnn.N_EPOCH}'), fresh)
    for (path, p), (_, q) in zip(model.namedparams(), fresh.namedparams()):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=path)
    for (path, p), (_, q) in zip(model.namedpersistents(), fresh.namedpersistents()):
        numpy.testing.assert_array_equal(p, q, err_msg=path)


@pytest.mark.parametrize('make_iterator', [
    functools.partial(iterators.MultiprocessIterator, n_processes=2),
    functools.partial(iterators.MultithreadIterator, n_threads=2),
    lambda *args, **kwargs: iterators.MultithreadIterator(*args, engine=get_engine(), **kwargs),
], ids=['MultiprocessIterator', 'MultithreadIterator', 'MultithreadIterator-engine'])
def test_parallel_iterators_train_the_same(trained, small_cnn, tmp_path, make_iterator):
    _, model, out, _, _ = trained
    trainer, parallel_model = small_cnn.build_trainer(
        str(tmp_path), make_iterator=make_iterator, progress_out=io.StringIO(),
        print_out=io.StringIO())
    trainer.run()  # finalizes the iterators (their workers) at the end
    for (path, p), (_, q) in zip(model.namedparams(), parallel_model.namedparams()):
        numpy.testing.assert_array_equal(q.array, p.array, err_msg=path)
    log, expected = _log(str(tmp_path)), _log(out)
    for entry in (*log, *expected):
        del entry['elapsed_time']
    assert log == expected
