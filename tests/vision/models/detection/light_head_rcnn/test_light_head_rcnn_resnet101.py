"""LightHeadRCNNResNet101: ChainerCV's configuration, its manifest rows, n_fg_class checked
against the weights before anything is built, and ResNet-101's ImageNet file fitting the
extractor."""

from __future__ import annotations

import numpy
import pytest

from framework import initializers
from vision.models import ResNet101, get_model
from vision.models.detection.light_head_rcnn import LightHeadRCNNResNet101, ResNet101Extractor
from vision.utils.testing.parity import model_shapes
from vision.weights import get_weight


def test_chainercvs_configuration():
    model = LightHeadRCNNResNet101(n_fg_class=3)
    assert get_model('light_head_rcnn_resnet101') is LightHeadRCNNResNet101
    assert model.task == 'detection' and model.n_class == 4
    assert (model.min_size, model.max_size, model.max_n_predict) == (800, 1333, 100)
    numpy.testing.assert_allclose(model.mean.ravel(), [122.7717, 115.9465, 102.9801])
    assert len(model.rpn.anchor_base) == 15 and model.rpn.feat_stride == 16
    creator = model.rpn.proposal_layer
    assert (creator.n_test_post_nms, creator.min_size, creator.n_train_post_nms) == (1000, 0,
                                                                                     2000)
    assert model.head.spatial_scale == 1 / 16 and model.head.roi_size == 7
    assert model.rpn.conv1.W.shape == (512, 1024, 3, 3)
    custom = LightHeadRCNNResNet101(n_fg_class=3, proposal_creator_params={'min_size': 8})
    assert custom.rpn.proposal_layer.min_size == 8


def test_n_fg_class_is_checked_against_the_weights(tmp_path):
    with pytest.raises(ValueError, match='n_fg_class must be given when pretrained_model'):
        LightHeadRCNNResNet101()
    with pytest.raises(ValueError, match=r"light_head_rcnn_resnet101: n_fg_class=20 "
                                         r"contradicts the weights 'coco', made for 80 "
                                         r"foreground classes"):
        LightHeadRCNNResNet101(n_fg_class=20, pretrained_model='coco')
    numpy.savez(tmp_path / 'voc.npz', **{'head/score/b': numpy.zeros(21, numpy.float32)})
    with pytest.raises(ValueError, match=r'light_head_rcnn_resnet101: n_fg_class=80 '
                                         r'contradicts the file .*voc\.npz, made for 20 '
                                         r'foreground classes'):
        LightHeadRCNNResNet101(n_fg_class=80, pretrained_model=tmp_path / 'voc.npz')
    with pytest.raises(ValueError, match=r"n_fg_class must be given with "
                                         r"pretrained_model='imagenet'"):
        LightHeadRCNNResNet101(pretrained_model='imagenet')


def test_the_manifests_rows():
    coco = get_weight('light_head_rcnn_resnet101', 'coco')
    assert coco.n_class == 80 and coco.converter == 'chainercv_npz'
    assert coco.source['url'].endswith('light_head_rcnn_resnet101_trained_2018_07_26.npz')
    assert [s['value'] for s in coco.scores] == [39.3]
    imagenet = get_weight('light_head_rcnn_resnet101', 'imagenet')
    assert imagenet.n_class is None
    assert imagenet.source == get_weight('faster_rcnn_fpn_resnet101', 'imagenet').source


def test_resnet101s_imagenet_file_fits_the_extractor():
    # 'imagenet' loads the file of ResNet101(arch='he') into the extractor, fc6 left unread:
    # the classifier's other parameters and statistics are the extractor's, of their shapes
    classifier = model_shapes(ResNet101(n_class=1000, arch='he', initialW=initializers.Zero()))
    extractor = model_shapes(ResNet101Extractor(initialW=initializers.Zero()))
    assert {k: v for k, v in classifier.items() if not k.startswith('fc6/')} == extractor
