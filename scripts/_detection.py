"""What the detection training scripts (``train_ssd.py``, ``train_faster_rcnn.py``,
``train_fpn.py``, ``train_yolo.py``, and ``train_mask_rcnn.py`` and ``train_fcis.py`` with
their masks) share: the options, the datasets and their checks (masks included), SSD's
augmentation, the evaluator, and the training loop (that of every training script,
:mod:`_training`, with the schedule of the learning rate and the evaluation of detection).

``--dataset`` is ``voc`` (PASCAL VOC, the recipe's years of trainval for training, VOC 2007
test for the evaluation with its 11-point metric, difficult objects ignored), ``coco`` (MS
COCO 2017 train and val, COCO's metrics), ``sbd`` (for instance segmentation: SBD's train and
val as ChainerCV splits them, VOC's mask AP with the 11-point metric) or ``shapes``
(:class:`~vision.datasets.ShapesBboxDataset`, made on the fly: the training set from seed
:data:`SHAPES_TRAIN_SEED`, the validation set from :data:`SHAPES_VAL_SEED`, evaluated by the
VOC metric of area under the precision-recall curve at IoU 0.5).

Boxes of the training data are checked as each sample is read (:class:`CheckedBboxDataset`):
a box that crosses the edge of its image is clipped to it, one wholly outside the image is
dropped with its label; a sample whose boxes cannot be made sense of is refused with its index
(a :class:`_training.DatasetError`, which ends the scripts with one line).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

import numpy

from framework import initializers, iterators
from framework.datasets import ConcatenatedDataset, DatasetMixin
from framework.links import Convolution2D, DilatedConvolution2D, Linear
from framework.training import triggers
from framework.training.extensions import make_shift
from vision.datasets import (
    COCOBboxDataset,
    ShapesBboxDataset,
    VOCBboxDataset,
    coco_bbox_label_names,
    sbd_instance_segmentation_label_names,
    shapes_label_names,
    voc_bbox_label_names,
)
from vision.extensions import DetectionCOCOEvaluator, DetectionVOCEvaluator
from vision.models import get_model
from vision.transforms import (
    crop_bbox,
    flip_bbox,
    random_crop_with_bbox_constraints,
    random_distort,
    random_expand,
    random_flip,
    translate_bbox,
)
from vision.utils import mask_to_bbox

import _training  # isort: skip

DATASETS = ('voc', 'coco', 'shapes')
SHAPES_TRAIN_SEED = 0
SHAPES_VAL_SEED = 1


@dataclasses.dataclass(frozen=True)
class Recipe:
    """The numbers of a detector's training recipe.

    Attributes:
        models (tuple of str): the registered names the script trains; the first is the
            default.
        voc_years (tuple of str): the years of PASCAL VOC whose trainval is the training set.
        iteration (int): the iterations of the training.
        steps (tuple of int): the iterations at which the learning rate is divided by ten.
        lr (float): the initial learning rate.
        batchsize (int or None): the images of a batch (of all processes); None for a fixed
            batch of one image per process (no ``--batchsize`` option).
        log_interval (int): the iterations between two entries of the log.
        dataset (str): the default ``--dataset``, that of the recipe.
        datasets (tuple of str): the ``--dataset`` choices (all of :data:`DATASETS`).
        warmup (int): the iterations over which the learning rate grows linearly to ``lr``
            (the default ``--warmup``; 0: none).
        warmup_rate (float): the share of ``lr`` the warm-up starts from.
    """

    models: tuple[str, ...]
    voc_years: tuple[str, ...]
    iteration: int
    steps: tuple[int, ...]
    lr: float
    batchsize: int | None
    log_interval: int
    dataset: str = 'voc'
    datasets: tuple[str, ...] = DATASETS
    warmup: int = 0
    warmup_rate: float = 0.0


def add_arguments(parser: argparse.ArgumentParser, recipe: Recipe) -> None:
    """Adds the options the detection scripts have, with the recipe's defaults (those of every
    training script: :func:`_training.add_arguments`)."""
    parser.add_argument('--dataset', choices=recipe.datasets, default=recipe.dataset)
    parser.add_argument('--data-dir', default='auto',
                        help="the root of --dataset voc or coco ('auto': downloaded into "
                             '$VISION_HOME/datasets)')
    parser.add_argument('--model', choices=recipe.models, default=recipe.models[0])
    parser.add_argument('--pretrained-model',
                        help="the weights the model starts from: a weight of the manifest "
                             "('imagenet' for the extractor) or an NPZ file (default: random)")
    parser.add_argument('--base-channels', type=_training.positive_int,
                        help="the channels of the extractor's first convolution (VGG's "
                             "conv1_1, ResNet's conv1), which the other layers follow (the "
                             "model's default, or its --pretrained-model's)")
    _training.add_arguments(parser, iteration=recipe.iteration, lr=recipe.lr,
                            batchsize=recipe.batchsize, log_interval=recipe.log_interval,
                            eval_interval_help='at each --step and at the end')
    parser.add_argument('--step', type=_training.positive_int, nargs='*',
                        default=list(recipe.steps),
                        help='the iterations at which the learning rate is divided by ten '
                             f'({" ".join(map(str, recipe.steps))})')
    parser.add_argument('--warmup', type=int, default=recipe.warmup,
                        help='the iterations over which the learning rate grows linearly to '
                             f'--lr from {recipe.warmup_rate:.3g} times it ({recipe.warmup})')
    parser.add_argument('--size', type=_training.positive_int, default=128,
                        help='the side of the images of --dataset shapes (128)')
    parser.add_argument('--n-train', type=_training.positive_int, default=4000,
                        help='the training images of --dataset shapes (4000)')
    parser.add_argument('--n-val', type=_training.positive_int, default=200,
                        help='the validation images of --dataset shapes (200)')


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Ends the script with one line on stderr (``parser.error``) for options that contradict
    each other (and those :func:`_training.check_arguments` refuses)."""
    if sorted(set(args.step)) != args.step:
        parser.error(f'--step must be increasing, but got {" ".join(map(str, args.step))}')
    if args.warmup < 0:
        parser.error(f'--warmup must be at least 0, but got {args.warmup}')
    if args.step and args.step[-1] >= args.iteration:
        parser.error(f'--step must be below --iteration ({args.iteration}), but got '
                     f'{args.step[-1]}')
    _training.check_arguments(parser, args)


