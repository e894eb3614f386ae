"""The computational graph behind some variables, as Graphviz dot (Chainer's
``chainer.computational_graph``).

:func:`build_computational_graph` walks back from output variables through the creator of
each variable node and the inputs of each function node; :meth:`ComputationalGraph.dump`
writes the result in the dot language (render it with ``dot -Tpng cg.dot -o cg.png``).
Nodes are numbered in the order they are found, so the same graph gives the same text.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable

from framework.function_node import FunctionNode
from framework.variable import Variable, VariableNode

_DEFAULT_VARIABLE_STYLE = {'color': 'navy', 'fillcolor': '#B3D9FF', 'shape': 'octagon',
                           'style': 'filled'}
_DEFAULT_FUNCTION_STYLE = {'color': 'black', 'fillcolor': 'gray', 'shape': 'record',
                           'style': 'filled'}


class ComputationalGraph:
    """A computational graph: variable and function nodes, and edges between them.

    Args:
        nodes (list): :class:`~framework.VariableNode` and :class:`~framework.FunctionNode`
            objects, in the order they were found.
        edges (list of tuple): ``(head, tail)`` pairs: an input variable to the function
            that consumed it, or a function to the variable it created.
        variable_style (dict): dot attributes of variable nodes.
        function_style (dict): dot attributes of function nodes.
        rankdir (str): the direction of the graph: ``'TB'``, ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable (bool): whether to draw functions only, linked directly.
        show_name (bool): whether variable labels start with the variable's name.
    """

    def __init__(self, nodes: list, edges: list, variable_style: dict | None = None,
                 function_style: dict | None = None, rankdir: str = 'TB',
                 remove_variable: bool = False, show_name: bool = True):
        if rankdir not in ('TB', 'BT', 'LR', 'RL'):
            raise ValueError("ComputationalGraph: rankdir must be 'TB', 'BT', 'LR' or 'RL', but "
                             f'got {rankdir!r}')
        self.nodes = nodes
        self.edges = edges
        self.variable_style = variable_style
        self.function_style = function_style
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def dump(self, format: str = 'dot') -> str:
        """The graph as text in ``format`` (only ``'dot'``)."""
        if format != 'dot':
            raise NotImplementedError(f"ComputationalGraph.dump: only the 'dot' format is "
                                      f'supported, but got {format!r}')
        return self._to_dot()

    def _to_dot(self) -> str:
        ids = {node: i for i, node in enumerate(self.nodes)}
        nodes, edges = self.nodes, self.edges
        if self.remove_variable:
            nodes, edges = _skip_variables(nodes, edges)
        parts = [f'digraph graphname{{rankdir={self.rankdir};']
        for node in nodes:
            parts.append(f'{ids[node]} [{self._attributes(node)}];')
        drawn = set()
        for head, tail in edges:
            edge = (ids[head], ids[tail])
            if edge not in drawn:
                drawn.add(edge)
                parts.append(f'{edge[0]} -> {edge[1]};')
        parts.append('}')
        return ''.join(parts)

    def _attributes(self, node) -> str:
        attributes = {'label': node.label}
        if isinstance(node, VariableNode):
            if self.show_name and node.name is not None:
                attributes['label'] = f'{node.name}: {node.label}'
            attributes['shape'] = 'oval'
            style = self.variable_style
        else:
            attributes['shape'] = 'box'
            style = self.function_style
        attributes.update(style or {})
        return ','.join(f'{key}="{value}"' for key, value in attributes.items())


def _skip_variables(nodes: list, edges: list) -> tuple[list, list]:
    """The function nodes, with an edge from each function to those consuming its outputs."""
    function_edges = []
    for head, tail in edges:
        if isinstance(head, VariableNode) and head.creator_node is not None:
            function_edges.append((head.creator_node, tail))
    return [n for n in nodes if isinstance(n, FunctionNode)], function_edges


def build_computational_graph(outputs: Iterable, remove_split: bool = True,
                              variable_style='default', function_style='default',
                              rankdir: str = 'TB', remove_variable: bool = False,
                              show_name: bool = True) -> ComputationalGraph:
    """Builds the graph that produced ``outputs``.

    The graph is walked back from the outputs, newest nodes first (by rank), through the
    creator of each variable and the inputs of each function; a variable that keeps no graph
    (a leaf, or a copy made by :func:`~framework.reporter.report`) ends the walk.

    Args:
        outputs (list): Variables or VariableNodes (a single Variable is accepted too).
        remove_split (bool): ignored (Chainer's graphs have had no split nodes since v2).
        variable_style (dict or str): dot attributes of variable nodes; ``'default'`` for
            Chainer's default style, None for none.
        function_style (dict or str): dot attributes of function nodes, likewise.
        rankdir (str): the direction of the graph.
        remove_variable (bool): whether to draw functions only.
        show_name (bool): whether variable labels start with the variable's name.

    Returns:
        ComputationalGraph: the graph.
    """
    if isinstance(outputs, (Variable, VariableNode)):
        outputs = [outputs]
    if isinstance(variable_style, str) and variable_style == 'default':
        variable_style = _DEFAULT_VARIABLE_STYLE
    if isinstance(function_style, str) and function_style == 'default':
        function_style = _DEFAULT_FUNCTION_STYLE
    candidates: list = []
    counter = itertools.count()
    nodes: dict = {}  # insertion-ordered set
    edges: dict = {}

    def add(node):
        heapq.heappush(candidates, (-node.rank, next(counter), node))
        nodes.setdefault(node, None)

    for output in outputs:
        add(output.node if isinstance(output, Variable) else output)
    while candidates:
        _, _, node = heapq.heappop(candidates)
        if isinstance(node, VariableNode):
            creator = node.creator_node
            if creator is not None and (creator, node) not in edges:
                edges[creator, node] = None
                add(creator)
        else:
            for input_node in node.inputs or ():
                if (input_node, node) not in edges:
                    edges[input_node, node] = None
                    add(input_node)
    return ComputationalGraph(list(nodes), list(edges), variable_style, function_style,
                              rankdir, remove_variable, show_name)
