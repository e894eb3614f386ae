"""A local HTTP file server with scripted failures, and a private $VISION_HOME."""

from __future__ import annotations

import random
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest


class FileServer:
    """Serves ``files`` on 127.0.0.1, honouring ``Range: bytes=N-``.

    ``plans[path]`` is a list of actions taken by the successive requests for ``path`` (then
    ``'ok'``): ``'ok'``; ``'drop'`` (announce the whole length, send half, close);
    ``'ignore-range'`` (answer 200 with the whole file); ``'slow'`` (wait 0.3 s, then ok); or an
    HTTP status such as ``'500'``. ``requests`` records ``(path, Range header, Host)``.
    """

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.plans: dict[str, list[str]] = {}
        self.requests: list[tuple[str, str | None, str | None]] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(('127.0.0.1', 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,),
                                        daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f'http://127.0.0.1:{self._httpd.server_address[1]}{path}'

    def count(self, path: str) -> int:
        return sum(1 for p, _, _ in self.requests if p == path)

    def ranges(self, path: str) -> list[str | None]:
        return [r for p, r, _ in self.requests if p == path]

    def next_action(self, path: str, range_header: str | None, host: str | None) -> str:
        with self._lock:
            self.requests.append((path, range_header, host))
            plan = self.plans.get(path)
            return plan.pop(0) if plan else 'ok'

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def _handler(server: FileServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urlsplit(self.path).path  # absolute form when reached as a proxy
            range_header = self.headers.get('Range')
            action = server.next_action(path, range_header, self.headers.get('Host'))
            if action.isdigit():
                self.send_error(int(action))
                return
            data = server.files.get(path)
            if data is None:
                self.send_error(404)
                return
            if action == 'slow':
                threading.Event().wait(0.3)
            match = re.fullmatch(r'bytes=(\d+)-', range_header or '')
            if match is None or action == 'ignore-range':
                self.send_response(200)
                start = 0
            else:
                start = int(match.group(1))
                if start >= len(data):
                    self.send_response(416)
                    self.send_header('Content-Range', f'bytes */{len(data)}')
                    self.send_header('Content-Length', '0')
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header('Content-Range', f'bytes {start}-{len(data) - 1}/{len(data)}')
            body = data[start:]
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            if action == 'drop':
                body = body[:len(body) // 2]
            self.wfile.write(body)
            self.wfile.flush()

        def log_message(self, *args) -> None:
            pass

    return Handler


@pytest.fixture
def server():
    s = FileServer()
    yield s
    s.close()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh $VISION_HOME; proxies bypassed for 127.0.0.1; offline mode off."""
    path = tmp_path / 'home'
    monkeypatch.setenv('VISION_HOME', str(path))
    monkeypatch.delenv('VISION_OFFLINE', raising=False)
    for name in ('NO_PROXY', 'no_proxy'):
        monkeypatch.setenv(name, '127.0.0.1,localhost')
    return path


@pytest.fixture
def payload() -> bytes:
    return random.Random(0).randbytes(300_000)
