"""What the evaluation scripts share: the options of the run (loaders, device, static graph) and
the run of a benchmark of :mod:`vision.evaluations` with its progress and its numbers printed."""

from __future__ import annotations

import argparse

from framework import backend
from vision.utils import ProgressHook

from _classification import make_iterator  # isort: skip


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """``--loaderjob``, ``--device`` and ``--eager``."""
    parser.add_argument('--loaderjob', type=int, default=4,
                        help='the processes that read the images; 0 reads them in this one')
    parser.add_argument('--device', default='@numpy', help="'@numpy' or '@cupy:0'")
    parser.add_argument('--eager', action='store_true',
                        help='run the model define-by-run rather than as a static graph')


def run_benchmark(benchmark, model, args: argparse.Namespace) -> dict:
    """Evaluates ``model`` on ``benchmark`` as the options say (``--device``, a static graph
    where the model has one unless ``--eager``, ``--data-dir``, ``--batchsize``,
    ``--loaderjob``), prints the progress and the benchmark's summary; returns the result of
    the benchmark's metric. The model is checked against the benchmark before any download.
    """
    model.to_device(backend.get_device(args.device))
    if not args.eager and getattr(model, 'hybridize_by_default', True):
        model.hybridize()
    benchmark.prepare(model)
    dataset = benchmark.dataset(args.data_dir)
    iterator = make_iterator(dataset, args, repeat=False, shuffle=False)

    print(f'{args.model} ({args.pretrained_model}) on {benchmark.title}, {len(dataset)} '
          'images:')
    result = benchmark.evaluate(model, iterator, hook=ProgressHook(len(dataset)))
    print()
    for name, value in benchmark.summarize(result).items():
        print(f'{name}: {value}')
    return result
