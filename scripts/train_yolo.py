"""Train YOLOv3 with GluonCV's recipe, on PASCAL VOC, MS COCO or synthetic shapes.

ChainerCV ships YOLO's inference and weights but no training; this script trains as GluonCV's
``scripts/detection/yolo/train_yolo3.py`` does by default: PASCAL VOC 2007 and 2012 trainval,
batches of 64 images, 200 epochs of MomentumSGD (momentum 0.9) from a learning rate of 1e-3,
warmed up linearly from 0 over the first two epochs and divided by ten at epochs 160 and 180
(here in iterations of the 16,551 images of VOC07+12: 51,700 in all, warm-up 518, steps at
41,380 and 46,550), weight decay 5e-4 on every parameter; the loss of
:class:`~vision.models.detection.yolo.YOLOv3TrainChain`. Each training image goes through
SSD's augmentation (colour distortion, a random expansion, a random crop under box
constraints, a random horizontal flip; :func:`_detection.augment`; ``--augmentation flip``
keeps the flip alone), and is then resized with a random interpolation to the side of its
batch: multi-scale training, a side drawn from ``--sizes`` (GluonCV's 320 to 608 by 32 around
the 416 of ``--insize``) for every ten iterations. The model is evaluated at each step of the
learning rate and at the end (VOC 2007 test, 11-point mAP; COCO's metrics on COCO). The model
starts from random weights (GluonCV starts from an ImageNet Darknet-53, which the manifest does
not hold).

The random draws of the augmentation are seeded by ``--seed``: each loader process seeds them
for each image from it and the image's number in the training, and the side and the
interpolations of a batch are drawn from the seed and the number of the batch, so a run repeats
bit for bit and a resumed run draws what the uninterrupted one would have. The trainer is saved
every ``--snapshot-interval`` iterations in ``--out``, and a run started again with the same
``--out`` resumes from the last snapshot. The trained model is written to ``OUT/model.npz``,
which ``YOLOv3``'s ``pretrained_model`` reads.

With ``--communicator NAME`` the script trains data-parallel over the processes of an MPI job:
each process trains on its part of the training set with ``--batchsize / N`` images a batch,
starts from rank 0's weights and averages its gradients with the others; rank 0 reads the
validation set and the processes share its predictions; only rank 0 prints, logs, plots and
writes; every process resumes from rank 0's last snapshot.

Usage::

    python scripts/train_yolo.py --dataset voc
    python scripts/train_yolo.py --dataset shapes --base-channels 8 --insize 128 \\
        --sizes 96 128 160 --batchsize 8 --lr 3e-3 --warmup 300 --step 3000 3600 \\
        --iteration 4000 --eval-interval 1000 --n-val 100 --loaderjob 1 --augmentation flip
    mpiexec -n 2 python scripts/train_yolo.py --communicator flat --dataset voc

The shapes run, on 2 cores, reaches mAP@0.5 0.429, 0.680, 0.739 and 0.908 at 1,000 to 4,000
iterations (28 minutes). The shapes are tested at the scale they are drawn; with SSD's
augmentation (``--augmentation ssd``), whose expansion shrinks them to a quarter, the same
model had 0.314, 0.407 and 0.497 at 1,000 to 3,000 iterations, and 0.782 after steps at 4,000
and 4,600 and 5,000 iterations (32 minutes). With the squared error of Darknet on the box sizes
in place of GluonCV's absolute error it reached 0.797 (29 minutes), but diverged at
``--lr 1e-2`` and at ``--base-channels 16``; with the absolute error ``--lr 1e-2`` trains
(0.778).
"""

from __future__ import annotations

import argparse

import numpy

from framework.optimizer_hooks import WeightDecay
from vision.models.detection.yolo import YOLOv3TrainChain
from vision.transforms import resize_bbox, resize_with_random_interpolation

import _detection  # isort: skip
import _training  # isort: skip

#: The warm-up is GluonCV's two epochs of VOC07+12 in batches of 64.
RECIPE = _detection.Recipe(models=('yolo_v3',), voc_years=('2007', '2012'), iteration=51700,
                           steps=(41380, 46550), lr=1e-3, batchsize=64, log_interval=10,
                           warmup=518)
#: The batches between two draws of their side (GluonCV's).
SIZE_INTERVAL = 10


