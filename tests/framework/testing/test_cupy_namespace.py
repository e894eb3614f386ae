import json
import pathlib

import pytest

from framework.testing import cupy_namespace

pytestmark = pytest.mark.cupy_refusals


def test_the_data_records_the_cupy_version_it_comes_from():
    data = json.loads(pathlib.Path(cupy_namespace.__file__).with_name(
        'cupy_namespace.json').read_text())
    assert data['cupy_version'] == cupy_namespace.CUPY_VERSION
    assert cupy_namespace.CUPY_VERSION.split('.')[0].isdigit()


def test_kinds_of_names():
    assert cupy_namespace.kind('cupy', 'add') == 'ufunc'
    assert cupy_namespace.kind('cupy', 'concatenate') == 'function'
    assert cupy_namespace.kind('cupy', 'random') == 'module'
    assert cupy_namespace.kind('cupy', 'float32') == 'type'
    assert cupy_namespace.kind('cupy', 'pi') == 'constant'
    assert cupy_namespace.kind('cupy', 'geomspace') is None
    assert cupy_namespace.kind('cupy.cuda', 'Stream') is None
    assert cupy_namespace.has_attribute('cupy.ndarray', 'get')
    assert not cupy_namespace.has_attribute('cupy.ndarray', 'setflags')


@pytest.mark.parametrize('qualname, args, kwargs', [
    ('cupy.asarray', ([1],), {'dtype': 'f', 'copy': None, 'blocking': True}),
    ('cupy.einsum', ('ii', [1]), {'optimize': False}),
    ('cupy.ndarray.reshape', (2, 3), {'order': 'C'}),
    ('cupy.random.RandomState.uniform', (0, 1), {'size': 3}),
    ('cupy.ufunc.at', ([1], [0], 1), {}),
])
def test_calls_cupy_takes_bind(qualname, args, kwargs):
    cupy_namespace.check_call(qualname, args, kwargs)


def test_ufunc_calls_take_cupy_keywords_only():
    cupy_namespace.check_ufunc_call('exp', {'out': None, 'casting': 'unsafe', 'dtype': 'f'})
    with pytest.raises(TypeError, match=r"cupy.exp: .*do not take \['where'\]"):
        cupy_namespace.check_ufunc_call('exp', {'where': True, 'out': None})
    assert 'cupy.exp(out, where)' in cupy_namespace.recorded_calls()


@pytest.mark.parametrize('qualname, args, kwargs, message', [
    ('cupy.asarray', ([1],), {'like': None}, "'like'"),
    ('cupy.asarray', ([1], 'f', 'C', False), {}, 'too many positional'),
    ('cupy.ndarray.sum', (), {'initial': 0}, "'initial'"),
    ('cupy.ufunc.reduce', ([1],), {'initial': 0}, "'initial'"),
])
def test_calls_cupy_refuses_raise_and_are_recorded(qualname, args, kwargs, message):
    with pytest.raises(TypeError, match=f'{qualname}: .*{message}'):
        cupy_namespace.check_call(qualname, args, kwargs)
    assert qualname in cupy_namespace.recorded_refusals()[-1]
    assert f"{qualname}({', '.join(sorted(kwargs))})" in cupy_namespace.recorded_calls()
