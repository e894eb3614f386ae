"""Link, Chain and ChainList: the building blocks that own parameters (Chainer's design).

A :class:`Link` owns parameters (:class:`~framework.Parameter`) and persistent values (arrays
or scalars that are not trained, such as running statistics or anchors). A :class:`Chain` also
owns named child links, a :class:`ChainList` an ordered list of them. Attributes assigned inside
``with self.init_scope():`` are registered: parameters and links by their type, persistents
with :meth:`Link.add_persistent`. Device moves, copies and serialization follow the registered
members, so nothing has to be moved or saved by hand.

Traversals visit a link's own parameters in the order of their names, then its children (a
Chain's in the order of their names, a ChainList's in list order), depth first, as Chainer's.
"""

from __future__ import annotations

import contextlib
import copy as copy_module
import warnings
from collections.abc import Iterator

import numpy

from framework import backend
from framework.parameter import Parameter

_COPY_MODES = ('init', 'copy', 'share')


def _check_copy_mode(mode: str) -> None:
    if mode not in _COPY_MODES:
        raise ValueError(f"copy: mode must be 'init', 'copy' or 'share', but got {mode!r}")


def _shape_and_dtype(value):
    """Chainer's ``Link(name=shape)`` or ``Link(name=(shape, dtype))`` argument."""
    if value is None or isinstance(value, (int, numpy.integer)):
        return value, numpy.float32
    if isinstance(value, (tuple, list)) and all(isinstance(v, (int, numpy.integer))
                                                for v in value):
        return tuple(value), numpy.float32
    shape, dtype = value
    return shape, dtype


