"""Train Mask R-CNN FPN ResNet-50 or ResNet-101 with ChainerCV's recipe, on MS COCO or synthetic
shapes.

The recipe is ChainerCV 0.13's ``examples/fpn/train_multi.py`` with the mask head, that of
``train_fpn.py`` (:mod:`_fpn`): MS COCO 2017 train with its masks and boxes, batches of 16
images, 90,000 iterations of MomentumSGD (momentum 0.9) from a learning rate of 0.02 warmed up
from a third over the first 500 iterations, divided by ten at 60,000 and 80,000; weight decay
1e-4; the extractor's ``conv1`` and ``res2`` and every batch normalization frozen; the loss of
:class:`~vision.models.instance.mask_rcnn.MaskRCNNFPNTrainChain` (the detector's and the mask
head's, ``loss/mask``). Each training image is flipped horizontally with probability 1/2 and
scaled as the model scales it, its masks following (resized by their nearest pixel, as
ChainerCV resizes them). The model is evaluated at the steps of the learning rate and at the
end: COCO's mask metrics on COCO 2017 val
(:class:`~vision.extensions.InstanceSegmentationCOCOEvaluator`), VOC's mask AP at IoU 0.5 on
shapes (:class:`~vision.extensions.InstanceSegmentationVOCEvaluator`). As ChainerCV the script
starts from ResNet's ImageNet weights on COCO; on shapes, or with ``--base-channels``, from
random weights, for which the recipe's learning rate is far too high (see ``train_fpn.py``).

The samples are checked as they are read: masks not of the shape ``(R, H, W)`` of their image
and boxes, or a mask that lies outside its box, end the run with one line that names the
sample; boxes are checked as ``train_fpn.py`` checks them, the masks following the boxes kept.

``--seed`` makes a run repeat bit for bit; the trainer is saved every ``--snapshot-interval``
iterations in ``--out``, and a run started again with the same ``--out`` resumes from the last
snapshot; ``--communicator`` trains over the processes of an MPI job; all as ``train_fpn.py``.
The trained model is written to ``OUT/model.npz``, which ``eval_instance_segmentation.py``
evaluates.

Usage::

    python scripts/train_mask_rcnn.py --dataset coco
    python scripts/train_mask_rcnn.py --dataset shapes --base-channels 4 --size 64 \\
        --batchsize 2 --min-size 128 --max-size 128 --lr 1e-3 --iteration 3000 --step 2400 \\
        --eval-interval 500
    mpiexec -n 2 python scripts/train_mask_rcnn.py --communicator flat --dataset coco
"""

from __future__ import annotations

import argparse

from vision.datasets import COCOInstanceSegmentationDataset, ShapesInstanceSegmentationDataset
from vision.extensions import InstanceSegmentationCOCOEvaluator, InstanceSegmentationVOCEvaluator
from vision.models.instance.mask_rcnn import MaskRCNNFPNTrainChain

import _detection  # isort: skip
import _fpn  # isort: skip

RECIPE = _detection.Recipe(
    models=('mask_rcnn_fpn_resnet50', 'mask_rcnn_fpn_resnet101'), voc_years=(),
    iteration=90000, steps=(60000, 80000), lr=0.02, batchsize=16, log_interval=10,
    dataset='coco', datasets=('coco', 'shapes'), warmup=_fpn.WARMUP_ITERATION,
    warmup_rate=_fpn.WARMUP_RATE)
LOSS_KEYS = ('loss/rpn/loc', 'loss/rpn/conf', 'loss/bbox_head/loc', 'loss/bbox_head/conf',
             'loss/mask')


class TrainChain(_fpn.Seeded, MaskRCNNFPNTrainChain):
    """:class:`~vision.models.instance.mask_rcnn.MaskRCNNFPNTrainChain` that samples the
    anchors and regions of each batch from a generator seeded by ``seed``, ``rank`` and the
    number of the batch (:class:`_fpn.Seeded`).

    Args:
        model (MaskRCNNFPNResNet): the model trained.
        seed (int): the seed of the run.
        rank (int): the process of the MPI job (0 without MPI).
    """


def train_dataset(args: argparse.Namespace) -> _detection.CheckedBboxDataset:
    """The training set of ``--dataset``, each sample ``(img, bbox, label, mask)``, its masks
    and boxes checked."""
    if args.dataset == 'coco':
        dataset = COCOInstanceSegmentationDataset(args.data_dir, split='train',
                                                  return_bbox=True)
    else:
        dataset = ShapesInstanceSegmentationDataset(args.n_train, args.size,
                                                    _detection.SHAPES_TRAIN_SEED)
    return _detection.CheckedBboxDataset(_detection.CheckedMaskDataset(dataset),
                                         len(_detection.label_names(args)))


def val_dataset(args: argparse.Namespace):
    """The validation set of ``--dataset``, with what its evaluator needs (COCO's areas and
    crowd flags)."""
    if args.dataset == 'coco':
        return COCOInstanceSegmentationDataset(args.data_dir, split='val', use_crowded=True,
                                               return_area=True, return_crowded=True)
    return ShapesInstanceSegmentationDataset(args.n_val, args.size, _detection.SHAPES_VAL_SEED)


def evaluator(args: argparse.Namespace, model, comm):
    """The evaluator of ``--dataset`` (:func:`_detection.evaluator` with the masks')."""
    return _detection.evaluator(args, model, comm, val=val_dataset, evaluators=(
        InstanceSegmentationVOCEvaluator, InstanceSegmentationCOCOEvaluator))


def parse_args(argv=None) -> argparse.Namespace:
    return _fpn.parse_args(__doc__.split('\n\n')[0].replace('\n', ' '), RECIPE, argv)


def train(args: argparse.Namespace) -> dict:
    """Trains as the options say; returns the last entry of the log (on the processes of an
    MPI job other than rank 0 an empty dict).

    Raises:
        SystemExit: ``--batchsize`` is not a multiple of the processes of the MPI job, the
            options contradict the weights, or a sample of the training set cannot be
            trained on (one line on stderr).
    """
    return _fpn.train(args, RECIPE, 'train_mask_rcnn.py', TrainChain, LOSS_KEYS,
                      train=train_dataset(args), make_evaluator=evaluator)


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
