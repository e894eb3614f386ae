"""dump_graph: the graph of the reported loss, written once at the first iteration."""

import os

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import reporter, training
from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import extensions


def _loss_reporting(model):
    @training.make_extension(priority=training.PRIORITY_WRITER)
    def forward(trainer):
        x = numpy.ones((2, 3), numpy.float32)
        reporter.report({'loss': F.sum(model(x))}, model)
    return forward


def test_writes_the_graph_of_the_reported_variable_once(make_trainer):
    model = L.Linear(3, 2)
    trainer = make_trainer((3, 'iteration'), optimizer=framework.optimizers.SGD().setup(model))
    trainer.extend(_loss_reporting(model))
    graph = extensions.dump_graph('main/loss', filename='graph.dot')
    trainer.extend(graph)
    calls = []
    trainer.extend(lambda t: calls.append(graph.trigger(t)), name='watch', priority=-10)
    trainer.run()
    with open(os.path.join(trainer.out, 'graph.dot')) as f:
        dot = f.read()
    assert dot.startswith('digraph graphname{')
    assert 'label="LinearFunction",shape="record",fillcolor="#6495ED",style="filled"' in dot
    assert 'label="W: (2, 3), float32",shape="octagon",fillcolor="#E0E0E0"' in dot
    assert 'Sum' in dot
    assert calls == [False, False, False]  # fired at the first iteration only
    assert framework.config.keep_graph_on_report is False  # restored


def test_missing_variable_raises_and_restores_the_flag(make_trainer):
    trainer = make_trainer((2, 'iteration'))
    trainer.extend(extensions.dump_graph('main/loss', out_name='old.dot'))
    with pytest.raises(TypeError, match="observation 'main/loss' must be a Variable"):
        trainer.run()
    assert framework.config.keep_graph_on_report is False


def test_state_round_trip():
    graph = extensions.dump_graph('main/loss')
    graph._flag_called = True
    saver = DictionarySerializer()
    graph.serialize(saver)
    restored = extensions.dump_graph('main/loss')
    restored.serialize(NpzDeserializer(saver.target))
    assert restored._flag_called and not restored.trigger(None)
