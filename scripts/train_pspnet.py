"""Train PSPNet ResNet-101 or ResNet-50 with ChainerCV's recipe, on Cityscapes, ADE20K or
synthetic shapes.

The recipe (ChainerCV 0.13's ``examples/pspnet/train_multi.py``): Cityscapes' fine train split
in tiles of 713x713 for 90,000 iterations, or ADE20K's train split in tiles of 473x473 for
150,000; batches of 16 images (2 on each of 8 GPUs); MomentumSGD (momentum 0.9) from a learning
rate of 0.01 decayed polynomially, ``lr = 0.01 * (1 - t / T) ** 0.9``; weight decay 1e-4 on
the model's parameters but the batch normalizations' ``beta`` and ``gamma`` (none on the
auxiliary head); the loss of
:class:`~vision.models.segmentation.pspnet.PSPNetTrainChain`, the main head's softmax cross
entropy plus 0.4 times that of an auxiliary head on ``res4``. Each training image goes through
PSPNet's augmentation (:class:`Transform`): a random scale in [0.5, 2], a random crop of the
tile's size, a random rotation in [-10, 10] degrees, a resize up to the tile's size where the
image was smaller, a random horizontal flip (``--scale-range`` and ``--max-angle`` narrow the
scale and the rotation, e.g. for the shapes, which are drawn at one scale). The extractor
starts from ChainerCV's ImageNet weights (``--pretrained-model imagenet``, the default on
Cityscapes and ADE20K; random weights on shapes). The model is evaluated at the end (or every
``--eval-interval`` iterations) on the val split
(:class:`~vision.extensions.SemanticSegmentationEvaluator`).

Under MPI the batch normalizations compute their statistics over the batches of every process
(:func:`~framework.distributed.create_mnbn_model`), as the authors' synchronized batch
normalization does and as ChainerCV's script means to (it discards the copy it makes).

A label that is neither a class nor -1 ends the run with one line that names the sample. The
random draws of the augmentation are seeded by ``--seed`` (each loader process seeds them for
each image from it and the image's number; with ``--loaderjob 0`` the script seeds Python's and
NumPy's global generators), so a run repeats bit for bit. The trainer is saved every
``--snapshot-interval`` iterations in ``--out``, and a run started again with the same
``--out`` resumes from the last snapshot. The trained model is written to ``OUT/model.npz``.

With ``--communicator NAME`` the script trains data-parallel over the processes of an MPI job:
each process trains on its part of the training set with ``--batchsize / N`` images a batch,
starts from rank 0's weights and averages its gradients with the others; rank 0 reads the
validation set and the processes share its predictions; only rank 0 prints, logs, plots and
writes; every process resumes from rank 0's last snapshot.

Usage::

    mpiexec -n 8 python scripts/train_pspnet.py --communicator pure_nccl --dataset cityscapes
    python scripts/train_pspnet.py --dataset shapes --model pspnet_resnet50 --base-channels 4 \\
        --input-size 64 --batchsize 8

On 2 CPU cores, the README's shapes reproduction (mIoU 0.869 on the validation set in 27
minutes)::

    python scripts/train_pspnet.py --dataset shapes --model pspnet_resnet50 --base-channels 8 \\
        --batchsize 8 --lr 0.05 --scale-range 1 1 --max-angle 0 --size 128 --n-train 8000 \\
        --n-val 100 --iteration 4800 --eval-interval 1200 --loaderjob 1
"""

from __future__ import annotations

import argparse

import numpy
from PIL import Image

from framework import distributed
from framework.optimizer_hooks import WeightDecay
from framework.training.extensions import PolynomialShift
from vision.models import get_model
from vision.models.segmentation.pspnet import PSPNetTrainChain
from vision.transforms import random_crop, resize, rotate

import _segmentation  # isort: skip
import _training  # isort: skip

RECIPE = _segmentation.Recipe(
    models=('pspnet_resnet101', 'pspnet_resnet50'), datasets=('cityscapes', 'ade20k', 'shapes'),
    iteration={'cityscapes': 90000, 'ade20k': 150000, 'shapes': 2000}, lr=0.01, batchsize=16,
    log_interval=10, eval_interval=None)
# The side of the tiles on each dataset (ChainerCV's); shapes: --size.
INPUT_SIZES = {'cityscapes': 713, 'ade20k': 473}