def add_size_arguments(parser: argparse.ArgumentParser, min_size: int, max_size: int) -> None:
    """Adds ``--min-size`` and ``--max-size``, the scaling of the images by a detector's
    ``prepare`` (the shorter side to ``--min-size`` unless the longer one would pass
    ``--max-size``), with the model's defaults; :func:`check_size_arguments` checks them."""
    parser.add_argument('--min-size', type=_training.positive_int, default=min_size,
                        help=f'the length the shorter side of an image is scaled to ({min_size})')
    parser.add_argument('--max-size', type=_training.positive_int, default=max_size,
                        help=f'the most the longer side may then have ({max_size})')


def check_size_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Ends the script with one line on stderr (``parser.error``) for a ``--min-size`` above
    ``--max-size``."""
    if args.min_size > args.max_size:
        parser.error(f'--min-size must be at most --max-size ({args.max_size}), but got '
                     f'{args.min_size}')


def start_from_imagenet(args: argparse.Namespace) -> None:
    """Sets ``--pretrained-model imagenet`` (the extractor's ImageNet weights, ChainerCV's start)
    where no weights are given on VOC or COCO and the extractor has its published width; on
    shapes, or with ``--base-channels``, the model starts from random weights."""
    if args.pretrained_model is None and args.dataset != 'shapes' \
            and args.base_channels is None:
        args.pretrained_model = 'imagenet'


def model_kwargs(args: argparse.Namespace, n_fg_class: int) -> dict:
    """The constructor arguments of ``--model``: the classes of ``--dataset`` and
    ``--pretrained-model`` or ``--base-channels``."""
    kwargs = {'n_fg_class': n_fg_class, 'pretrained_model': args.pretrained_model}
    if args.base_channels is not None:
        kwargs['base_channels'] = args.base_channels
    return kwargs


def create_model(args: argparse.Namespace, prog: str, **kwargs):
    """``--model`` for the classes of ``--dataset``, of :func:`model_kwargs` and ``kwargs``.

    Raises:
        SystemExit: the options contradict the weights (a ``--base-channels`` other than
            that of ``--pretrained-model``, a file of other classes): one line on stderr,
            ``PROG: error: MESSAGE``, from every process alike.
    """
    try:
        return get_model(args.model)(**kwargs, **model_kwargs(args, len(label_names(args))))
    except ValueError as error:
        sys.exit(f'{prog}: error: {error}')


def initialize_from_scratch(extractor) -> None:
    """Draws the weights of the convolutions and fully connected layers of ``extractor`` by
    He's initialisation (:class:`~framework.initializers.HeNormal`, Chainer's ``'msra'``), for
    a training from random weights.

    ChainerCV's initialisers assume that ImageNet's weights replace them: VGG-16's normal of
    standard deviation 0.01 (Faster R-CNN) shrinks the features about eight times a layer
    (about 1e-9 at ``conv5_3`` of a shapes image), and SSD's LeCun normal about 1.4 times, so
    that from random weights nothing past the RPN learns (Faster R-CNN's head loss stays flat
    even on two images). He's keeps their scale through the ReLUs.
    """
    he = initializers.HeNormal()
    for link in extractor.links():
        if isinstance(link, Convolution2D | DilatedConvolution2D | Linear):
            he(link.W.array)


def label_names(args: argparse.Namespace) -> tuple[str, ...]:
    """The names of the classes of ``--dataset``."""
    return tuple({'voc': voc_bbox_label_names, 'coco': coco_bbox_label_names,
                  'sbd': sbd_instance_segmentation_label_names,
                  'shapes': shapes_label_names}[args.dataset])


def train_dataset(args: argparse.Namespace, recipe: Recipe):
    """The training set of ``--dataset``, each sample ``(img, bbox, label)``, its boxes
    checked (:class:`CheckedBboxDataset`)."""
    if args.dataset == 'voc':
        dataset = ConcatenatedDataset(*(
            VOCBboxDataset(args.data_dir, split='trainval', year=year)
            for year in recipe.voc_years))
    elif args.dataset == 'coco':
        dataset = COCOBboxDataset(args.data_dir, split='train')
    else:
        dataset = ShapesBboxDataset(args.n_train, args.size, SHAPES_TRAIN_SEED)
    return CheckedBboxDataset(dataset, len(label_names(args)))


def val_dataset(args: argparse.Namespace):
    """The validation set of ``--dataset``, with what its evaluator needs (VOC's difficult
    flags, COCO's areas and crowd flags)."""
    if args.dataset == 'voc':
        return VOCBboxDataset(args.data_dir, split='test', year='2007', use_difficult=True,
                              return_difficult=True)
    if args.dataset == 'coco':
        return COCOBboxDataset(args.data_dir, split='val', use_crowded=True, return_area=True,
                               return_crowded=True)
    return ShapesBboxDataset(args.n_val, args.size, SHAPES_VAL_SEED)


class CheckedBboxDataset(DatasetMixin):
    """A detection dataset whose samples are checked as they are read.

    A box that crosses the edge of its image is clipped to the image, and one left with no
    area (wholly outside the image, or of zero height or width) is dropped with its label, so
    that a sample may come out without boxes. What cannot be a box is an error that names the
    sample: boxes not of shape ``(R, 4)``, labels not of shape ``(R,)``, a coordinate that is
    not finite, a box whose ``y_max`` is less than its ``y_min`` (or ``x_max`` less than
    ``x_min``), a label out of ``[0, n_fg_class - 1]``.

    Args:
        dataset: samples ``(img, bbox, label, ...)``: an image ``(C, H, W)``, boxes
            ``(R, 4)`` ``(y_min, x_min, y_max, x_max)``, labels ``(R,)``; the values after
            them, one per box (VOC's difficult flags), follow the boxes kept.
        n_fg_class (int): the number of classes.
    """

    def __init__(self, dataset, n_fg_class: int):
        self.dataset = dataset
        self.n_fg_class = n_fg_class

    def __len__(self) -> int:
        return len(self.dataset)

    def get_example(self, i: int) -> tuple:
        """The ``i``-th sample with its boxes clipped and those left empty dropped.

        Raises:
            _training.DatasetError: the boxes or labels of the sample are malformed (the
                message gives ``i``, the box and what is wrong).
        """
        img, bbox, label, *rest = self.dataset[i]
        bbox = numpy.asarray(bbox, numpy.float32)
        label = numpy.asarray(label, numpy.int32)
        where = f'{type(self).__name__}: sample {i} of the training set'
        if bbox.ndim != 2 or bbox.shape[1] != 4 or label.shape != (len(bbox),):
            raise _training.DatasetError(f'{where} has boxes of shape {bbox.shape} and labels '
                                         f'of shape {label.shape}; expected (R, 4) and (R,)')
        for r, box in enumerate(bbox):
            if not numpy.isfinite(box).all() or (box[2:] < box[:2]).any():
                raise _training.DatasetError(
                    f'{where}: box {r} (y_min, x_min, y_max, x_max) = {tuple(box.tolist())} is '
                    'not a box (a coordinate is not finite or a maximum is below its minimum)')
            if not 0 <= label[r] < self.n_fg_class:
                raise _training.DatasetError(f'{where}: box {r} has the label {label[r]}, out '
                                             f'of [0, {self.n_fg_class - 1}]')
        H, W = numpy.shape(img)[1:]
        bbox = numpy.clip(bbox, 0, numpy.array((H, W, H, W), numpy.float32))
        kept = (bbox[:, 2:] > bbox[:, :2]).all(axis=1)
        return (img, bbox[kept], label[kept], *(numpy.asarray(r)[kept] for r in rest))


class CheckedMaskDataset(DatasetMixin):
    """An instance segmentation dataset as the train chain takes it, ``(img, bbox, label,
    mask)``, its masks checked as each sample is read (:func:`train_dataset` then checks its
    boxes with :class:`_detection.CheckedBboxDataset`, the masks following the boxes kept).

    The boxes are the dataset's (COCO's annotated boxes, as ChainerCV trains on them) or, for
    a dataset without boxes (SBD, shapes), those around the masks. The masks must be bool, of
    the size of their image, one per label and box, and a mask with pixels must overlap its
    box. Shared by ``train_mask_rcnn.py`` and ``train_fcis.py``.

    Args:
        dataset: samples ``(img, mask, label)`` or ``(img, mask, label, bbox)``.
    """

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self) -> int:
        return len(self.dataset)

    def get_example(self, i: int) -> tuple:
        """The ``i``-th sample ``(img, bbox, label, mask)``.

        Raises:
            _training.DatasetError: the masks do not fit the image, the labels or the boxes
                (the message gives ``i``, the mask and what is wrong).
        """
        img, mask, label, *bbox = self.dataset[i]
        mask = numpy.asarray(mask)
        label = numpy.asarray(label)
        where = f'{type(self).__name__}: sample {i} of the training set'
        H, W = numpy.shape(img)[1:]
        if mask.ndim != 3 or mask.shape[1:] != (H, W) or mask.shape[0] != len(label):
            raise _training.DatasetError(
                f'{where} has masks of shape {mask.shape} for an image of {H}x{W} pixels and '
                f'{len(label)} labels; expected ({len(label)}, {H}, {W})')
        if mask.dtype != bool:
            raise _training.DatasetError(f'{where} has masks of dtype {mask.dtype}; expected '
                                         'bool')
        around = mask_to_bbox(mask)
        if not bbox:
            return img, around, label, mask
        bbox = numpy.asarray(bbox[0], numpy.float32)
        if bbox.shape != (len(mask), 4):
            raise _training.DatasetError(f'{where} has {len(mask)} masks but boxes of shape '
                                         f'{bbox.shape}; expected ({len(mask)}, 4)')
        for r, (box, mask_box) in enumerate(zip(bbox, around)):
            overlap = numpy.minimum(box[2:], mask_box[2:]) - numpy.maximum(box[:2], mask_box[:2])
            if mask[r].any() and not (overlap > 0).all():
                raise _training.DatasetError(
                    f'{where}: mask {r} covers (y_min, x_min, y_max, x_max) = '
                    f'{tuple(mask_box.tolist())}, outside its box {tuple(box.tolist())}: the '
                    'masks do not match the boxes')
        return img, bbox, label, mask


