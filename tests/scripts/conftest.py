"""The fixture of the tests of the training scripts: importing a script of ``scripts/``."""

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / 'scripts'


@pytest.fixture
def load_script(monkeypatch):
    """``load(name)``: imports ``scripts/<name>.py`` (registered in ``sys.modules`` while the
    test runs, as its dataclasses need), which imports ``_training`` and the other modules of
    its own folder."""
    monkeypatch.syspath_prepend(str(SCRIPTS))

    def load(name):
        spec = importlib.util.spec_from_file_location(name, SCRIPTS / f'{name}.py')
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
        return module
    return load
