"""torchvision's DeepLabV3 and FCN on ResNet-50 converted into DeepLabV3ResNet50 and
FCNResNet50: the conversion of their state dicts, parity with torchvision on weights made by
the rule of the fixtures (tests/data/tv_<model>.npz, made by
make_torchvision_segmentation_fixture.py), a checkpoint of torchvision's layout written by
torch, and the manifest rows."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework.initializers import Zero
from vision.datasets import voc_semantic_segmentation_label_names
from vision.models import DeepLabV3ResNet50, FCNResNet50
from vision.models.segmentation.torchvision_segmentation.torchvision_converters import (
    convert_torchvision_deeplabv3,
    convert_torchvision_fcn,
)
from vision.transforms import scale
from vision.utils.testing.parity import model_shapes, read_params_tsv, rule_array, rule_state
from vision.weights import IMAGENET_TORCHVISION, Preprocessing, get_weight
from vision.weights.convert import converted_path

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TINY = DATA / 'tv_deeplabv3_resnet50_tiny.pth'
MODELS = {
    'deeplabv3_resnet50': (DeepLabV3ResNet50, convert_torchvision_deeplabv3),
    'fcn_resnet50': (FCNResNet50, convert_torchvision_fcn),
}
PUBLISHED = {
    'deeplabv3_resnet50': ('deeplabv3_resnet50_coco-cd0a2569.pth', 'cd0a2569', 66.4, 92.4),
    'fcn_resnet50': ('fcn_resnet50_coco-1167a1af.pth', '1167a1af', 60.5, 91.4),
}


def _tsv(name: str) -> pathlib.Path:
    return DATA / f'tv_{name}_params.tsv'


@pytest.mark.parametrize('name', MODELS)
def test_conversion_gives_every_parameter_of_the_model(name):
    cls, convert = MODELS[name]
    rows = read_params_tsv(_tsv(name))
    # the shapes are what is checked: zeros stand for the values
    arrays = convert({key: numpy.zeros(shape, dtype) for key, shape, dtype in rows},
                     IMAGENET_TORCHVISION)
    shapes = {key: value.shape for key, value in arrays.items() if not key.endswith('/N')}
    assert shapes == model_shapes(cls(n_class=21, aux_loss=True, initialW=Zero()))
    n_batches_tracked = sum(key.endswith('.num_batches_tracked') for key, _, _ in rows)
    assert len(shapes) == len(rows) - n_batches_tracked


@pytest.mark.parametrize('name', MODELS)
def test_a_foreign_key_is_refused(name):
    _, convert = MODELS[name]
    with pytest.raises(ValueError, match=f"torchvision_{name.split('_')[0]}: the checkpoint has "
                                         "the key 'backbone.fc.weight'"):
        convert({'backbone.fc.weight': numpy.zeros((1000, 2048))}, IMAGENET_TORCHVISION)


@pytest.mark.slow
@pytest.mark.parametrize('name', MODELS)
def test_weights_by_name_give_torchvisions_outputs(name, vision_home):
    """The rule's weights, converted and cached as the manifest's row would be, loaded by
    name: torchvision's raw outputs for its prepared input, and its label map."""
    cls, convert = MODELS[name]
    spec = get_weight(name, 'coco_with_voc_labels')
    path = pathlib.Path(converted_path(spec))
    path.parent.mkdir(parents=True)
    numpy.savez(path, **convert(rule_state(_tsv(name)), spec.preprocessing))
    with numpy.load(DATA / f'tv_{name}.npz') as f:
        fixture = dict(f)
    img, step = fixture['input'].astype(numpy.float32), int(fixture['step'])
    model = cls(pretrained_model='coco_with_voc_labels', aux_loss=True,
                resize_size=int(fixture['resize_size']))
    assert model.weight_spec == spec and model.n_class == 21

    x = scale(img, model.resize_size)
    normalized = (x / 255 - fixture['image_mean'][:, None, None]) / fixture['image_std'][
        :, None, None]
    numpy.testing.assert_allclose(normalized[:, ::step], fixture['prepared'], atol=1e-5)
    with framework.using_config('train', False), framework.no_backprop_mode():
        outputs = model.forward_with_aux((x - model.mean)[None])
    for output, key in zip(outputs, ('out', 'aux')):
        assert output.shape == tuple(fixture['out_shape'])
        expected = fixture[key]
        numpy.testing.assert_allclose(output.array[0, :, ::step, ::step], expected, rtol=1e-3,
                                      atol=1e-4 * numpy.abs(expected).max())
    label, = model.predict([img])
    assert label.dtype == numpy.int32 and label.shape == fixture['label'].shape
    assert (label == fixture['label']).mean() > 0.999


