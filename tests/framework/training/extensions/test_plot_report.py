"""PlotReport: a PNG of interval means, drawn with Agg, replaced atomically."""

import json
import os

import numpy
import pytest
from PIL import Image

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import extensions


def _values(iteration):
    return {'main/loss': numpy.float32(1.0 / iteration), 'other': 3.0}


def _run(make_trainer, report_values, plot, stop=6, state=None):
    trainer = make_trainer((stop, 'iteration'), iter_per_epoch=2)
    trainer.extend(report_values(_values))
    trainer.extend(plot)
    if state is not None:
        trainer.serialize(NpzDeserializer(state))
    trainer.run()
    saver = DictionarySerializer()
    trainer.serialize(saver)
    return trainer, saver.target


def test_plot_file_and_points(make_trainer, report_values):
    plot = extensions.PlotReport(['main/loss', 'missing'], filename='loss.png')
    trainer, _ = _run(make_trainer, report_values, plot)
    assert sorted(os.listdir(trainer.out)) == ['loss.png']
    with Image.open(os.path.join(trainer.out, 'loss.png')) as image:
        assert image.format == 'PNG' and image.size[0] > 100 and image.size[1] > 100
    assert plot._data['missing'] == []
    xs, ys = zip(*plot._data['main/loss'])
    assert xs == (1, 2, 3)
    assert ys == pytest.approx([0.75, (1 / 3 + 1 / 4) / 2, (1 / 5 + 1 / 6) / 2])


def test_iteration_axis_postprocess_and_file_name_alias(make_trainer, report_values):
    calls = []

    def postprocess(figure, axes, summary):
        calls.append(axes.get_xlabel())

    plot = extensions.PlotReport('other', x_key='iteration', trigger=(3, 'iteration'),
                                 postprocess=postprocess, file_name='other.png', marker=None,
                                 grid=False)
    trainer, _ = _run(make_trainer, report_values, plot)
    assert calls == ['iteration', 'iteration']
    assert plot._data['other'] == [(3, 3.0), (6, 3.0)]
    assert os.path.exists(os.path.join(trainer.out, 'other.png'))
    assert extensions.PlotReport.available()


def test_nothing_to_plot_writes_no_file(make_trainer, report_values):
    trainer, _ = _run(make_trainer, report_values, extensions.PlotReport(['missing']))
    assert os.listdir(trainer.out) == []


def test_resume_gives_the_same_points(make_trainer, report_values):
    reference = extensions.PlotReport(['main/loss'])
    _run(make_trainer, report_values, reference, stop=7)
    first = extensions.PlotReport(['main/loss'])
    _, state = _run(make_trainer, report_values, first, stop=3)
    assert json.loads(str(state['extensions/PlotReport/_plot_plot.png'])) == {
        'main/loss': [[1, 0.75]]}
    resumed = extensions.PlotReport(['main/loss'])
    _run(make_trainer, report_values, resumed, stop=7, state=state)
    assert resumed._data == reference._data
