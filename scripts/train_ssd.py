"""Train SSD300 or SSD512 with ChainerCV's recipe, on PASCAL VOC, MS COCO or synthetic shapes.

The recipe (ChainerCV 0.13's ``examples/ssd/train.py``): PASCAL VOC 2007 and 2012 trainval,
batches of 32 images, 120,000 iterations of MomentumSGD (momentum 0.9) from a learning rate of
1e-3, divided by ten at 80,000 and 100,000; weight decay 5e-4 on the weights, and the biases'
gradients doubled instead (:class:`~vision.models.detection.ssd.GradientScaling`); the loss
is :func:`~vision.models.detection.ssd.multibox_loss` (``alpha`` 1, ``k`` 3) of the targets of
:meth:`~vision.models.detection.ssd.MultiboxCoder.encode`. Each training image goes through
SSD's augmentation (:class:`Transform`): colour distortion, a random expansion, a random crop
under box constraints, a resize with a random interpolation, a random horizontal flip
(``--augmentation flip`` keeps the resize and the flip alone). The model is evaluated at each
step of the learning rate and at the end (VOC 2007 test, 11-point mAP; COCO's metrics on
COCO). ChainerCV starts from the ImageNet weights of the extractor:
``--pretrained-model imagenet`` where the manifest lists them; by default the model starts
from random weights, the extractor's drawn by He's initialisation
(:func:`_detection.initialize_from_scratch`: ChainerCV's LeCun normal shrinks the features
through the fifteen convolutions), its heads' from a normal of standard deviation 0.01
(:func:`initialize_heads_from_scratch`), and ``--warmup`` raises the learning rate gradually.

The random draws of the augmentation are seeded by ``--seed``: each loader process seeds them
for each image from it and the image's number in the training, and with ``--loaderjob 0`` the
script seeds Python's and NumPy's global generators with it, so a run repeats bit for bit. The
trainer is saved every ``--snapshot-interval`` iterations in ``--out``, and a run started again
with the same ``--out`` resumes from the last snapshot. The trained model is written to
``OUT/model.npz``, which the models' ``pretrained_model`` reads.

With ``--communicator NAME`` the script trains data-parallel over the processes of an MPI job,
as ChainerCV's ``train_multi.py`` does: each process trains on its part of the training set
with ``--batchsize / N`` images a batch, starts from rank 0's weights, counts the positive
default boxes over all processes and averages its gradients with the others; rank 0 reads the
validation set and the processes share its predictions; only rank 0 prints, logs, plots and
writes the snapshots and the model; every process resumes from rank 0's last snapshot.

Usage::

    python scripts/train_ssd.py --dataset voc --pretrained-model imagenet
    python scripts/train_ssd.py --dataset shapes --base-channels 4 --batchsize 8 --lr 1e-3 \\
        --warmup 300 --augmentation flip --iteration 3000 --step 2400 2800 \\
        --eval-interval 1000 --n-val 100 --loaderjob 1
    mpiexec -n 2 python scripts/train_ssd.py --communicator flat --dataset voc

The shapes run, on 2 cores, reaches mAP@0.5 0.433, 0.710 and 0.828 at 1,000 to 3,000
iterations (30 minutes, 1.7 iterations a second).
"""

from __future__ import annotations

import argparse

import numpy

from framework import initializers, reporter
from framework.links import Chain, Convolution2D
from framework.optimizer_hooks import WeightDecay
from vision.models.detection.ssd import GradientScaling, multibox_loss
from vision.transforms import resize_bbox, resize_with_random_interpolation

import _detection  # isort: skip
import _training  # isort: skip

RECIPE = _detection.Recipe(models=('ssd300', 'ssd512'), voc_years=('2007', '2012'),
                           iteration=120000, steps=(80000, 100000), lr=1e-3, batchsize=32,
                           log_interval=10)


class MultiboxTrainChain(Chain):
    """SSD with its loss: ``alpha * loc_loss + conf_loss`` of
    :func:`~vision.models.detection.ssd.multibox_loss`, reported as ``loss``, ``loss/loc``
    and ``loss/conf``.

    Args:
        model (SSD): the detector.
        alpha (float): the weight of the localization loss.
        k (float): the hard negatives mined per positive.
        comm: the communicator of an MPI job, over which the positives are counted; None.
    """

    def __init__(self, model, alpha: float = 1, k: float = 3, comm=None):
        super().__init__()
        with self.init_scope():
            self.model = model
        self.alpha = alpha
        self.k = k
        self.comm = comm

    def forward(self, imgs, gt_mb_locs, gt_mb_labels):
        """The loss of a batch.

        Args:
            imgs (array): float32 ``(B, 3, insize, insize)``, prepared images.
            gt_mb_locs (array): float32 ``(B, K, 4)``, the target offsets.
            gt_mb_labels (array): int32 ``(B, K)``, the target classes, 0 for background.

        Returns:
            Variable: the float32 scalar loss.
        """
        mb_locs, mb_confs = self.model(imgs)
        loc_loss, conf_loss = multibox_loss(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels,
                                            self.k, self.comm)
        loss = loc_loss * self.alpha + conf_loss
        reporter.report({'loss': loss, 'loss/loc': loc_loss, 'loss/conf': conf_loss}, self)
        return loss


