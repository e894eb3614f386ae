"""PyTorch checkpoints of the manifest converted once into NPZ files, and the converters."""

import hashlib
import shutil

import numpy
import pytest

import framework
from vision import weights


def _logits(model, img):
    model.pick = 'fc'
    with framework.using_config('train', False), framework.no_backprop_mode():
        return model((img - model.mean)[None]).array


def test_torch_checkpoint_is_converted_once(file_server, vision_home, weights_manifest,
                                            weight_row, tiny_classifier, tiny_expected,
                                            tiny_checkpoint, assert_same_params):
    url = file_server.serve('/models/tiny-abc.pth', tiny_checkpoint)
    prefix = hashlib.sha256(tiny_checkpoint).hexdigest()[:8]
    weights_manifest([weight_row(source={'url': url}, sha256_prefix=prefix,
                                 converter='tiny_torch_for_tests')])
    model = tiny_classifier(pretrained_model='demo')
    numpy.testing.assert_allclose(_logits(model, tiny_expected['img']),
                                  tiny_expected['logits'], rtol=1e-4, atol=1e-4)
    converted = list((vision_home / 'converted').rglob('*.npz'))
    assert len(converted) == 1
    # The conversion is kept: neither the checkpoint nor the network are needed again.
    shutil.rmtree(vision_home / 'downloads')
    file_server.files.clear()
    again = tiny_classifier(pretrained_model='demo')
    assert_same_params(again, model)
    assert file_server.paths == ['/models/tiny-abc.pth']


def test_checkpoints_the_model_reads_itself_have_no_npz(weights_manifest, weight_row):
    weights_manifest([weight_row(converter='pytorch_checkpoint')])
    spec = weights.get_weight('tiny_classifier_for_tests', 'demo')
    with pytest.raises(ValueError, match=r"converter 'pytorch_checkpoint'.*fetch_weight_files\("
                                         r"'tiny_classifier_for_tests', 'demo'\)"):
        spec.local_path()


def test_converters_refuse_duplicate_names():
    with pytest.raises(ValueError, match="the converter 'torchvision_resnet' already exists"):
        weights.register_converter('torchvision_resnet')(lambda state, pre: state)
