"""FCISResNet101 built small: the instance segmentation contract and presets, hybridize(),
weights by path (n_fg_class from the file, a contradicting one refused) and by name (the
manifest's sbd, coco and imagenet rows, checked before any download)."""

from __future__ import annotations

import numpy
import pytest

from framework.serializers import save_npz
from vision.models import FCISResNet101, get_model
from vision.utils.testing import assert_is_instance_segmentation_link
from vision.weights import get_weight

from .conftest import small_fcis


def _images():
    rng = numpy.random.RandomState(1)
    return [rng.randint(0, 256, (3, 96, 128)).astype(numpy.float32),
            rng.randint(0, 256, (3, 130, 90)).astype(numpy.float32)]


def test_registered_as_fcis_resnet101():
    assert get_model('fcis_resnet101') is FCISResNet101
    assert FCISResNet101.task == 'instance_segmentation'


@pytest.mark.parametrize('preset', ['visualize', 'evaluate', 'coco_evaluate'])
def test_predict_keeps_the_contract_with_each_preset(preset):
    model = small_fcis()
    model.use_preset(preset)
    assert model.min_drop_size == (2 if preset == 'coco_evaluate' else 16)
    assert_is_instance_segmentation_link(model, 3)


def test_an_unknown_preset_is_refused():
    with pytest.raises(ValueError, match="'visualize' or 'evaluate' or 'coco_evaluate'"):
        small_fcis().use_preset('fast')


def test_objects_are_found_and_masks_are_at_the_image_size():
    model = small_fcis()
    model.use_preset('evaluate')
    masks, labels, scores = model.predict(_images())
    for mask, label, score, img in zip(masks, labels, scores, _images()):
        assert mask.shape == (len(label), *img.shape[1:]) and len(label) > 0
        assert mask.any(axis=(1, 2)).all()
        assert (numpy.diff(label) >= 0).all()  # ordered by label
        assert ((score > 0) & (score < 1)).all()


def test_hybridized_predict_equals_eager():
    model = small_fcis()
    model.use_preset('evaluate')
    imgs = _images()
    x = model.xp.asarray(model.prepare(imgs[0])[None])
    eager_maps = [v.array for v in model.infer(x)]
    eager = model.predict(imgs)
    model.hybridize()
    assert model._static_graph is not None
    for a, e in zip(model.infer(x), eager_maps):
        numpy.testing.assert_allclose(a.array, e, rtol=1e-4, atol=1e-5)
    masks, labels, scores = model.predict(imgs)
    for a, e in zip(masks, eager[0]):
        assert a.shape == e.shape and (a != e).sum() <= 1e-4 * a.size
    for a, e in zip(labels, eager[1]):
        numpy.testing.assert_array_equal(a, e)
    for a, e in zip(scores, eager[2]):
        numpy.testing.assert_allclose(a, e, rtol=1e-4)
    model.hybridize(False)
    for outputs, references in zip(model.predict(imgs), eager):
        for a, e in zip(outputs, references):
            numpy.testing.assert_array_equal(a, e)


def test_an_npz_file_fixes_n_fg_class(tmp_path):
    model = small_fcis()
    save_npz(tmp_path / 'model.npz', model)
    loaded = FCISResNet101(pretrained_model=tmp_path / 'model.npz', min_size=64, max_size=96,
                           base_channels=4)
    assert loaded.n_class == 4
    params = dict(loaded.namedparams())
    for name, param in model.namedparams():
        numpy.testing.assert_array_equal(params[name].array, param.array)
    with pytest.raises(ValueError, match='n_fg_class=5 contradicts the file'):
        FCISResNet101(n_fg_class=5, pretrained_model=tmp_path / 'model.npz', base_channels=4)


def test_the_weights_by_name_and_their_arguments():
    assert get_weight('fcis_resnet101', 'sbd').n_class == 20
    coco = get_weight('fcis_resnet101', 'coco')
    assert coco.n_class == 80 and list(coco.model_kwargs['anchor_scales']) == [4, 8, 16, 32]
    assert get_weight('fcis_resnet101', 'imagenet').n_class is None
    # each refused before the weights are fetched
    with pytest.raises(ValueError, match='n_fg_class=80 contradicts the weights'):
        FCISResNet101(n_fg_class=80, pretrained_model='sbd')
    with pytest.raises(ValueError, match='anchor_scales=.* contradicts the weights'):
        FCISResNet101(pretrained_model='coco', anchor_scales=(8, 16, 32))
    with pytest.raises(ValueError, match='base_channels'):
        FCISResNet101(pretrained_model='sbd', base_channels=4)
    with pytest.raises(ValueError, match='n_fg_class must be given'):
        FCISResNet101(pretrained_model='imagenet')


def test_without_weights_n_fg_class_is_required():
    with pytest.raises(ValueError, match='n_fg_class must be given'):
        FCISResNet101(base_channels=4)


def test_the_coco_weights_set_the_anchors_and_proposals():
    model = FCISResNet101(n_fg_class=3, base_channels=4,
                          proposal_creator_params={'min_size': 2}, anchor_scales=(4, 8))
    assert len(model.rpn.anchor_base) == 6
    assert model.rpn.proposal_layer.min_size == 2
    assert model.rpn.proposal_layer.n_train_post_nms == 300  # FCIS's, kept
