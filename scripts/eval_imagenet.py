"""Evaluate a classifier: top-1 and top-5 accuracy on a directory of class directories or on
synthetic shapes.

As ChainerCV's ``examples/classification/eval_imagenet.py``: the model predicts through
:class:`~vision.models.FeaturePredictor` (the shorter side resized, the centre crop or ten
crops averaged), batch by batch from a :class:`~framework.iterators.MultiprocessIterator`,
run as a static graph (:func:`framework.graph.compile`) unless ``--eager``.
``--pretrained-model`` is a weight name of the manifest (``vision list``), whose
preprocessing (resize, crop size and crops) is then the default, or the path of a weight file
(``OUT/model.npz`` of ``train_imagenet.py``), for which the sizes come from the options.

Usage::

    python scripts/eval_imagenet.py --dataset /data/imagenet/val --model resnet50 \\
        --pretrained-model imagenet --crop 10
    python scripts/eval_imagenet.py --dataset shapes --model resnet14 --pretrained-model shapes
"""

from __future__ import annotations

import argparse

from framework import backend
from vision.evaluations import eval_classification
from vision.models import FeaturePredictor
from vision.utils import ProgressHook, apply_to_iterator

from _classification import SHAPES, SHAPES_VAL_SEED  # isort: skip
from _classification import add_arguments, build_model, label_dataset  # isort: skip
from _classification import make_iterator, sizes  # isort: skip


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].replace('\n', ' '))
    parser.add_argument('--dataset', default=SHAPES,
                        help="'shapes' (the validation set of train_imagenet.py) or the root of "
                             'the images, one directory per class')
    parser.add_argument('--pretrained-model', required=True,
                        help='a weight name of the model, or the path of a weight file')
    parser.add_argument('--crop', choices=('center', '10'),
                        help="the centre crop or ten crops (default: the weights', else "
                             "'center')")
    parser.add_argument('--eager', action='store_true',
                        help='run the model define-by-run rather than as a static graph')
    add_arguments(parser)
    return parser.parse_args(argv)


def evaluate(args: argparse.Namespace) -> dict:
    """Evaluates as the options say; returns ``{'top-1 accuracy': ..., 'top-5 accuracy':
    ...}`` (fractions)."""
    dataset, label_names = label_dataset(args.dataset, args.size, args.n_val, SHAPES_VAL_SEED)
    model = build_model(args, len(label_names), args.pretrained_model)
    spec = model.weight_spec
    if spec is not None:
        scale_size = args.scale_size or spec.preprocessing.resize
        crop_size = args.crop_size or spec.preprocessing.crop_size
        crop = args.crop or spec.preprocessing.crop
    else:
        scale_size, crop_size = sizes(args)
        crop = args.crop or 'center'
    predictor = FeaturePredictor(model, crop_size, scale_size, crop)
    predictor.to_device(backend.get_device(args.device))
    if not args.eager:
        predictor.hybridize()
    iterator = make_iterator(dataset, args, repeat=False, shuffle=False)

    print(f'{args.model} ({args.pretrained_model}) on {len(dataset)} images of '
          f'{len(label_names)} classes: resize {scale_size}, {crop} crop {crop_size}')
    _, out_values, rest_values = apply_to_iterator(predictor.predict, iterator,
                                                   hook=ProgressHook(len(dataset)))
    print()
    result = eval_classification(out_values[0], rest_values[0], (1, 5))
    for name, value in result.items():
        print(f'{name}: {100 * value:.2f} % (error {100 * (1 - value):.2f} %)')
    return result


def main(argv=None) -> dict:
    return evaluate(parse_args(argv))


if __name__ == '__main__':
    main()
