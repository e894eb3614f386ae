"""Evaluate a detector: the mAP of PASCAL VOC 2007 test or the COCO metrics of MS COCO 2017 val.

As ChainerCV's ``examples/detection/eval_detection.py``, through
:mod:`vision.evaluations.detection_benchmarks` (which ``vision evaluate`` runs too): the model,
built for the benchmark's classes, predicts with its ``'evaluate'`` preset, batch by batch from
a :class:`~framework.iterators.MultiprocessIterator`, as a static graph
(:func:`framework.graph.compile`) unless ``--eager``; VOC 2007 test is scored by the average
precision of each class at IoU 0.5 with the 11-point metric, difficult objects ignored, COCO by
its average precision over IoU 0.5 to 0.95 by object size. ``--pretrained-model`` is a weight
name of the manifest (``vision list``; by default ChainerCV's weights of the model for the
dataset) or the path of a weight file (``model.npz`` of ``train_ssd.py``).

Usage::

    python scripts/eval_detection.py --dataset voc --model ssd300
    python scripts/eval_detection.py --dataset voc --model faster_rcnn_vgg16 \\
        --pretrained-model result/model.npz --data-dir /data/VOCdevkit/VOC2007
    python scripts/eval_detection.py --dataset coco --model faster_rcnn_fpn_resnet50
"""

from __future__ import annotations

import argparse

from vision.evaluations.detection_benchmarks import DETECTION_BENCHMARKS
from vision.models import get_model

import _evaluation  # isort: skip

# --dataset: the benchmark
BENCHMARKS = {'voc': 'voc07-test', 'coco': 'coco2017-val'}
# model: (its weights for each --dataset, the default batch size), as ChainerCV's script
MODELS = {
    'faster_rcnn_fpn_resnet50': ({'coco': 'coco'}, 1),
    'faster_rcnn_fpn_resnet101': ({'coco': 'coco'}, 1),
    'faster_rcnn_vgg16': ({'voc': 'voc07'}, 32),
    # published on COCO 2014 minival, which is COCO 2017 val
    'light_head_rcnn_resnet101': ({'coco': 'coco'}, 1),
    'ssd300': ({'voc': 'voc0712'}, 32),
    'ssd512': ({'voc': 'voc0712'}, 16),
}


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--dataset', choices=tuple(BENCHMARKS), default='voc')
    parser.add_argument('--data-dir', default='auto',
                        help="the dataset's directory (VOCdevkit/VOC2007, or COCO's with "
                             "images/ and annotations/); 'auto' downloads it once into "
                             '$VISION_HOME/datasets')
    parser.add_argument('--model', choices=tuple(MODELS), default='ssd300')
    parser.add_argument('--pretrained-model',
                        help="a weight name of the model or the path of a weight file "
                             "(default: ChainerCV's weights of the model for --dataset)")
    parser.add_argument('--batchsize', type=int,
                        help="the images predicted at once (default: ChainerCV's for the "
                             'model, 32, 16 or 1)')
    _evaluation.add_run_arguments(parser)
    args = parser.parse_args(argv)
    weights, batchsize = MODELS[args.model]
    if args.pretrained_model is None:
        if args.dataset not in weights:
            parser.error(f'ChainerCV publishes no weights of {args.model} for --dataset '
                         f'{args.dataset}: give --pretrained-model')
        args.pretrained_model = weights[args.dataset]
    args.batchsize = args.batchsize or batchsize
    return args


def evaluate(args: argparse.Namespace) -> dict:
    """Evaluates as the options say, prints the progress and the benchmark's numbers (the
    means over the classes, then each class's AP); returns the result of the benchmark's
    metric (:func:`~vision.evaluations.eval_detection_voc`'s or
    :func:`~vision.evaluations.eval_detection_coco`'s)."""
    benchmark = DETECTION_BENCHMARKS[BENCHMARKS[args.dataset]]
    model = get_model(args.model)(n_fg_class=len(benchmark.label_names),
                                  pretrained_model=args.pretrained_model)
    return _evaluation.run_benchmark(benchmark, model, args)


def main(argv=None) -> dict:
    return evaluate(parse_args(argv))


if __name__ == '__main__':
    main()