def evaluator(args: argparse.Namespace, model, comm, val=None,
              evaluators=(DetectionVOCEvaluator, DetectionCOCOEvaluator)):
    """The evaluator of ``--dataset``: :class:`~vision.extensions.DetectionVOCEvaluator` (the
    11-point metric for VOC and SBD), or :class:`~vision.extensions.DetectionCOCOEvaluator`.

    Under MPI, rank 0 alone reads the validation set and splits each batch among the
    processes, which predict their share; it gathers the predictions and scores them all at
    once (the evaluators' ``comm``): an mAP is not the mean of the mAPs of parts of the set,
    so the scores are not averaged as :func:`~framework.distributed.create_multi_node_evaluator`
    averages losses.

    ``val`` (a function of the options, :func:`val_dataset` by default) and ``evaluators``
    (the classes of VOC's and COCO's evaluator) make the evaluator of another task (instance
    segmentation's).
    """
    names = label_names(args)
    val_iter = None
    if comm is None or comm.rank == 0:
        val_iter = iterators.SerialIterator((val or val_dataset)(args), 8, repeat=False,
                                            shuffle=False)
    voc, coco = evaluators
    if args.dataset == 'coco':
        return coco(val_iter, model, label_names=names, comm=comm)
    return voc(val_iter, model, use_07_metric=args.dataset in ('voc', 'sbd'), label_names=names,
               comm=comm)


