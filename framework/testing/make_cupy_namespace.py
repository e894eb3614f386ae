"""Writes ``cupy_namespace.json``: the names and signatures that CuPy offers.

The emulated device (:mod:`framework.testing.emulated_device`) offers exactly what this file
lists, so that code which would fail on a GPU fails on it too. Regenerate it in an environment
where CuPy imports (no GPU is needed), as ``make cupy-namespace`` does::

    python3 -m venv /tmp/cupyvenv && /tmp/cupyvenv/bin/pip install cupy-cuda12x
    /tmp/cupyvenv/bin/python framework/testing/make_cupy_namespace.py

Functions are listed with their parameters in the notation of :mod:`inspect` (``'a'``,
``'dtype='`` with a default, ``'*args'``, ``'**kwargs'``, ``'*'`` and ``'/'`` as separators),
taken from the function's signature or, for compiled ones, from the first line of its
docstring; ``null`` where neither tells.
"""

from __future__ import annotations
import __future__

import inspect
import json
import pathlib
import re
import types

import cupy
import numpy

#: The modules whose names are listed: CuPy and the submodules the framework reaches through
#: its array module.
MODULES = ('cupy', 'cupy.random', 'cupy.linalg', 'cupy.fft', 'cupy.lib',
           'cupy.lib.stride_tricks')
#: Keywords tried on a ufunc: CuPy refuses the ones it does not know before touching a GPU.
UFUNC_KEYWORD_CANDIDATES = ('out', 'dtype', 'casting', 'where', 'order', 'subok', 'signature',
                            'axes', 'axis', 'keepdims')
_DOC_SIGNATURE = re.compile(r'^[\w.]*\((.*)\)(\s*->.*)?$')


def parameters(fn) -> list[str] | None:
    """The parameters of ``fn`` (without ``self``), or None when they cannot be told."""
    try:
        return _from_signature(inspect.signature(fn))
    except (TypeError, ValueError):
        return _from_docstring(fn.__doc__ or '')


def _from_signature(signature) -> list[str]:
    kinds = inspect.Parameter
    out = []
    params = list(signature.parameters.values())
    for p, following in zip(params, params[1:] + [None]):
        if p.name == 'self':
            continue
        if p.kind is kinds.KEYWORD_ONLY and not any(o.startswith('*') for o in out):
            out.append('*')
        if p.kind is kinds.VAR_POSITIONAL:
            out.append('*' + p.name)
        elif p.kind is kinds.VAR_KEYWORD:
            out.append('**' + p.name)
        else:
            out.append(p.name + ('=' if p.default is not p.empty else ''))
        if p.kind is kinds.POSITIONAL_ONLY and (following is None
                                                or following.kind is not kinds.POSITIONAL_ONLY):
            out.append('/')
    return out


def _from_docstring(doc: str) -> list[str] | None:
    match = _DOC_SIGNATURE.match(doc.strip().split('\n', 1)[0])
    if match is None:
        return None
    out = []
    for text in _split_top_level(match.group(1)):
        head = text.split('=', 1)[0].strip()
        name = head.split()[-1] if head else ''
        if name in ('self', ''):
            continue
        out.append(name + ('=' if '=' in text else ''))
    return out


def _split_top_level(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in '([{'
        depth -= c in ')]}'
        if c == ',' and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in (p.strip() for p in parts) if p]


def describe_module(module) -> dict:
    """The public names of ``module``, by kind."""
    out = {'modules': [], 'ufuncs': [], 'types': [], 'constants': [], 'functions': {}}
    for name in sorted(dir(module)):
        if name.startswith('_'):
            continue
        attr = getattr(module, name)
        if isinstance(attr, __future__._Feature):
            continue
        if isinstance(attr, types.ModuleType):
            out['modules'].append(name)
        elif isinstance(attr, cupy.ufunc):
            out['ufuncs'].append(name)
        elif isinstance(attr, type):
            out['types'].append(name)
        elif callable(attr):
            out['functions'][name] = parameters(attr)
        else:
            out['constants'].append(name)
    return out


def describe_class(cls) -> dict:
    """The public methods (with their parameters) and attributes of a class of CuPy."""
    out = {'methods': {}, 'attributes': []}
    for name in sorted(dir(cls)):
        if name.startswith('_'):
            continue
        attr = getattr(cls, name)
        if callable(attr):
            out['methods'][name] = parameters(attr)
        else:
            out['attributes'].append(name)
    return out


def ufunc_keywords() -> list[str]:
    """The keywords that CuPy's ufuncs take, found by trying each candidate."""
    accepted = []
    for keyword in UFUNC_KEYWORD_CANDIDATES:
        try:
            cupy.add(1, 2, **{keyword: None})
        except TypeError as e:
            if 'Wrong arguments' in str(e):
                continue
        except Exception:  # noqa: BLE001 - past the check: no GPU, or a value it refuses
            pass
        accepted.append(keyword)
    return accepted


def describe() -> dict:
    """Everything the JSON file holds."""
    return {
        'cupy_version': cupy.__version__,
        'numpy_version': numpy.__version__,
        'modules': {name: describe_module(_import(name)) for name in MODULES},
        'classes': {
            'cupy.ndarray': describe_class(cupy.ndarray),
            'cupy.random.RandomState': describe_class(cupy.random.RandomState),
            'cupy.ufunc': describe_class(cupy.ufunc),
        },
        'ufunc_keywords': ufunc_keywords(),
    }


def _import(name):
    module = cupy
    for part in name.split('.')[1:]:
        module = getattr(module, part)
    return module


def main() -> None:
    path = pathlib.Path(__file__).with_name('cupy_namespace.json')
    path.write_text(json.dumps(describe(), indent=1, sort_keys=True) + '\n')
    print(f'wrote {path} (CuPy {cupy.__version__})')


if __name__ == '__main__':
    main()
