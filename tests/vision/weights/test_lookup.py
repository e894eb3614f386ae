"""Weights by model, name and constructor arguments."""

import pytest

from vision import weights


def test_selection_by_model_kwargs_and_argument_checks(weights_manifest, weight_row,
                                                       tiny_classifier):
    weights_manifest([weight_row(n_class=1001, categories='imagenet_with_background')])
    with pytest.raises(ValueError, match='tiny_classifier_for_tests: n_class must be 1001 for '
                                         "the weights 'demo', but got 5"):
        tiny_classifier(pretrained_model='demo', n_class=5)
    with pytest.raises(ValueError, match=r"unknown pretrained_model 'dem'.*The weights of "
                                         r'tiny_classifier_for_tests are: '
                                         r'tiny_classifier_for_tests/demo$'):
        tiny_classifier(pretrained_model='dem')
    resnet = [s for s in weights.list_weights() if s.model == 'resnet50']
    assert resnet == []  # only the manifest of the test is read


@pytest.mark.filterwarnings('ignore:.*without a published hash')
def test_fetch_weight_files_of_a_url(file_server, vision_home, weights_manifest, weight_row,
                                     random_weights):
    _, data = random_weights()
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url})])
    paths = weights.fetch_weight_files('tiny_classifier_for_tests', 'demo')
    assert list(paths) == ['tiny.npz']
    with open(paths['tiny.npz'], 'rb') as f:
        assert f.read() == data
    with pytest.raises(ValueError, match="unknown pretrained_model 'other'"):
        weights.fetch_weight_files('tiny_classifier_for_tests', 'other')