class Transform:
    """SSD's augmentation of a training sample (:func:`_detection.augment`) for YOLOv3: the
    expansion's canvas filled with grey (the letterbox's 0.5), the image left at the size of
    its crop (:class:`TrainChain` resizes the batch) and scaled to ``[0, 1]``.

    Args:
        augmentation (str): ``'ssd'``, or ``'flip'`` for the horizontal flip alone.
    """

    def __init__(self, augmentation: str = 'ssd'):
        self.augmentation = augmentation

    def __call__(self, in_data):
        """``(img, bbox, label)`` to the augmented image float32 ``(3, H', W')`` in
        ``[0, 1]``, its boxes ``(R, 4)`` float32 and their labels ``(R,)`` int32."""
        img, bbox, label = _detection.augment(*in_data, fill=numpy.float32(127.5),
                                              augmentation=self.augmentation)
        return (img / numpy.float32(255)).astype(numpy.float32, copy=False), bbox, label


class TrainChain(YOLOv3TrainChain):
    """:class:`~vision.models.detection.yolo.YOLOv3TrainChain` with multi-scale training: it
    takes the augmented images of a batch as a list, resizes each to a square of the batch's
    side with a random interpolation (:func:`~vision.transforms.resize_with_random_interpolation`),
    its boxes with it, and stacks them.

    The side is drawn from ``sizes`` for every ``interval`` batches, from a generator seeded by
    ``seed`` and the number of the batch (the persistent ``batch_count``, which the snapshots
    save), the same on every process of an MPI job; the interpolations from one seeded by
    ``seed``, ``rank`` and the number of the batch. A resumed run draws what the uninterrupted
    one would have drawn.

    Args:
        model (YOLOv3): the model trained.
        sizes (sequence of int): the sides, multiples of 32.
        interval (int): the batches between two draws of the side.
        seed (int): the seed of the run.
        rank (int): the process of the MPI job (0 without MPI).
    """

    def __init__(self, model, sizes, interval: int, seed: int, rank: int):
        super().__init__(model)
        self.sizes = tuple(sizes)
        self.interval = interval
        self.seed = seed
        self.rank = rank
        self.add_persistent('batch_count', 0)

    def side(self, batch: int) -> int:
        """The side of the images of batch number ``batch``."""
        rng = numpy.random.default_rng((self.seed, batch // self.interval))
        return self.sizes[rng.integers(len(self.sizes))]

    def forward(self, imgs, bboxes, labels):
        """The loss of a batch of augmented images (a list of float32 ``(3, H, W)``, sizes
        of their own) and their boxes (see
        :meth:`~vision.models.detection.yolo.YOLOv3TrainChain.forward`)."""
        batch = int(self.batch_count)
        self.batch_count = batch + 1
        side = self.side(batch)
        rng = numpy.random.default_rng((self.seed, self.rank, batch))
        x = numpy.stack([resize_with_random_interpolation(img, (side, side), rng=rng)
                         for img in imgs])
        bboxes = [resize_bbox(bbox, img.shape[1:], (side, side))
                  for img, bbox in zip(imgs, bboxes)]
        return super().forward(self.xp.asarray(x), bboxes, labels)


def setup_hooks(train_chain) -> None:
    """GluonCV's weight decay, 5e-4 on every parameter."""
    for param in train_chain.params():
        param.update_rule.add_hook(WeightDecay(0.0005))


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    _detection.add_arguments(parser, RECIPE)
    _detection.add_augmentation_argument(parser)
    parser.add_argument('--insize', type=_training.positive_int, default=416,
                        help="the model's input side, a multiple of 32 (416)")
    parser.add_argument('--sizes', type=_training.positive_int, nargs='+',
                        default=list(range(320, 609, 32)),
                        help='the sides of the batches of multi-scale training, multiples of '
                             "32 (GluonCV's 320 to 608 by 32)")
    args = parser.parse_args(argv)
    _detection.check_arguments(parser, args)
    for name, values in (('--insize', [args.insize]), ('--sizes', args.sizes)):
        if any(v % 32 for v in values):
            parser.error(f'{name} must be multiples of 32, but got '
                         f'{" ".join(map(str, values))}')
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
    batch_size = _training.batch_size_per_process(args, comm, 'train_yolo.py')
    _training.seed_everything(args.seed)
    model = _detection.create_model(args, 'train_yolo.py', insize=args.insize)
    train_chain = TrainChain(model, args.sizes, SIZE_INTERVAL, args.seed,
                             0 if comm is None else comm.rank)
    setup = _training.Training(
        model=model, train_chain=train_chain, transform=Transform(args.augmentation),
        batch_size=batch_size, loss_keys=('loc_loss', 'obj_loss', 'conf_loss'),
        setup_hooks=setup_hooks, converter=_detection.converter)
    with _training.dataset_errors_end_the_run('train_yolo.py', comm):
        return _detection.run(args, RECIPE, setup, comm)


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
