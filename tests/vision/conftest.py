"""Shared by the tests of the pretrained-weights system (``vision.weights``, the ``vision``
command): a local file server, a private $VISION_HOME, a manifest of one's own, and a tiny
registered classifier with a converter of its PyTorch checkpoints.

The classifier's checkpoint ``tests/data/tiny_classifier.pth`` was written by ``torch.save``
(see ``tests/data/README.md``) with the logits torch computed for an image.
"""

from __future__ import annotations

import json
import pathlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy
import pytest

import framework.functions as F
from framework.links import Conv2DBNActiv, Linear, PickableSequentialChain
from vision.models import register_model
from vision.models.classification import ClassifierPredictMixin
from vision.models.classification._torchvision import convert_state_dict
from vision.weights import prepare_pretrained_model, register_converter

DATA = pathlib.Path(__file__).resolve().parents[1] / 'data'


@register_model('tiny_classifier_for_tests')
class TinyClassifier(ClassifierPredictMixin, PickableSequentialChain):
    """``conv`` (3x3, 4 channels, batch normalization, ReLU), ``pool`` (global mean), ``fc``,
    ``prob``: the layout of ``tiny_classifier.pth``."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None):
        param, pretrained = prepare_pretrained_model(
            self.model_name, pretrained_model, {'n_class': n_class, 'mean': mean},
            {'n_class': 1000, 'mean': numpy.zeros((3, 1, 1), numpy.float32)},
            torch_converter='tiny_torch_for_tests')
        super().__init__()
        self.mean = param['mean']
        with self.init_scope():
            self.conv = Conv2DBNActiv(3, 4, 3, pad=1, bn_kwargs={'eps': 1e-5})
            self.pool = lambda x: F.mean(x, axis=(2, 3))
            self.fc = Linear(4, param['n_class'])
            self.prob = F.softmax
        self.weight_spec = None
        if pretrained is not None:
            pretrained.load(self)


_TINY_MODULES = {'conv': ('conv/conv', 'conv'), 'bn': ('conv/bn', 'bn'), 'fc': ('fc', 'linear')}


@register_converter('tiny_torch_for_tests')
def _convert_tiny(state, preprocessing):
    return convert_state_dict('tiny_torch_for_tests', state, _TINY_MODULES.get, 'conv',
                              preprocessing)


class WeightsServer:
    """Serves ``files`` (URL path -> bytes) on 127.0.0.1 and records the requested paths."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        server = self

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

        self._httpd = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,),
                                        daemon=True)
        self._thread.start()

    def serve(self, path: str, data: bytes) -> str:
        """Serves ``data`` at ``path``; returns its URL."""
        self.files[path] = data
        return f'http://127.0.0.1:{self._httpd.server_address[1]}{path}'

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture
def weights_server():
    server = WeightsServer()
    yield server
    server.close()


@pytest.fixture
def weights_home(tmp_path, monkeypatch):
    """A fresh $VISION_HOME, online, with the proxy bypassed for 127.0.0.1."""
    home = tmp_path / 'vision_home'
    monkeypatch.setenv('VISION_HOME', str(home))
    monkeypatch.delenv('VISION_OFFLINE', raising=False)
    for name in ('NO_PROXY', 'no_proxy'):
        monkeypatch.setenv(name, '127.0.0.1,localhost')
    return home


def weight_row(model='tiny_classifier_for_tests', name='demo', **fields) -> dict:
    """A manifest row of the tiny classifier with the given fields replaced."""
    row = {
        'model': model, 'name': name, 'model_kwargs': {}, 'source': {'url': 'http://x/y.npz'},
        'sha256': None, 'sha256_prefix': None, 'converter': 'npz', 'n_class': 1000,
        'categories': 'imagenet',
        'preprocessing': {'mean': [0.485, 0.456, 0.406], 'std': [0.229, 0.224, 0.225],
                          'value_range': 1, 'resize': 10, 'crop_size': 8},
        'licence': 'test', 'scores': [{'metric': 'top-1 error', 'value': 50.0, 'unit': '%',
                                       'setting': 'centre crop', 'dataset': 'none',
                                       'protocol': 'none', 'reference': 'none'}],
    }
    row.update(fields)
    return row


@pytest.fixture
def weights_manifest(tmp_path, monkeypatch):
    """``write(rows)``: makes a manifest of these rows the default one; returns its path."""
    def write(rows) -> pathlib.Path:
        path = tmp_path / f'manifest{len(list(tmp_path.glob("manifest*")))}.json'
        path.write_text(json.dumps({'format_version': 1, 'weights': rows}))
        monkeypatch.setenv('VISION_WEIGHTS_MANIFEST', str(path))
        return path
    return write


@pytest.fixture
def tiny_expected():
    """``img`` (3, 8, 8) and the ``logits`` torch gave for ``(img / 255 - mean) / std``."""
    with numpy.load(DATA / 'tiny_classifier_expected.npz') as f:
        return dict(f)


@pytest.fixture(name='weight_row')
def _weight_row():
    return weight_row


@pytest.fixture
def tiny_classifier():
    return TinyClassifier