def test_a_checkpoint_of_torchvisions_layout_loads_by_path():
    # tests/data/make_torchvision_segmentation_fixture.py divides the channels by 32 and
    # fills each array by the rule for its own shape
    model = DeepLabV3ResNet50(pretrained_model=TINY, aux_loss=True)
    assert model.n_class == 21 and model.extractor.conv1.conv.out_channels == 2
    assert model.weight_spec is None
    scale_ = 1 / (numpy.asarray(IMAGENET_TORCHVISION.std) * 255)
    numpy.testing.assert_allclose(
        model.extractor.conv1.conv.W.array,
        rule_array('backbone.conv1.weight', (2, 3, 7, 7)) * scale_[None, :, None, None],
        rtol=1e-6)
    for link, key in ((model.extractor.res5.b2.conv3.bn.avg_var,
                       'backbone.layer4.2.bn3.running_var'),
                      (model.head.aspp.pool_conv.conv.W, 'classifier.0.convs.4.1.weight'),
                      (model.head.classifier.b, 'classifier.4.bias'),
                      (model.aux_head.classifier.W, 'aux_classifier.4.weight')):
        array = link.array if hasattr(link, 'array') else link
        numpy.testing.assert_array_equal(array, rule_array(key, array.shape))
    without_aux = DeepLabV3ResNet50(pretrained_model=TINY)
    assert not hasattr(without_aux, 'aux_head')
    numpy.testing.assert_array_equal(without_aux.head.classifier.W.array,
                                     model.head.classifier.W.array)


def test_classes_or_width_that_contradict_the_weights_are_refused():
    with pytest.raises(ValueError, match=f"deeplabv3_resnet50: n_class=5 contradicts the file "
                                         f"{TINY}, made for n_class=21: leave n_class out"):
        DeepLabV3ResNet50(n_class=5, pretrained_model=TINY)
    with pytest.raises(ValueError, match='base_channels=4 contradicts the file'):
        DeepLabV3ResNet50(pretrained_model=TINY, base_channels=4)
    with pytest.raises(ValueError, match="fcn_resnet50: n_class=20 contradicts the weights "
                                         "'coco_with_voc_labels', made for n_class=21"):
        FCNResNet50(n_class=20, pretrained_model='coco_with_voc_labels')
    with pytest.raises(ValueError, match="fcn_resnet50: the checkpoint .* holds no "
                                         "'classifier.4.weight': it is not a fcn_resnet50"):
        FCNResNet50(pretrained_model=DATA / 'tiny_classifier.pth')


@pytest.mark.parametrize('name', MODELS)
def test_manifest_row_is_torchvisions(name):
    spec = get_weight(name, 'coco_with_voc_labels')
    filename, prefix, miou, accuracy = PUBLISHED[name]
    assert spec.source['url'] == f'https://download.pytorch.org/models/{filename}'
    assert (spec.sha256, spec.sha256_prefix) == (None, prefix)
    assert spec.converter == f"torchvision_{name.split('_')[0]}" and spec.n_class == 21
    assert spec.label_names == tuple(voc_semantic_segmentation_label_names)
    assert spec.preprocessing == Preprocessing(
        mean=IMAGENET_TORCHVISION.mean, std=IMAGENET_TORCHVISION.std, value_range=1,
        resize=520, crop_size=None, crop=None)
    assert spec.preprocessing.resize == MODELS[name][0](n_class=1, base_channels=1).resize_size
    assert [(s['metric'], s['value']) for s in spec.scores] == [
        ('mean IoU', miou), ('pixel accuracy', accuracy)]
