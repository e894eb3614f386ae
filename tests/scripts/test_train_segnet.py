"""train_segnet.py: the class weights, the check of the training labels, the one-line errors,
and a short training on tiny shapes (its loss falls, it resumes, a seed repeats it)."""

import json
import random

import numpy
import pytest

from framework.datasets import TupleDataset
from vision.datasets import ShapesSemanticSegmentationDataset
from vision.models.segmentation import PixelwiseSoftmaxClassifier

# SegNet Basic of 4 channels on 32x32 shapes, 8 training and 2 validation images.
_TINY = ['--dataset', 'shapes', '--base-channels', '4', '--size', '32', '--n-train', '8',
         '--n-val', '2', '--batchsize', '4', '--lr', '0.05', '--log-interval', '1',
         '--loaderjob', '1', '--snapshot-interval', '2']


def test_weights_are_median_frequency_balancing(load_script):
    train_segnet = load_script('train_segnet')
    labels = [numpy.array([[0, 0, 0, 1]]), numpy.array([[0, 2, -1, -1]])]
    # Frequencies: class 0 4/8 (both images), class 1 1/4, class 2 1/4 (one image each);
    # class 3 appears nowhere. Median 1/4.
    weight = train_segnet.calc_weight(labels, 4)
    assert weight.dtype == numpy.float32
    numpy.testing.assert_allclose(weight, [0.5, 1, 1, 0])


def test_flip_moves_the_labels_with_the_image(load_script):
    train_segnet = load_script('train_segnet')
    img = numpy.arange(6, dtype=numpy.float32).reshape(1, 2, 3).repeat(3, axis=0)
    label = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    flips = 0
    for seed in range(8):
        random.seed(seed)
        out_img, out_label = train_segnet.transform((img, label))
        numpy.testing.assert_array_equal(out_img[0], out_label)
        flips += out_label[0, 0] == 2
    assert 0 < flips < 8


def _bad_dataset(n: int, index: int, value: int):
    """Tiny shapes whose sample ``index`` has ``value`` at (1, 2)."""
    data = ShapesSemanticSegmentationDataset(n, 32, 0)
    labels = [data[i][1] for i in range(n)]
    labels[index][1, 2] = value
    return TupleDataset([data[i][0] for i in range(n)], labels)


@pytest.mark.parametrize('value', [5, -2])
def test_a_label_out_of_range_is_refused_with_the_sample_index(load_script, value):
    segmentation = load_script('_segmentation')
    checked = segmentation.CheckedLabelDataset(_bad_dataset(4, 2, value), 5)
    checked[1]
    message = (rf'sample 2 of the training set has the label {value} at \(y, x\) = \(1, 2\), '
               r'out of \[0, 4\] and not -1')
    with pytest.raises(segmentation._training.DatasetError, match=message):
        checked[2]
    with pytest.raises(ValueError, match=message):
        list(checked.labels())


def test_a_label_map_of_another_size_is_refused(load_script):
    segmentation = load_script('_segmentation')
    dataset = TupleDataset(numpy.zeros((1, 3, 4, 5), numpy.float32),
                           numpy.zeros((1, 4, 4), numpy.int32))
    with pytest.raises(ValueError, match=r"sample 0 .* shape \(4, 4\); expected \(4, 5\)"):
        segmentation.CheckedLabelDataset(dataset, 5)[0]


@pytest.mark.parametrize('class_weight', ['median-frequency', 'none'])
def test_a_bad_label_ends_the_run_with_one_line(load_script, monkeypatch, tmp_path, capsys,
                                                class_weight):
    train_segnet = load_script('train_segnet')
    monkeypatch.setattr(train_segnet._segmentation, 'ShapesSemanticSegmentationDataset',
                        lambda n, size, seed: _bad_dataset(n, 3, 7))
    with pytest.raises(SystemExit) as exit_info:
        train_segnet.main(_TINY + ['--out', str(tmp_path), '--class-weight', class_weight])
    assert exit_info.value.code == ('train_segnet.py: error: CheckedLabelDataset: sample 3 of '
                                    'the training set has the label 7 at (y, x) = (1, 2), out '
                                    'of [0, 4] and not -1 (ignored)')
    assert 'Traceback' not in capsys.readouterr().err


