"""Sequential: a ChainList applying its layers (links or functions) one after another."""

from __future__ import annotations

from framework.links.link import ChainList, Link


class Sequential(ChainList):
    """Applies its layers in order: ``Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))``.

    Layers may be links (registered as children, so their parameters are the sequence's) or
    any callables (functions), which own nothing. A layer's output is passed to the next one,
    spread as arguments when it is a tuple.
    """

    def __init__(self, *layers):
        super().__init__()
        self._layers: list = []
        for layer in layers:
            self.append(layer)

    def append(self, layer) -> None:
        """Appends a link or a callable."""
        if isinstance(layer, Link):
            super().add_link(layer)
        elif not callable(layer):
            raise TypeError(f'Sequential.append: a layer must be a Link or a callable, but got '
                            f'{type(layer).__name__}')
        self._layers.append(layer)

    add_link = append

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Sequential(*self._layers[index])
        return self._layers[index]

    def __iter__(self):
        return iter(self._layers)

    def __len__(self):
        return len(self._layers)

    def __add__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            return NotImplemented
        return Sequential(*self._layers, *other._layers)

    def forward(self, *x):
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def __repr__(self):
        lines = ['Sequential(']
        for i, layer in enumerate(self._layers):
            text = repr(layer) if isinstance(layer, Link) else getattr(layer, '__name__',
                                                                      repr(layer))
            lines.append(f'  ({i}): ' + text.replace('\n', '\n  ') + ',')
        return '\n'.join(lines + [')'])
