"""The extension protocol: Extension defaults and make_extension."""

import pytest

from framework import training


def test_extension_defaults():
    ext = training.Extension()
    assert ext.trigger == (1, 'iteration')
    assert ext.priority == training.PRIORITY_READER
    assert ext.default_name == 'Extension'
    assert ext.name is None
    assert ext.initialize(None) is None and ext.finalize() is None
    assert ext.on_error(None, None, None) is None and ext.serialize(None) is None
    with pytest.raises(NotImplementedError):
        ext(None)


def test_priorities_order():
    assert (training.PRIORITY_WRITER > training.PRIORITY_EDITOR > training.PRIORITY_READER
            > training.PRIORITY_SNAPSHOT)


def test_make_extension_sets_the_attributes():
    def init(trainer):
        pass

    def fin():
        pass

    @training.make_extension(trigger=(2, 'epoch'), default_name='name', priority=5,
                             finalizer=fin, initializer=init)
    def ext(trainer):
        pass

    assert ext.trigger == (2, 'epoch') and ext.default_name == 'name' and ext.priority == 5
    assert ext.finalize is fin and ext.initialize is init and ext.on_error is None


def test_make_extension_defaults():
    @training.make_extension()
    def ext(trainer):
        pass

    assert ext.trigger == (1, 'iteration') and ext.default_name == 'ext'
    assert ext.priority == training.PRIORITY_READER
    assert ext.finalize is None and ext.initialize is None


def test_make_extension_rejects_invoke_before_training_with_value_error():
    with pytest.raises(ValueError, match='initializer='):
        training.make_extension(invoke_before_training=False)


def test_make_extension_rejects_unknown_keyword_arguments():
    with pytest.raises(TypeError, match='foo'):
        training.make_extension(foo=1)
