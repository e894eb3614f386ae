import importlib.util
from pathlib import Path

import numpy
import pytest

from framework import iterators, optimizers, training
from framework.datasets import TupleDataset
from framework.links import Classifier, Linear

_SCRIPTS = Path(__file__).resolve().parents[2] / 'scripts'
# A ResNet-14 of a sixteenth the width on 20x20 shapes (crops of 18): a few milliseconds per
# image.
_TINY = ['--dataset', 'shapes', '--model', 'resnet14', '--base-channels', '4', '--size', '20',
         '--n-val', '16', '--batchsize', '8', '--loaderjob', '1']


@pytest.fixture
def load_script(monkeypatch):
    """``load(name)``: imports ``scripts/<name>.py``, which imports ``_classification`` from
    its own folder."""
    monkeypatch.syspath_prepend(str(_SCRIPTS))

    def load(name):
        spec = importlib.util.spec_from_file_location(name, _SCRIPTS / f'{name}.py')
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load


def test_schedule_warms_up_then_steps(load_script):
    train_imagenet = load_script('train_imagenet')
    model = Classifier(Linear(2, 2))
    optimizer = optimizers.MomentumSGD()
    optimizer.setup(model)
    data = TupleDataset(numpy.zeros((4, 2), numpy.float32), numpy.zeros(4, numpy.int32))
    updater = training.StandardUpdater(iterators.SerialIterator(data, 4), optimizer)
    trainer = training.Trainer(updater, (36, 'iteration'), out='unused')
    train_imagenet.extend_schedule(trainer, 1.0, 36)
    lrs = []
    trainer.extend(lambda trainer: lrs.append(optimizer.lr), trigger=(1, 'iteration'))
    trainer.run()
    # Warm-up over round(36 * 5 / 90) = 2 iterations from 0.1; steps at 12, 24 and 32.
    expected = [0.55] + [1.0] * 10 + [0.1] * 12 + [0.01] * 8 + [0.001] * 5
    numpy.testing.assert_allclose(lrs, expected, rtol=1e-12)


def test_weight_decay_spares_batch_normalization(load_script):
    train_imagenet = load_script('train_imagenet')
    from vision.models import ResNet14
    model = ResNet14(n_class=4, base_channels=4)
    optimizer = train_imagenet.setup_optimizer(model, 0.1, 0.9, 1e-4)
    before = {}
    for name, param in model.namedparams():
        param.grad = numpy.zeros_like(param.array)
        param.array[...] = 1.0
        before[name] = param.array.copy()
    optimizer.update()
    for name, param in model.namedparams():
        # With a zero gradient, the first step is -lr * rate * param (decay) or nothing.
        decayed = not name.endswith(('/gamma', '/beta'))
        numpy.testing.assert_allclose(param.array, before[name] * (1 - 1e-5 * decayed),
                                      rtol=1e-7, err_msg=name)


@pytest.mark.parametrize('options, arch', [([], 'fb'), (['--arch', 'he'], 'he')])
def test_the_arch_of_the_blocks_is_chosen(load_script, options, arch):
    # 'he' is the arch of the FPN detectors, which start from such a classifier's file.
    train_imagenet = load_script('train_imagenet')
    args = train_imagenet.parse_args(_TINY + options)
    model = train_imagenet.build_model(args, 4)
    assert model.arch == arch
    stride = model.res3.a.conv1.conv.stride if arch == 'he' else model.res3.a.conv2.conv.stride
    assert stride == (2, 2)


def test_directory_dataset_needs_val(load_script, capsys):
    train_imagenet = load_script('train_imagenet')
    with pytest.raises(SystemExit):
        train_imagenet.parse_args(['--dataset', 'some/dir'])
    assert '--val is needed with a directory --dataset' in capsys.readouterr().err


@pytest.mark.slow
def test_train_resumes_and_eval_reads_its_model(load_script, tmp_path):
    train_imagenet = load_script('train_imagenet')
    eval_imagenet = load_script('eval_imagenet')
    out = ['--n-train', '16', '--out', str(tmp_path)]
    first = train_imagenet.main(_TINY + out + ['--epoch', '1'])
    assert (first['epoch'], first['iteration']) == (1, 2)
    assert sorted(p.name for p in tmp_path.glob('snapshot_*')) == ['snapshot_iter_2']

    # Started again with more epochs, it resumes from the snapshot.
    second = train_imagenet.main(_TINY + out + ['--epoch', '2'])
    assert (second['epoch'], second['iteration']) == (2, 4)
    assert sorted(p.name for p in tmp_path.glob('snapshot_*')) == ['snapshot_iter_4']

    result = eval_imagenet.main(_TINY + ['--pretrained-model', str(tmp_path / 'model.npz')])
    # The evaluation preprocesses as the training's validation did, on the same images.
    assert result['top-1 accuracy'] == pytest.approx(second['validation/main/accuracy'])
    assert result['top-5 accuracy'] == 1.0  # four classes
    # Run define-by-run rather than as a static graph, it scores the same.
    eager = eval_imagenet.main(_TINY + ['--pretrained-model', str(tmp_path / 'model.npz'),
                                        '--eager'])
    assert eager == result


def _trained_parameters(train_imagenet, out, loaderjob):
    options = _TINY + ['--n-train', '16', '--epoch', '1', '--out', str(out)]
    options[options.index('--loaderjob') + 1] = str(loaderjob)
    train_imagenet.main(options)
    with numpy.load(out / 'model.npz') as npz:
        return {key: npz[key].tobytes() for key in npz.files}


@pytest.mark.slow
def test_runs_with_the_same_seed_are_bit_identical(load_script, tmp_path):
    train_imagenet = load_script('train_imagenet')
    first = _trained_parameters(train_imagenet, tmp_path / 'a', 2)
    # The random crops and flips are drawn in the loader processes, seeded by example.
    assert _trained_parameters(train_imagenet, tmp_path / 'b', 2) == first
    assert _trained_parameters(train_imagenet, tmp_path / 'c', 1) == first
    # --loaderjob 0 loads in the main process, seeded too.
    in_process = _trained_parameters(train_imagenet, tmp_path / 'd', 0)
    assert _trained_parameters(train_imagenet, tmp_path / 'e', 0) == in_process
