"""train_pspnet.py: the augmentation, the weight decay, the options, the one-line end of a bad
label, and a short training of a tiny PSPNet on shapes (its loss falls, it resumes, a seed
repeats it)."""

import json
import random

import numpy
import pytest

from framework.datasets import TupleDataset

# PSPNet ResNet-50 of 2 channels in conv1_1 on 48x48 shapes (the least input), 8 training and
# 2 validation images.
_TINY = ['--dataset', 'shapes', '--model', 'pspnet_resnet50', '--base-channels', '2',
         '--size', '48', '--n-train', '8', '--n-val', '2', '--batchsize', '2',
         '--log-interval', '1', '--loaderjob', '1', '--snapshot-interval', '2']


def test_transform_keeps_the_labels_on_their_pixels(load_script):
    train_pspnet = load_script('train_pspnet')
    # Four quadrants of labels 0..3, the image's value 50 times the label.
    label = numpy.kron(numpy.arange(4).reshape(2, 2), numpy.ones((30, 40))).astype(numpy.int32)
    img = numpy.repeat(50 * label[None].astype(numpy.float32), 3, axis=0)
    mean = numpy.full((3, 1, 1), 10, numpy.float32)
    transform = train_pspnet.Transform(mean, (48, 48))
    rotated = False
    for seed in range(6):
        random.seed(seed)
        numpy.random.seed(seed)
        x, t = transform((img, label))
        assert (x.shape, x.dtype, t.shape, t.dtype) == (
            (3, 48, 48), numpy.float32, (48, 48), numpy.int32)
        assert set(numpy.unique(t)) <= {-1, 0, 1, 2, 3}
        rotated |= bool((t == -1).any())
        # Away from the edges of the quadrants, the image shows its pixels' labels.
        labelled = t >= 0
        agree = numpy.abs(x[0] + 10 - 50 * t) < 5
        assert agree[labelled].mean() > 0.9, seed
    assert rotated


def test_weight_decay_spares_batch_normalization_and_the_auxiliary_head(load_script):
    train_pspnet = load_script('train_pspnet')
    from framework import optimizers
    from vision.models import PSPNetResNet50
    from vision.models.segmentation.pspnet import PSPNetTrainChain
    chain = PSPNetTrainChain(PSPNetResNet50(n_class=3, base_channels=2, input_size=48))
    optimizers.MomentumSGD().setup(chain)
    train_pspnet.setup_hooks(chain)
    decayed = {name for name, param in chain.namedparams()
               if param.update_rule._hooks.of('pre')}
    assert '/model/head_conv2/W' in decayed and '/model/extractor/conv1_1/conv/W' in decayed
    assert not any(name.startswith('/aux') or name.endswith(('/gamma', '/beta'))
                   for name in decayed)


@pytest.mark.parametrize('flip', [False, True])
def test_the_augmentation_narrowed_to_nothing_only_crops_and_flips(load_script, flip):
    train_pspnet = load_script('train_pspnet')
    rng = numpy.random.RandomState(0)
    img = rng.uniform(0, 255, (3, 48, 48)).astype(numpy.float32)
    label = rng.randint(0, 5, (48, 48)).astype(numpy.int32)
    mean = numpy.full((3, 1, 1), 10, numpy.float32)
    transform = train_pspnet.Transform(mean, (48, 48), (1, 1), 0)
    seed = next(s for s in range(20) if (numpy.random.RandomState(s).rand(3)[2] > 0.5) == flip)
    numpy.random.seed(seed)
    x, t = transform((img, label))
    if flip:
        img, label = img[:, :, ::-1], label[:, ::-1]
    numpy.testing.assert_array_equal(x, img - mean)
    numpy.testing.assert_array_equal(t, label)


@pytest.mark.parametrize('options, message', [
    (['--dataset', 'camvid'], "argument --dataset: invalid choice: 'camvid'"),
    (['--dataset', 'shapes', '--scale-range', '2', '1'],
     '--scale-range must be two scales 0 < MIN <= MAX, but got 2 1'),
    (['--dataset', 'shapes', '--scale-range', '0', '1'],
     '--scale-range must be two scales 0 < MIN <= MAX, but got 0 1'),
    (['--dataset', 'shapes', '--max-angle', '-5'], '--max-angle must be 0 or more, but got -5'),
    (['--dataset', 'shapes', '--size', '32'],
     '--input-size must be 48 or more (8 times the finest pyramid of the pooling), but got 32'),
    (['--model', 'pspnet_resnet18'], "argument --model: invalid choice: 'pspnet_resnet18'"),
])
def test_mistaken_options_get_one_line(load_script, capsys, options, message):
    train_pspnet = load_script('train_pspnet')
    with pytest.raises(SystemExit) as exit_info:
        train_pspnet.parse_args(options)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert f'error: {message}' in err[-1], err[-1]
    assert not any('Traceback' in line for line in err)


