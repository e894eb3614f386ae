"""Evaluate a semantic segmentation model: the mean IoU, pixel accuracy, mean class accuracy and
each class's IoU on CamVid test, Cityscapes val, ADE20K val, PASCAL VOC 2012 val or shapes.

As ChainerCV's ``examples/semantic_segmentation/eval_semantic_segmentation.py``, through
:mod:`vision.evaluations.semantic_segmentation_benchmarks` (which ``vision evaluate`` runs
too): the model, built for the benchmark's classes, labels each image, batch by batch from a
:class:`~framework.iterators.MultiprocessIterator`, as a static graph
(:func:`framework.graph.compile`) where the model has one, unless ``--eager``; the confusion of
the label maps with the ground truth over the whole split gives the scores, ignored pixels left
out. ``--pretrained-model`` is a weight name of the manifest (``vision list``; by default, as
ChainerCV, the model's weights named after the dataset) or the path of a weight file
(``model.npz`` of a training script). A mistake of the user (a missing directory, weights of
another model or of other classes) ends the script with one line on standard error.

Usage::

    python scripts/eval_semantic_segmentation.py --dataset camvid --model segnet_basic
    python scripts/eval_semantic_segmentation.py --dataset cityscapes \\
        --model pspnet_resnet101 --data-dir /data/cityscapes
    python scripts/eval_semantic_segmentation.py --dataset shapes --model segnet_basic \\
        --pretrained-model result/model.npz
"""

from __future__ import annotations

import argparse
import os
import sys

from vision.evaluations.semantic_segmentation_benchmarks import SEMANTIC_SEGMENTATION_BENCHMARKS
from vision.models import get_model, list_models
from vision.weights import list_weights

import _evaluation  # isort: skip


def _models() -> list[str]:
    """The registered semantic segmentation models."""
    return [name for name in list_models() if get_model(name).task == 'semantic_segmentation']


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--dataset', choices=tuple(SEMANTIC_SEGMENTATION_BENCHMARKS),
                        default='camvid')
    parser.add_argument('--data-dir', default='auto',
                        help="the dataset's directory (CamVid's with test.txt, Cityscapes' "
                             "with leftImg8bit/ and gtFine/, the one holding "
                             "ADEChallengeData2016, VOCdevkit/VOC2012); 'auto' downloads it "
                             'once into $VISION_HOME/datasets (Cityscapes must be put there '
                             'by hand; shapes are drawn)')
    parser.add_argument('--model', choices=_models(), default='segnet_basic')
    parser.add_argument('--pretrained-model',
                        help='a weight name of the model or the path of a weight file '
                             "(default: the model's weights named after --dataset)")
    parser.add_argument('--batchsize', type=int, default=1,
                        help="the images predicted at once (1, ChainerCV's)")
    _evaluation.add_run_arguments(parser)
    args = parser.parse_args(argv)
    if args.pretrained_model is None:
        if args.dataset not in {spec.name for spec in list_weights(args.model)}:
            parser.error(f'{args.model} has no weights named {args.dataset!r} (vision list '
                         f'--model {args.model}): give --pretrained-model')
        args.pretrained_model = args.dataset
    if args.batchsize < 1:
        parser.error(f'--batchsize must be positive, but got {args.batchsize}')
    if args.data_dir != 'auto':
        if args.dataset == 'shapes':
            parser.error('--data-dir is not for --dataset shapes, which are drawn')
        if not os.path.isdir(args.data_dir):
            parser.error(f'--data-dir must be a directory (or auto), but {args.data_dir!r} '
                         'is not')
    return args


def evaluate(args: argparse.Namespace) -> dict:
    """Evaluates as the options say, prints the progress and the benchmark's numbers (the mean
    IoU, the pixel accuracy, the mean class accuracy, then each class's IoU); returns the
    result of :func:`~vision.evaluations.eval_semantic_segmentation`."""
    benchmark = SEMANTIC_SEGMENTATION_BENCHMARKS[args.dataset]
    model = get_model(args.model)(n_class=len(benchmark.label_names),
                                  pretrained_model=args.pretrained_model)
    return _evaluation.run_benchmark(benchmark, model, args)


def main(argv=None) -> dict:
    """Runs the script; an :class:`OSError` or a :class:`ValueError` (missing data, weights
    that do not fit) ends it with one line on standard error."""
    args = parse_args(argv)
    try:
        return evaluate(args)
    except (OSError, ValueError) as e:
        sys.exit(f'eval_semantic_segmentation.py: error: {e}')


if __name__ == '__main__':
    main()
