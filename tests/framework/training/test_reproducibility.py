"""Reproducibility and faults: the same seed gives bit-identical runs, and a run killed with
SIGKILL (between iterations, or while it writes a snapshot) resumes with autoload to exactly
the state of an uninterrupted run; a half-written snapshot is never loaded.

Each training runs ``_small_cnn.py`` in a subprocess (4 epochs of 6 iterations, a snapshot
every 5 iterations, every extension on); the log drops ``elapsed_time``, the one entry that
depends on the speed of the machine.
"""

import os
import random
import shutil
import signal
import subprocess
import sys
import time

import numpy
import pytest

pytestmark = pytest.mark.slow

_OUTPUTS = ('log', 'log_iter', 'cg.dot', 'loss.png')


def _train(script, out, *args, check=True):
    result = subprocess.run([sys.executable, script, str(out), *map(str, args)],
                            capture_output=True, text=True, timeout=120)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def _final_state(out):
    """Every array of the final trainer (parameters, optimizer, iterators, extensions), but
    the elapsed time."""
    with numpy.load(os.path.join(out, 'final_trainer')) as npz:
        return {key: npz[key] for key in npz.files if key != '_snapshot_elapsed_time'}


def _assert_same_run(out, reference):
    for name in _OUTPUTS:
        with open(os.path.join(out, name), 'rb') as f, \
                open(os.path.join(reference, name), 'rb') as g:
            assert f.read() == g.read(), name
    state, expected = _final_state(out), _final_state(reference)
    assert sorted(state) == sorted(expected)
    for key in expected:
        numpy.testing.assert_array_equal(state[key], expected[key], err_msg=key, strict=True)


@pytest.fixture(scope='module')
def reference(small_cnn_script, tmp_path_factory):
    out = tmp_path_factory.mktemp('reference')
    _train(small_cnn_script, out)
    return str(out)


def test_two_runs_are_bit_identical(small_cnn_script, reference, tmp_path):
    _train(small_cnn_script, tmp_path)
    _assert_same_run(tmp_path, reference)
    assert sorted(os.listdir(tmp_path)) == sorted(os.listdir(reference))


def test_killed_between_iterations_resumes_exactly(small_cnn_script, reference, tmp_path):
    killed = _train(small_cnn_script, tmp_path, '--kill-after-iteration', 13, check=False)
    assert killed.returncode == -signal.SIGKILL
    assert sorted(f for f in os.listdir(tmp_path) if f.startswith('snapshot')) == [
        'snapshot_iter_10', 'snapshot_iter_5']
    _train(small_cnn_script, tmp_path)  # resumes from iteration 10
    _assert_same_run(tmp_path, reference)


def test_killed_with_worker_processes_resumes_exactly(small_cnn_script, reference, tmp_path):
    killed = _train(small_cnn_script, tmp_path, '--multiprocess', '--kill-after-iteration', 8,
                    check=False)
    assert killed.returncode == -signal.SIGKILL
    _train(small_cnn_script, tmp_path, '--multiprocess')  # resumes from iteration 5
    _assert_same_run(tmp_path, reference)


def test_killed_while_writing_a_snapshot_resumes_exactly(small_cnn_script, reference,
                                                         tmp_path):
    killed = _train(small_cnn_script, tmp_path, '--kill-in-snapshot-at', 15, check=False)
    assert killed.returncode == -signal.SIGKILL
    names = os.listdir(tmp_path)
    # the half-written snapshot is in a temporary directory, never under its name
    assert 'snapshot_iter_15' not in names and 'snapshot_iter_10' in names
    leftovers = [n for n in names if n.startswith('tmpsnapshot_iter_15')]
    assert len(leftovers) == 1 and os.path.isdir(tmp_path / leftovers[0])
    _train(small_cnn_script, tmp_path)
    _assert_same_run(tmp_path, reference)


def test_half_written_snapshot_is_skipped(small_cnn_script, reference, tmp_path):
    _train(small_cnn_script, tmp_path, '--kill-after-iteration', 12, check=False)
    data = (tmp_path / 'snapshot_iter_10').read_bytes()
    # a foreign tool copied a snapshot of a later iteration, and died halfway
    (tmp_path / 'snapshot_iter_12').write_bytes(data[:len(data) // 2])
    resumed = _train(small_cnn_script, tmp_path)
    assert 'skipping' in resumed.stderr and 'snapshot_iter_12' in resumed.stderr
    _assert_same_run(tmp_path, reference)


def test_killed_at_a_random_moment_resumes_exactly(small_cnn_script, reference, tmp_path):
    process = subprocess.Popen([sys.executable, small_cnn_script, str(tmp_path), '--sleep',
                                '0.05'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / 'snapshot_iter_5').exists():
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(random.uniform(0, 0.4))
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(60)
    _train(small_cnn_script, tmp_path)
    _assert_same_run(tmp_path, reference)


def test_run_again_after_the_end_reaches_the_same_state(small_cnn_script, reference,
                                                        tmp_path):
    # It resumes from the last snapshot (iteration 20) and trains the last 4 iterations again.
    shutil.copytree(reference, tmp_path, dirs_exist_ok=True)
    os.remove(tmp_path / 'final_trainer')
    _train(small_cnn_script, tmp_path)
    _assert_same_run(tmp_path, reference)
