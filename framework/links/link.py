"""Link, Chain and ChainList: the building blocks that own parameters (Chainer's design).

A :class:`Link` owns parameters (:class:`~framework.Parameter`) and persistent values (arrays
or scalars that are not trained, such as running statistics or anchors). A :class:`Chain` also
owns named child links, a :class:`ChainList` an ordered list of them. Attributes assigned inside
``with self.init_scope():`` are registered: parameters and links by their type, persistents
with :meth:`Link.add_persistent`. Device moves, copies and serialization follow the registered
members, so nothing has to be moved or saved by hand.
"""

from __future__ import annotations

import contextlib
import copy as copy_module
from collections.abc import Iterator

import numpy

from framework import backend
from framework.parameter import Parameter


class Link:
    """A differentiable component with parameters and persistent values.

    Subclasses register members in ``__init__`` inside :meth:`init_scope` and compute in
    :meth:`forward`; calling the link calls ``forward``.
    """

    def __init__(self):
        self._params: list[str] = []
        self._persistent: list[str] = []
        self._within_init_scope = False
        self._device = backend.CpuDevice()
        self.name: str | None = None

    # --- registration --------------------------------------------------------------------

    @contextlib.contextmanager
    def init_scope(self):
        """Within this block, assigning a Parameter (or a Link, in a Chain) registers it."""
        old = self._within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = old

    @property
    def within_init_scope(self) -> bool:
        return getattr(self, '_within_init_scope', False)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Parameter):
            value.name = name
            value.to_device(self._device)
            if name not in self._params:
                self._params.append(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        for members in (self._params, self._persistent):
            if name in members:
                members.remove(name)
        super().__delattr__(name)

    def add_param(self, name: str, shape=None, dtype=numpy.float32, initializer=None) -> None:
        """Registers a new parameter ``name`` (uninitialized when ``shape`` is None)."""
        if name in self.__dict__:
            raise AttributeError(f'{type(self).__name__}.add_param: the link already has an '
                                 f'attribute {name!r}')
        if initializer is None:
            from framework.initializers import NaN
            initializer = NaN(dtype)
        with self.init_scope():
            setattr(self, name, Parameter(initializer, shape))

    def add_persistent(self, name: str, value) -> None:
        """Registers ``value`` (an array or a scalar) as a persistent: moved with the link and
        serialized, but not trained."""
        if name in self.__dict__:
            raise AttributeError(f'{type(self).__name__}.add_persistent: the link already has '
                                 f'an attribute {name!r}')
        if backend.is_array(value):
            value = self._device.send(value)
        self._persistent.append(name)
        super().__setattr__(name, value)

    def register_persistent(self, name: str) -> None:
        """Registers an existing attribute as a persistent."""
        if not hasattr(self, name):
            raise AttributeError(f'{type(self).__name__}.register_persistent: the link has no '
                                 f'attribute {name!r}')
        if name not in self._persistent:
            self._persistent.append(name)

    # --- traversal -----------------------------------------------------------------------

    def children(self) -> Iterator[Link]:
        """The direct child links."""
        return iter(())

    def _named_children(self) -> Iterator[tuple[str, Link]]:
        return iter(())

    def namedlinks(self, skipself: bool = False) -> Iterator[tuple[str, Link]]:
        """Every link of the hierarchy with its path (``'/'`` for this one, ``'/a/b'``...)."""
        if not skipself:
            yield '/', self
        for name, child in self._named_children():
            prefix = '/' + name
            yield prefix, child
            for path, link in child.namedlinks(skipself=True):
                yield prefix + path, link

    def links(self, skipself: bool = False) -> Iterator[Link]:
        """Every link of the hierarchy."""
        for _, link in self.namedlinks(skipself):
            yield link

    def namedparams(self, include_uninit: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Every parameter of the hierarchy with its path (``'/conv1/W'``)."""
        for path, link in self.namedlinks():
            prefix = '' if path == '/' else path
            for name in link._params:
                param = link.__dict__[name]
                if include_uninit or param.is_initialized:
                    yield f'{prefix}/{name}', param

    def params(self, include_uninit: bool = True) -> Iterator[Parameter]:
        """Every parameter of the hierarchy."""
        for _, param in self.namedparams(include_uninit):
            yield param

    def namedpersistents(self) -> Iterator[tuple[str, object]]:
        """Every persistent value of the hierarchy with its path."""
        for path, link in self.namedlinks():
            prefix = '' if path == '/' else path
            for name in link._persistent:
                yield f'{prefix}/{name}', link.__dict__[name]

    def count_params(self) -> int:
        """The number of parameter elements (uninitialized parameters count 0)."""
        return sum(p.size for p in self.params() if p.is_initialized)

    # --- gradients and updates -----------------------------------------------------------

    def cleargrads(self) -> None:
        """Sets every parameter's gradient to None."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self) -> None:
        """Sets every initialized parameter's gradient to zeros."""
        for param in self.params():
            param.zerograd()

    def addgrads(self, link: Link) -> None:
        """Adds the gradients of another link of the same structure to this one's."""
        theirs = dict(link.namedparams())
        for path, param in self.namedparams():
            param.addgrad(theirs[path])

    def copyparams(self, link: Link, copy_persistent: bool = True) -> None:
        """Copies the parameter (and persistent) values of a link of the same structure."""
        theirs = dict(link.namedparams())
        for path, param in self.namedparams():
            param.copydata(theirs[path])
        if copy_persistent:
            mine = dict(self.namedlinks())
            for path, other in link.namedlinks():
                for name in other._persistent:
                    value = other.__dict__[name]
                    if backend.is_array(value):
                        mine[path].__dict__[name][...] = mine[path]._device.send(value)
                    else:
                        mine[path].__dict__[name] = copy_module.copy(value)

    def enable_update(self) -> None:
        """Lets optimizers update every parameter of the hierarchy."""
        self._set_update_enabled(True)

    def disable_update(self) -> None:
        """Stops optimizers from updating any parameter of the hierarchy."""
        self._set_update_enabled(False)

    def _set_update_enabled(self, enabled: bool) -> None:
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = enabled
        for link in self.links():
            link._update_enabled = enabled

    @property
    def update_enabled(self) -> bool:
        return getattr(self, '_update_enabled', True)

    # --- devices -------------------------------------------------------------------------

    @property
    def device(self) -> backend.Device:
        return self._device

    @property
    def xp(self):
        return self._device.xp

    def to_device(self, device) -> Link:
        """Moves every parameter and persistent array of the hierarchy to ``device``."""
        device = backend.get_device(device)
        for link in self.links():
            link._device = device
            for name in link._params:
                link.__dict__[name].to_device(device)
            for name in link._persistent:
                value = link.__dict__[name]
                if backend.is_array(value):
                    link.__dict__[name] = device.send(value)
        return self

    def to_cpu(self) -> Link:
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device: int | None = None) -> Link:
        if device is None:
            device = backend._require_cupy('to_gpu').cuda.Device().id
        return self.to_device(backend.GpuDevice(device))

    # --- copies --------------------------------------------------------------------------

    def copy(self, mode: str = 'share') -> Link:
        """A copy of the hierarchy.

        Args:
            mode: ``'share'``: new links whose parameters share arrays with this one;
                ``'copy'``: arrays copied too; ``'init'``: parameters re-initialized with
                their initializers (persistents copied).
        """
        if mode not in ('share', 'copy', 'init'):
            raise ValueError(f"copy: mode must be 'share', 'copy' or 'init', but got {mode!r}")
        memo = {}
        for param in self.params():
            new = copy_module.copy(param)
            new._node = type(param._node)(new, param.name)
            new._grad_var = None
            new.update_rule = None
            if mode == 'copy' and param.array is not None:
                new.array = param.array.copy()
            elif mode == 'init' and param.array is not None:
                new.array = None
                new.initialize(param.shape)
            memo[id(param)] = new
        for _, value in self.namedpersistents():
            if backend.is_array(value):
                memo[id(value)] = value.copy()
        return copy_module.deepcopy(self, memo)

    def repeat(self, n_repeat: int, mode: str = 'init'):
        """A :class:`~framework.links.Sequential` of ``n_repeat`` copies of this link."""
        from framework.links.sequential import Sequential
        return Sequential(*(self.copy(mode) for _ in range(n_repeat)))

    # --- serialization -------------------------------------------------------------------

    def serialize(self, serializer) -> None:
        """Saves or loads every parameter and persistent through ``serializer`` (Chainer's
        protocol: ``serializer(key, value)`` returns the value read, or the one written)."""
        for name in self._params:
            param = self.__dict__[name]
            data = serializer(name, param.array)
            if param.array is None and data is not None:
                param.initialize(data.shape)
                param.array[...] = param.device.send(data)
        for name in self._persistent:
            self.__dict__[name] = serializer(name, self.__dict__[name])

    # --- computation ---------------------------------------------------------------------

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'{type(self).__name__} does not implement forward')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def printable_specs(self) -> Iterator[tuple[str, object]]:
        """``(name, value)`` pairs shown in :func:`repr`; layers list their arguments."""
        return iter(())

    def __repr__(self):
        children = [f'  ({name}): ' + repr(child).replace('\n', '\n  ') + ','
                    for name, child in self._named_children()]
        if children:
            return '\n'.join([f'{type(self).__name__}('] + children + [')'])
        specs = ', '.join(f'{k}={v!r}' for k, v in self.printable_specs())
        return f'{type(self).__name__}({specs})'


