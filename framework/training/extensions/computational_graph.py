"""dump_graph: writes the computational graph of a reported variable as Graphviz dot."""

from __future__ import annotations

import os

from framework import computational_graph
from framework.config import config
from framework.serializers._atomic import atomic_write
from framework.training import extension
from framework.variable import Variable

_VARIABLE_STYLE = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_FUNCTION_STYLE = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}


class DumpGraph(extension.Extension):
    """The extension made by :func:`dump_graph`: writes the graph once, at the first
    iteration.

    Reported variables are normally copies without a graph; from :meth:`initialize` to the
    first call, ``config.keep_graph_on_report`` is True (in the training thread) so that the
    reported variable keeps its graph.
    """

    default_name = 'dump_graph'
    priority = extension.PRIORITY_READER

    def __init__(self, root_name: str, filename: str | None = None,
                 variable_style: dict | None = None, function_style: dict | None = None):
        self._root_name = root_name
        self._filename = 'cg.dot' if filename is None else filename
        self._variable_style = _VARIABLE_STYLE if variable_style is None else variable_style
        self._function_style = _FUNCTION_STYLE if function_style is None else function_style
        self._original_flag = None
        self._flag_called = False

    def initialize(self, trainer) -> None:
        if not self._flag_called:
            self._original_flag = config.keep_graph_on_report
            config.keep_graph_on_report = True

    def trigger(self, trainer) -> bool:
        """Fires until the graph has been written."""
        return not self._flag_called

    def __call__(self, trainer) -> None:
        if self._flag_called:
            return
        try:
            var = trainer.observation.get(self._root_name)
            if not isinstance(var, Variable):
                raise TypeError(f'dump_graph: the observation {self._root_name!r} must be a '
                                f'Variable, but got {type(var).__name__}')
            graph = computational_graph.build_computational_graph(
                [var], variable_style=self._variable_style,
                function_style=self._function_style).dump()
            with atomic_write(os.path.join(trainer.out, self._filename)) as f:
                f.write(graph.encode())
        finally:
            self._restore_flag()

    def finalize(self) -> None:
        if not self._flag_called and self._original_flag is not None:
            self._restore_flag()

    def _restore_flag(self) -> None:
        config.keep_graph_on_report = bool(self._original_flag)
        self._flag_called = True

    def serialize(self, serializer) -> None:
        """Saves or loads whether the graph was written (``_flag_called``) and the flag to
        restore (``_original_flag``)."""
        self._original_flag = serializer('_original_flag', self._original_flag)
        self._flag_called = bool(serializer('_flag_called', self._flag_called))


def dump_graph(root_name: str, filename: str = 'cg.dot', variable_style: dict | None = None,
               function_style: dict | None = None, *, out_name: str | None = None) -> DumpGraph:
    """Returns an extension that writes the computational graph of a reported variable.

    At the first iteration, the graph that produced the observed value ``root_name`` (e.g.
    ``'main/loss'``) is walked back from the variable's creator and written to
    ``<out>/<filename>`` as Graphviz dot.

    Args:
        root_name (str): the observation key of the variable.
        filename (str): the file name in the output directory.
        variable_style (dict): dot attributes of variable nodes.
        function_style (dict): dot attributes of function nodes.
        out_name (str): Chainer's old name of ``filename``.
    """
    return DumpGraph(root_name, out_name or filename, variable_style, function_style)
