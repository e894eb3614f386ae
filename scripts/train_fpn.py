"""Train Faster R-CNN FPN ResNet-50 or ResNet-101 with ChainerCV's recipe, on MS COCO, PASCAL VOC
or synthetic shapes.

The recipe (ChainerCV 0.13's ``examples/fpn/train_multi.py``): MS COCO 2017 train, batches of 16
images, 90,000 iterations of MomentumSGD (momentum 0.9) from a learning rate of 0.02, divided by
ten at 60,000 and 80,000, after a warm-up: over the first 500 iterations the rate grows linearly
from a third of ``--lr`` to ``--lr`` (:func:`_detection.learning_rate`); weight decay 1e-4 on
every parameter; the extractor's ``conv1`` and ``res2`` and every batch normalization frozen;
the loss of :class:`~vision.models.detection.fpn.FasterRCNNFPNTrainChain`. ChainerCV scales the
learning rate with the batch (``0.02 * batchsize / 16``) and the iterations and steps against it
(``* 16 / batchsize``); here ``--lr``, ``--iteration`` and ``--step`` are what the run uses, so
a batch other than 16 gives them by hand. Each training image is flipped horizontally with
probability 1/2, then scaled as the model's ``prepare`` scales it (the shorter side to
``--min-size`` unless the longer one would pass ``--max-size``) with the mean subtracted; the
images of a batch keep their sizes (:func:`_detection.converter`) and the train chain pads them
together. The model is evaluated at the steps of the learning rate and at the end (COCO's
metrics; VOC, which ChainerCV's recipe does not train on, takes 2007 and 2012 trainval and is
evaluated on VOC 2007 test by its 11-point mAP). Like ChainerCV the script starts from ResNet's
ImageNet weights on COCO and VOC (``--pretrained-model imagenet``); on shapes, or with
``--base-channels``, from random weights, for which the recipe's learning rate is far too high:
the frozen batch normalizations keep their initial statistics and normalize nothing, so the
features of a random ResNet reach the thousands. FPN of ``--base-channels 4`` on shapes scaled
to 128 pixels, batches of 2, gives NaN within 50 iterations from 3e-3, reaches an mAP of 0.055
in 800 iterations from 1e-3, and 0.009 in 1000 from 1e-4.

The random flips are seeded by ``--seed`` (each loader process seeds them for each image from
it and the image's number; with ``--loaderjob 0`` the script seeds Python's global generator),
and the train chain samples its anchors and regions from a generator seeded by ``--seed`` and
the number of the batch (:class:`TrainChain`), so a run repeats bit for bit. The trainer is
saved every ``--snapshot-interval`` iterations in ``--out``, and a run started again with the
same ``--out`` resumes from the last snapshot, as the uninterrupted run would have gone on
(with ``--loaderjob`` 1 or more, whose flips follow the image's number). The trained model is
written to ``OUT/model.npz``.

With ``--communicator NAME`` the script trains data-parallel over the processes of an MPI job,
as ChainerCV's ``train_multi.py`` does: each process trains on its part of the training set
with ``--batchsize / N`` images a batch, starts from rank 0's weights and averages its
gradients with the others; rank 0 reads the validation set and the processes share its
predictions; only rank 0 prints, logs, plots and writes; every process resumes from rank 0's
last snapshot.

Usage::

    python scripts/train_fpn.py --dataset coco
    python scripts/train_fpn.py --dataset shapes --base-channels 4 --size 64 --batchsize 2 \\
        --min-size 128 --max-size 128 --lr 1e-3 --iteration 3000 --step 2400 --eval-interval 500
    mpiexec -n 2 python scripts/train_fpn.py --communicator flat --dataset coco
"""

from __future__ import annotations

import argparse

import numpy

from framework.links import BatchNormalization
from framework.optimizer_hooks import WeightDecay
from vision.models.detection.fpn import FasterRCNNFPNTrainChain
from vision.transforms import flip_bbox, random_flip, resize

import _detection  # isort: skip
import _training  # isort: skip

RECIPE = _detection.Recipe(
    models=('faster_rcnn_fpn_resnet50', 'faster_rcnn_fpn_resnet101'), voc_years=('2007', '2012'),
    iteration=90000, steps=(60000, 80000), lr=0.02, batchsize=16, log_interval=10,
    dataset='coco')
#: The iterations of the warm-up of the learning rate.
WARMUP_ITERATION = 500
#: The share of ``--lr`` the warm-up starts from.
WARMUP_RATE = 1 / 3


