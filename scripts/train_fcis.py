"""Train FCIS ResNet-101 with ChainerCV's recipe, on SBD or synthetic shapes.

The recipe (ChainerCV 0.13's ``examples/fcis/train_sbd.py``): SBD train (ChainerCV's split, the
5,623 images of SBD's ``train_noval`` list), one image a batch, 42 epochs (236,166 iterations)
of MomentumSGD (momentum 0.9) from a learning rate of 5e-4, divided by ten after 28 epochs
(157,444 iterations); weight decay 5e-4; the gradient of the head's ``conv1`` times 3; the
extractor's ``conv1`` and ``res2`` and the scales and shifts of every batch normalization
frozen; the model built with ``iter2`` off; the loss of
:class:`~vision.models.instance.fcis.FCISTrainChain`. Each training image is scaled as the
model's ``prepare`` scales it, its masks resized bilinearly as probabilities (which the
proposal target creator binarises after cutting them to the regions, as ChainerCV's
transform leaves them), and flipped horizontally with probability 1/2, the masks and boxes
following; the boxes are those around the masks. The model is evaluated after the step of the
learning rate and at the end: VOC's mask AP at IoU 0.5 with the 11-point metric on SBD val,
the area under the precision-recall curve at mask IoU 0.5 on shapes. ChainerCV starts from
ResNet-101's ImageNet weights, as this script does on SBD (``--pretrained-model imagenet``); on
shapes, or with ``--base-channels``, it starts from random weights, the extractor's kernels
drawn from He's normal scaled by 0.3 (:data:`RANDOM_RESNET_SCALE`): its batch normalizations
run on their initial statistics, which normalise nothing, and at He's own scale the features
of the 33 bottlenecks grow to millions. Such a slim random model needs a learning rate far
above the recipe's: its class scores, means over the 441 bins of the position-sensitive maps
of a narrow head on small features, move slowly. With the shapes command below (2,000
iterations, 11 minutes on one CPU core) the mask AP at IoU 0.5 is only 0.074 on 50 images:
FCIS learns slowly from scratch, and the recipe was not tuned for shapes.

The samples are checked as ``train_mask_rcnn.py`` checks them; an image left without objects
teaches nothing (its loss is zero, with a zero gradient for every parameter). ``--seed``,
the snapshots, the resumption and ``--communicator`` are those of ``train_faster_rcnn.py``.
The trained model is written to ``OUT/model.npz``, which ``eval_instance_segmentation.py``
evaluates (with the default ``--anchor-scales``: the script has no option for them).

Usage::

    python scripts/train_fcis.py --dataset sbd
    python scripts/train_fcis.py --dataset shapes --base-channels 4 --size 128 \\
        --min-size 256 --max-size 256 --anchor-scales 2 4 8 --lr 0.05 --iteration 2000 \\
        --step 1600 --n-val 50
    mpiexec -n 2 python scripts/train_fcis.py --communicator flat --dataset sbd
"""

from __future__ import annotations

import argparse

import numpy

import framework.functions as F
from framework import initializers, reporter
from framework.optimizer_hooks import WeightDecay
from vision.datasets import SBDInstanceSegmentationDataset, ShapesInstanceSegmentationDataset
from vision.extensions import InstanceSegmentationCOCOEvaluator, InstanceSegmentationVOCEvaluator
from vision.models.detection.ssd import GradientScaling
from vision.models.instance.fcis import FCISTrainChain
from vision.transforms import flip, flip_bbox, random_flip, resize, resize_bbox

import _detection  # isort: skip
import _training  # isort: skip

# the images of ChainerCV's SBD train split: an epoch
SBD_TRAIN = 5623
RECIPE = _detection.Recipe(models=('fcis_resnet101',), voc_years=(), iteration=42 * SBD_TRAIN,
                           steps=(28 * SBD_TRAIN,), lr=5e-4, batchsize=None, log_interval=20,
                           dataset='sbd', datasets=('sbd', 'shapes'))
# the scale of He's normal for the extractor's kernels when no weights are loaded
RANDOM_RESNET_SCALE = 0.3
LOSS_KEYS = ('rpn_loc_loss', 'rpn_cls_loss', 'roi_loc_loss', 'roi_cls_loss', 'roi_mask_loss')


class TrainChain(FCISTrainChain):
    """:class:`~vision.models.instance.fcis.FCISTrainChain` that takes images without objects:
    their loss is zero, and so is the gradient of every parameter."""

    def forward(self, imgs, masks, labels, bboxes, scales):
        """The loss of one prepared image (see
        :meth:`~vision.models.instance.fcis.FCISTrainChain.forward`)."""
        if bboxes.shape[1] == 0:
            loss = sum(F.sum(param) * 0 for param in self.params())
            reporter.report({'loss': loss}, self)
            return loss
        return super().forward(imgs, masks, labels, bboxes, scales)