class Link:
    """A differentiable component with parameters and persistent values.

    Subclasses register members in ``__init__`` inside :meth:`init_scope` and compute in
    :meth:`forward`; calling the link calls ``forward``.

    Args:
        params: parameters to register, as in Chainer: ``name=shape`` or
            ``name=(shape, dtype)`` (filled with NaN; a shape of None leaves it
            uninitialized).
    """

    def __init__(self, **params):
        self._params: list[str] = []
        self._persistent: list[str] = []
        self._within_init_scope = False
        self._device = backend.CpuDevice()
        self.name: str | None = None
        for name, value in params.items():
            shape, dtype = _shape_and_dtype(value)
            self.add_param(name, shape, dtype=dtype)

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
            if name in self._persistent:
                self._persistent.remove(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        for members in (self._params, self._persistent):
            if name in members:
                members.remove(name)
        super().__delattr__(name)

    def add_param(self, name: str, shape=None, dtype=numpy.float32, initializer=None) -> None:
        """Registers a new parameter ``name`` (uninitialized when ``shape`` is None).

        Args:
            name: the attribute name.
            shape (int or tuple of int): the shape, or None.
            dtype: the dtype of a NaN-filled parameter (used when ``initializer`` is None).
            initializer: an initializer, an array or a scalar; None fills with NaN.
        """
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
        if name in self._params:
            self._params.remove(name)
        super().__setattr__(name, value)

    def register_persistent(self, name: str) -> None:
        """Registers an existing attribute as a persistent (no longer a parameter if it was)."""
        if not hasattr(self, name):
            raise AttributeError(f'{type(self).__name__}.register_persistent: the link has no '
                                 f'attribute {name!r}')
        if name not in self._persistent:
            self._persistent.append(name)
        if name in self._params:
            self._params.remove(name)

    # --- traversal -----------------------------------------------------------------------

    def children(self) -> Iterator[Link]:
        """The direct child links."""
        for _, child in self._named_children():
            yield child

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
            for name in sorted(link._params):
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
            for name in sorted(link._persistent):
                yield f'{prefix}/{name}', link.__dict__[name]

    def count_params(self) -> int:
        """The number of parameter elements; uninitialized parameters count 0, with a
        warning."""
        size = 0
        for path, param in self.namedparams():
            if param.is_initialized:
                size += param.size
            else:
                warnings.warn(f'count_params: the parameter {path!r} is not initialized; it is '
                              'not counted', stacklevel=2)
        return size

    # --- gradients and updates -----------------------------------------------------------

    def cleargrads(self) -> None:
        """Sets every parameter's gradient to None."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self) -> None:
        """Sets every parameter's gradient to zeros (an uninitialized one's when it is
        initialized)."""
        for param in self.params():
            param.zerograd()

    def addgrads(self, link: Link) -> None:
        """Adds the gradients of another link of the same structure to this one's."""
        theirs = dict(link.namedparams())
        for path, param in self.namedparams():
            param.addgrad(theirs[path])

    def copyparams(self, link: Link, copy_persistent: bool = True) -> None:
        """Copies the parameter (and persistent) values of a link of the same structure, across
        devices; array persistents are copied in place, other values deep-copied."""
        theirs = dict(link.namedparams())
        for path, param in self.namedparams():
            param.copydata(theirs[path])
        if not copy_persistent:
            return
        mine = dict(self.namedlinks())
        for path, other in link.namedlinks():
            target = mine[path]
            for name in other._persistent:
                src, dst = other.__dict__[name], target.__dict__.get(name)
                if backend.is_array(src) and backend.is_array(dst):
                    dst[...] = backend.get_device_from_array(dst).send(src)
                else:
                    value = copy_module.deepcopy(src)
                    target.__dict__[name] = (target._device.send(value)
                                             if backend.is_array(value) else value)

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
        return self.to_device(backend.gpu_device(device))

    # --- copies --------------------------------------------------------------------------

    def copy(self, mode: str = 'share') -> Link:
        """A copy of the hierarchy, without a name (it belongs to no parent).

        Args:
            mode: ``'share'``: new links whose parameters share arrays (and whose persistents
                are the same objects) with this one; ``'copy'``: a deep copy, arrays copied
                too; ``'init'``: a deep copy whose initialized parameters are re-initialized
                with their initializers.

        The parameters of the copy have no update rule (no optimizer updates them yet) and, in
        ``'share'`` mode, no gradient.
        """
        _check_copy_mode(mode)
        if mode == 'share':
            ret = copy_module.copy(self)
            ret._params = list(self._params)
            ret._persistent = list(self._persistent)
            for name in self._params:
                param = copy_module.copy(self.__dict__[name])
                param.cleargrad()
                param.update_rule = None
                ret.__dict__[name] = param
        else:
            ret = copy_module.deepcopy(self)
            for param in ret.params():
                param.update_rule = None
                if mode == 'init' and param.is_initialized:
                    param.initialize(param.shape)
        ret.name = None
        return ret

    def __deepcopy__(self, memo) -> Link:
        # Devices are immutable values: shared, not copied (a GPU device holds a module).
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            new.__dict__[key] = value if key == '_device' else copy_module.deepcopy(value, memo)
        return new

    def repeat(self, n_repeat: int, mode: str = 'init'):
        """A :class:`~framework.links.Sequential` of ``n_repeat`` copies of this link (see
        :meth:`copy` for ``mode``); empty when ``n_repeat`` is not positive."""
        from framework.links.sequential import Sequential
        if n_repeat <= 0:
            return Sequential()
        _check_copy_mode(mode)
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
            value = serializer(name, self.__dict__[name])
            self.__dict__[name] = self._device.send(value) if backend.is_array(value) else value

    # --- computation ---------------------------------------------------------------------

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'{type(self).__name__} does not implement forward')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    @property
    def printable_specs(self) -> Iterator[tuple[str, object]]:
        """``(name, value)`` pairs shown by :func:`str`; layers list their arguments."""
        return iter(())

    def __str__(self):
        children = [f'  ({name}): ' + str(child).replace('\n', '\n  ') + ','
                    for name, child in self._named_children()]
        if children:
            return '\n'.join([f'{type(self).__name__}('] + children + [')'])
        specs = ', '.join(f'{k}={v}' for k, v in self.printable_specs)
        return f'{type(self).__name__}({specs})'

    __repr__ = __str__


