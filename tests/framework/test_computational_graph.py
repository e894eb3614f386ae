"""build_computational_graph: the graph behind variables, as Graphviz dot."""

import re

import numpy
import pytest

import framework
import framework.functions as F
from framework import computational_graph as c


def _graph():
    x = framework.Variable(numpy.ones((2, 3), numpy.float32), name='x')
    w = framework.Variable(numpy.ones((4, 3), numpy.float32), name='w')
    h = F.relu(F.linear(x, w))
    y = F.sum(h * h)
    return x, w, h, y


def test_nodes_and_edges():
    x, w, h, y = _graph()
    graph = c.build_computational_graph([y])
    functions = [n.label for n in graph.nodes if isinstance(n, framework.FunctionNode)]
    assert sorted(functions) == sorted(['Sum', 'Mul', 'ReLU', 'LinearFunction'])
    variables = [n for n in graph.nodes if isinstance(n, framework.VariableNode)]
    assert x.node in variables and w.node in variables and y.node in variables
    assert (y.creator_node, y.node) in graph.edges
    linear = h.creator_node.inputs[0].creator_node
    assert (x.node, linear) in graph.edges and (w.node, linear) in graph.edges
    # Mul takes h twice, but the edge is recorded once
    mul = y.creator_node.inputs[0].creator_node
    assert graph.edges.count((h.node, mul)) == 1


def test_dot_output_is_deterministic_and_styled():
    dots = []
    for _ in range(2):
        *_, y = _graph()
        dots.append(c.build_computational_graph(y).dump())
    assert dots[0] == dots[1]
    dot = dots[0]
    assert dot.startswith('digraph graphname{rankdir=TB;') and dot.endswith('}')
    assert re.search(r'label="x: \(2, 3\), float32",shape="octagon",color="navy",'
                     r'fillcolor="#B3D9FF"', dot)
    assert 'label="ReLU",shape="record",color="black",fillcolor="gray"' in dot
    edges = re.findall(r'(\d+) -> (\d+);', dot)
    assert len(edges) == len(set(edges)) == 9


def test_options():
    *_, y = _graph()
    dot = c.build_computational_graph([y], variable_style=None, function_style={'a': 'b'},
                                      rankdir='LR', show_name=False).dump()
    assert 'rankdir=LR' in dot and 'x: ' not in dot and 'a="b"' in dot
    only_functions = c.build_computational_graph([y], remove_variable=True).dump()
    assert 'float32' not in only_functions
    assert len(re.findall(r'->', only_functions)) == 3
    with pytest.raises(ValueError, match='rankdir'):
        c.build_computational_graph([y], rankdir='XY')
    with pytest.raises(NotImplementedError, match="only the 'dot' format"):
        c.build_computational_graph([y]).dump('png')


def test_leaf_gives_a_single_node():
    x = framework.Variable(numpy.ones(2, numpy.float32))
    graph = c.build_computational_graph([x])
    assert graph.nodes == [x.node] and graph.edges == []
