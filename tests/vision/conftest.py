"""Shared by the tests of ``vision``: a local file server with scripted failures and a private
$VISION_HOME (for downloads, datasets and weights); a fake communicator of several ranks run as
threads; for the pretrained-weights system (``vision.weights``, the ``vision`` command), a
manifest of one's own and a tiny registered classifier with a converter of its PyTorch
checkpoints; and, for the ``vision`` command's tasks, registered stub models of the other tasks
whose predictions follow from the image size.

The classifier's checkpoint ``tests/data/tiny_classifier.pth`` was written by ``torch.save``
(see ``tests/data/README.md``) with the logits torch computed for an image.
"""

from __future__ import annotations

import json
import pathlib
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import NamedTuple
from urllib.parse import urlsplit

import numpy
import pytest

import framework.functions as F
import vision.utils.download.root as download_root
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


class _StubModel:
    """A registered model of a task whose predictions follow from each image's size
    ``(H, W)``: two instances, label 0 in the centre ``[H/4, 3H/4) x [W/4, 3W/4)`` (score 0.9)
    and label 1 in the top-left quarter (score 0.4); a label map of 0 above ``H/2`` and 1
    below."""

    label_names = ('centre', 'corner')

    def __init__(self, pretrained_model=None):
        self.weight_spec = None

    def hybridize(self, active=True):
        pass

    @staticmethod
    def _bbox(img):
        H, W = img.shape[1:]
        return numpy.array([[H / 4, W / 4, 3 * H / 4, 3 * W / 4], [0, 0, H / 2, W / 2]],
                           numpy.float32)

    @staticmethod
    def _labels_scores(imgs):
        return ([numpy.array([0, 1], numpy.int32) for _ in imgs],
                [numpy.array([0.9, 0.4], numpy.float32) for _ in imgs])


@register_model('stub_detector_for_tests')
class StubDetector(_StubModel):
    """Boxes and five points per box (the box's corners and centre)."""

    task = 'detection'

    def predict(self, imgs):
        imgs = list(imgs)
        bboxes = [self._bbox(img) for img in imgs]
        points = [numpy.stack([b[:, [0, 1]], b[:, [0, 3]], (b[:, :2] + b[:, 2:]) / 2,
                               b[:, [2, 1]], b[:, [2, 3]]], axis=1) for b in bboxes]
        return (bboxes, *self._labels_scores(imgs), points)


@register_model('stub_semantic_segmenter_for_tests')
class StubSemanticSegmenter(_StubModel):
    """Label maps."""

    task = 'semantic_segmentation'

    def predict(self, imgs):
        labels = []
        for img in imgs:
            label = numpy.zeros(img.shape[1:], numpy.int32)
            label[img.shape[1] // 2:] = 1
            labels.append(label)
        return labels


@register_model('stub_instance_segmenter_for_tests')
class StubInstanceSegmenter(_StubModel):
    """The boxes' masks."""

    task = 'instance_segmentation'

    def predict(self, imgs):
        imgs = list(imgs)
        masks = []
        for img in imgs:
            mask = numpy.zeros((2,) + img.shape[1:], bool)
            for m, (y0, x0, y1, x1) in zip(mask, self._bbox(img).astype(int)):
                m[y0:y1, x0:x1] = True
            masks.append(mask)
        return (masks, *self._labels_scores(imgs))


_TINY_MODULES = {'conv': ('conv/conv', 'conv'), 'bn': ('conv/bn', 'bn'), 'fc': ('fc', 'linear')}


@register_converter('tiny_torch_for_tests')
def _convert_tiny(state, preprocessing):
    return convert_state_dict('tiny_torch_for_tests', state, _TINY_MODULES.get, 'conv',
                              preprocessing)


class Request(NamedTuple):
    """A request the file server received."""

    path: str
    range: str | None
    host: str | None


class FileServer:
    """Serves ``files`` (URL path to bytes) on 127.0.0.1, honouring ``Range: bytes=N-``.

    ``plans[path]`` is a list of actions taken by the successive requests for ``path`` (then
    ``'ok'``): ``'ok'``; ``'drop'`` (announce the whole length, send half, close); ``'cut'``
    (send half without a Content-Length, close); ``'understate'`` (announce half the length);
    ``'ignore-range'`` (answer 200 with the whole file); ``'slow'`` (wait 0.3 s, then ok); or an
    HTTP status such as ``'500'``. ``requests`` records every :class:`Request`, in order.
    """

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.plans: dict[str, list[str]] = {}
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(('127.0.0.1', 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,),
                                        daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f'http://127.0.0.1:{self._httpd.server_address[1]}{path}'

    def serve(self, path: str, data: bytes) -> str:
        """Serves ``data`` at ``path``; returns its URL."""
        self.files[path] = data
        return self.url(path)

    @property
    def paths(self) -> list[str]:
        """The requested paths, in order."""
        return [request.path for request in self.requests]

    def count(self, path: str) -> int:
        return self.paths.count(path)

    def ranges(self, path: str) -> list[str | None]:
        return [request.range for request in self.requests if request.path == path]

    def next_action(self, request: Request) -> str:
        """Records ``request``; returns the action planned for it."""
        with self._lock:
            self.requests.append(request)
            plan = self.plans.get(request.path)
            return plan.pop(0) if plan else 'ok'

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def _handler(server: FileServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urlsplit(self.path).path  # absolute form when reached as a proxy
            range_header = self.headers.get('Range')
            action = server.next_action(Request(path, range_header, self.headers.get('Host')))
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
            if action != 'cut':
                length = len(body) // 2 if action == 'understate' else len(body)
                self.send_header('Content-Length', str(length))
            self.end_headers()
            if action in ('drop', 'cut'):
                body = body[:len(body) // 2]
            self.wfile.write(body)
            self.wfile.flush()

        def log_message(self, *args) -> None:
            pass

    return Handler


@pytest.fixture
def file_server():
    server = FileServer()
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


class _World:
    """What the ranks of one fake communicator share."""

    def __init__(self, size: int):
        self.barrier = threading.Barrier(size, timeout=20)
        self.slots: list = [None] * size


class _FakeMpiComm:
    def __init__(self, world: _World, rank: int):
        self.world, self.rank = world, rank

    def scatter(self, chunks):
        if self.rank == 0:
            self.world.slots[:] = chunks
        self.world.barrier.wait()
        chunk = self.world.slots[self.rank]
        self.world.barrier.wait()
        return chunk


class FakeComm:
    """One rank of a communicator with ChainerMN's interface (``rank``, ``size``,
    ``mpi_comm.scatter``, ``gather_obj``); its ranks must run in threads of one process."""

    def __init__(self, world: _World, rank: int, size: int):
        self.rank, self.size = rank, size
        self.world = world
        self.mpi_comm = _FakeMpiComm(world, rank)

    def gather_obj(self, obj):
        self.world.barrier.wait()
        self.world.slots[self.rank] = obj
        self.world.barrier.wait()
        gathered = list(self.world.slots) if self.rank == 0 else None
        self.world.barrier.wait()
        return gathered


def _fake_comms(size: int) -> list[FakeComm]:
    world = _World(size)
    return [FakeComm(world, rank, size) for rank in range(size)]


@pytest.fixture
def fake_comms():
    """``fake_comms(size)``: the ``size`` ranks (:class:`FakeComm`) of one fake communicator."""
    return _fake_comms
