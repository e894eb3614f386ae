"""Train Light-Head R-CNN ResNet-101 with ChainerCV's recipe, on MS COCO, PASCAL VOC or
synthetic shapes.

The recipe (ChainerCV master's ``examples/light_head_rcnn/train_coco_multi.py``; Light-Head
R-CNN came after ChainerCV 0.13.1): MS COCO 2014 train and valminusminival, which are COCO 2017
train (the images with boxes: ChainerCV leaves out the others), batches of 8 images, 30 epochs
of MomentumSGD (momentum 0.9) from a learning rate of 0.005 (ChainerCV's ``0.0005 * 1.25 *
batchsize``), divided by ten at epochs 20 and 26, after a warm-up: over the first 500
iterations the rate grows linearly from a third of ``--lr`` to ``--lr``
(:func:`_detection.learning_rate`); weight decay 1e-4 on every parameter; the gradients of the
head's global context module scaled by 3; the extractor's ``conv1`` and ``res2`` and every
batch normalization frozen; the loss of
:class:`~vision.models.detection.light_head_rcnn.LightHeadRCNNTrainChain`. Here the epochs are
iterations: 30 epochs of COCO 2017 train's 117,266 images with boxes in batches of 8 are
439,748 iterations, epochs 20 and 26 are 293,165 and 381,114. ChainerCV evaluates on COCO 2014
minival, which is COCO 2017 val. Each training image is scaled as the model's ``prepare``
scales it (the shorter side to ``--min-size``, 800, unless the longer one would pass
``--max-size``, 1333) with the mean subtracted, and flipped horizontally with probability 1/2
(``train_faster_rcnn.Transform``); the images of a batch are padded with zeros to the largest
(:func:`converter`, ChainerCV's ``concat_examples`` with ``padding=0``). The script starts from
ResNet-101's ImageNet weights on COCO and VOC (``--pretrained-model imagenet``), as ChainerCV
does; on shapes from random weights, the extractor's drawn at half He's scale
(:data:`RANDOM_RESNET_SCALE`).

An image without boxes teaches nothing: it is left out of its batch's loss (a batch without
any box has a zero loss, with a zero gradient for every parameter).

The flips are seeded by ``--seed``, and the train chain samples its anchors and regions from
a generator seeded by ``--seed`` and the number of the batch (``_fpn.Seeded``), so a run
repeats bit for bit and resumes from its last snapshot in ``--out`` as it would have gone on.
The trained model is written to ``OUT/model.npz``. With ``--communicator NAME`` the script
trains data-parallel over the processes of an MPI job, as ChainerCV's ``train_coco_multi.py``
does, with ``--batchsize / N`` images a batch in each process.

Usage::

    python scripts/train_light_head_rcnn.py --dataset coco
    python scripts/train_light_head_rcnn.py --dataset shapes --size 64 --batchsize 2 \\
        --min-size 128 --max-size 128 --lr 1e-4 --iteration 3000 --step 2400
    mpiexec -n 8 python scripts/train_light_head_rcnn.py --communicator pure_nccl
"""

from __future__ import annotations

import argparse

import numpy

import framework.functions as F
from framework import initializers, reporter
from framework.dataset import concat_examples
from framework.links import BatchNormalization
from framework.optimizer_hooks import WeightDecay
from vision.models.detection.light_head_rcnn import LightHeadRCNNTrainChain
from vision.models.detection.ssd import GradientScaling

import _detection  # isort: skip
import _fpn  # isort: skip
import _training  # isort: skip
from train_faster_rcnn import Transform  # isort: skip

#: The images with boxes of COCO 2017 train (2014 train and valminusminival), and the batch.
_COCO_IMAGES, _BATCHSIZE = 117266, 8
RECIPE = _detection.Recipe(
    models=('light_head_rcnn_resnet101',), voc_years=('2007', '2012'),
    iteration=round(30 * _COCO_IMAGES / _BATCHSIZE),
    steps=tuple(round(epoch * _COCO_IMAGES / _BATCHSIZE) for epoch in (20, 26)),
    lr=0.0005 * 1.25 * _BATCHSIZE, batchsize=_BATCHSIZE, log_interval=20, dataset='coco',
    warmup=_fpn.WARMUP_ITERATION, warmup_rate=_fpn.WARMUP_RATE)

