"""FileLock, and one download for threads and processes racing for one file."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import threading
import time

import pytest

from vision.utils.download import FileLock, cached_download


def test_lock_excludes_threads(tmp_path):
    lock_path = tmp_path / 'x.lock'
    inside = []
    overlaps = []

    def work():
        for _ in range(20):
            with FileLock(lock_path):
                inside.append(1)
                overlaps.append(len(inside))
                time.sleep(0.0005)
                inside.pop()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(overlaps) == 80 and max(overlaps) == 1


def test_lock_is_not_reentrant_on_one_object(tmp_path):
    lock = FileLock(tmp_path / 'x.lock')
    with lock, pytest.raises(RuntimeError, match='already held by this object'):
        lock.__enter__()
    with lock:  # released and usable again
        pass


def test_lock_of_a_killed_process_is_released(tmp_path):
    lock_path = tmp_path / 'x.lock'
    code = ('import sys, time\n'
            'from vision.utils.download import FileLock\n'
            f'with FileLock({str(lock_path)!r}):\n'
            '    print("locked", flush=True)\n'
            '    time.sleep(60)\n')
    holder = subprocess.Popen([sys.executable, '-c', code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == 'locked\n'
        holder.kill()
        holder.wait()
        acquired = threading.Event()

        def take():
            with FileLock(lock_path):
                acquired.set()

        threading.Thread(target=take, daemon=True).start()
        assert acquired.wait(5)
    finally:
        holder.kill()
        holder.stdout.close()


def test_racing_threads_download_once(file_server, vision_home, payload):
    file_server.files['/a.tar'] = payload
    file_server.plans['/a.tar'] = ['slow']
    url = file_server.url('/a.tar')
    paths = []
    threads = [threading.Thread(target=lambda: paths.append(cached_download(url,
                                                                            progress=False)))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert file_server.count('/a.tar') == 1
    assert len(paths) == 4 and len(set(paths)) == 1
    assert open(paths[0], 'rb').read() == payload


@pytest.mark.slow
def test_racing_processes_download_once(file_server, vision_home, payload):
    file_server.files['/a.tar'] = payload
    file_server.plans['/a.tar'] = ['slow']
    url = file_server.url('/a.tar')
    context = multiprocessing.get_context('spawn')
    workers = [context.Process(target=cached_download, args=(url,), kwargs={'progress': False})
               for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)
    assert [w.exitcode for w in workers] == [0, 0]
    assert file_server.count('/a.tar') == 1
    assert open(cached_download(url), 'rb').read() == payload
