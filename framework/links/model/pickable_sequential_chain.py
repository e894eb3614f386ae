"""PickableSequentialChain: a sequence of layers whose intermediate outputs can be picked
(ChainerCV's)."""

from __future__ import annotations

from framework.links.link import Chain


class PickableSequentialChain(Chain):
    """A chain that applies its layers in the order they were assigned and returns the
    outputs of the layers named by :attr:`pick`.

    Callables (links and functions) assigned inside :meth:`init_scope` are the layers, in the
    order of assignment; links among them are also child links::

        model = PickableSequentialChain()
        with model.init_scope():
            model.l1 = L.Linear(None, 1000)
            model.l1_relu = F.relu
            model.l2 = L.Linear(None, 10)
        y = model(x)                        # the output of l2
        model.pick = ('l1_relu', 'l2')
        h, y = model(x)                     # both, in the order of pick

    Attributes:
        layer_names (list of str): the names of the layers, in the order of computation.
        pick (str, tuple of str or None): the layers to return: one name returns its output,
            a sequence of names a tuple of outputs, None the output of the last layer.
    """

    def __init__(self):
        super().__init__()
        self.layer_names: list[str] = []
        self.pick = None

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if self.within_init_scope and callable(value):
            self.layer_names.append(name)

    def __delattr__(self, name):
        if self._pick and name in self._pick:
            raise AttributeError(f'{type(self).__name__}: cannot delete the layer {name!r}: '
                                 'it is picked')
        super().__delattr__(name)
        if name in self.layer_names:
            self.layer_names.remove(name)

    @property
    def pick(self):
        if self._pick is None:
            return None
        return self._pick if self._return_tuple else self._pick[0]

    @pick.setter
    def pick(self, pick) -> None:
        if pick is None:
            self._return_tuple = False
            self._pick = None
            return
        if not isinstance(pick, str) and all(isinstance(name, str) for name in pick):
            return_tuple = True
        else:
            return_tuple = False
            pick = (pick,)
        for name in pick:
            if name not in self.layer_names:
                # ChainerCV's message, which its tests match exactly; the rest in a note.
                error = ValueError(f'Invalid layer name {name!r}')
                error.add_note(f'{type(self).__name__}: the layers are {self.layer_names}')
                raise error
        self._return_tuple = return_tuple
        self._pick = tuple(pick)

    def remove_unused(self) -> None:
        """Deletes the layers after the last picked one (they are not needed any more)."""
        if self._pick is None:
            return
        last = max(self.layer_names.index(name) for name in self._pick)
        for name in self.layer_names[last + 1:]:
            delattr(self, name)

    def forward(self, x):
        """Applies the layers up to the last picked one.

        Returns:
            Variable or tuple of Variable: as :attr:`pick` says, each named after its layer
            (``Variable.name``), as in ChainerCV.
        """
        pick = (self.layer_names[-1],) if self._pick is None else self._pick
        last = max(self.layer_names.index(name) for name in pick)
        outputs = {}
        h = x
        for name in self.layer_names[:last + 1]:
            h = self[name](h)
            if name in pick:
                h.name = name
                outputs[name] = h
        if self._return_tuple:
            return tuple(outputs[name] for name in pick)
        return outputs[pick[0]]

    def copy(self, mode: str = 'share') -> PickableSequentialChain:
        ret = super().copy(mode)
        ret.layer_names = list(self.layer_names)
        ret._pick = self._pick
        ret._return_tuple = self._return_tuple
        return ret