class Chain(Link):
    """A link that owns named child links (assigned inside :meth:`init_scope`).

    Args:
        links: child links, registered under the keyword names.
    """

    def __init__(self, **links: Link):
        super().__init__()
        self._children: list[str] = []
        for name, link in links.items():
            self.add_link(name, link)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name) and name not in self._children:
                raise AttributeError(f'{type(self).__name__}: cannot register the link {name!r}:'
                                     ' the attribute exists')
            value.name = name
            if value.device != self._device:
                value.to_device(self._device)
            if name not in self._children:
                self._children.append(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        if name in getattr(self, '_children', ()):
            self._children.remove(name)
        super().__delattr__(name)

    def __getitem__(self, name: str):
        """The attribute ``name`` (a child link, or any other attribute)."""
        return getattr(self, name)

    def add_link(self, name: str, link: Link) -> None:
        """Registers ``link`` as the child ``name``."""
        if name in self.__dict__:
            raise AttributeError(f'{type(self).__name__}.add_link: the chain already has an '
                                 f'attribute {name!r}')
        if not isinstance(link, Link):
            raise TypeError(f'{type(self).__name__}.add_link: link must be a Link, but got '
                            f'{type(link).__name__}')
        with self.init_scope():
            setattr(self, name, link)

    def _named_children(self):
        for name in sorted(self._children):
            yield name, self.__dict__[name]

    def copy(self, mode: str = 'share') -> Chain:
        ret = super().copy(mode)
        if mode == 'share':
            ret._children = list(self._children)
            for name in self._children:
                child = self.__dict__[name].copy(mode)
                child.name = name
                ret.__dict__[name] = child
        return ret

    def serialize(self, serializer) -> None:
        super().serialize(serializer)
        for name in self._children:
            self.__dict__[name].serialize(serializer[name])


class ChainList(Link):
    """A link that owns an ordered list of child links, named ``'0'``, ``'1'``...

    Args:
        links: the initial child links.
    """

    def __init__(self, *links: Link):
        super().__init__()
        self._children: list[Link] = []
        for link in links:
            self.add_link(link)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            raise TypeError(f'{type(self).__name__}: links cannot be registered as attributes '
                            'of a ChainList; use add_link or append')
        super().__setattr__(name, value)

    def _adopt(self, link: Link) -> Link:
        if not isinstance(link, Link):
            raise TypeError(f'{type(self).__name__}: a child must be a Link, but got '
                            f'{type(link).__name__}')
        if link.device != self._device:
            link.to_device(self._device)
        return link

    def _rename_children(self) -> None:
        for i, child in enumerate(self._children):
            child.name = str(i)

    def add_link(self, link: Link) -> None:
        """Appends ``link``."""
        self._children.append(self._adopt(link))
        self._rename_children()

    append = add_link

    def insert(self, index: int, link: Link) -> None:
        """Inserts ``link`` before position ``index``."""
        self._children.insert(index, self._adopt(link))
        self._rename_children()

    def __getitem__(self, index):
        return self._children[index]

    def __setitem__(self, index: int, link: Link) -> None:
        self._children[index] = self._adopt(link)
        self._rename_children()

    def __delitem__(self, index) -> None:
        del self._children[index]
        self._rename_children()

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def _named_children(self):
        for i, link in enumerate(self._children):
            yield str(i), link

    def copy(self, mode: str = 'share') -> ChainList:
        ret = super().copy(mode)
        if mode == 'share':
            ret._children = [child.copy(mode) for child in self._children]
            ret._rename_children()
        return ret

    def serialize(self, serializer) -> None:
        super().serialize(serializer)
        for i, link in enumerate(self._children):
            link.serialize(serializer[str(i)])