class Transform:
    """SSD's augmentation of a training sample, and its targets.

    :func:`_detection.augment` (colour distortion, an expansion onto a canvas filled with the
    mean, a crop under SSD's constraints, a horizontal flip), then a resize to ``insize`` with
    a random interpolation. The draws come from Python's :mod:`random` and NumPy's global
    generator, which the loader processes seed for each image.

    Args:
        coder (MultiboxCoder): encodes the boxes as the model's targets.
        insize (int): the side of the model's input.
        mean (numpy.ndarray): float32 ``(3, 1, 1)``, the model's mean.
        augmentation (str): ``'ssd'``, or ``'flip'`` for the horizontal flip alone.
    """

    def __init__(self, coder, insize: int, mean: numpy.ndarray, augmentation: str = 'ssd'):
        self.coder = coder
        self.insize = insize
        self.mean = mean
        self.augmentation = augmentation

    def __call__(self, in_data):
        """``(img, bbox, label)`` to ``(img, mb_loc, mb_label)``: the prepared image
        ``(3, insize, insize)`` and the targets ``(K, 4)`` float32 and ``(K,)`` int32."""
        img, bbox, label = _detection.augment(*in_data, fill=self.mean,
                                              augmentation=self.augmentation)
        size = (self.insize, self.insize)
        bbox = resize_bbox(bbox, img.shape[1:], size)
        img = resize_with_random_interpolation(img, size)
        mb_loc, mb_label = self.coder.encode(bbox, label)
        return img - self.mean, mb_loc, mb_label


def initialize_heads_from_scratch(multibox) -> None:
    """Draws the filters of the localization and classification heads from a normal of
    standard deviation 0.01 (as Faster R-CNN's heads are), for a training from random weights.

    Under a random extractor drawn by He's initialisation the sources keep the scale of the
    input, pixels minus the mean (tens), and the heads' LeCun uniform gives scores of that
    scale (a first loss above 1,000): the first updates then leave the classification loss
    at that of uniform scores (~6.4 on shapes) for the next thousand iterations; from the
    small heads it falls below 3.6 within 200.
    """
    normal = initializers.Normal(0.01)
    for link in multibox.links(skipself=True):
        if isinstance(link, Convolution2D):
            normal(link.W.array)


def setup_hooks(train_chain) -> None:
    """ChainerCV's hooks: the gradients of the biases doubled, weight decay 5e-4 on the other
    parameters."""
    for param in train_chain.params():
        if param.name == 'b':
            param.update_rule.add_hook(GradientScaling(2))
        else:
            param.update_rule.add_hook(WeightDecay(0.0005))


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    _detection.add_arguments(parser, RECIPE)
    _detection.add_augmentation_argument(parser)
    args = parser.parse_args(argv)
    _detection.check_arguments(parser, args)
    return args


def train(args: argparse.Namespace) -> dict:
    """Trains as the options say; returns the last entry of the log (on the processes of an
    MPI job other than rank 0 an empty dict).

    Raises:
        SystemExit: ``--batchsize`` is not a multiple of the processes of the MPI job, the
            options contradict the weights, or a sample of the training set has boxes that
            are not boxes (one line on stderr).
    """
    comm = _training.create_communicator(args)
    batch_size = _training.batch_size_per_process(args, comm, 'train_ssd.py')
    _training.seed_everything(args.seed)
    model = _detection.create_model(args, 'train_ssd.py')
    if args.pretrained_model is None:
        _detection.initialize_from_scratch(model.extractor)
        initialize_heads_from_scratch(model.multibox)
    setup = _training.Training(
        model=model, train_chain=MultiboxTrainChain(model, comm=comm),
        transform=Transform(model.coder, model.insize, model.mean, args.augmentation),
        batch_size=batch_size, loss_keys=('loss/loc', 'loss/conf'), setup_hooks=setup_hooks)
    with _training.dataset_errors_end_the_run('train_ssd.py', comm):
        return _detection.run(args, RECIPE, setup, comm)


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