def learning_rate(iteration: int, lr: float, steps, warmup: int = 0,
                  warmup_rate: float = 0.0) -> float:
    """The learning rate after ``iteration`` updates: over the first ``warmup`` iterations
    it grows linearly from ``warmup_rate * lr`` to ``lr``
    (``lr * (warmup_rate + (1 - warmup_rate) * iteration / warmup)``), then it is ``lr``
    divided by ten at each of ``steps`` that ``iteration`` has reached (a step within the
    warm-up takes effect after it, as in ChainerCV's FPN recipe).

    Args:
        iteration (int): the updates done.
        lr (float): the learning rate after the warm-up.
        steps (sequence of int): the iterations at which it is divided by ten.
        warmup (int): the iterations of the warm-up (0: none).
        warmup_rate (float): the share of ``lr`` the warm-up starts from.

    Returns:
        float: the learning rate of the next update.
    """
    if iteration < warmup:
        return lr * (warmup_rate + (1 - warmup_rate) * iteration / warmup)
    return lr * 0.1 ** sum(iteration >= step for step in steps)


def lr_shift(args: argparse.Namespace, recipe: Recipe):
    """The extension that sets the optimizer's learning rate to :func:`learning_rate` of
    ``--lr``, ``--step`` and ``--warmup`` from the recipe's ``warmup_rate``, before the training
    and after every update (a function of the iteration alone, so a resumed run continues the
    schedule)."""
    @make_shift('lr')
    def warmup_and_steps(trainer) -> float:
        return learning_rate(trainer.updater.iteration, args.lr, args.step, args.warmup,
                             recipe.warmup_rate)
    return warmup_and_steps


