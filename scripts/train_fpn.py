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
in 800 iterations from 1e-3, and 0.009 in 1000 from 1e-4. A ResNet classifier trained on
shapes with the FPN's arch gives the extractor and its batch normalizations a real start
(``--pretrained-model`` its ``model.npz``): ``train_imagenet.py --dataset shapes --model
resnet50 --base-channels 8 --arch he --size 64 --epoch 5 --lr 0.1`` (validation accuracy 0.70),
then the second usage line below reaches an mAP of 0.355, 0.444, 0.499, 0.578, 0.567 and 0.583
at iterations 500 to 3000 (the last 2000 at 1.5 iterations a second, two BLAS threads).

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
    python scripts/train_fpn.py --dataset shapes --base-channels 8 --size 128 --batchsize 4 \\
        --pretrained-model CLASSIFIER/model.npz --min-size 128 --max-size 128 --lr 0.005 \\
        --iteration 3000 --step 2400 --eval-interval 500 --n-val 100
    mpiexec -n 2 python scripts/train_fpn.py --communicator flat --dataset coco
"""

from __future__ import annotations

from vision.models.detection.fpn import FasterRCNNFPNTrainChain

import _detection  # isort: skip
import _fpn  # isort: skip
from _fpn import Transform, setup_hooks  # noqa: F401  isort: skip

RECIPE = _detection.Recipe(
    models=('faster_rcnn_fpn_resnet50', 'faster_rcnn_fpn_resnet101'), voc_years=('2007', '2012'),
    iteration=90000, steps=(60000, 80000), lr=0.02, batchsize=16, log_interval=10,
    dataset='coco', warmup=_fpn.WARMUP_ITERATION, warmup_rate=_fpn.WARMUP_RATE)


class TrainChain(_fpn.Seeded, FasterRCNNFPNTrainChain):
    """:class:`~vision.models.detection.fpn.FasterRCNNFPNTrainChain` that samples the anchors
    and regions of each batch from a generator seeded by ``seed``, ``rank`` and the number of
    the batch (:class:`_fpn.Seeded`).

    Args:
        model (FasterRCNN): the FPN model trained.
        seed (int): the seed of the run.
        rank (int): the process of the MPI job (0 without MPI).
    """


def parse_args(argv=None):
    return _fpn.parse_args(__doc__.split('\n\n')[0].replace('\n', ' '), RECIPE, argv)


def train(args) -> dict:
    """Trains as the options say; returns the last entry of the log (on the processes of an
    MPI job other than rank 0 an empty dict).

    Raises:
        SystemExit: ``--batchsize`` is not a multiple of the processes of the MPI job, the
            options contradict the weights, or a sample of the training set has boxes that
            are not boxes (one line on stderr).
    """
    return _fpn.train(args, RECIPE, 'train_fpn.py', TrainChain,
                      ('loss/rpn/loc', 'loss/rpn/conf', 'loss/bbox_head/loc',
                       'loss/bbox_head/conf'))


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
