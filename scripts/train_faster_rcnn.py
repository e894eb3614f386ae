"""Train Faster R-CNN VGG-16 with ChainerCV's recipe, on PASCAL VOC, MS COCO or synthetic
shapes.

The recipe (ChainerCV 0.13's ``examples/faster_rcnn/train.py``): PASCAL VOC 2007 trainval,
one image a batch, 70,000 iterations of MomentumSGD (momentum 0.9) from a learning rate of
1e-3, divided by ten at 50,000; weight decay 5e-4; the loss of
:class:`~vision.models.detection.faster_rcnn.FasterRCNNTrainChain`. Each training image is
scaled as the model's ``prepare`` scales it (the shorter side to ``--min-size`` unless the
longer one would pass ``--max-size``) and flipped horizontally with probability 1/2. The model
is evaluated at the step of the learning rate and at the end (VOC 2007 test, 11-point mAP;
COCO's metrics on COCO). ChainerCV starts from VGG-16's ImageNet weights, as this script does
on VOC and COCO (``--pretrained-model imagenet``); on shapes it starts from random weights,
the extractor's drawn by He's initialisation (:func:`_detection.initialize_from_scratch`).

An image left without boxes (all of them outside it) teaches nothing: Faster R-CNN's target
creators need boxes, so its loss is zero, with a zero gradient for every parameter.

The random flips are seeded by ``--seed`` (each loader process seeds them for each image
from it and the image's number; with ``--loaderjob 0`` the script seeds Python's and NumPy's
global generators, which the train chain's sampling of anchors and regions draws from too), so
a run repeats bit for bit. The trainer is saved every ``--snapshot-interval`` iterations in
``--out``, and a run started again with the same ``--out`` resumes from the last snapshot. The
trained model is written to ``OUT/model.npz``.

With ``--communicator NAME`` the script trains data-parallel over the processes of an MPI job:
each process trains on one image of its part of the training set a batch (a batch of N images
over N processes), starts from rank 0's weights and averages its gradients with the others;
rank 0 reads the validation set and the processes share its predictions; only rank 0 prints,
logs, plots and writes; every process resumes from rank 0's last snapshot.

Usage::

    python scripts/train_faster_rcnn.py --dataset voc
    python scripts/train_faster_rcnn.py --dataset shapes --base-channels 8 --min-size 256 \\
        --max-size 256 --anchor-scales 4 8 16 --lr 4e-3 --warmup 300 --iteration 13000 \\
        --step 10000 12000 --eval-interval 2500 --n-val 100 --loaderjob 1
    mpiexec -n 2 python scripts/train_faster_rcnn.py --communicator flat --dataset voc

The shapes run, on 2 cores, reaches mAP@0.5 0.386, 0.814, 0.922, 0.928 and 0.962 at 2,500 to
12,500 iterations (27.5 minutes, about 8 iterations a second); the recipe's ``--lr 1e-3``
learns no faster over the first 2,000 (0.290 and 0.389 at 1,000 and 2,000, against 0.284 and
0.346).
"""

from __future__ import annotations

import argparse

import framework.functions as F
from framework import reporter
from framework.optimizer_hooks import WeightDecay
from vision.models.detection.faster_rcnn import FasterRCNNTrainChain
from vision.transforms import flip_bbox, random_flip, resize_bbox

import _detection  # isort: skip
import _training  # isort: skip

RECIPE = _detection.Recipe(models=('faster_rcnn_vgg16',), voc_years=('2007',),
                           iteration=70000, steps=(50000,), lr=1e-3, batchsize=None,
                           log_interval=20)


class TrainChain(FasterRCNNTrainChain):
    """:class:`~vision.models.detection.faster_rcnn.FasterRCNNTrainChain` that takes images
    without boxes: their loss is zero, and so is the gradient of every parameter (an update
    then only decays the weights and carries the momentum on)."""

    def forward(self, imgs, bboxes, labels, scales):
        """The loss of one prepared image (see
        :meth:`~vision.models.detection.faster_rcnn.FasterRCNNTrainChain.forward`)."""
        if bboxes.shape[1] == 0:
            loss = sum(F.sum(param) * 0 for param in self.params())
            reporter.report({'loss': loss}, self)
            return loss
        return super().forward(imgs, bboxes, labels, scales)


class Transform:
    """Faster R-CNN's preparation of a training sample: the image scaled and its mean
    subtracted (``faster_rcnn.prepare``), then flipped horizontally with probability 1/2, the
    boxes following. The draw comes from Python's :mod:`random`, which the loader processes
    seed for each image.

    Args:
        faster_rcnn (FasterRCNN): the model, whose ``prepare`` scales the images.
    """

    def __init__(self, faster_rcnn):
        self.faster_rcnn = faster_rcnn

    def __call__(self, in_data):
        """``(img, bbox, label)`` to ``(img, bbox, label, scale)``: the prepared image
        ``(3, H', W')``, its boxes, their labels and the factor ``H' / H``."""
        img, bbox, label = in_data
        size = img.shape[1:]
        img = self.faster_rcnn.prepare(img)
        out_size = img.shape[1:]
        bbox = resize_bbox(bbox, size, out_size)
        img, param = random_flip(img, x_random=True, return_param=True)
        bbox = flip_bbox(bbox, out_size, x_flip=param['x_flip'])
        return img, bbox, label, out_size[0] / size[0]


def setup_hooks(train_chain) -> None:
    """ChainerCV's weight decay, 5e-4 on every parameter."""
    for param in train_chain.params():
        param.update_rule.add_hook(WeightDecay(0.0005))


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    _detection.add_arguments(parser, RECIPE)
    parser.add_argument('--min-size', type=int, default=600,
                        help='the length the shorter side of an image is scaled to (600)')
    parser.add_argument('--max-size', type=int, default=1000,
                        help='the most the longer side may then have (1000)')
    parser.add_argument('--anchor-scales', type=float, nargs='+', default=[8, 16, 32],
                        help="the sides of the anchors in units of the extractor's stride, "
                             '16 pixels (8 16 32)')
    args = parser.parse_args(argv)
    _detection.check_arguments(parser, args)
    if not 0 < args.min_size <= args.max_size:
        parser.error(f'--min-size must be positive and at most --max-size ({args.max_size}), '
                     f'but got {args.min_size}')
    _detection.start_from_imagenet(args)
    return args


def train(args: argparse.Namespace) -> dict:
    """Trains as the options say; returns the last entry of the log (on the processes of an
    MPI job other than rank 0 an empty dict).

    Raises:
        SystemExit: the options contradict the weights, or a sample of the training set has
            boxes that are not boxes (one line on stderr).
    """
    comm = _training.create_communicator(args)
    _training.seed_everything(args.seed)
    model = _detection.create_model(args, 'train_faster_rcnn.py', min_size=args.min_size,
                                    max_size=args.max_size, anchor_scales=args.anchor_scales)
    if args.pretrained_model is None:
        _detection.initialize_from_scratch(model.extractor)
    setup = _training.Training(
        model=model, train_chain=TrainChain(model), transform=Transform(model),
        batch_size=1, loss_keys=('rpn_loc_loss', 'rpn_cls_loss', 'roi_loc_loss',
                                 'roi_cls_loss'),
        setup_hooks=setup_hooks)
    with _training.dataset_errors_end_the_run('train_faster_rcnn.py', comm):
        return _detection.run(args, RECIPE, setup, comm)


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