class Transform:
    """PSPNet's augmentation of a training sample ``(img, label)``, as ChainerCV's
    ``train_multi.py`` does it.

    In order: both scaled by a factor drawn from ``scale_range`` (the image bicubic, the labels
    nearest); a random crop of ``crop_size`` (of the largest square where the scaled image is
    smaller); a rotation by an angle drawn from [-``max_angle``, ``max_angle``] degrees, the
    sides kept (the image bilinear with black corners, the labels nearest with -1 corners); a
    resize to ``crop_size`` where the crop was smaller; a horizontal flip with probability 1/2;
    the mean subtracted. A scale of exactly 1 leaves the sizes alone and an angle of exactly 0
    rotates nothing (``scale_range=(1, 1)``, ``max_angle=0``: only the crop and the flip). The
    scale, the angle and the flip are drawn from NumPy's global generator, the crop from
    Python's :mod:`random`, which the loader processes seed for each image.

    Args:
        mean (numpy.ndarray): float32 ``(3, 1, 1)``, the model's mean.
        crop_size (tuple of int): ``(H, W)``, the model's ``input_size``.
        scale_range (tuple of float): the least and the most scale.
        max_angle (float): the largest rotation, in degrees.
    """

    def __init__(self, mean: numpy.ndarray, crop_size: tuple[int, int],
                 scale_range: tuple[float, float] = (0.5, 2.0), max_angle: float = 10):
        self.mean = mean
        self.crop_size = tuple(crop_size)
        self.scale_range = scale_range
        self.max_angle = max_angle

    def __call__(self, in_data):
        """``(img, label)`` to the prepared image float32 ``(3, H, W)`` and its label map
        int32 ``(H, W)``, ``(H, W)`` being ``crop_size``."""
        img, label = in_data
        scale = numpy.random.uniform(*self.scale_range)
        label = label[None]
        if scale != 1:
            size = tuple(max(int(scale * side), 1) for side in img.shape[1:])
            img = resize(img, size, Image.BICUBIC)
            label = resize(label, size, Image.NEAREST)
        size = img.shape[1:]
        crop = self.crop_size if all(s >= c for s, c in zip(size, self.crop_size)) \
            else (min(size),) * 2
        img, param = random_crop(img, crop, return_param=True)
        label = label[:, param['y_slice'], param['x_slice']]
        angle = numpy.random.uniform(-self.max_angle, self.max_angle)
        if angle != 0:
            img = rotate(img, angle, expand=False)
            label = rotate(label, angle, expand=False, fill=-1, interpolation=Image.NEAREST)
        if crop != self.crop_size:
            img = resize(img, self.crop_size, Image.BICUBIC)
            label = resize(label, self.crop_size, Image.NEAREST)
        if numpy.random.rand() > 0.5:
            img = img[:, :, ::-1]
            label = label[:, :, ::-1]
        return img - self.mean, label[0]


def setup_hooks(train_chain) -> None:
    """ChainerCV's weight decay, 1e-4 on the parameters of the model (not the auxiliary
    head's) but the batch normalizations' ``beta`` and ``gamma``."""
    for param in train_chain.model.params():
        if param.name not in ('beta', 'gamma'):
            param.update_rule.add_hook(WeightDecay(1e-4))


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    _segmentation.add_arguments(parser, RECIPE)
    parser.add_argument('--input-size', type=_training.positive_int,
                        help='the side of the square tiles the model trains and predicts on '
                             '(713 on cityscapes, 473 on ade20k, --size on shapes)')
    parser.add_argument('--scale-range', type=float, nargs=2, default=(0.5, 2.0),
                        metavar=('MIN', 'MAX'),
                        help="the range of the augmentation's random scale (ChainerCV's 0.5 "
                             '2; 1 1 scales nothing)')
    parser.add_argument('--max-angle', type=float, default=10,
                        help="the largest angle of the augmentation's random rotation, in "
                             "degrees (ChainerCV's 10; 0 rotates nothing)")
    args = parser.parse_args(argv)
    _segmentation.check_arguments(parser, args, RECIPE)
    low, high = args.scale_range
    if not 0 < low <= high:
        parser.error(f'--scale-range must be two scales 0 < MIN <= MAX, but got {low:g} '
                     f'{high:g}')
    if args.max_angle < 0:
        parser.error(f'--max-angle must be 0 or more, but got {args.max_angle:g}')
    if args.input_size is None:
        args.input_size = INPUT_SIZES.get(args.dataset, args.size)
    if args.input_size < 48:
        parser.error(f'--input-size must be 48 or more (8 times the finest pyramid of the '
                     f'pooling), but got {args.input_size}')
    if args.pretrained_model is None and args.dataset != 'shapes' \
            and args.base_channels is None:
        args.pretrained_model = 'imagenet'
    return args


def train(args: argparse.Namespace) -> dict:
    """Trains as the options say; returns the last entry of the log (on the processes of an
    MPI job other than rank 0 an empty dict).

    Raises:
        SystemExit: ``--batchsize`` is not a multiple of the processes of the MPI job, or a
            label map of the training set holds a label out of range (one line on stderr).
    """
    comm = _training.create_communicator(args)
    batch_size = _training.batch_size_per_process(args, comm, 'train_pspnet.py')
    _training.seed_everything(args.seed)
    model = get_model(args.model)(input_size=args.input_size,
                                  **_segmentation.model_kwargs(args))
    if comm is not None:
        model = distributed.create_mnbn_model(model, comm)
    setup = _training.Training(
        model=model, train_chain=PSPNetTrainChain(model),
        transform=Transform(model.mean, model.input_size, tuple(args.scale_range),
                            args.max_angle), batch_size=batch_size,
        loss_keys=('main_loss', 'aux_loss'), setup_hooks=setup_hooks)
    shift = PolynomialShift('lr', 0.9, args.iteration)
    with _training.dataset_errors_end_the_run('train_pspnet.py', comm):
        return _segmentation.run(args, setup, _segmentation.train_dataset(args), comm, shift)


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
