"""What ``train_segnet.py`` and ``train_pspnet.py`` share: the options, the datasets and the
check of their labels, the evaluator, and the training loop (that of every training script,
:mod:`_training`, with the evaluation of semantic segmentation).

``--dataset`` is ``camvid`` (CamVid as SegNet's tutorial distributes it: train for the
training, val for the evaluation), ``cityscapes`` (the fine train and val splits), ``ade20k``
(the scene parsing train and val splits) or ``shapes``
(:class:`~vision.datasets.ShapesSemanticSegmentationDataset`, made on the fly: the training set
from seed :data:`SHAPES_TRAIN_SEED`, the validation set from :data:`SHAPES_VAL_SEED`; five
classes, the background first). The evaluation is
:class:`~vision.extensions.SemanticSegmentationEvaluator`'s: the IoU of each class over the
whole validation set, their mean (``validation/main/miou``), the accuracies.

The label maps of the training set are checked as each sample is read
(:class:`CheckedLabelDataset`): a label that is neither a class nor -1 (ignored) ends the run
with one line that names the sample.
"""

from __future__ import annotations

import argparse
import dataclasses

import numpy

from framework import iterators
from framework.datasets import DatasetMixin
from framework.training import triggers
from vision.datasets import (
    ADE20KSemanticSegmentationDataset,
    CamVidDataset,
    CityscapesSemanticSegmentationDataset,
    ShapesSemanticSegmentationDataset,
    ade20k_semantic_segmentation_label_names,
    camvid_label_names,
    cityscapes_semantic_segmentation_label_names,
    shapes_semantic_segmentation_label_names,
)
from vision.extensions import SemanticSegmentationEvaluator

import _training  # isort: skip

SHAPES_TRAIN_SEED = 0
SHAPES_VAL_SEED = 1
IGNORE_LABEL = -1
_LABEL_NAMES = {'camvid': camvid_label_names,
                'cityscapes': cityscapes_semantic_segmentation_label_names,
                'ade20k': ade20k_semantic_segmentation_label_names,
                'shapes': shapes_semantic_segmentation_label_names}


@dataclasses.dataclass(frozen=True)
class Recipe:
    """The numbers of a segmentation model's training recipe.

    Attributes:
        models (tuple of str): the registered names the script trains; the first is the
            default.
        datasets (tuple of str): the ``--dataset`` choices; the first is the default.
        iteration (dict): the iterations of the training on each dataset.
        lr (float): the initial learning rate.
        batchsize (int): the images of a batch (of all processes).
        log_interval (int): the iterations between two entries of the log.
        eval_interval (int or None): the iterations between two evaluations; None to
            evaluate at the end only.
    """

    models: tuple[str, ...]
    datasets: tuple[str, ...]
    iteration: dict
    lr: float
    batchsize: int
    log_interval: int
    eval_interval: int | None


