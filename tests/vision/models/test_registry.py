import pytest

from vision.models import ResNet50, get_model, list_models, register_model
from vision.models._registry import TASKS

CLASSIFIERS = ['mobilenet_v2', 'resnet101', 'resnet14', 'resnet152', 'resnet50', 'se_resnet101',
               'se_resnet152', 'se_resnet50', 'se_resnext101', 'se_resnext50', 'vgg16']


def test_the_classifiers_are_registered():
    names = list_models()
    assert names == sorted(names)
    assert set(CLASSIFIERS) <= set(names)
    for name in CLASSIFIERS:
        assert get_model(name).model_name == name
    assert get_model('resnet50') is ResNet50


def test_duplicate_names_are_refused():
    with pytest.raises(ValueError, match="register_model: the name 'resnet50' is already "
                                         'registered to vision.models.classification.resnet.'
                                         'resnet.ResNet50'):
        register_model('resnet50')(type('Other', (), {}))
    assert get_model('resnet50') is ResNet50


def test_a_class_has_one_name():
    with pytest.raises(ValueError, match="ResNet50 is already registered as 'resnet50'"):
        register_model('resnet50_again_for_tests')(ResNet50)
    assert 'resnet50_again_for_tests' not in list_models()


def test_unknown_names_list_the_models():
    with pytest.raises(ValueError, match=r"get_model: no model is named 'resnet'; the models "
                                         r'are .*mobilenet_v2, .*resnet101, resnet14, '):
        get_model('resnet')
    with pytest.raises(ValueError, match='register_model: name must be a non-empty str'):
        register_model('')


def test_a_model_declares_its_task():
    with pytest.raises(ValueError, match="register_model: NoTask must declare its task as a "
                                         "class attribute, one of 'classification', "
                                         r".*but its task is None"):
        register_model('no_task_for_tests')(type('NoTask', (), {}))
    with pytest.raises(ValueError, match="but its task is 'segmentation'"):
        register_model('wrong_task_for_tests')(type('WrongTask', (), {'task': 'segmentation'}))
    assert not {'no_task_for_tests', 'wrong_task_for_tests'} & set(list_models())
    assert {get_model(name).task for name in CLASSIFIERS} == {'classification'}
    assert all(get_model(name).task in TASKS for name in list_models())
