"""What ``train_imagenet.py`` and ``eval_imagenet.py`` share: the options, the datasets, the
loaders, the sizes of the images and the models.

``--dataset`` is either a directory of class directories (ImageNet's layout, read by
:class:`~vision.datasets.DirectoryParsingLabelDataset`) or ``shapes``
(:class:`~vision.datasets.ShapesLabelDataset`, made on the fly: the training set from seed
:data:`SHAPES_TRAIN_SEED`, the validation set from :data:`SHAPES_VAL_SEED`; the demonstration
image ``vision/data/sample_shapes.png`` comes from a third seed).
"""

from __future__ import annotations

import argparse
import os

from vision.datasets import (
    DirectoryParsingLabelDataset,
    ShapesLabelDataset,
    directory_parsing_label_names,
    shapes_label_names,
)
from vision.models import get_model

import _training  # isort: skip

SHAPES = 'shapes'
SHAPES_TRAIN_SEED = 0
SHAPES_VAL_SEED = 1
# The models these scripts build: the ResNet family, whose scores are the layer ``fc6``.
MODELS = ('resnet14', 'resnet50', 'resnet101', 'resnet152')
# ChainerCV's ImageNet sizes: the shorter side resized to 256, crops of 224.
IMAGENET_SCALE_SIZE = 256
IMAGENET_CROP_SIZE = 224


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options both scripts have: ``--model``, ``--batchsize``, ``--loaderjob``,
    ``--device``, the shapes options and the image sizes."""
    parser.add_argument('--model', choices=MODELS, default='resnet50')
    parser.add_argument('--base-channels', type=int,
                        help='the channels of conv1, which the other layers follow (the '
                             "model's default is 64; named weights fix it)")
    parser.add_argument('--arch', choices=('fb', 'he'),
                        help="where the blocks stride: 'fb' on the 3x3 convolutions (the "
                             "default, ChainerCV's), 'he' on the first 1x1 (Kaiming He's, "
                             "that of ChainerCV's FPN detectors: a classifier trained with it "
                             'starts their extractor)')
    parser.add_argument('--batchsize', type=int, default=32)
    parser.add_argument('--loaderjob', type=_training.non_negative_int, default=4,
                        help='the processes that load and transform the images; 0 loads them '
                             'in the main process')
    parser.add_argument('--device', default='@numpy', help="'@numpy' or '@cupy:0'")
    parser.add_argument('--size', type=int, default=36,
                        help='the side of the images of --dataset shapes (36)')
    parser.add_argument('--n-val', type=int, default=1000,
                        help='the validation images of --dataset shapes (1000)')
    parser.add_argument('--scale-size', type=int,
                        help='the length the shorter side is resized to before the crop (256; '
                             '--size for shapes)')
    parser.add_argument('--crop-size', type=int,
                        help='the side of the square crops given to the network (224; for '
                             'shapes, --size less an eighth: 32 of 36)')


def make_iterator(dataset, args: argparse.Namespace, **kwargs):
    """The iterator over ``dataset`` in batches of ``--batchsize``: a
    :class:`~framework.iterators.MultiprocessIterator` with ``--loaderjob`` workers, or a
    :class:`~framework.iterators.SerialIterator` reading in the main process when it is 0.

    Args:
        dataset: the dataset.
        args: the options.
        kwargs: the iterator's other arguments (``repeat``, ``shuffle``, ``seed``).
    """
    return _training.make_iterator(dataset, args.batchsize, args.loaderjob, **kwargs)


def sizes(args: argparse.Namespace) -> tuple[int, int]:
    """``(scale_size, crop_size)`` of the options, with the defaults of the dataset."""
    shapes = args.dataset == SHAPES
    scale_size = args.scale_size or (args.size if shapes else IMAGENET_SCALE_SIZE)
    crop_size = args.crop_size or (args.size - args.size // 8 if shapes else IMAGENET_CROP_SIZE)
    if crop_size > scale_size:
        raise ValueError(f'--crop-size must be at most --scale-size ({scale_size}), but got '
                         f'{crop_size}')
    return scale_size, crop_size


def label_dataset(root: str, size: int, length: int, seed: int):
    """A dataset of ``(img, label)`` and its label names: the images of the class directories
    under ``root``, or, when ``root`` is ``'shapes'``, ``length`` shapes of ``size`` pixels
    drawn from ``seed``.

    Raises:
        ValueError: ``root`` is neither ``'shapes'`` nor a directory.
    """
    if root == SHAPES:
        return ShapesLabelDataset(length, size, seed), list(shapes_label_names)
    if not os.path.isdir(root):
        raise ValueError(f"--dataset must be 'shapes' or a directory of class directories, "
                         f'but {root!r} is not a directory')
    return DirectoryParsingLabelDataset(root), directory_parsing_label_names(root)


def build_model(args: argparse.Namespace, n_class: int, pretrained_model=None):
    """The ``--model`` of the options (with ``--base-channels`` and ``--arch`` when
    given)."""
    kwargs = {key: value for key, value in (('base_channels', args.base_channels),
                                            ('arch', args.arch)) if value is not None}
    return get_model(args.model)(n_class=n_class, pretrained_model=pretrained_model, **kwargs)
