import re

import numpy

from vision.utils import ProgressHook, apply_to_iterator


def _batches(n, batchsize):
    data = [numpy.zeros((3, 4, 4)) for _ in range(n)]
    return [data[i:i + batchsize] for i in range(0, n, batchsize)]


def test_with_total(capsys):
    hook = ProgressHook(n_total=5)
    in_values, _, _ = apply_to_iterator(lambda imgs: [0] * len(imgs), iter(_batches(5, 2)),
                                        hook=hook)
    for _ in in_values[0]:
        pass
    out = capsys.readouterr().out
    lines = out.split('\r')[1:]
    assert [re.match(r'(\d+) of 5 samples, [\d.]+ samples/sec, ETA +\d+:\d\d:\d\d$', line)[1]
            for line in lines] == ['2', '4', '5']
    assert hook.n_processed == 5


def test_without_total(capsys):
    hook = ProgressHook()
    hook(([1, 2, 3],), ([0, 0, 0],), ())
    assert re.fullmatch(r'\r3 samples, [\d.]+ samples/sec', capsys.readouterr().out)


def test_eta_never_negative(capsys):
    hook = ProgressHook(n_total=1)
    hook(([1, 2],), ([0, 0],), ())
    assert 'ETA    0:00:00' in capsys.readouterr().out
