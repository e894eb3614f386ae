"""Parameterised test classes, as ``chainer.testing`` (and through it ChainerCV's tests) writes
them.

``@parameterize(dict(a=1), dict(a=2))`` on a test class makes one subclass per dictionary,
named ``<Class>_param_<i>``, with the entries as class attributes, and puts them in the module
of the class, where pytest and unittest collect them. The decorated name itself is bound to
:obj:`None`, so the unparameterised class is not collected.
"""

from __future__ import annotations

import itertools
import sys
import types
from collections.abc import Callable


def _attribute(value):
    # A function stored on a class would become a method; keep it a plain function.
    return staticmethod(value) if isinstance(value, types.FunctionType) else value


def parameterize(*params: dict):
    """Returns a class decorator that makes one test class per dictionary of ``params``."""

    def decorate(cls):
        module = sys.modules[cls.__module__]
        for i, param in enumerate(params):
            name = f'{cls.__name__}_param_{i}'
            members = {key: _attribute(value) for key, value in param.items()}
            members['__module__'] = cls.__module__
            members['__qualname__'] = name
            members['_parameters'] = dict(param)
            setattr(module, name, type(name, (cls,), members))
        return None

    return decorate


def parameterize_pytest(names: str, values) -> Callable:
    """:func:`parameterize` written as ``pytest.mark.parametrize``: ``names`` separated by
    commas, one tuple of values (or one value, for one name) per test class."""
    names = names.split(',')
    params = []
    for value in values:
        value = value if isinstance(value, (tuple, list)) else (value,)
        if len(value) != len(names):
            raise ValueError(f'parameterize_pytest: each value must have {len(names)} '
                             f'entries ({",".join(names)}), but got {value!r}')
        params.append(dict(zip(names, value)))
    return parameterize(*params)


def product(parameter: dict | list) -> list[dict]:
    """The Cartesian product of a dictionary of lists, or of lists of dictionaries, as a list
    of dictionaries.

    ``product({'a': [1, 2], 'b': [3]})`` is ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``;
    ``product([[{'a': 1}, {'a': 2}], [{'b': 3}]])`` is the same (:func:`product_dict`).
    """
    if isinstance(parameter, dict):
        keys = list(parameter)
        return [dict(zip(keys, values))
                for values in itertools.product(*(parameter[key] for key in keys))]
    if isinstance(parameter, list) and all(
            isinstance(part, list) and all(isinstance(d, dict) for d in part)
            for part in parameter):
        return product_dict(*parameter)
    raise TypeError('product: parameter must be a dict of lists or a list of lists of dicts, '
                    f'but got {parameter!r}')


def product_dict(*parameters: list[dict]) -> list[dict]:
    """The Cartesian product of lists of dictionaries, each combination merged into one.

    ``product_dict([{'a': 1}, {'a': 2}], [{'b': 3}])`` is ``[{'a': 1, 'b': 3},
    {'a': 2, 'b': 3}]``.
    """
    return [{key: value for part in combination for key, value in part.items()}
            for combination in itertools.product(*parameters)]


def run_module(name: str, file: str) -> None:
    """Runs the tests of a test file with pytest when the file is run as a script."""
    if name == '__main__':
        import pytest

        pytest.main([file, '-v', '-x'])