class Chain(Link):
    """A link that owns named child links (assigned inside :meth:`init_scope`)."""

    def __init__(self, **links: Link):
        super().__init__()
        self._children: list[str] = []
        with self.init_scope():
            for name, link in links.items():
                setattr(self, name, link)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name) and name not in self._children:
                raise AttributeError(f'{type(self).__name__}: cannot register the link {name!r}:'
                                     ' the attribute exists')
            value.name = name
            if name not in self._children:
                self._children.append(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        if name in getattr(self, '_children', ()):
            self._children.remove(name)
        super().__delattr__(name)

    def __getitem__(self, name: str) -> Link:
        return self.__dict__[name]

    def add_link(self, name: str, link: Link) -> None:
        """Registers ``link`` as the child ``name``."""
        with self.init_scope():
            setattr(self, name, link)

    def children(self) -> Iterator[Link]:
        for name in self._children:
            yield self.__dict__[name]

    def _named_children(self):
        for name in self._children:
            yield name, self.__dict__[name]

    def serialize(self, serializer) -> None:
        super().serialize(serializer)
        for name in self._children:
            self.__dict__[name].serialize(serializer[name])


class ChainList(Link):
    """A link that owns an ordered list of child links, named ``'0'``, ``'1'``..."""

    def __init__(self, *links: Link):
        super().__init__()
        self._children: list[Link] = []
        for link in links:
            self.add_link(link)

    def add_link(self, link: Link) -> None:
        """Appends ``link``."""
        if not isinstance(link, Link):
            raise TypeError(f'{type(self).__name__}.add_link: link must be a Link, but got '
                            f'{type(link).__name__}')
        link.name = str(len(self._children))
        link.to_device(self._device)
        self._children.append(link)

    append = add_link

    def __getitem__(self, index):
        return self._children[index]

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def children(self) -> Iterator[Link]:
        return iter(self._children)

    def _named_children(self):
        for i, link in enumerate(self._children):
            yield str(i), link

    def serialize(self, serializer) -> None:
        super().serialize(serializer)
        for i, link in enumerate(self._children):
            link.serialize(serializer[str(i)])