#: The scale of He's initialization of the extractor from random weights (no
#: ``--pretrained-model``): at He's own, the 33 residual blocks, whose frozen batch
#: normalizations keep their initial statistics and normalize nothing, grow the features past
#: float32 (a loss of NaN from the first iteration).
RANDOM_RESNET_SCALE = 0.5


class TrainChain(_fpn.Seeded, LightHeadRCNNTrainChain):
    """:class:`~vision.models.detection.light_head_rcnn.LightHeadRCNNTrainChain` sampling
    from a seeded generator (``_fpn.Seeded``) that leaves the images without boxes out of the
    loss.

    Args:
        model (LightHeadRCNN): the model trained.
        seed (int): the seed of the run.
        rank (int): the process of the MPI job (0 without MPI).
    """

    def forward(self, imgs, bboxes, labels, scales):
        """The loss of the images of a batch that have boxes (see
        :meth:`~vision.models.detection.light_head_rcnn.LightHeadRCNNTrainChain.forward`)."""
        keep = [i for i, bbox in enumerate(bboxes) if len(bbox)]
        if not keep:
            loss = sum(F.sum(param) * 0 for param in self.params())
            reporter.report({'loss': loss}, self)
            return loss
        if len(keep) < len(bboxes):
            imgs, scales = imgs[keep], numpy.asarray(scales)[keep]
            bboxes, labels = [bboxes[i] for i in keep], [labels[i] for i in keep]
        return super().forward(imgs, bboxes, labels, scales)


def converter(batch, device=None) -> tuple:
    """Samples ``(img, bbox, label, scale)`` to ``(imgs, bboxes, labels, scales)``: the images
    padded with zeros to the largest and stacked on ``device``, the boxes and labels lists of
    arrays on the CPU, the scales float32 ``(N,)``."""
    imgs, bboxes, labels, scales = zip(*batch)
    return (concat_examples(list(imgs), device, padding=0), list(bboxes), list(labels),
            numpy.asarray(scales, numpy.float32))


def setup_hooks(train_chain) -> None:
    """ChainerCV's weight decay, 1e-4 on every parameter, its scaled gradients of the global
    context module (3), and its frozen layers: the extractor's ``conv1`` and ``res2``, and
    every batch normalization (whose statistics stay too: the extractor runs in test mode)."""
    for param in train_chain.params():
        param.update_rule.add_hook(WeightDecay(0.0001))
    model = train_chain.light_head_rcnn
    for param in model.head.global_context_module.params():
        param.update_rule.add_hook(GradientScaling(3.))
    model.extractor.conv1.disable_update()
    model.extractor.res2.disable_update()
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
    if args.base_channels is not None:
        parser.error('--base-channels: Light-Head R-CNN ResNet-101 has ResNet-101\'s widths '
                     'only (scale the images down with --min-size and --max-size instead)')
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
    prog = 'train_light_head_rcnn.py'
    comm = _training.create_communicator(args)
    batch_size = _training.batch_size_per_process(args, comm, prog)
    _training.seed_everything(args.seed)
    kwargs = {}
    if args.pretrained_model is None:
        kwargs['resnet_initialW'] = initializers.HeNormal(scale=RANDOM_RESNET_SCALE)
    model = _detection.create_model(args, prog, min_size=args.min_size,
                                    max_size=args.max_size, **kwargs)
    setup = _training.Training(
        model=model, train_chain=TrainChain(model, args.seed, 0 if comm is None else comm.rank),
        transform=Transform(model), batch_size=batch_size,
        loss_keys=('rpn_loc_loss', 'rpn_cls_loss', 'roi_loc_loss', 'roi_cls_loss'),
        setup_hooks=setup_hooks, converter=converter)
    with _training.dataset_errors_end_the_run(prog, comm):
        return _detection.run(args, RECIPE, setup, comm)


def main(argv=None) -> dict:
    return train(parse_args(argv))


if __name__ == '__main__':
    main()