def converter(batch, device=None) -> tuple[list, list, list]:
    """A batch of samples ``(img, bbox, label)`` as a train chain that takes images of
    different sizes takes it (ChainerCV's FPN ``converter``): ``(imgs, bboxes, labels)``,
    three lists, the images not stacked, and left on the CPU (``device`` is ignored: the
    train chain sends them to its own)."""
    return tuple(list(column) for column in zip(*batch))


#: The choices of ``--augmentation`` of the scripts that augment as SSD (:func:`augment`).
AUGMENTATIONS = ('ssd', 'flip')


def add_augmentation_argument(parser: argparse.ArgumentParser) -> None:
    """Adds ``--augmentation`` (:data:`AUGMENTATIONS`, ``ssd`` by default) to the options of
    a script whose recipe augments as SSD does."""
    parser.add_argument('--augmentation', choices=AUGMENTATIONS, default='ssd',
                        help="ssd: the recipe's colour distortion, expansion, crop and flip; "
                             'flip: a horizontal flip alone, for data whose objects are seen '
                             'at the scale of the test (as the synthetic shapes)')


def augment(img, bbox, label, fill, augmentation: str = 'ssd'):
    """SSD's augmentation of a training sample (Liu et al., 2016; ChainerCV's and GluonCV's
    SSD and YOLOv3 recipes), but for the resize to the model's input: colour distortion
    (:func:`~vision.transforms.random_distort`); with probability 1/2, an expansion onto a
    canvas of up to four times the sides filled with ``fill``
    (:func:`~vision.transforms.random_expand`); a crop whose overlap with the boxes meets one
    of SSD's constraints (:func:`~vision.transforms.random_crop_with_bbox_constraints`),
    keeping the boxes whose centre it holds; a horizontal flip with probability 1/2. The draws
    come from Python's :mod:`random` and NumPy's global generator, which the loader processes
    seed for each image.

    Args:
        img (numpy.ndarray): float32 ``(3, H, W)``, in ``[0, 255]``.
        bbox (numpy.ndarray): float32 ``(R, 4)``.
        label (numpy.ndarray): int32 ``(R,)``.
        fill: the value of the expansion's canvas (a scalar or ``(3, 1, 1)``).
        augmentation (str): ``'ssd'``, or ``'flip'`` for the horizontal flip alone.

    Returns:
        tuple: the augmented image ``(3, H', W')``, its boxes and their labels.
    """
    if augmentation not in AUGMENTATIONS:
        raise ValueError(f'augmentation must be one of {AUGMENTATIONS}, but got '
                         f'{augmentation!r}')
    if augmentation == 'ssd':
        img = random_distort(img)
        if numpy.random.randint(2):
            img, param = random_expand(img, fill=fill, return_param=True)
            bbox = translate_bbox(bbox, y_offset=param['y_offset'],
                                  x_offset=param['x_offset'])
        img, param = random_crop_with_bbox_constraints(img, bbox, return_param=True)
        bbox, param = crop_bbox(bbox, y_slice=param['y_slice'], x_slice=param['x_slice'],
                                allow_outside_center=False, return_param=True)
        label = label[param['index']]
    img, param = random_flip(img, x_random=True, return_param=True)
    bbox = flip_bbox(bbox, img.shape[1:], x_flip=param['x_flip'])
    return img, bbox, label


