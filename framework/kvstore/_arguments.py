"""How the methods of a KVStore read their arguments: keys, and values grouped per key.

As in MXNet, a key is an int or a str, and a method takes either one key with its value (one
array, or a list of arrays from several devices) or a list of keys with a list of values, one
entry per key.
"""

from __future__ import annotations

from framework import backend


def check_key(where: str, key) -> int | str:
    """Returns ``key`` if it is an int or a str.

    Raises:
        TypeError: naming ``where`` and the type given.
    """
    if isinstance(key, str) or (isinstance(key, int) and not isinstance(key, bool)):
        return key
    raise TypeError(f'{where}: a key must be an int or a str, but got {type(key).__name__}')


def group(where: str, name: str, keys, values, single: bool = False) -> list[tuple]:
    """Pairs each key with its values.

    Args:
        where: the calling method, for errors.
        name: the argument that holds the values, for errors.
        keys: a key, or a list or tuple of keys.
        values: for one key, an array or (unless ``single``) a list of arrays; for a list of
            keys, a list with one such entry per key.
        single: whether each key takes exactly one array (``init``).

    Returns:
        list of (key, list of arrays): one pair per key, in the order given.

    Raises:
        TypeError: a key that is not an int or a str, a value that is not an array.
        ValueError: a list of keys and a list of values of different lengths.
    """
    if not isinstance(keys, (list, tuple)):
        return [(check_key(where, keys), _arrays(where, name, keys, values, single))]
    if not isinstance(values, (list, tuple)) or len(values) != len(keys):
        got = (f'{len(values)} entries' if isinstance(values, (list, tuple))
               else type(values).__name__)
        raise ValueError(f'{where}: with a list of {len(keys)} keys, {name} must be a list of '
                         f'{len(keys)} entries, one per key, but got {got}')
    return [(check_key(where, key), _arrays(where, name, key, value, single))
            for key, value in zip(keys, values)]


def _arrays(where, name, key, value, single) -> list:
    arrays = [value] if single or not isinstance(value, (list, tuple)) else list(value)
    if not arrays:
        raise ValueError(f'{where}: {name} for key {key!r} is an empty list')
    for array in arrays:
        if not backend.is_array(array):
            kind = 'an array' if single else 'an array or a list of arrays'
            raise TypeError(f'{where}: {name} for key {key!r} must be {kind}, but got '
                            f'{type(array).__name__}')
    return arrays
