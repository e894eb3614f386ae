import threading

import framework
from framework import config, force_backprop_mode, no_backprop_mode, using_config


def test_defaults():
    assert config.train is True
    assert config.enable_backprop is True
    assert config.type_check is True


def test_using_config_restores():
    with using_config('train', False):
        assert config.train is False
        with using_config('train', True):
            assert config.train is True
        assert config.train is False
    assert config.train is True


def test_using_config_restores_on_error():
    try:
        with using_config('enable_backprop', False):
            raise KeyError
    except KeyError:
        pass
    assert config.enable_backprop is True


def test_backprop_modes():
    with no_backprop_mode():
        assert not config.enable_backprop
        with force_backprop_mode():
            assert config.enable_backprop
        assert not config.enable_backprop


def test_config_is_thread_local():
    seen = []
    with using_config('train', False):
        thread = threading.Thread(target=lambda: seen.append(config.train))
        thread.start()
        thread.join()
    assert seen == [True]


def test_global_config_is_the_fallback():
    framework.global_config.debug = True
    try:
        assert config.debug is True
    finally:
        framework.global_config.debug = False


def test_show_lists_entries():
    assert 'enable_backprop' in config.show()