class TrainChain(FasterRCNNFPNTrainChain):
    """:class:`~vision.models.detection.fpn.FasterRCNNFPNTrainChain` that samples the anchors
    and regions of each batch from a generator seeded by ``seed``, ``rank`` and the number of
    the batch, which the snapshots save (the persistent ``batch_count``): a resumed run draws
    what the uninterrupted one would have drawn (ChainerCV draws from NumPy's global generator,
    whose state no snapshot holds).

    Args:
        model (FasterRCNN): the FPN model trained.
        seed (int): the seed of the run.
        rank (int): the process of the MPI job (0 without MPI).
    """

    def __init__(self, model, seed: int, rank: int):
        super().__init__(model)
        self.seed = seed
        self.rank = rank
        self.add_persistent('batch_count', 0)

    def forward(self, imgs, bboxes, labels):
        """The loss of a batch (see
        :meth:`~vision.models.detection.fpn.FasterRCNNFPNTrainChain.forward`)."""
        self.rng = numpy.random.default_rng((self.seed, self.rank, int(self.batch_count)))
        self.batch_count = int(self.batch_count) + 1
        return super().forward(imgs, bboxes, labels)


class Transform:
    """ChainerCV's preparation of an FPN training sample: a horizontal flip with probability
    1/2, the boxes following; then the image scaled as ``faster_rcnn.prepare`` scales it (the
    shorter side to ``min_size`` unless the longer one would pass ``max_size``; a side keeps
    at least one pixel), without ``prepare``'s padding, which the train chain does for the
    whole batch; the boxes scaled by the same factor, as ChainerCV scales them; the mean
    subtracted. The flip draws from Python's :mod:`random`, which the loader processes seed for
    each image.

    Args:
        faster_rcnn (FasterRCNN): the FPN model: its ``min_size``, ``max_size`` and the
            extractor's ``mean``.
    """

    def __init__(self, faster_rcnn):
        self.min_size = faster_rcnn.min_size
        self.max_size = faster_rcnn.max_size
        self.mean = faster_rcnn.extractor.mean

    def __call__(self, in_data):
        """``(img, bbox, label)`` to the prepared image float32 ``(3, H', W')``, its boxes
        ``(R, 4)`` float32 and their labels ``(R,)`` int32."""
        img, bbox, label = in_data
        img, param = random_flip(img, x_random=True, return_param=True)
        bbox = flip_bbox(bbox, img.shape[1:], x_flip=param['x_flip'])
        _, H, W = img.shape
        scale = self.min_size / min(H, W)
        if scale * max(H, W) > self.max_size:
            scale = self.max_size / max(H, W)
        img = resize(img, (max(int(H * scale), 1), max(int(W * scale), 1)))
        img = (img - self.mean).astype(numpy.float32, copy=False)
        return img, (bbox * scale).astype(numpy.float32, copy=False), label


def setup_hooks(train_chain) -> None:
    """ChainerCV's weight decay, 1e-4 on every parameter, and its frozen layers: the
    extractor's ``conv1`` and ``res2``, and every batch normalization (their statistics stay
    too, since the train chain runs the extractor in test mode)."""
    for param in train_chain.params():
        param.update_rule.add_hook(WeightDecay(0.0001))
    base = train_chain.model.extractor.base
    base.conv1.disable_update()
    base.res2.disable_update()
    for link in train_chain.links():
        if isinstance(link, BatchNormalization):
            link.disable_update()


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    _detection.add_arguments(parser, RECIPE)
    _detection.add_size_arguments(parser, min_size=800, max_size=1333)
    args = parser.parse_args(argv)
    _detection.check_arguments(parser, args)
    _detection.check_size_arguments(parser, args)
    _detection.start_from_imagenet(args)
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
    batch_size = _training.batch_size_per_process(args, comm, 'train_fpn.py')
    _training.seed_everything(args.seed)
    model = _detection.create_model(args, 'train_fpn.py', min_size=args.min_size,
                                    max_size=args.max_size)
    setup = _training.Training(
        model=model, train_chain=TrainChain(model, args.seed, 0 if comm is None else comm.rank),
        transform=Transform(model), batch_size=batch_size,
        loss_keys=('loss/rpn/loc', 'loss/rpn/conf', 'loss/bbox_head/loc',
                   'loss/bbox_head/conf'),
        setup_hooks=setup_hooks, converter=_detection.converter)
    with _training.dataset_errors_end_the_run('train_fpn.py', comm):
        return _detection.run(args, RECIPE, setup, comm,
                              shift=_detection.lr_shift(args, WARMUP_ITERATION, WARMUP_RATE))


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
