"""Sequential: a ChainList applying its layers (links or functions) one after another."""

from __future__ import annotations

from framework.links.link import ChainList, Link


class Sequential(ChainList):
    """Applies its layers in order: ``Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))``.

    Layers may be links (registered as children, so their parameters are the sequence's; they
    are named ``'0'``, ``'1'``... in the order of the links alone, as in Chainer) or any
    callables (functions), which own nothing. A layer's output is passed to the next one,
    spread as arguments when it is a tuple.

    Args:
        layers: the initial layers.
    """

    def __init__(self, *layers):
        super().__init__()
        self._layers: list = []
        for layer in layers:
            self.append(layer)

    def _sync_children(self) -> None:
        """Makes the children the links among the layers, in order."""
        self._children = [layer for layer in self._layers if isinstance(layer, Link)]
        self._rename_children()

    def insert(self, index: int, layer) -> None:
        """Inserts a link or a callable before position ``index``."""
        if isinstance(layer, Link):
            self._adopt(layer)
        elif not callable(layer):
            raise TypeError(f'Sequential: a layer must be a Link or a callable, but got '
                            f'{type(layer).__name__}')
        self._layers.insert(index, layer)
        self._sync_children()

    def append(self, layer) -> None:
        """Appends a link or a callable."""
        self.insert(len(self._layers), layer)

    add_link = append

    def extend(self, layers) -> None:
        """Appends each of ``layers``."""
        for layer in layers:
            self.append(layer)

    def __getitem__(self, index):
        if isinstance(index, slice):
            part = Sequential()
            part._device = self._device  # the layers stay where they are
            part.extend(self._layers[index])
            return part
        return self._layers[index]

    def __setitem__(self, index: int, layer) -> None:
        del self[index]
        self.insert(index % (len(self._layers) + 1), layer)

    def __delitem__(self, index) -> None:
        del self._layers[index]
        self._sync_children()

    def pop(self, index: int = -1):
        """Removes and returns the layer at ``index``."""
        layer = self._layers[index]
        del self[index]
        return layer

    def remove(self, layer) -> None:
        """Removes the first occurrence of ``layer``."""
        del self[self._layers.index(layer)]

    def index(self, layer) -> int:
        return self._layers.index(layer)

    def count(self, layer) -> int:
        return self._layers.count(layer)

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, layer) -> bool:
        return layer in self._layers

    def __len__(self):
        return len(self._layers)

    def __add__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            return NotImplemented
        return Sequential(*self._layers, *other._layers)

    def __iadd__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            return NotImplemented
        self.extend(list(other._layers))
        return self

    def flatten(self) -> Sequential:
        """A Sequential of the layers with nested Sequentials spliced in."""
        layers = []
        for layer in self._layers:
            layers.extend(layer.flatten() if isinstance(layer, Sequential) else [layer])
        return Sequential(*layers)

    def copy(self, mode: str = 'share') -> Sequential:
        ret = super().copy(mode)
        if mode == 'share':
            copies = {id(old): new for old, new in zip(self._children, ret._children)}
            ret._layers = [copies.get(id(layer), layer) for layer in self._layers]
        return ret

    def forward(self, *x):
        if not self._layers:
            raise RuntimeError('Sequential: there is no layer to apply')
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def __str__(self):
        lines = [f'{type(self).__name__}(']
        for i, layer in enumerate(self._layers):
            text = str(layer) if isinstance(layer, Link) else getattr(layer, '__name__',
                                                                      repr(layer))
            lines.append(f'  ({i}): ' + text.replace('\n', '\n  ') + ',')
        return '\n'.join(lines + [')']) if self._layers else f'{type(self).__name__}()'

    __repr__ = __str__