def add_arguments(parser: argparse.ArgumentParser, recipe: Recipe) -> None:
    """Adds the options both scripts have, with the recipe's defaults (those of every
    training script: :func:`_training.add_arguments`)."""
    parser.add_argument('--dataset', choices=recipe.datasets, default=recipe.datasets[0])
    parser.add_argument('--data-dir', default='auto',
                        help="the root of --dataset other than shapes ('auto': its default "
                             'place under $VISION_HOME/datasets)')
    parser.add_argument('--model', choices=recipe.models, default=recipe.models[0])
    parser.add_argument('--pretrained-model',
                        help='the weights the model starts from: a weight of the manifest '
                             '(PSPNet: imagenet, for the extractor) or an NPZ file')
    parser.add_argument('--base-channels', type=_training.positive_int,
                        help="the channels of the model's first convolution, which the other "
                             "layers follow (the model's default, or its --pretrained-model's)")
    iterations = ', '.join(f'{n} on {d}' for d, n in recipe.iteration.items())
    every = (f'every {recipe.eval_interval} iterations and at the end'
             if recipe.eval_interval else 'at the end')
    _training.add_arguments(parser, iteration=None, lr=recipe.lr, batchsize=recipe.batchsize,
                            log_interval=recipe.log_interval, eval_interval_help=every,
                            iteration_help=f'the iterations of the training ({iterations})')
    parser.add_argument('--size', type=_training.positive_int, default=64,
                        help='the side of the images of --dataset shapes (64)')
    parser.add_argument('--n-train', type=_training.positive_int, default=1000,
                        help='the training images of --dataset shapes (1000)')
    parser.add_argument('--n-val', type=_training.positive_int, default=100,
                        help='the validation images of --dataset shapes (100)')


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace,
                    recipe: Recipe) -> None:
    """Ends the script with one line on stderr for options that cannot be run
    (:func:`_training.check_arguments`), and sets ``--iteration`` and ``--eval-interval`` to
    the recipe's where they are not given."""
    _training.check_arguments(parser, args)
    if args.iteration is None:
        args.iteration = recipe.iteration[args.dataset]
    if args.eval_interval is None:
        args.eval_interval = recipe.eval_interval


def label_names(args: argparse.Namespace) -> tuple[str, ...]:
    """The names of the classes of ``--dataset``."""
    return tuple(_LABEL_NAMES[args.dataset])


def model_kwargs(args: argparse.Namespace) -> dict:
    """The constructor arguments of ``--model``: the classes of ``--dataset``,
    ``--pretrained-model`` and ``--base-channels``."""
    kwargs = {'n_class': len(label_names(args)), 'pretrained_model': args.pretrained_model}
    if args.base_channels is not None:
        kwargs['base_channels'] = args.base_channels
    return kwargs


def train_dataset(args: argparse.Namespace) -> CheckedLabelDataset:
    """The training set of ``--dataset``, each sample ``(img, label)``, its labels checked."""
    if args.dataset == 'camvid':
        dataset = CamVidDataset(args.data_dir, split='train')
    elif args.dataset == 'cityscapes':
        dataset = CityscapesSemanticSegmentationDataset(args.data_dir, label_resolution='fine',
                                                        split='train')
    elif args.dataset == 'ade20k':
        dataset = ADE20KSemanticSegmentationDataset(args.data_dir, split='train')
    else:
        dataset = ShapesSemanticSegmentationDataset(args.n_train, args.size, SHAPES_TRAIN_SEED)
    return CheckedLabelDataset(dataset, len(label_names(args)))


def val_dataset(args: argparse.Namespace):
    """The validation set of ``--dataset``, each sample ``(img, label)``."""
    if args.dataset == 'camvid':
        return CamVidDataset(args.data_dir, split='val')
    if args.dataset == 'cityscapes':
        return CityscapesSemanticSegmentationDataset(args.data_dir, label_resolution='fine',
                                                     split='val')
    if args.dataset == 'ade20k':
        return ADE20KSemanticSegmentationDataset(args.data_dir, split='val')
    return ShapesSemanticSegmentationDataset(args.n_val, args.size, SHAPES_VAL_SEED)


