"""Every call of the array module written in framework/ and vision/ is one CuPy has.

The emulated device refuses at run time what CuPy lacks, but only on the paths the tests run.
This test reads the source instead: each call ``xp.name(...)`` or ``xp.module.name(...)`` must
name a function, ufunc or type of CuPy and give only keywords CuPy's signature takes.
"""

import ast
import pathlib

import pytest

from framework.testing import cupy_namespace

_ROOT = pathlib.Path(__file__).resolve().parents[3]


def _dotted(node):
    """``['xp', 'random', 'uniform']`` for ``xp.random.uniform``; None for other callees."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == 'xp':
        return ['xp'] + names[::-1]
    return None


def array_module_calls(source: str):
    """``(line, qualname, keywords)`` of each call of ``xp`` in ``source``, with ``xp`` written
    as ``cupy``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            names = _dotted(node.func)
            if names is not None and len(names) > 1:
                keywords = [k.arg for k in node.keywords if k.arg is not None]
                yield node.lineno, '.'.join(['cupy'] + names[1:]), keywords


def what_cupy_refuses(qualname: str, keywords) -> str | None:
    """Why CuPy would refuse ``qualname(**keywords)``, or None."""
    module, _, name = qualname.rpartition('.')
    parent, _, ufunc = module.rpartition('.')
    if cupy_namespace.kind(parent, ufunc) == 'ufunc':  # xp.add.at(...)
        module = 'cupy.ufunc'
        if not cupy_namespace.has_attribute(module, name):
            return 'CuPy ufuncs have no such method'
        qualname = f'{module}.{name}'
        kind = 'function'
    else:
        kind = cupy_namespace.kind(module, name)
    if kind is None:
        return 'CuPy has no such name'
    if kind == 'ufunc':
        unknown = set(keywords) - cupy_namespace.ufunc_keywords()
        return f'CuPy ufuncs take no {sorted(unknown)}' if unknown else None
    if kind != 'function':
        return None
    signature = cupy_namespace.signature(qualname)
    try:
        if signature is not None:
            signature.bind_partial(**dict.fromkeys(keywords))
    except TypeError as e:
        return f'{e} (CuPy: {signature})'
    return None


def _sources():
    for package in ('framework', 'vision'):
        for path in sorted((_ROOT / package).rglob('*.py')):
            if 'testing' not in path.relative_to(_ROOT).parts[:2]:
                yield path


def test_every_array_module_call_is_one_cupy_has():
    refused = []
    for path in _sources():
        for line, qualname, keywords in array_module_calls(path.read_text()):
            why = what_cupy_refuses(qualname, keywords)
            if why is not None:
                refused.append(f'{path.relative_to(_ROOT)}:{line}: {qualname}: {why}')
    assert not refused, 'calls that CuPy refuses:\n' + '\n'.join(refused)


@pytest.mark.parametrize('source, why', [
    ('xp.geomspace(1, 2)', 'no such name'),
    ('xp.sum(a, initial=0)', "'initial'"),
    ('xp.lib.stride_tricks.as_strided(a, s, t, writeable=False)', "'writeable'"),
    ('xp.maximum(a, 0, where=m)', "take no ['where']"),
    ('xp.random.RandomState(0).uniform(size=3)', None),
    ('xp.sum(a, axis=0, keepdims=True)', None),
    ('xp.add.at(a, i, b)', None),
    ('xp.add.reduce(a, initial=0)', "'initial'"),
    ('xp.add.identity(a)', 'no such method'),
    ('numpy.sum(a, initial=0)', None),
])
def test_the_scan_finds_what_cupy_refuses(source, why):
    found = [what_cupy_refuses(q, k) for _, q, k in array_module_calls(source)]
    if why is None:
        assert all(w is None for w in found)
    else:
        assert why in found[0]
