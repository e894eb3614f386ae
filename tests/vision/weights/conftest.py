"""Shared by the tests of :mod:`vision.weights`: random weights of the tiny classifier and their
NPZ bytes, the comparison of two models' parameters, and wheels made on the spot."""

import io
import pathlib
import zipfile

import numpy
import pytest

from framework.serializers import save_npz


@pytest.fixture
def random_weights(tiny_classifier):
    """``random_weights(seed=0)``: a tiny classifier with random parameters and its NPZ
    bytes."""
    def make(seed=0) -> tuple[object, bytes]:
        model = tiny_classifier()
        rng = numpy.random.RandomState(seed)
        for _, param in model.namedparams():
            param.array[...] = rng.uniform(-1, 1, param.shape)
        model.conv.bn.avg_var[...] = rng.uniform(0.5, 1.5, 4)
        buffer = io.BytesIO()
        save_npz(buffer, model)
        return model, buffer.getvalue()
    return make


@pytest.fixture
def assert_same_params():
    def check(a, b):
        for (name, p), (_, q) in zip(a.namedparams(), b.namedparams()):
            numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
        numpy.testing.assert_array_equal(a.conv.bn.avg_var, b.conv.bn.avg_var)
    return check


@pytest.fixture
def make_wheel():
    """``make_wheel(path, {member: bytes}, name='tinyweights', version='1.0')``: writes a wheel
    (a zip with a dist-info folder) holding these files."""
    def make(path, members, name='tinyweights', version='1.0'):
        dist = f'{name}-{version}.dist-info'
        files = {
            **members,
            f'{name}/__init__.py': b'',
            f'{dist}/METADATA': f'Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n'
                                .encode(),
            f'{dist}/WHEEL': b'Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n'
                             b'Tag: py3-none-any\n',
        }
        files[f'{dist}/RECORD'] = ''.join(f'{n},,\n' for n in [*files, f'{dist}/RECORD']).encode()
        with zipfile.ZipFile(path, 'w') as z:
            for member, content in files.items():
                z.writestr(member, content)
        return path
    return make


@pytest.fixture
def tiny_checkpoint() -> bytes:
    """The bytes of ``tests/data/tiny_classifier.pth``."""
    return (pathlib.Path(__file__).resolve().parents[2] / 'data' / 'tiny_classifier.pth'
            ).read_bytes()