class CheckedLabelDataset(DatasetMixin):
    """A semantic segmentation dataset whose label maps are checked as they are read.

    Args:
        dataset: samples ``(img, label)``: an image ``(C, H, W)`` and an integer label map
            ``(H, W)``; :meth:`labels` reads the label maps alone where it is sliceable by
            ``'label'`` (``dataset.slice[:, 'label']``).
        n_class (int): the number of classes.
    """

    def __init__(self, dataset, n_class: int):
        self.dataset = dataset
        self.n_class = n_class

    def __len__(self) -> int:
        return len(self.dataset)

    def get_example(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        """The ``i``-th sample, its label map int32.

        Raises:
            _training.DatasetError: the label map is not ``(H, W)`` of the image's size, or
                holds a label neither in ``[0, n_class)`` nor -1 (the message gives ``i``,
                the label and where it is).
        """
        img, label = self.dataset[i]
        return img, self._check(i, label, numpy.shape(img)[1:])

    def labels(self):
        """Iterates over the checked label maps (without reading the images where the dataset
        is sliceable)."""
        if hasattr(self.dataset, 'slice'):
            labels = self.dataset.slice[:, 'label']
        else:
            labels = (label for _, label in self.dataset)
        for i, label in enumerate(labels):
            yield self._check(i, label, None)

    def _check(self, i: int, label, size) -> numpy.ndarray:
        label = numpy.asarray(label)
        where = f'{type(self).__name__}: sample {i} of the training set'
        if label.ndim != 2 or size is not None and label.shape != tuple(size):
            expected = '(H, W)' if size is None else f"{tuple(size)}, its image's (H, W)"
            raise _training.DatasetError(f'{where} has a label map of shape {label.shape}; '
                                         f'expected {expected}')
        bad = (label != IGNORE_LABEL) & ((label < 0) | (label >= self.n_class))
        if bad.any():
            y, x = (int(v) for v in numpy.argwhere(bad)[0])
            raise _training.DatasetError(
                f'{where} has the label {label[y, x]} at (y, x) = ({y}, {x}), out of [0, '
                f'{self.n_class - 1}] and not {IGNORE_LABEL} (ignored)')
        return label.astype(numpy.int32, copy=False)


def evaluator(args: argparse.Namespace, model, comm):
    """:class:`~vision.extensions.SemanticSegmentationEvaluator` over the validation set of
    ``--dataset``, with the IoU of each class.

    Under MPI, rank 0 alone reads the validation set and splits each batch among the
    processes, which predict their share; it gathers the label maps and scores them all at
    once (an IoU is not the mean of the IoUs of parts of the set).
    """
    val_iter = None
    if comm is None or comm.rank == 0:
        val_iter = iterators.SerialIterator(val_dataset(args), 4, repeat=False, shuffle=False)
    return SemanticSegmentationEvaluator(val_iter, model, label_names=label_names(args),
                                         comm=comm)


def eval_trigger(args: argparse.Namespace):
    """Every ``--eval-interval`` iterations and at the end, or at the end only (a new trigger
    at each call: a trigger keeps state)."""
    end = triggers.ManualScheduleTrigger([args.iteration], 'iteration')
    if not args.eval_interval:
        return end
    interval = triggers.IntervalTrigger(args.eval_interval, 'iteration')
    return lambda trainer: interval(trainer) | end(trainer)


def run(args: argparse.Namespace, setup: _training.Training, train, comm, shift) -> dict:
    """Trains ``setup.train_chain`` on ``train`` as the options say, then writes
    ``setup.model`` to ``OUT/model.npz``.

    The learning rate starts at ``--lr`` (MomentumSGD, momentum 0.9) and follows ``shift``;
    the model is evaluated every ``--eval-interval`` iterations and at the end; the
    snapshots, the resumption and the MPI processes are those of
    :func:`_training.make_trainer`.

    Args:
        args: the options.
        setup (_training.Training): the training.
        train (CheckedLabelDataset): the training set.
        comm: the communicator, or None.
        shift: the extension of the learning rate, run every iteration; None for a constant
            one.

    Returns:
        dict: the last entry of the log (``'iteration'``, ``'main/loss'``,
        ``'validation/main/miou'``...); on the processes other than rank 0 an empty dict.
    """
    trainer = _training.make_trainer(args, setup, train, comm, len(label_names(args)))
    if shift is not None:
        trainer.extend(shift, trigger=(1, 'iteration'))
    trainer.extend(evaluator(args, setup.model, comm), trigger=eval_trigger(args))
    if comm is None or comm.rank == 0:
        _training.extend_reports(trainer, args, setup.loss_keys, 'miou', eval_trigger(args))
    return _training.run(trainer, args, setup.model, comm)
