"""Evaluate an instance segmentation model: COCO's mask metrics on MS COCO 2017 val, VOC's mask
mAP on SBD val, or the mask AP of synthetic shapes.

As ChainerCV's ``examples/instance_segmentation/eval_instance_segmentation.py``, through
:mod:`vision.evaluations.instance_segmentation_benchmarks` (which ``vision evaluate`` runs too):
the model, built for the benchmark's classes, predicts with its ``'evaluate'`` preset, batch by
batch from a :class:`~framework.iterators.MultiprocessIterator`, as a static graph unless
``--eager``; COCO is scored by its mask average precision over IoU 0.5 to 0.95, at IoU 0.5 and
0.75, and by object size, SBD by the average precision of each class at mask IoU 0.5 with the
11-point metric, shapes by the area under the precision-recall curve at mask IoU 0.5.
``--pretrained-model`` is a weight name of the manifest (``vision list``; by default ChainerCV's
weights of the model for the dataset) or the path of a weight file (``model.npz`` of
``train_mask_rcnn.py``, with the ``--base-channels``, ``--min-size`` and ``--max-size`` it was
trained with).

Usage::

    python scripts/eval_instance_segmentation.py --dataset coco --model mask_rcnn_fpn_resnet50
    python scripts/eval_instance_segmentation.py --dataset sbd --pretrained-model model.npz \\
        --data-dir /data/SBD/benchmark_RELEASE/dataset
    python scripts/eval_instance_segmentation.py --dataset shapes \\
        --pretrained-model result/model.npz --base-channels 4 --min-size 128 --max-size 128
"""

from __future__ import annotations

import argparse

from vision.evaluations.instance_segmentation_benchmarks import (
    INSTANCE_SEGMENTATION_BENCHMARKS,
    ShapesVal,
)
from vision.models import get_model

import _evaluation  # isort: skip
import _training  # isort: skip

# --dataset: the benchmark
BENCHMARKS = {'coco': 'coco2017-val', 'sbd': 'sbd', 'shapes': 'shapes'}
# model: (its weights for each --dataset, the default batch size), as ChainerCV's script
# (FCIS's COCO weights are scored by ChainerCV with its 'coco_evaluate' preset, which keeps the
# regions of 2 pixels and more: 'evaluate', which the benchmarks use, keeps 16 and more)
MODELS = {
    'fcis_resnet101': ({'sbd': 'sbd'}, 1),
    'mask_rcnn_fpn_resnet50': ({'coco': 'coco'}, 1),
    'mask_rcnn_fpn_resnet101': ({'coco': 'coco'}, 1),
}


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    parser.add_argument('--dataset', choices=tuple(BENCHMARKS), default='coco')
    parser.add_argument('--data-dir', default='auto',
                        help="the dataset's directory (COCO's with images/ and annotations/, or "
                             "SBD's benchmark_RELEASE/dataset); 'auto' downloads it once into "
                             '$VISION_HOME/datasets')
    parser.add_argument('--model', choices=tuple(MODELS), default='mask_rcnn_fpn_resnet50')
    parser.add_argument('--pretrained-model',
                        help="a weight name of the model or the path of a weight file "
                             "(default: ChainerCV's weights of the model for --dataset)")
    parser.add_argument('--batchsize', type=_training.positive_int,
                        help="the images predicted at once (default: ChainerCV's, 1)")
    parser.add_argument('--base-channels', type=_training.positive_int,
                        help="the channels of ResNet's conv1 of a weight file (the model's "
                             'default)')
    parser.add_argument('--min-size', type=_training.positive_int,
                        help='the length the shorter side of an image is scaled to (the '
                             "model's default)")
    parser.add_argument('--max-size', type=_training.positive_int,
                        help="the most the longer side may then have (the model's default)")
    parser.add_argument('--n-images', type=_training.positive_int, default=1000,
                        help='the images of --dataset shapes (1000)')
    parser.add_argument('--size', type=_training.positive_int, default=128,
                        help='the side of the images of --dataset shapes (128)')
    _evaluation.add_run_arguments(parser)
    args = parser.parse_args(argv)
    weights, batchsize = MODELS[args.model]
    if args.pretrained_model is None:
        if args.dataset not in weights:
            parser.error(f'ChainerCV publishes no weights of {args.model} for --dataset '
                         f'{args.dataset}: give --pretrained-model')
        args.pretrained_model = weights[args.dataset]
    if args.dataset == 'shapes' and args.data_dir != 'auto':
        parser.error('--data-dir is not for --dataset shapes, which are drawn')
    args.batchsize = args.batchsize or batchsize
    return args


def evaluate(args: argparse.Namespace) -> dict:
    """Evaluates as the options say, prints the progress and the benchmark's numbers (the
    means over the classes, then each class's AP); returns the result of the benchmark's
    metric (:func:`~vision.evaluations.eval_instance_segmentation_coco`'s or
    :func:`~vision.evaluations.eval_instance_segmentation_voc`'s)."""
    if args.dataset == 'shapes':
        benchmark = ShapesVal(args.n_images, args.size)
    else:
        benchmark = INSTANCE_SEGMENTATION_BENCHMARKS[BENCHMARKS[args.dataset]]
    kwargs = {name: getattr(args, name) for name in ('base_channels', 'min_size', 'max_size')
              if getattr(args, name) is not None}
    model = get_model(args.model)(n_fg_class=len(benchmark.label_names),
                                  pretrained_model=args.pretrained_model, **kwargs)
    return _evaluation.run_benchmark(benchmark, model, args)


def main(argv=None) -> dict:
    return evaluate(parse_args(argv))


if __name__ == '__main__':
    main()
