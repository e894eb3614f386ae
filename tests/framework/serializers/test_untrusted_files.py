"""Files that try to run code when loaded are refused, and nothing of them runs."""

import builtins
import os
import pickle
import subprocess

import numpy
import pytest

from framework import Link, Parameter
from framework.serializers import UnsafePickleError, load_npz, load_torch


class _Payload:
    """Pickles as a call of ``func(*args)``: what a malicious file does."""

    def __init__(self, func, *args):
        self.func, self.args = func, args

    def __reduce__(self):
        return self.func, self.args


def _payloads(marker):
    code = f'open({str(marker)!r}, "w").close()'
    return {
        'posix.system': _Payload(os.system, f'touch {marker}'),
        'builtins.exec': _Payload(builtins.exec, code),
        'builtins.eval': _Payload(builtins.eval, code),
        'subprocess.Popen': _Payload(subprocess.Popen, ['touch', str(marker)]),
    }


NAMES = ['posix.system', 'builtins.exec', 'builtins.eval', 'subprocess.Popen']


@pytest.mark.parametrize('name', NAMES)
def test_zip_checkpoint_with_code_is_refused(tmp_path, torch_writer, name):
    marker = tmp_path / 'ran'
    payload = pickle.dumps({'weight': 1.0, 'evil': _payloads(marker)[name]}, protocol=2,
                           fix_imports=False)
    torch_writer.write_zip(tmp_path / 'evil.pth', {}, data_pkl=payload)
    with pytest.raises(UnsafePickleError, match=rf'refusing to load the global {name} '):
        load_torch(tmp_path / 'evil.pth')
    assert not marker.exists()


def test_code_after_valid_tensors_is_refused(tmp_path, torch_writer):
    w = torch_writer
    marker = tmp_path / 'ran'
    storage = w.Storage(numpy.ones(3, numpy.float32), 'FloatStorage', '0')
    w.write_zip(tmp_path / 'evil.pth', {'w': w.Tensor(storage, 0, (3,), (1,)),
                                        'z': _payloads(marker)['posix.system']})
    with pytest.raises(UnsafePickleError, match='posix.system'):
        load_torch(tmp_path / 'evil.pth')
    assert not marker.exists()


def test_legacy_checkpoint_with_code_is_refused(tmp_path, torch_writer):
    marker = tmp_path / 'ran'
    torch_writer.write_legacy(tmp_path / 'evil.pth', [_payloads(marker)['builtins.exec']])
    with pytest.raises(UnsafePickleError, match='builtins.exec'):
        load_torch(tmp_path / 'evil.pth')
    # The very first pickle of the stream (the magic number) is not trusted either.
    (tmp_path / 'evil2.pth').write_bytes(pickle.dumps(_payloads(marker)['posix.system']))
    with pytest.raises(UnsafePickleError, match='posix.system'):
        load_torch(tmp_path / 'evil2.pth')
    assert not marker.exists()


class _Holder(Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.W = Parameter(numpy.zeros(2, numpy.float32))


def test_npz_with_code_in_an_object_array_is_refused(tmp_path):
    marker = tmp_path / 'ran'
    evil = numpy.empty((), dtype=object)
    evil[()] = _payloads(marker)['posix.system']
    numpy.savez(tmp_path / 'evil.npz', W=evil)
    with pytest.raises(UnsafePickleError, match=r"npz .*evil.npz, entry 'W'.*posix.system"):
        load_npz(tmp_path / 'evil.npz', _Holder())
    assert not marker.exists()
