"""train_light_head_rcnn.py: ChainerCV's recipe, its options, the batches padded with zeros,
images without boxes left out of the loss, and a short training on tiny shapes."""

import numpy
import pytest

from vision.datasets import shapes_label_names
from vision.models.detection.light_head_rcnn import LightHeadRCNNResNet101

# Light-Head R-CNN at its width on 64x64 shapes scaled to 64x64..96, 4 training images.
_SHAPES = ['--dataset', 'shapes', '--size', '64', '--n-train', '4', '--n-val', '2',
           '--batchsize', '2', '--min-size', '64', '--max-size', '96', '--loaderjob', '0',
           '--log-interval', '1', '--lr', '1e-4', '--step', '1']


def test_the_recipe_is_chainercvs(load_script):
    script = load_script('train_light_head_rcnn')
    recipe = script.RECIPE
    assert (recipe.lr, recipe.batchsize, recipe.dataset) == (0.005, 8, 'coco')
    assert recipe.iteration == 439748 and recipe.steps == (293165, 381114)
    args = script.parse_args([])
    assert (args.pretrained_model, args.min_size, args.max_size) == ('imagenet', 800, 1333)
    assert script.parse_args(['--dataset', 'shapes']).pretrained_model is None


def test_base_channels_get_one_line(load_script, capsys):
    with pytest.raises(SystemExit):
        load_script('train_light_head_rcnn').parse_args(['--base-channels', '8'])
    assert "--base-channels: Light-Head R-CNN ResNet-101 has ResNet-101's widths" in \
        capsys.readouterr().err


def test_batches_are_padded_with_zeros(load_script):
    script = load_script('train_light_head_rcnn')
    batch = [(numpy.ones((3, 4, 6), numpy.float32), numpy.zeros((2, 4), numpy.float32),
              numpy.zeros(2, numpy.int32), 1.5),
             (numpy.full((3, 5, 3), 2, numpy.float32), numpy.zeros((0, 4), numpy.float32),
              numpy.zeros(0, numpy.int32), 0.5)]
    imgs, bboxes, labels, scales = script.converter(batch)
    assert imgs.shape == (2, 3, 5, 6)
    assert (imgs[0, :, :4, :6] == 1).all() and (imgs[0, :, 4] == 0).all()
    assert (imgs[1, :, :, :3] == 2).all() and (imgs[1, :, :, 3:] == 0).all()
    assert [len(b) for b in bboxes] == [2, 0] and [len(t) for t in labels] == [2, 0]
    numpy.testing.assert_array_equal(scales, numpy.array([1.5, 0.5], numpy.float32))


def test_images_without_boxes_are_left_out_of_the_loss(load_script):
    script = load_script('train_light_head_rcnn')
    model = LightHeadRCNNResNet101(n_fg_class=3, min_size=64, max_size=96,
                                   resnet_initialW=script.initializers.HeNormal(scale=0.5))
    rng = numpy.random.RandomState(0)
    imgs = rng.uniform(-100, 100, (2, 3, 64, 80)).astype(numpy.float32)
    bbox = numpy.array([[10, 10, 40, 50]], numpy.float32)
    label = numpy.array([1], numpy.int32)
    none = (numpy.zeros((0, 4), numpy.float32), numpy.zeros(0, numpy.int32))
    both = script.TrainChain(model, 0, 0)(imgs, [bbox, none[0]], [label, none[1]],
                                          numpy.ones(2, numpy.float32))
    alone = script.TrainChain(model, 0, 0)(imgs[:1], [bbox], [label],
                                           numpy.ones(1, numpy.float32))
    assert float(both.array) == float(alone.array)
    chain = script.TrainChain(model, 0, 0)
    loss = chain(imgs, [none[0]] * 2, [none[1]] * 2, numpy.ones(2, numpy.float32))
    assert float(loss.array) == 0
    chain.cleargrads()
    loss.backward()
    assert all((param.grad == 0).all() for param in model.params())


@pytest.mark.slow
def test_a_short_training_writes_a_model_its_class_loads(load_script, tmp_path):
    script = load_script('train_light_head_rcnn')
    log = script.main(_SHAPES + ['--iteration', '2', '--eval-interval', '100',
                                 '--out', str(tmp_path)])
    assert log['iteration'] == 2 and numpy.isfinite(log['main/loss'])
    model = LightHeadRCNNResNet101(pretrained_model=tmp_path / 'model.npz')
    assert model.n_class == len(shapes_label_names) + 1