def test_the_recipe_is_chainercvs(load_script):
    train_pspnet = load_script('train_pspnet')
    for dataset, iteration, input_size in (('cityscapes', 90000, 713), ('ade20k', 150000, 473)):
        args = train_pspnet.parse_args(['--dataset', dataset])
        assert (args.model, args.batchsize, args.lr, args.iteration, args.input_size,
                args.pretrained_model) == ('pspnet_resnet101', 16, 0.01, iteration, input_size,
                                           'imagenet')
    args = train_pspnet.parse_args(['--dataset', 'shapes'])
    assert args.pretrained_model is None
    assert (tuple(args.scale_range), args.max_angle) == ((0.5, 2.0), 10)


def test_the_augmentation_takes_the_options(load_script, monkeypatch, tmp_path):
    train_pspnet = load_script('train_pspnet')
    made = []

    class Recording(train_pspnet.Transform):
        def __init__(self, *args):
            super().__init__(*args)
            made.append((self.scale_range, self.max_angle))
    monkeypatch.setattr(train_pspnet, 'Transform', Recording)
    train_pspnet.main(_TINY + ['--out', str(tmp_path), '--iteration', '1', '--scale-range',
                               '0.75', '1.25', '--max-angle', '0', '--loaderjob', '0'])
    assert made == [((0.75, 1.25), 0)]


def test_a_bad_label_read_by_a_loader_ends_the_run_with_one_line(load_script, monkeypatch,
                                                                tmp_path, capsys):
    train_pspnet = load_script('train_pspnet')
    dataset = train_pspnet._segmentation.ShapesSemanticSegmentationDataset(8, 48, 0)
    labels = [dataset[i][1] for i in range(8)]
    labels[5][0, 0] = 9
    monkeypatch.setattr(train_pspnet._segmentation, 'ShapesSemanticSegmentationDataset',
                        lambda n, size, seed: TupleDataset([dataset[i][0] for i in range(8)],
                                                           labels))
    with pytest.raises(SystemExit) as exit_info:
        train_pspnet.main(_TINY + ['--out', str(tmp_path), '--batchsize', '8'])
    assert exit_info.value.code == ('train_pspnet.py: error: CheckedLabelDataset: sample 5 of '
                                    'the training set has the label 9 at (y, x) = (0, 0), out '
                                    'of [0, 4] and not -1 (ignored)')
    assert 'Traceback' not in capsys.readouterr().err


def _model(out):
    with numpy.load(out / 'model.npz') as npz:
        return {key: npz[key].tobytes() for key in npz.files}


@pytest.mark.slow
def test_training_falls_resumes_and_repeats(load_script, tmp_path):
    train_pspnet = load_script('train_pspnet')
    options = _TINY + ['--lr', '0.02']
    first = train_pspnet.main(options + ['--out', str(tmp_path / 'a'), '--iteration', '2'])
    assert first['iteration'] == 2 and 0 <= first['validation/main/miou'] <= 1
    assert (tmp_path / 'a' / 'loss.png').exists() and (tmp_path / 'a' / 'miou.png').exists()
    # Started again with more iterations, it resumes from the snapshot (the learning rate
    # then decays over the new --iteration).
    resumed = train_pspnet.main(options + ['--out', str(tmp_path / 'a'), '--iteration', '4'])
    assert resumed['iteration'] == 4
    assert sorted(p.name for p in (tmp_path / 'a').glob('snapshot_*')) == ['snapshot_iter_4']

    # Two runs with the same seed are bit-identical, whatever the loader processes.
    options += ['--iteration', '4']
    train_pspnet.main(options + ['--out', str(tmp_path / 'b')])
    options[options.index('--loaderjob') + 1] = '2'
    train_pspnet.main(options + ['--out', str(tmp_path / 'c')])
    assert _model(tmp_path / 'b') == _model(tmp_path / 'c')
    losses = [entry['main/loss'] for entry in json.loads((tmp_path / 'b' / 'log').read_text())]
    assert losses[-1] < losses[0]
