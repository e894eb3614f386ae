"""Shared by the dataset tests: a private $VISION_HOME, a local file server, archive builders.

A loader test builds a small archive in the publisher's exact layout, serves it from
127.0.0.1, points the loader's URL at it (monkeypatch), and lets ``data_dir='auto'`` download,
verify, extract and parse it.
"""

from __future__ import annotations

import io
import tarfile
import threading
import zipfile
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy
import pytest
from PIL import Image

import vision.utils.download.root as download_root


class DatasetServer:
    """Serves ``files`` (URL path to bytes) on 127.0.0.1 and counts the requests per path."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        self._httpd = ThreadingHTTPServer(('127.0.0.1', 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,),
                                        daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f'http://127.0.0.1:{self._httpd.server_address[1]}{path}'

    def serve(self, path: str, data: bytes) -> str:
        """Serves ``data`` at ``path`` and returns its URL."""
        self.files[path] = data
        return self.url(path)

    def count(self, path: str) -> int:
        return self.requests.count(path)

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def _handler(server: DatasetServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            server.requests.append(self.path)
            data = server.files.get(self.path)
            if data is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args) -> None:
            pass

    return Handler


@pytest.fixture
def dataset_server():
    server = DatasetServer()
    yield server
    server.close()


@pytest.fixture
def vision_home(tmp_path, monkeypatch):
    """A fresh, empty $VISION_HOME (dataset root reset), with the proxy bypassed for
    127.0.0.1 and offline mode off."""
    path = tmp_path / 'vision_home'
    monkeypatch.setenv('VISION_HOME', str(path))
    monkeypatch.delenv('VISION_OFFLINE', raising=False)
    monkeypatch.setattr(download_root, '_dataset_root', None)
    for name in ('NO_PROXY', 'no_proxy'):
        monkeypatch.setenv(name, '127.0.0.1,localhost')
    return path


def _zip(entries: Mapping[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar_gz(entries: Mapping[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode='w:gz') as archive:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def make_archive() -> Callable[[str, Mapping[str, bytes]], bytes]:
    """``make_archive(kind, entries)``: the bytes of a ``'zip'`` or ``'tar.gz'`` archive that
    holds ``entries`` (member name to content)."""
    return lambda kind, entries: {'zip': _zip, 'tar.gz': _tar_gz}[kind](entries)


@pytest.fixture
def image_bytes() -> Callable[..., bytes]:
    """``image_bytes(array, format='png')``: an encoded image of a uint8 ``(H, W)`` or
    ``(H, W, 3)`` array."""

    def encode(array: numpy.ndarray, format: str = 'png') -> bytes:
        buffer = io.BytesIO()
        Image.fromarray(numpy.asarray(array, dtype=numpy.uint8)).save(buffer, format=format)
        return buffer.getvalue()

    return encode
