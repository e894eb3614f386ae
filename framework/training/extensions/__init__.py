"""Trainer extensions (``from framework.training import extensions``), with Chainer's names.

- Reports: :class:`LogReport`, :class:`PrintReport`, :class:`ProgressBar`, :class:`PlotReport`,
  :class:`VariableStatisticsPlot`.
- Evaluation and statistics: :class:`Evaluator`, :class:`ParameterStatistics`,
  :class:`MicroAverage`, :func:`observe_value`, :func:`observe_lr`.
- Snapshots: :func:`snapshot`, :func:`snapshot_object` (atomic writes, ``autoload``,
  ``n_retains``) and the writers of :mod:`.snapshot_writers`.
- Schedules of optimizer attributes: :class:`ExponentialShift`, :class:`InverseShift`,
  :class:`StepShift`, :class:`MultistepShift`, :class:`LinearShift`, :class:`PolynomialShift`,
  :class:`WarmupShift`; :func:`make_shift` makes one from a function of the trainer.
- Safety and debugging: :class:`FailOnNonNumber`, :func:`dump_graph`.
"""

from framework.training.extensions import snapshot_writers, variable_statistics_plot
from framework.training.extensions._snapshot import snapshot, snapshot_object
from framework.training.extensions.computational_graph import DumpGraph, dump_graph
from framework.training.extensions.evaluator import Evaluator
from framework.training.extensions.exponential_shift import ExponentialShift
from framework.training.extensions.fail_on_nonnumber import FailOnNonNumber
from framework.training.extensions.inverse_shift import InverseShift
from framework.training.extensions.linear_shift import LinearShift
from framework.training.extensions.log_report import LogReport
from framework.training.extensions.make_shift import make_shift
from framework.training.extensions.micro_average import MicroAverage
from framework.training.extensions.multistep_shift import MultistepShift
from framework.training.extensions.parameter_statistics import ParameterStatistics
from framework.training.extensions.plot_report import PlotReport
from framework.training.extensions.polynomial_shift import PolynomialShift
from framework.training.extensions.print_report import PrintReport
from framework.training.extensions.progress_bar import ProgressBar
from framework.training.extensions.step_shift import StepShift
from framework.training.extensions.value_observation import observe_lr, observe_value
from framework.training.extensions.variable_statistics_plot import VariableStatisticsPlot
from framework.training.extensions.warmup_shift import WarmupShift

__all__ = [
    'DumpGraph', 'Evaluator', 'ExponentialShift', 'FailOnNonNumber', 'InverseShift',
    'LinearShift', 'LogReport',
    'MicroAverage', 'MultistepShift', 'ParameterStatistics', 'PlotReport', 'PolynomialShift',
    'PrintReport', 'ProgressBar', 'StepShift', 'VariableStatisticsPlot', 'WarmupShift',
    'dump_graph', 'make_shift', 'observe_lr', 'observe_value', 'snapshot', 'snapshot_object',
    'snapshot_writers', 'variable_statistics_plot',
]