@pytest.mark.parametrize('options, message', [
    (['--dataset', 'voc'], "argument --dataset: invalid choice: 'voc'"),
    (['--lr', '0'], '--lr must be positive, but got 0'),
    (['--batchsize', '0'], 'argument --batchsize: must be 1 or more, but got 0'),
    (['--dataset', 'camvid', '--data-dir', 'no/such/dir'],
     "--data-dir must be a directory (or auto), but 'no/such/dir' is not"),
])
def test_mistaken_options_get_one_line(load_script, capsys, options, message):
    train_segnet = load_script('train_segnet')
    with pytest.raises(SystemExit) as exit_info:
        train_segnet.parse_args(options)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert f'error: {message}' in err[-1], err[-1]
    assert not any('Traceback' in line for line in err)


def test_the_recipe_is_chainercvs(load_script):
    args = load_script('train_segnet').parse_args([])
    assert (args.dataset, args.batchsize, args.iteration, args.lr, args.eval_interval) == (
        'camvid', 12, 16000, 0.1, 2000)


def _model(out):
    with numpy.load(out / 'model.npz') as npz:
        return {key: npz[key].tobytes() for key in npz.files}


@pytest.mark.slow
def test_training_falls_resumes_and_repeats(load_script, tmp_path):
    train_segnet = load_script('train_segnet')
    first = train_segnet.main(_TINY + ['--out', str(tmp_path / 'a'), '--iteration', '4'])
    assert first['iteration'] == 4 and 0 <= first['validation/main/miou'] <= 1
    assert sorted(p.name for p in (tmp_path / 'a').glob('snapshot_*')) == ['snapshot_iter_4']
    assert (tmp_path / 'a' / 'loss.png').exists() and (tmp_path / 'a' / 'miou.png').exists()

    # Started again with more iterations, it resumes from the snapshot...
    resumed = train_segnet.main(_TINY + ['--out', str(tmp_path / 'a'), '--iteration', '6'])
    assert resumed['iteration'] == 6
    # ... and ends where a run of 6 iterations from the same seed ends, bit for bit.
    whole = train_segnet.main(_TINY + ['--out', str(tmp_path / 'b'), '--iteration', '6'])
    assert _model(tmp_path / 'a') == _model(tmp_path / 'b')
    losses = [entry['main/loss'] for entry in json.loads((tmp_path / 'b' / 'log').read_text())]
    assert losses[-1] < losses[0]
    assert whole['main/loss'] == resumed['main/loss']

    from vision.models import SegNetBasic
    loaded = SegNetBasic(pretrained_model=tmp_path / 'b' / 'model.npz')
    assert loaded.n_class == 5


@pytest.mark.parametrize('option, weighted', [([], True), (['--class-weight', 'none'], False)])
def test_the_loss_weighs_the_classes_by_median_frequency_unless_told_not_to(
        load_script, monkeypatch, tmp_path, option, weighted):
    train_segnet = load_script('train_segnet')
    made = []

    def classifier(predictor, class_weight=None):
        made.append(class_weight)
        return PixelwiseSoftmaxClassifier(predictor, class_weight=class_weight)
    monkeypatch.setattr(train_segnet, 'PixelwiseSoftmaxClassifier', classifier)
    train_segnet.main(_TINY + option + ['--out', str(tmp_path), '--iteration', '1'])
    assert (made[0] is not None) == weighted
    if weighted:
        assert made[0].shape == (5,) and made[0].dtype == numpy.float32


# poly: the 4th of 4 updates runs at --lr * (1 - 3 / 4) ** 0.9 (PSPNet's PolynomialShift)
@pytest.mark.parametrize('option, last_lr', [([], 0.05),
                                             (['--lr-policy', 'poly'], 0.05 * 0.25 ** 0.9)])
def test_the_learning_rate_is_constant_or_decays_to_zero(load_script, tmp_path, option,
                                                         last_lr):
    train_segnet = load_script('train_segnet')
    log = train_segnet.main(_TINY + option + ['--out', str(tmp_path), '--iteration', '4'])
    assert log['lr'] == pytest.approx(last_lr, abs=1e-12)
