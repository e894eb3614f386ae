"""What CuPy offers, and a record of what the emulated device was asked for.

The names and signatures of CuPy's modules, of ``cupy.ndarray``'s methods and of its ufuncs are
read from ``cupy_namespace.json``, which :mod:`framework.testing.make_cupy_namespace` derives
from CuPy itself (:data:`CUPY_VERSION` says which). The emulated device asks :func:`kind` whether
a name exists and :func:`check_call` whether a call would bind, and refuses what CuPy would
refuse; every call it checks is recorded (:func:`recorded_calls`), and so is every refusal
(:func:`recorded_refusals`), even one that the code under test catches.
"""

from __future__ import annotations

import functools
import inspect
import json
import pathlib

_DATA = json.loads(pathlib.Path(__file__).with_name('cupy_namespace.json').read_text())

#: The CuPy version that ``cupy_namespace.json`` was derived from.
CUPY_VERSION: str = _DATA['cupy_version']

_KINDS = (('modules', 'module'), ('ufuncs', 'ufunc'), ('types', 'type'),
          ('constants', 'constant'), ('functions', 'function'))
_calls: set[str] = set()
_refusals: list[str] = []


def kind(module: str, name: str) -> str | None:
    """What ``name`` is in the CuPy module ``module`` (e.g. ``'cupy.random'``).

    Returns:
        ``'module'``, ``'ufunc'``, ``'type'``, ``'constant'`` or ``'function'``; None when CuPy
        has no such name (or ``module`` is not one of those listed).
    """
    names = _DATA['modules'].get(module)
    if names is None:
        return None
    for key, found in _KINDS:
        if name in names[key]:
            return found
    return None


def is_module_listed(module: str) -> bool:
    """Whether the names of the CuPy module ``module`` are listed."""
    return module in _DATA['modules']


def has_attribute(cls: str, name: str) -> bool:
    """Whether the CuPy class ``cls`` (``'cupy.ndarray'``, ...) has ``name``, method or not."""
    members = _DATA['classes'][cls]
    return name in members['methods'] or name in members['attributes']


def ufunc_keywords() -> frozenset[str]:
    """The keywords CuPy's ufuncs take when called."""
    return frozenset(_DATA['ufunc_keywords'])


def check_call(qualname: str, args: tuple, kwargs: dict) -> None:
    """Records a call and raises the error CuPy would raise if it does not bind.

    Args:
        qualname: ``'cupy.sum'``, ``'cupy.random.RandomState.uniform'``,
            ``'cupy.ndarray.sum'`` or ``'cupy.ufunc.reduce'`` (see :func:`check_ufunc_call`
            for calls of ufuncs).
        args: the positional arguments (without ``self``).
        kwargs: the keyword arguments.

    Raises:
        TypeError: naming the function, the keyword or count CuPy refuses, and its parameters.
    """
    _calls.add(f"{qualname}({', '.join(sorted(kwargs))})")
    parameters = _parameters(qualname)
    if parameters is None:
        return
    try:
        _signature(tuple(parameters)).bind(*args, **kwargs)
    except TypeError as e:
        refuse(TypeError, f'{qualname}: CuPy {CUPY_VERSION} refuses this call ({e}); its '
               f"parameters are ({', '.join(parameters)})")


def check_ufunc_call(name: str, kwargs: dict) -> None:
    """Records a call of the ufunc ``cupy.<name>`` and refuses keywords CuPy's ufuncs lack
    (a TypeError)."""
    _calls.add(f"cupy.{name}({', '.join(sorted(kwargs))})")
    unknown = set(kwargs) - ufunc_keywords()
    if unknown:
        refuse(TypeError, f'cupy.{name}: CuPy {CUPY_VERSION} ufuncs do not take '
               f'{sorted(unknown)}; they take {sorted(ufunc_keywords())}')


def signature(qualname: str) -> inspect.Signature | None:
    """CuPy's signature of ``qualname`` (``'cupy.sum'``, ``'cupy.ndarray.sum'``), without
    ``self``; None where CuPy does not tell."""
    parameters = _parameters(qualname)
    return None if parameters is None else _signature(tuple(parameters))


def refuse(error_type: type[Exception], message: str):
    """Records a refusal and raises ``error_type(message)``."""
    _refusals.append(message)
    raise error_type(f'{message} [emulated device]')


def recorded_calls() -> frozenset[str]:
    """Every call checked so far, as ``'cupy.sum(axis, keepdims)'`` (keywords, sorted)."""
    return frozenset(_calls)


def recorded_refusals() -> tuple[str, ...]:
    """Every refusal so far, in order, including those the caller caught."""
    return tuple(_refusals)


def _parameters(qualname: str) -> list[str] | None:
    module, _, name = qualname.rpartition('.')
    if module in _DATA['classes']:
        return _DATA['classes'][module]['methods'][name]
    return _DATA['modules'][module]['functions'][name]


@functools.cache
def _signature(parameters: tuple[str, ...]) -> inspect.Signature:
    kinds = inspect.Parameter
    built = []
    kind_now = kinds.POSITIONAL_OR_KEYWORD
    if '/' in parameters:
        kind_now = kinds.POSITIONAL_ONLY
    for text in parameters:
        if text == '/':
            kind_now = kinds.POSITIONAL_OR_KEYWORD
        elif text == '*':
            kind_now = kinds.KEYWORD_ONLY
        elif text.startswith('**'):
            built.append(inspect.Parameter(text[2:], kinds.VAR_KEYWORD))
        elif text.startswith('*'):
            built.append(inspect.Parameter(text[1:], kinds.VAR_POSITIONAL))
            kind_now = kinds.KEYWORD_ONLY
        elif text.endswith('='):
            built.append(inspect.Parameter(text[:-1], kind_now, default=None))
        else:
            built.append(inspect.Parameter(text, kind_now))
    return inspect.Signature(built)
