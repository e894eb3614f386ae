"""Train a ResNet classifier with ChainerCV's ImageNet recipe, on a directory of class
directories or on synthetic shapes.

The recipe (ChainerCV's ``examples/classification/train_imagenet_multi.py``, on one process):
MomentumSGD with momentum 0.9 and the learning rate ``0.1 * batchsize / 256`` (the linear
scaling rule) unless ``--lr`` is given, weight decay 1e-4 on every parameter but the
batch-normalization ones, the scale (gamma) of the last batch normalization of each bottleneck
initialised to zero. The learning rate follows ChainerCV's 90-epoch schedule scaled to
``--epoch``: a linear warm-up from a tenth of it over the first 5/90 of the iterations, then
divided by ten at 30/90, 60/90 and 80/90 of them. Training images are cropped at random
(``--train-crop``: ``random-sized``, ChainerCV's, a crop of 8 % to all of the image's area
and of aspect ratio 3/4 to 4/3, resized to ``--crop-size``; or ``random``, the shorter side
resized to ``--scale-size`` and a crop of ``--crop-size`` taken at random, the default for
shapes, which smaller crops would often cut away) and flipped at random; validation images
are resized to ``--scale-size`` on their shorter side and cropped to ``--crop-size`` at the
centre. The random draws of the crops and flips are seeded by ``--seed``: each loader
process seeds them for each image from it and the image's number in the training, and with
``--loaderjob 0`` (loading in the main process) the script seeds Python's and NumPy's global
generators with it, so a run repeats bit for bit. The validation set is evaluated after every
epoch; the trainer is saved after every epoch in ``--out``, and a run started again with the
same options resumes from the last snapshot. The trained model is written to
``OUT/model.npz``, which ``eval_imagenet.py --pretrained-model`` and the models'
``pretrained_model`` read. ``--train-crop center`` trains on the validation's preprocessing,
without random draws.

With ``--communicator NAME`` (a communicator of :func:`~framework.distributed.create_communicator`,
``flat`` on CPUs) the script trains data-parallel over the processes of an MPI job, as
ChainerCV's ``train_imagenet_multi.py`` does: each process trains on its part of the training
set (:func:`~framework.distributed.scatter_dataset`) in batches of ``--batchsize``, starts from
rank 0's weights and averages the gradients with the others before each update, so that the
default learning rate follows the batch of all processes; the validation set is split among
them too and its scores averaged. Only rank 0 prints, logs, plots and writes the snapshots and
the model; every process resumes from rank 0's last snapshot, so ``--out`` must be a folder
that they all see. ``--multi-node-bn`` normalizes over the batches of all processes
(:class:`~framework.distributed.MultiNodeBatchNormalization`), as one process with their
union would; otherwise each process normalizes over its own batch. Alone (without
``mpiexec``), a communicator is one of a single process.

Usage::

    python scripts/train_imagenet.py --dataset /data/imagenet/train --val /data/imagenet/val
    python scripts/train_imagenet.py --dataset shapes --model resnet14 --base-channels 16 \\
        --size 36 --n-train 8000 --epoch 24 --batchsize 64 --lr 0.05
    mpiexec -n 2 python scripts/train_imagenet.py --communicator flat --dataset shapes \
        --model resnet14 --base-channels 16 --batchsize 32 --loaderjob 1
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import random

import numpy

import framework
from framework import backend, distributed, optimizers, serializers, training
from framework.datasets import TransformDataset
from framework.links import Classifier
from framework.optimizer_hooks import WeightDecay
from framework.training import extensions
from vision.models.classification import Bottleneck
from vision.transforms import (
    center_crop,
    random_crop,
    random_flip,
    random_sized_crop,
    resize,
    scale,
)

from _classification import SHAPES, SHAPES_TRAIN_SEED, SHAPES_VAL_SEED  # isort: skip
from _classification import add_arguments, build_model, label_dataset  # isort: skip
from _classification import make_iterator, sizes  # isort: skip

# ChainerCV's schedule, in fractions of the training: the warm-up ends at 5 of 90 epochs, the
# learning rate is divided by ten at 30, 60 and 80.
WARMUP = 5 / 90
STEPS = (30 / 90, 60 / 90, 80 / 90)
TRAIN_CROPS = ('random-sized', 'random', 'center')


class TrainTransform:
    """The training's augmentation: a random crop, a random horizontal flip, minus ``mean``.
    The draws come from Python's :mod:`random`, which the loader processes seed for each
    image (see :class:`~framework.iterators.MultiprocessIterator`).

    Args:
        mean (numpy.ndarray): ``(3, 1, 1)``, the model's mean.
        crop_size (int): the side of the output.
        scale_size (int or None): None: a crop of random area (8 % to 100 %) and aspect ratio
            (:func:`~vision.transforms.random_sized_crop`) resized to ``crop_size``; an int:
            the shorter side resized to it and a crop of ``crop_size`` taken at random.
    """

    def __init__(self, mean, crop_size: int, scale_size: int | None):
        self.mean = mean
        self.crop_size = crop_size
        self.scale_size = scale_size

    def __call__(self, in_data):
        img, label = in_data
        size = (self.crop_size, self.crop_size)
        if self.scale_size is None:
            img = resize(random_sized_crop(img), size)
        else:
            img = random_crop(scale(img, self.scale_size), size)
        img = random_flip(img, x_random=True)
        return img - self.mean, label


class ValTransform:
    """The evaluation's preprocessing: the shorter side resized to ``scale_size``, the centre
    crop of ``crop_size``, minus ``mean`` (what :class:`~vision.models.FeaturePredictor` does
    with ``crop='center'``).

    Args:
        mean (numpy.ndarray): ``(3, 1, 1)``, the model's mean.
        scale_size (int): the length of the shorter side after resizing.
        crop_size (int): the side of the crop.
    """

    def __init__(self, mean, scale_size: int, crop_size: int):
        self.mean = mean
        self.scale_size = scale_size
        self.crop_size = crop_size

    def __call__(self, in_data):
        img, label = in_data
        img = center_crop(scale(img, self.scale_size), (self.crop_size, self.crop_size))
        return img - self.mean, label


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    parser.add_argument('--dataset', default=SHAPES,
                        help="'shapes' or the root of the training images, one directory per "
                             'class')
    parser.add_argument('--val', help='the root of the validation images (with a directory '
                                      '--dataset)')
    add_arguments(parser)
    parser.add_argument('--n-train', type=int, default=8000,
                        help='the training images of --dataset shapes (8000)')
    parser.add_argument('--train-crop', choices=TRAIN_CROPS,
                        help="the training crops (see above; 'random-sized', 'random' for "
                             "shapes; 'center' is the validation's, without flips)")
    parser.add_argument('--epoch', type=int, default=90)
    parser.add_argument('--lr', type=float, help='the learning rate (0.1 * batchsize / 256)')
    parser.add_argument('--momentum', type=float, default=0.9)
    parser.add_argument('--weight-decay', type=float, default=1e-4)
    parser.add_argument('--out', default='result')
    parser.add_argument('--seed', type=int, default=0,
                        help='the seed of the initial weights, of the order of the images and of '
                             'their random crops and flips')
    parser.add_argument('--communicator',
                        help="train over the processes of an MPI job (mpiexec -n N ...) with "
                             "this communicator of framework.distributed ('flat' on CPUs)")
    parser.add_argument('--multi-node-bn', action='store_true',
                        help='batch normalization over the batches of every process (with '
                             '--communicator)')
    args = parser.parse_args(argv)
    if args.multi_node_bn and args.communicator is None:
        parser.error('--multi-node-bn needs --communicator')
    if args.communicator is not None and importlib.util.find_spec('mpi4py') is None:
        parser.error("--communicator needs mpi4py, which the 'dist' extra installs: "
                     "pip install '.[dist]'")
    if (args.dataset == SHAPES) != (args.val is None):
        parser.error('--val is needed with a directory --dataset, and only then')
    if args.train_crop is None:
        args.train_crop = TRAIN_CROPS[args.dataset == SHAPES]
    return args


def setup_optimizer(model, lr: float, momentum: float, weight_decay: float):
    """MomentumSGD on ``model`` with weight decay on the parameters other than the
    batch-normalization ``gamma`` and ``beta``."""
    optimizer = optimizers.MomentumSGD(lr=lr, momentum=momentum)
    optimizer.setup(model)
    for param in model.params():
        if param.name not in ('beta', 'gamma'):
            param.update_rule.add_hook(WeightDecay(weight_decay))
    return optimizer


def extend_schedule(trainer, lr: float, n_iteration: int) -> None:
    """ChainerCV's schedule of the learning rate over ``n_iteration`` iterations (see
    :data:`WARMUP` and :data:`STEPS`).

    The steps are registered first, so that during the warm-up, when both extensions run at
    each iteration, the warm-up's value is the one set last.
    """
    steps = [round(f * n_iteration) for f in STEPS]
    trainer.extend(extensions.MultistepShift('lr', 0.1, steps, lr), trigger=(1, 'iteration'))
    warmup = max(1, round(WARMUP * n_iteration))
    trainer.extend(extensions.WarmupShift('lr', lr / 10, warmup, lr), trigger=(1, 'iteration'))


def train(args: argparse.Namespace) -> dict:
    """Trains as the options say; returns the last entry of the log (``'epoch'``,
    ``'main/loss'``, ``'validation/main/accuracy'``...), on the processes of an MPI job other
    than rank 0 an empty dict."""
    scale_size, crop_size = sizes(args)
    comm = (None if args.communicator is None
            else distributed.create_communicator(args.communicator))
    is_root = comm is None or comm.rank == 0
    n_process = 1 if comm is None else comm.size
    if args.dataset == SHAPES:
        train_data, label_names = label_dataset(SHAPES, args.size, args.n_train,
                                                SHAPES_TRAIN_SEED)
        val_data, _ = label_dataset(SHAPES, args.size, args.n_val, SHAPES_VAL_SEED)
    else:
        train_data, label_names = label_dataset(args.dataset, args.size, 0, 0)
        val_data, val_names = label_dataset(args.val, args.size, 0, 0)
        if val_names != label_names:
            differ = sorted(set(val_names) ^ set(label_names))
            raise ValueError(f'--val must have the class directories of --dataset, but these '
                             f'are in only one of them: {differ[:10]}')

    device = backend.get_device(args.device)
    framework.random.seed(args.seed)
    # What the transforms draw from when the main process loads the images (--loaderjob 0).
    random.seed(args.seed)
    numpy.random.seed(args.seed)
    extractor = build_model(args, len(label_names))
    extractor.pick = 'fc6'
    # Goyal et al. (2017): each residual branch starts as zero.
    for link in extractor.links():
        if isinstance(link, Bottleneck):
            link.conv3.bn.gamma.array[:] = 0
    if args.multi_node_bn:
        extractor = distributed.create_mnbn_model(extractor, comm)
    model = Classifier(extractor).to_device(device)

    n_train, n_val = len(train_data), len(val_data)
    if comm is not None:
        train_data = distributed.scatter_dataset(train_data, comm, shuffle=True, seed=args.seed)
        val_data = distributed.scatter_dataset(val_data, comm)
    if args.train_crop == 'center':
        train_transform = ValTransform(extractor.mean, scale_size, crop_size)
    else:
        random_scale = scale_size if args.train_crop == 'random' else None
        train_transform = TrainTransform(extractor.mean, crop_size, random_scale)
    train_data = TransformDataset(train_data, train_transform)
    val_data = TransformDataset(val_data, ValTransform(extractor.mean, scale_size, crop_size))
    train_iter = make_iterator(train_data, args, seed=args.seed)
    val_iter = make_iterator(val_data, args, repeat=False, shuffle=False)

    lr = args.lr if args.lr is not None else 0.1 * args.batchsize * n_process / 256
    optimizer = setup_optimizer(model, lr, args.momentum, args.weight_decay)
    evaluator = extensions.Evaluator(val_iter, model, device=device)
    if comm is not None:
        optimizer = distributed.create_multi_node_optimizer(optimizer, comm)
        evaluator = distributed.create_multi_node_evaluator(evaluator, comm)
    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    extend_schedule(trainer, lr, math.ceil(args.epoch * len(train_data) / args.batchsize))
    trainer.extend(evaluator, trigger=(1, 'epoch'))
    # Every process loads rank 0's last snapshot; only rank 0 writes them.
    trainer.extend(extensions.snapshot(n_retains=1, autoload=True, condition=lambda: is_root),
                   trigger=(1, 'epoch'))
    if is_root:
        extend_reports(trainer)
        print(f'{args.model}: {n_train} training and {n_val} validation images of '
              f'{len(label_names)} classes on {n_process} process(es); lr {lr:g}, '
              f'{args.epoch} epochs')
    trainer.run()
    if not is_root:
        return {}
    path = os.path.join(args.out, 'model.npz')
    serializers.save_npz(path, extractor)
    print(f'the model is in {path}')
    return trainer.get_extension('LogReport').log[-1]


def extend_reports(trainer) -> None:
    """Extends ``trainer`` with the log, the printed report, the progress bar and the plots
    (on one process of an MPI job)."""
    trainer.extend(extensions.observe_lr(), trigger=(1, 'epoch'))
    trainer.extend(extensions.LogReport(trigger=(1, 'epoch')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'elapsed_time', 'lr', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy']), trigger=(1, 'epoch'))
    trainer.extend(extensions.ProgressBar(update_interval=10))
    if extensions.PlotReport.available():
        for key in ('loss', 'accuracy'):
            trainer.extend(extensions.PlotReport([f'main/{key}', f'validation/main/{key}'],
                                                 file_name=f'{key}.png'), trigger=(1, 'epoch'))


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
