"""The registry of models by name: ``register_model`` (a class decorator), ``get_model`` and
``list_models``.

The names are those of the pretrained-weights manifest (``weights_manifest.json``) and of the
``vision`` command (``vision predict --model resnet50``). Each registered class declares its
``task``, one of :data:`TASKS`, which says what its ``predict(imgs)`` returns (one entry per
image, in lists):

- ``'classification'``: ``probs``, ``(n_class,)`` float32 probabilities;
- ``'detection'``: ``bboxes, labels, scores`` (a keypoint detector adds ``points``);
- ``'semantic_segmentation'``: ``labels``, ``(H, W)`` int32 label maps;
- ``'instance_segmentation'``: ``masks, labels, scores``.
"""

from __future__ import annotations

from collections.abc import Callable

TASKS = ('classification', 'detection', 'semantic_segmentation', 'instance_segmentation')

_MODELS: dict[str, type] = {}


def register_model(name: str) -> Callable[[type], type]:
    """A class decorator that registers a model class under ``name``.

    The class gets the attribute ``model_name``, the name its pretrained weights are listed
    under in the manifest. It must declare its ``task`` (one of :data:`TASKS`).

    Args:
        name (str): the name, e.g. ``'resnet50'``.

    Raises:
        ValueError: the name is taken, the class is already registered under another name, or
            its ``task`` is not one of :data:`TASKS`.
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f'register_model: name must be a non-empty str, but got {name!r}')

    def decorator(cls: type) -> type:
        if name in _MODELS:
            taken = _MODELS[name]
            raise ValueError(f'register_model: the name {name!r} is already registered to '
                             f'{taken.__module__}.{taken.__qualname__}; cannot register '
                             f'{cls.__module__}.{cls.__qualname__} under it')
        task = getattr(cls, 'task', None)
        if task not in TASKS:
            raise ValueError(f'register_model: {cls.__qualname__} must declare its task as a '
                             f'class attribute, one of {", ".join(map(repr, TASKS))}, but '
                             f'its task is {task!r}')
        if cls.__dict__.get('model_name') is not None:
            raise ValueError(f'register_model: {cls.__qualname__} is already registered as '
                             f'{cls.model_name!r}; cannot register it as {name!r}')
        _MODELS[name] = cls
        cls.model_name = name
        return cls

    return decorator


def get_model(name: str) -> type:
    """The model class registered under ``name``.

    Raises:
        ValueError: no model has that name; the message lists the registered ones.
    """
    try:
        return _MODELS[name]
    except KeyError:
        raise ValueError(f'get_model: no model is named {name!r}; the models are '
                         f'{", ".join(list_models())}') from None


def list_models() -> list[str]:
    """The names of the registered models, sorted."""
    return sorted(_MODELS)