def run(args: argparse.Namespace, recipe: Recipe, setup: _training.Training, comm,
        train=None, make_evaluator=None) -> dict:
    """Trains ``setup.train_chain`` as the options and the recipe say, then writes
    ``setup.model`` to ``OUT/model.npz``.

    The learning rate (MomentumSGD, momentum 0.9) follows :func:`learning_rate`: a warm-up
    over ``--warmup`` iterations, then ``--lr`` divided by ten at each ``--step``; the model
    is evaluated at the steps and at the end (or every ``--eval-interval``); the snapshots,
    the resumption and the MPI processes are those of :func:`_training.make_trainer`.

    Args:
        args: the options.
        recipe (Recipe): the recipe.
        setup (_training.Training): the training.
        comm: the communicator, or None.
        train: the training set; None for :func:`train_dataset`'s.
        make_evaluator: ``make_evaluator(args, model, comm)``, the evaluator; None for
            :func:`evaluator`.

    Returns:
        dict: the last entry of the log (``'iteration'``, ``'main/loss'``,
        ``'validation/main/map'``...); on the processes other than rank 0 an empty dict.
    """
    if train is None:
        train = train_dataset(args, recipe)
    trainer = _training.make_trainer(args, setup, train, comm, len(label_names(args)))
    trainer.extend(lr_shift(args, recipe), trigger=(1, 'iteration'))
    setup.model.use_preset('evaluate')
    trainer.extend((make_evaluator or evaluator)(args, setup.model, comm),
                   trigger=eval_trigger(args))
    if comm is None or comm.rank == 0:
        _training.extend_reports(trainer, args, setup.loss_keys, 'map', eval_trigger(args))
    return _training.run(trainer, args, setup.model, comm)


def eval_trigger(args: argparse.Namespace):
    """When to evaluate: every ``--eval-interval`` iterations, else at each ``--step`` and
    at the end (a new trigger at each call: a trigger keeps state)."""
    if args.eval_interval:
        return triggers.IntervalTrigger(args.eval_interval, 'iteration')
    return triggers.ManualScheduleTrigger([*args.step, args.iteration], 'iteration')
