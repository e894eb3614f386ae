"""Weights given to a model by path, recognised by their content."""

import zipfile

import numpy
import pytest

import framework
from framework.links import Chain
from framework.serializers import save_npz
from vision import weights
from vision.models import get_model


def _logits(model, img):
    model.pick = 'fc'
    with framework.using_config('train', False), framework.no_backprop_mode():
        return model((img - model.mean)[None]).array


def test_local_npz_in_our_layout_or_under_a_prefix(tmp_path, tiny_classifier, random_weights,
                                                   assert_same_params):
    source, data = random_weights()
    (tmp_path / 'plain.npz').write_bytes(data)
    assert_same_params(tiny_classifier(pretrained_model=tmp_path / 'plain.npz'), source)
    wrapper = Chain()
    with wrapper.init_scope():
        wrapper.predictor = source
    save_npz(tmp_path / 'classifier.npz', wrapper)
    model = tiny_classifier(pretrained_model=str(tmp_path / 'classifier.npz'))
    assert_same_params(model, source)
    assert model.weight_spec is None


def test_local_torch_checkpoint_is_recognised_by_content(tmp_path, tiny_classifier,
                                                         tiny_expected, tiny_checkpoint):
    path = tmp_path / 'weights.bin'
    path.write_bytes(tiny_checkpoint)
    assert weights.file_kind(path) == 'torch'
    model = tiny_classifier(pretrained_model=path)
    numpy.testing.assert_allclose(model.mean, weights.IMAGENET_TORCHVISION.model_mean())
    numpy.testing.assert_allclose(_logits(model, tiny_expected['img']),
                                  tiny_expected['logits'], rtol=1e-4, atol=1e-4)


def test_local_file_of_unknown_kind(tmp_path, tiny_classifier):
    (tmp_path / 'x.npy').write_bytes(b'\x93NUMPY rest')
    with pytest.raises(ValueError, match='x.npy is neither an NPZ file nor a PyTorch '
                                         'checkpoint'):
        tiny_classifier(pretrained_model=tmp_path / 'x.npy')


def test_resnet_from_a_torchvision_checkpoint_takes_torchvisions_layout(tmp_path, monkeypatch):
    """Only the routing: which converter and architecture arguments a .pth file brings (the
    conversion itself is checked against torchvision's outputs in the model tests)."""
    path = tmp_path / 'resnet50-0676ba61.pth'
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('archive/data.pkl', b'')
    seen = {}

    def fake_convert(path, converter, preprocessing):
        seen.update(converter=converter.name, preprocessing=preprocessing)
        return {}

    monkeypatch.setattr('vision.weights.load.convert_checkpoint', fake_convert)
    monkeypatch.setattr('framework.serializers.NpzDeserializer.load', lambda self, link: None)
    model = get_model('resnet50')(pretrained_model=str(path))
    assert seen == {'converter': 'torchvision_resnet',
                    'preprocessing': weights.IMAGENET_TORCHVISION}
    assert model.arch == 'fb' and model.pool1.pad == 1 and model.conv1.bn.eps == 1e-5
    with pytest.raises(ValueError, match="resnet50: arch must be 'fb' for the weights"):
        get_model('resnet50')(pretrained_model=str(path), arch='he')