class Transform:
    """ChainerCV's preparation of an FCIS training sample: the image scaled and its mean
    subtracted (``fcis.prepare``), the boxes scaled alike and the masks resized bilinearly to
    the image as float32 probabilities; then a horizontal flip with probability 1/2 of all
    three, drawn from Python's :mod:`random`, which the loader processes seed for each image.

    Args:
        fcis (FCIS): the model, whose ``prepare`` scales the images.
    """

    def __init__(self, fcis):
        self.fcis = fcis

    def __call__(self, in_data):
        """``(img, bbox, label, mask)`` to ``(img, mask, label, bbox, scale)``: the prepared
        image ``(3, H', W')``, the masks ``(R, H', W')`` float32, their labels, their boxes and
        the factor ``H' / H``."""
        img, bbox, label, mask = in_data
        size = img.shape[1:]
        img = self.fcis.prepare(img)
        out_size = img.shape[1:]
        bbox = resize_bbox(bbox, size, out_size)
        mask = resize(mask.astype(numpy.float32), out_size)
        img, param = random_flip(img, x_random=True, return_param=True)
        mask = flip(mask, x_flip=param['x_flip'])
        bbox = flip_bbox(bbox, out_size, x_flip=param['x_flip'])
        return img, mask, label, bbox, numpy.float32(out_size[0] / size[0])


def setup_hooks(train_chain) -> None:
    """ChainerCV's weight decay, 5e-4 on every parameter, then the head's ``conv1`` gradient
    times 3; and its frozen parameters: the extractor's ``conv1`` and ``res2``, and the scales
    and shifts of the batch normalizations (whose statistics stay too, since the extractor
    runs in test mode)."""
    for param in train_chain.params():
        param.update_rule.add_hook(WeightDecay(0.0005))
    conv1 = train_chain.fcis.head.conv1
    for param in (conv1.W, conv1.b):
        param.update_rule.add_hook(GradientScaling(3.))
    for name, param in train_chain.namedparams():
        if name.rsplit('/', 1)[-1] in ('beta', 'gamma'):
            param.update_rule.enabled = False
    train_chain.fcis.extractor.conv1.disable_update()
    train_chain.fcis.extractor.res2.disable_update()


def train_dataset(args: argparse.Namespace) -> _detection.CheckedBboxDataset:
    """The training set of ``--dataset``, each sample ``(img, bbox, label, mask)``, the boxes
    those around the masks, all checked."""
    if args.dataset == 'sbd':
        dataset = SBDInstanceSegmentationDataset(args.data_dir, split='train')
    else:
        dataset = ShapesInstanceSegmentationDataset(args.n_train, args.size,
                                                    _detection.SHAPES_TRAIN_SEED)
    return _detection.CheckedBboxDataset(_detection.CheckedMaskDataset(dataset),
                                         len(_detection.label_names(args)))


def val_dataset(args: argparse.Namespace):
    """The validation set of ``--dataset``."""
    if args.dataset == 'sbd':
        return SBDInstanceSegmentationDataset(args.data_dir, split='val')
    return ShapesInstanceSegmentationDataset(args.n_val, args.size, _detection.SHAPES_VAL_SEED)


def evaluator(args: argparse.Namespace, model, comm):
    """The evaluator of ``--dataset`` (:func:`_detection.evaluator` with the masks')."""
    return _detection.evaluator(args, model, comm, val=val_dataset, evaluators=(
        InstanceSegmentationVOCEvaluator, InstanceSegmentationCOCOEvaluator))


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    _detection.add_arguments(parser, RECIPE)
    _detection.add_size_arguments(parser, 600, 1000)
    parser.add_argument('--anchor-scales', type=float, nargs='+', default=[8, 16, 32],
                        help="the sides of the anchors in units of the extractor's stride, "
                             '16 pixels (8 16 32)')
    args = parser.parse_args(argv)
    _detection.check_arguments(parser, args)
    _detection.check_size_arguments(parser, args)
    _detection.start_from_imagenet(args)
    return args


def train(args: argparse.Namespace) -> dict:
    """Trains as the options say; returns the last entry of the log (on the processes of an
    MPI job other than rank 0 an empty dict).

    Raises:
        SystemExit: the options contradict the weights, or a sample of the training set cannot
            be trained on (one line on stderr).
    """
    comm = _training.create_communicator(args)
    _training.seed_everything(args.seed)
    kwargs = {}
    if args.pretrained_model is None:
        kwargs['resnet_initialW'] = initializers.HeNormal(scale=RANDOM_RESNET_SCALE)
    model = _detection.create_model(args, 'train_fcis.py', min_size=args.min_size,
                                    max_size=args.max_size, anchor_scales=args.anchor_scales,
                                    iter2=False, **kwargs)
    setup = _training.Training(model=model, train_chain=TrainChain(model),
                               transform=Transform(model), batch_size=1,
                               loss_keys=LOSS_KEYS, setup_hooks=setup_hooks)
    with _training.dataset_errors_end_the_run('train_fcis.py', comm):
        return _detection.run(args, RECIPE, setup, comm, train=train_dataset(args),
                              make_evaluator=evaluator)


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
