"""Train SegNet Basic with ChainerCV's recipe, on CamVid or synthetic shapes.

The recipe (ChainerCV 0.13's ``examples/segnet/train.py`` and ``calc_weight.py``): CamVid's
train split (367 images of 360x480), batches of 12 images, 16,000 iterations of MomentumSGD
(momentum 0.9) at a constant learning rate of 0.1, weight decay 5e-4 on every parameter; the
loss is :class:`~vision.models.segmentation.PixelwiseSoftmaxClassifier`'s softmax cross
entropy, each class weighted by median frequency balancing (:func:`calc_weight`), the pixels
labelled -1 ignored. Each training image is flipped horizontally with probability 1/2, its
label map with it. The model starts from random weights and is evaluated on CamVid's val split
every 2,000 iterations and at the end (:class:`~vision.extensions.SemanticSegmentationEvaluator`:
``validation/main/miou``, the pixel and class accuracies, the IoU of each class).

The class weights are computed from the label maps of the whole training set before the
training (on rank 0 under MPI), which also checks every label: one that is neither a class nor
-1 ends the run with one line that names the sample. ``--class-weight none`` trains without
them (every class weighs 1), which suits the shapes, whose classes are far less unbalanced than
CamVid's.

The flips are seeded by ``--seed`` (each loader process seeds them for each image from it and
the image's number; with ``--loaderjob 0`` the script seeds Python's and NumPy's global
generators), so a run repeats bit for bit. The trainer is saved every ``--snapshot-interval``
iterations in ``--out``, and a run started again with the same ``--out`` resumes from the last
snapshot. The trained model is written to ``OUT/model.npz``, which ``SegNetBasic``'s
``pretrained_model`` reads.

With ``--communicator NAME`` the script trains data-parallel over the processes of an MPI job:
each process trains on its part of the training set with ``--batchsize / N`` images a batch,
starts from rank 0's weights and averages its gradients with the others; rank 0 reads the
validation set and the processes share its predictions; only rank 0 prints, logs, plots and
writes; every process resumes from rank 0's last snapshot.

Usage::

    python scripts/train_segnet.py --dataset camvid
    python scripts/train_segnet.py --dataset shapes --base-channels 8 --batchsize 8 \\
        --n-train 2000 --n-val 50 --iteration 2000 --eval-interval 250 --loaderjob 1
    mpiexec -n 2 python scripts/train_segnet.py --communicator flat --dataset camvid
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

import numpy

from framework.optimizer_hooks import WeightDecay
from framework.training.extensions import PolynomialShift
from vision.models import get_model
from vision.models.segmentation import PixelwiseSoftmaxClassifier
from vision.transforms import random_flip

import _segmentation  # isort: skip
import _training  # isort: skip

RECIPE = _segmentation.Recipe(models=('segnet_basic',), datasets=('camvid', 'shapes'),
                              iteration={'camvid': 16000, 'shapes': 2000}, lr=0.1,
                              batchsize=12, log_interval=50, eval_interval=2000)


def calc_weight(labels: Iterable[numpy.ndarray], n_class: int) -> numpy.ndarray:
    """The class weights of median frequency balancing, as ChainerCV's ``calc_weight.py``
    computes them (Eigen and Fergus, ICCV 2015).

    The frequency of a class is its pixels divided by all the pixels (the ignored ones
    included) of the images in which it appears; its weight is the median of the frequencies
    divided by its own, so that rare classes weigh more.

    Args:
        labels (iterable of numpy.ndarray): the integer label maps ``(H, W)`` of the training
            set, ``0 .. n_class - 1`` or -1 (ignored).
        n_class (int): the number of classes.

    Returns:
        numpy.ndarray: float32 ``(n_class,)``; 0 for a class that no label map holds (the
        median is that of the classes present).
    """
    class_pixels = numpy.zeros(n_class)
    image_pixels = numpy.zeros(n_class)
    for label in labels:
        counts = numpy.bincount(label[label >= 0], minlength=n_class)
        class_pixels += counts
        image_pixels[counts > 0] += label.size
    present = image_pixels > 0
    freq = class_pixels[present] / image_pixels[present]
    weight = numpy.zeros(n_class, numpy.float32)
    weight[present] = numpy.median(freq) / freq
    return weight


def transform(in_data):
    """ChainerCV's augmentation: ``(img, label)`` flipped horizontally together with
    probability 1/2 (drawn from Python's :mod:`random`, which the loader processes seed for
    each image)."""
    img, label = in_data
    img, param = random_flip(img, x_random=True, return_param=True)
    if param['x_flip']:
        label = label[:, ::-1]
    return img, label


def setup_hooks(train_chain) -> None:
    """ChainerCV's weight decay, 5e-4 on every parameter."""
    for param in train_chain.params():
        param.update_rule.add_hook(WeightDecay(0.0005))


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    _segmentation.add_arguments(parser, RECIPE)
    parser.add_argument('--class-weight', choices=('median-frequency', 'none'),
                        default='median-frequency',
                        help="the loss's class weights: ChainerCV's median frequency balancing "
                             '(calc_weight), or none (every class 1)')
    parser.add_argument('--lr-policy', choices=('constant', 'poly'), default='constant',
                        help="the learning rate: ChainerCV's constant --lr, or PSPNet's "
                             'polynomial decay from --lr to 0 (power 0.9)')
    args = parser.parse_args(argv)
    _segmentation.check_arguments(parser, args, RECIPE)
    return args


def train(args: argparse.Namespace) -> dict:
    """Trains as the options say; returns the last entry of the log (on the processes of an
    MPI job other than rank 0 an empty dict).

    Raises:
        SystemExit: ``--batchsize`` is not a multiple of the processes of the MPI job, or a
            label map of the training set holds a label out of range (one line on stderr).
    """
    comm = _training.create_communicator(args)
    batch_size = _training.batch_size_per_process(args, comm, 'train_segnet.py')
    _training.seed_everything(args.seed)
    model = get_model(args.model)(**_segmentation.model_kwargs(args))
    with _training.dataset_errors_end_the_run('train_segnet.py', comm):
        train_set = _segmentation.train_dataset(args)
        weight = None
        if comm is None or comm.rank == 0:
            # reading every label map checks the labels, whatever the weights
            weight = calc_weight(train_set.labels(), model.n_class)
            if args.class_weight == 'none':
                weight = None
                print('class weights: none')
            else:
                print('class weights: ' + ', '.join(
                    f'{name} {w:.3g}' for name, w in zip(_segmentation.label_names(args),
                                                         weight)))
        if comm is not None:
            weight = comm.bcast_obj(weight)
        setup = _training.Training(
            model=model, train_chain=PixelwiseSoftmaxClassifier(model, class_weight=weight),
            transform=transform, batch_size=batch_size, loss_keys=(), setup_hooks=setup_hooks)
        shift = (PolynomialShift('lr', 0.9, args.iteration) if args.lr_policy == 'poly'
                 else None)
        return _segmentation.run(args, setup, train_set, comm, shift=shift)


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
