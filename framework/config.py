"""Run-time configuration, global and thread-local, as in Chainer.

``framework.config.train`` tells layers such as dropout and batch normalization whether they are
training; ``framework.config.enable_backprop`` whether function applications record the graph.
Values are read from the calling thread's local configuration and fall back to
:data:`global_config`; :func:`using_config` changes one for the extent of a ``with`` block.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

_MISSING = object()


class GlobalConfig:
    """Process-wide defaults."""

    def __init__(self):
        self.train = True
        self.enable_backprop = True
        self.type_check = True
        self.debug = False
        # On a GPU: whether convolutions go to cuDNN ('always', 'auto': when it is there,
        # 'never'), and whether they may use tensor cores ('auto': half precision only,
        # 'always': single precision too, in TF32; 'never'), as Chainer's entries.
        self.use_cudnn = 'auto'
        self.use_cudnn_tensor_core = 'auto'
        # Whether cuDNN times every algorithm of a new convolution geometry and keeps the
        # fastest, rather than taking its heuristics' choice (Chainer's autotune).
        self.autotune = False
        # On a GPU: whether a static graph replays its calls as one CUDA graph, captured at
        # a signature's second call (framework.cuda.cuda_graph).
        self.use_cuda_graph = True

    def show(self) -> str:
        """Returns the configuration as ``name value`` lines."""
        return '\n'.join(f'{k:<16}{v!r}' for k, v in sorted(vars(self).items()))


class LocalConfig:
    """Thread-local configuration that falls back to a :class:`GlobalConfig`."""

    def __init__(self, global_config: GlobalConfig):
        super().__setattr__('_global', global_config)
        super().__setattr__('_local', threading.local())

    def __getattr__(self, name):
        # Looked up on every function application: dictionary reads, no exceptions.
        value = self._local.__dict__.get(name, _MISSING)
        if value is _MISSING:
            value = vars(self._global).get(name, _MISSING)
            if value is _MISSING:
                raise AttributeError(f'framework.config has no entry {name!r}')
        return value

    def __setattr__(self, name, value):
        setattr(self._local, name, value)

    def __delattr__(self, name):
        delattr(self._local, name)

    def show(self) -> str:
        """Returns the effective configuration of this thread as ``name value`` lines."""
        merged = dict(vars(self._global))
        merged.update(vars(self._local))
        return '\n'.join(f'{k:<16}{v!r}' for k, v in sorted(merged.items()))


global_config = GlobalConfig()
config = LocalConfig(global_config)


@contextlib.contextmanager
def using_config(name: str, value: Any, config: LocalConfig = config) -> Iterator[None]:
    """Sets ``config.<name>`` to ``value`` in this thread inside a ``with`` block.

    Example:
        >>> with using_config('train', False):
        ...     y = model(x)
    """
    old = getattr(config._local, name, _MISSING)
    setattr(config, name, value)
    try:
        yield
    finally:
        if old is _MISSING:
            delattr(config, name)
        else:
            setattr(config, name, old)


def thread_settings(config: LocalConfig = config) -> dict[str, Any]:
    """The settings this thread made (by :func:`using_config` or assignment), not those it
    reads from the global configuration: what work handed to another thread must run with."""
    return dict(vars(config._local))


def no_backprop_mode() -> contextlib.AbstractContextManager:
    """Function applications inside the block record no graph (``enable_backprop=False``)."""
    return using_config('enable_backprop', False)


def force_backprop_mode() -> contextlib.AbstractContextManager:
    """Function applications inside the block record the graph, even inside
    :func:`no_backprop_mode`."""
    return using_config('enable_backprop', True)
