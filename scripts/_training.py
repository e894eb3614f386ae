"""What every training script of the zoo shares (``train_ssd.py``, ``train_faster_rcnn.py``,
``train_fpn.py``, ``train_segnet.py``, ``train_pspnet.py``): the options of the run, their
checks, the seeds, the MPI processes, the trainer with its snapshots, reports and plots, and the
one-line end of a run whose data a user got wrong.

The trainer is saved every ``--snapshot-interval`` iterations and at the end in ``--out``; a
run started again with the same ``--out`` resumes from its last snapshot. With
``--communicator NAME`` the script trains data-parallel over the processes of an MPI job
(ChainerMN's names): every process trains on its part of the training set, starts from rank
0's weights and averages its gradients with the others; only rank 0 prints, logs, plots and
writes; every process resumes from rank 0's last snapshot.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib.util
import os
import random
import sys

import numpy

import framework
from framework import backend, distributed, iterators, optimizers, serializers, training
from framework.dataset import concat_examples
from framework.datasets import TransformDataset
from framework.training import extensions


class DatasetError(ValueError):
    """A sample of the training set cannot be trained on (the message names the sample).
    :func:`dataset_errors_end_the_run` turns it into one line."""


def positive_int(text: str) -> int:
    """An option of at least 1 (an ``argparse`` type)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f'must be 1 or more, but got {value}')
    return value


