import importlib.util
from pathlib import Path

import pytest

from framework.testing import devices

_SCRIPT = Path(__file__).resolve().parents[2] / 'scripts' / 'train_toy_classifier.py'


def _load_script():
    spec = importlib.util.spec_from_file_location('train_toy_classifier', _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize('device', devices(), ids=str)
def test_training_reaches_high_accuracy(device):
    lines = []
    accuracy = _load_script().train(epochs=15, seed=0, device=device, log=lines.append)
    assert accuracy > 0.9
    assert len(lines) == 16
    first_loss = float(lines[1].split('loss')[1].split()[0])
    last_loss = float(lines[-1].split('loss')[1].split()[0])
    assert last_loss < first_loss / 5


def test_main_parses_arguments(capsys):
    accuracy = _load_script().main(['--epochs', '2', '--seed', '1'])
    assert 0.0 <= accuracy <= 1.0
    assert 'epoch   2' in capsys.readouterr().out