def non_negative_int(text: str) -> int:
    """An option of at least 0 (an ``argparse`` type)."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f'must be 0 or more, but got {value}')
    return value


@dataclasses.dataclass
class Training:
    """A model's training as a script sets it up.

    Attributes:
        model (Link): the model (what ``OUT/model.npz`` holds and the evaluator runs).
        train_chain (Link): the model with its loss, reporting ``loss`` and its parts.
        transform (callable): a sample of the training set to the train chain's inputs.
        batch_size (int): the images of a batch of this process.
        loss_keys (tuple of str): the parts of the loss to print beside ``main/loss``.
        setup_hooks (callable): ``setup_hooks(train_chain)`` adds the recipe's optimizer
            hooks after the optimizer's setup.
        converter (callable): a batch of transformed samples to the train chain's inputs
            (the updater's ``converter``); :func:`~framework.dataset.concat_examples` by
            default, which stacks them.
    """

    model: object
    train_chain: object
    transform: object
    batch_size: int
    loss_keys: tuple[str, ...]
    setup_hooks: object
    converter: object = concat_examples


def add_arguments(parser: argparse.ArgumentParser, *, iteration: int | None, lr: float,
                  batchsize: int | None, log_interval: int, eval_interval_help: str,
                  iteration_help: str | None = None) -> None:
    """Adds the options of the run, with the recipe's defaults.

    Args:
        parser: the script's parser.
        iteration (int or None): the iterations of the training; None where the script
            chooses them after parsing (by ``--dataset``, as ``iteration_help`` says).
        lr (float): the initial learning rate.
        batchsize (int or None): the images of a batch (of all processes); None for a fixed
            batch of one image per process (no ``--batchsize`` option).
        log_interval (int): the iterations between two entries of the log.
        eval_interval_help (str): when the script evaluates without ``--eval-interval``.
        iteration_help (str or None): the help of ``--iteration``.
    """
    if batchsize is not None:
        parser.add_argument('--batchsize', type=positive_int, default=batchsize,
                            help=f'the images of a batch, of all the processes ({batchsize})')
    parser.add_argument('--iteration', type=positive_int, default=iteration,
                        help=iteration_help)
    parser.add_argument('--lr', type=float, default=lr)
    parser.add_argument('--eval-interval', type=positive_int,
                        help=f'evaluate every this many iterations (default: '
                             f'{eval_interval_help})')
    parser.add_argument('--snapshot-interval', type=positive_int, default=1000,
                        help='the iterations between two snapshots (1000; one is also taken '
                             'at the end)')
    parser.add_argument('--log-interval', type=positive_int, default=log_interval)
    parser.add_argument('--loaderjob', type=non_negative_int, default=2,
                        help='the processes that load and transform the images; 0 loads them '
                             'in the main process')
    parser.add_argument('--device', default='@numpy', help="'@numpy' or '@cupy:0'")
    parser.add_argument('--out', default='result')
    parser.add_argument('--seed', type=int, default=0,
                        help='the seed of the initial weights, of the order of the images and of '
                             'their random augmentation')
    parser.add_argument('--communicator',
                        help="train over the processes of an MPI job (mpiexec -n N ...) with "
                             "this communicator of framework.distributed ('flat' on CPUs)")


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Ends the script with one line on stderr (``parser.error``) for options that cannot be
    run: a learning rate that is not positive, a ``--data-dir`` that is not a directory (for
    a ``--dataset`` other than ``shapes``), ``--communicator`` without mpi4py."""
    if args.lr <= 0:
        parser.error(f'--lr must be positive, but got {args.lr:g}')
    if args.dataset != 'shapes' and args.data_dir != 'auto' and not os.path.isdir(
            args.data_dir):
        parser.error(f'--data-dir must be a directory (or auto), but {args.data_dir!r} is not')
    if args.communicator is not None and importlib.util.find_spec('mpi4py') is None:
        parser.error("--communicator needs mpi4py, which the 'dist' extra installs: "
                     "pip install '.[dist]'")


def seed_everything(seed: int) -> None:
    """Seeds the initializers (:mod:`framework.random`) and the global generators that the
    random transforms and the train chains draw from in the main process (Python's
    :mod:`random`, NumPy's); the loader processes seed theirs for each image."""
    framework.random.seed(seed)
    random.seed(seed)
    numpy.random.seed(seed)


def create_communicator(args: argparse.Namespace):
    """The communicator of ``--communicator``, or None."""
    if args.communicator is None:
        return None
    return distributed.create_communicator(args.communicator)


def batch_size_per_process(args: argparse.Namespace, comm, prog: str) -> int:
    """``--batchsize`` divided among the processes.

    Raises:
        SystemExit: ``--batchsize`` is not a multiple of the processes of the MPI job (one
            line on stderr from every process, which all stop alike: no traceback, no abort).
    """
    n_process = 1 if comm is None else comm.size
    if args.batchsize % n_process:
        sys.exit(f'{prog}: error: --batchsize ({args.batchsize}) must be a multiple of the '
                 f'processes ({n_process})')
    return args.batchsize // n_process


@contextlib.contextmanager
def dataset_errors_end_the_run(prog: str, comm):
    """Ends the run with one line on stderr, ``PROG: error: MESSAGE``, when the block raises
    a :class:`DatasetError` (a user's data, not a bug: no traceback). Under MPI the process
    that read the sample writes the line and aborts the job (``MPI_Abort``), since the others
    wait for it."""
    try:
        yield
    except DatasetError as error:
        message = f'{prog}: error: {error}'
        if comm is None or comm.size == 1:
            sys.exit(message)
        sys.stderr.write(message + '\n')
        sys.stderr.flush()
        comm.mpi_comm.Abort(1)


def make_iterator(dataset, batch_size: int, loaderjob: int, **kwargs):
    """A :class:`~framework.iterators.MultiprocessIterator` with ``loaderjob`` workers, or a
    :class:`~framework.iterators.SerialIterator` when it is 0; ``kwargs`` go to it
    (``repeat``, ``shuffle``, ``seed``)."""
    if loaderjob == 0:
        return iterators.SerialIterator(dataset, batch_size, **kwargs)
    return iterators.MultiprocessIterator(dataset, batch_size, n_processes=loaderjob,
                                          **kwargs)


def make_trainer(args: argparse.Namespace, setup: Training, train, comm, n_class: int):
    """The trainer of ``setup.train_chain``: MomentumSGD (momentum 0.9) from ``--lr``,
    averaged over the processes of ``comm``, with the recipe's hooks; the snapshots (every
    ``--snapshot-interval`` iterations and at the end, the last one kept and loaded when the
    run starts again); on rank 0 a line that says what is trained.

    Args:
        args: the options.
        setup (Training): the model, its train chain (moved to ``--device``), the transform
            of the samples, the batch of this process, the optimizer's hooks and the
            converter of the batches.
        train: the whole training set (split among the processes under MPI).
        comm: the communicator, or None.
        n_class (int): the classes, for the line printed.

    Returns:
        Trainer: to extend with the recipe's learning rate, evaluation and reports.
    """
    is_root = comm is None or comm.rank == 0
    device = backend.get_device(args.device)
    setup.train_chain.to_device(device)
    n_train = len(train)
    if comm is not None:
        train = distributed.scatter_dataset(train, comm, shuffle=True, seed=args.seed)
    train_iter = make_iterator(TransformDataset(train, setup.transform), setup.batch_size,
                               args.loaderjob, seed=args.seed)
    optimizer = optimizers.MomentumSGD(lr=args.lr, momentum=0.9)
    if comm is not None:
        optimizer = distributed.create_multi_node_optimizer(optimizer, comm)
    optimizer.setup(setup.train_chain)
    setup.setup_hooks(setup.train_chain)
    updater = training.StandardUpdater(train_iter, optimizer, converter=setup.converter,
                                       device=device)
    trainer = training.Trainer(updater, (args.iteration, 'iteration'), out=args.out)
    # Every process loads rank 0's last snapshot; only rank 0 writes them.
    trainer.extend(extensions.snapshot(n_retains=1, autoload=True, condition=lambda: is_root),
                   trigger=snapshot_trigger(args))
    if is_root:
        n_process = 1 if comm is None else comm.size
        print(f'{args.model}: {n_train} training images of {n_class} classes on {n_process} '
              f'process(es), batches of {setup.batch_size * n_process}; lr {args.lr:g}, '
              f'{args.iteration} iterations')
    return trainer


def snapshot_trigger(args: argparse.Namespace):
    """Every ``--snapshot-interval`` iterations and at the last one. A function of the
    iteration alone: a trigger whose ``finished`` a snapshot saves would, resumed for more
    iterations, keep the snapshot extension from initializing (and removing older
    snapshots)."""
    def trigger(trainer) -> bool:
        iteration = trainer.updater.iteration
        return iteration % args.snapshot_interval == 0 or iteration == args.iteration
    return trigger


def extend_reports(trainer, args: argparse.Namespace, loss_keys: tuple[str, ...], metric: str,
                   eval_trigger) -> None:
    """Extends ``trainer`` with the log, the printed report, the progress bar and the plots
    of the loss (``loss.png``) and of the validation metric (``METRIC.png``), on one process
    of an MPI job.

    Args:
        trainer: the trainer.
        args: the options.
        loss_keys (tuple of str): the parts of the loss printed beside ``main/loss``.
        metric (str): the evaluator's score printed and plotted (``'map'``, ``'miou'``).
        eval_trigger: a new trigger of the evaluation (a trigger keeps state).
    """
    interval = (args.log_interval, 'iteration')
    trainer.extend(extensions.observe_lr(), trigger=interval)
    trainer.extend(extensions.LogReport(trigger=interval))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'elapsed_time', 'lr', 'main/loss',
         *(f'main/{key}' for key in loss_keys), f'validation/main/{metric}']), trigger=interval)
    trainer.extend(extensions.ProgressBar(update_interval=10))
    if extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(['main/loss'], 'iteration', trigger=interval,
                                             filename='loss.png'))
        trainer.extend(extensions.PlotReport([f'validation/main/{metric}'], 'iteration',
                                             trigger=eval_trigger, filename=f'{metric}.png'))


def run(trainer, args: argparse.Namespace, model, comm) -> dict:
    """Runs ``trainer`` to its end, then writes ``model`` to ``OUT/model.npz`` (rank 0).

    Returns:
        dict: the last entry of the log; on the processes other than rank 0 an empty dict.

    Raises:
        DatasetError: a sample of the training set cannot be trained on (the loop's error
            goes up without the trainer's traceback, for :func:`dataset_errors_end_the_run`).
    """
    trainer.run(show_loop_exception_msg=False)
    if comm is not None and comm.rank != 0:
        return {}
    path = os.path.join(args.out, 'model.npz')
    serializers.save_npz(path, model)
    print(f'the model is in {path}')
    return trainer.get_extension('LogReport').log[-1]
