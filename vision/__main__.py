"""The ``vision`` command.

::

    vision list [--model resnet50] [--verbose]
    vision predict --model resnet50 --weights imagenet [--arg arch=he] [--top 5] IMG...
    vision evaluate --model resnet50 --weights imagenet --dataset /data/imagenet/val [--crop 10]
    vision download --model resnet50 --weights torchvision-imagenet1k-v2

``list`` prints every pretrained weight of the manifest with its published scores;
``predict`` prints the most probable classes of each image; ``evaluate`` prints the top-1 and
top-5 accuracy on a directory of class directories (ImageNet's layout) or on synthetic shapes;
``download`` fetches, verifies and converts a weight and prints where it is cached.
``--arg NAME=VALUE`` passes constructor arguments (``arch=he``, ``depth_multiplier=1.4``);
values are read as JSON when they parse. ``predict`` and ``evaluate`` run the model as a static
graph (:func:`framework.graph.compile`) unless ``--eager``.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy

_DESCRIPTION = ('Pretrained models of the vision zoo: list them, classify images, evaluate, '
                'download.')


def _parse_args(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog='vision', description=_DESCRIPTION)
    commands = parser.add_subparsers(dest='command', required=True)
    listing = commands.add_parser('list', help='list the pretrained weights and their scores')
    listing.add_argument('--model', help='only the weights of this model')
    listing.add_argument('--verbose', '-v', action='store_true',
                         help='also print sources, hashes, preprocessing, licences, protocols')
    for name, help_text in (('predict', 'print the top classes of images'),
                            ('evaluate', 'print the top-1 and top-5 accuracy on a dataset'),
                            ('download', 'fetch and convert a weight; print its cached path')):
        command = commands.add_parser(name, help=help_text)
        command.add_argument('--model', required=True, help='a model name (see vision list)')
        command.add_argument('--weights', required=True,
                             help='a weight name of the model, or the path of a weight file')
        command.add_argument('--arg', action='append', default=[], metavar='NAME=VALUE',
                             help='a constructor argument of the model (repeatable)')
        if name == 'predict':
            command.add_argument('images', nargs='+', metavar='IMG')
            command.add_argument('--top', type=int, default=5, help='how many classes (5)')
        if name in ('predict', 'evaluate'):
            command.add_argument('--crop', choices=('center', '10'),
                                 help="'center' or '10' crops (default: the weights')")
            command.add_argument('--eager', action='store_true',
                                 help='run the model define-by-run, not as a static graph')
        if name == 'evaluate':
            command.add_argument('--dataset', required=True,
                                 help="a directory of class directories, or 'shapes'")
            command.add_argument('--n-images', type=int, default=1000,
                                 help='the images of --dataset shapes (1000)')
            command.add_argument('--seed', type=int, default=1,
                                 help='the seed of --dataset shapes (1: the validation set of '
                                      'scripts/train_imagenet.py)')
            command.add_argument('--batchsize', type=int, default=32)
            command.add_argument('--loaderjob', type=int, default=2,
                                 help='processes that read the images (0: this one)')
    return parser.parse_args(argv)


def _constructor_args(items: list[str]) -> dict:
    kwargs = {}
    for item in items:
        name, sep, value = item.partition('=')
        if not sep or not name:
            raise ValueError(f'--arg must be NAME=VALUE, but got {item!r}')
        try:
            kwargs[name] = json.loads(value)
        except json.JSONDecodeError:
            kwargs[name] = value
    return kwargs


def _build(args):
    from vision.models import get_model
    return get_model(args.model)(pretrained_model=args.weights, **_constructor_args(args.arg))


def _list(args) -> None:
    from vision.weights import describe_source, list_weights
    specs = list_weights(args.model)
    if args.model is not None and not specs:
        from vision.models import get_model
        get_model(args.model)
    lines = [(spec.model, spec.name, ' '.join(f'{k}={v}' for k, v in spec.model_kwargs.items()),
              ', '.join(f'{s["metric"]} {s["value"]}{s.get("unit", "")} ({s["setting"]})'
                        for s in spec.scores)) for spec in specs]
    widths = [max((len(line[i]) for line in lines), default=0) + 2 for i in range(3)]
    for spec, line in zip(specs, lines):
        print(''.join(text.ljust(width) for text, width in zip(line, widths)) + line[3])
        if args.verbose:
            digest = spec.sha256 or (spec.sha256_prefix and f'{spec.sha256_prefix}...')
            pre = spec.preprocessing
            print(f'    source: {describe_source(spec.source)} (sha256 '
                  f'{digest or "not published"}; converter {spec.converter})')
            print(f'    input: {pre.channel_order}, mean {list(pre.mean)}, std '
                  f'{list(pre.std) if pre.std else None} (values 0-{pre.value_range:g}), resize '
                  f'{pre.resize}, {pre.crop} crop {pre.crop_size}; {spec.n_class} classes '
                  f'({spec.categories})')
            for s in spec.scores:
                print(f'    {s["metric"]} {s["value"]}{s.get("unit", "")}: {s["protocol"]}; '
                      f'{s["dataset"]}; {s["reference"]}')
            print(f'    licence: {spec.licence}')


_PREDICT_BATCH = 8  # images predicted together


def _predict(args) -> None:
    from vision.utils import read_image
    from vision.weights import label_names
    model = _build(args)
    if not args.eager:
        model.hybridize()
    names = model.weight_spec.label_names if model.weight_spec is not None else None
    for start in range(0, len(args.images), _PREDICT_BATCH):
        paths = args.images[start:start + _PREDICT_BATCH]
        probs = model.predict([read_image(path) for path in paths], crop=args.crop)
        for path, prob in zip(paths, probs):
            if names is None and len(prob) in (1000, 1001):
                names = label_names('imagenet' if len(prob) == 1000
                                    else 'imagenet_with_background')
            print(f'{path}:')
            for rank, index in enumerate(numpy.argsort(-prob)[:args.top], 1):
                name = names[index] if names is not None else f'class {index}'
                print(f'  {rank}. {prob[index]:.4f}  {name} ({index})')


def _evaluation_dataset(args, model):
    """The ``(img, label)`` dataset of ``--dataset``; shapes are drawn at the size the
    weights resize to."""
    import os

    from vision.datasets import DirectoryParsingLabelDataset, ShapesLabelDataset
    if args.dataset == 'shapes':
        pre = model.weight_spec.preprocessing if model.weight_spec is not None else None
        size = pre.resize if pre is not None and pre.resize is not None else 224
        return ShapesLabelDataset(args.n_images, size, args.seed)
    if not os.path.isdir(args.dataset):
        raise ValueError(f"--dataset must be 'shapes' or a directory of class directories, "
                         f'but {args.dataset!r} is not a directory')
    return DirectoryParsingLabelDataset(args.dataset)


def _evaluate(args) -> None:
    from framework import iterators
    from vision.evaluations import eval_classification
    from vision.utils import apply_to_iterator
    model = _build(args)
    if not args.eager:
        model.hybridize()
    dataset = _evaluation_dataset(args, model)
    if args.loaderjob > 0:
        iterator = iterators.MultiprocessIterator(dataset, args.batchsize, repeat=False,
                                                  shuffle=False, n_processes=args.loaderjob)
    else:
        iterator = iterators.SerialIterator(dataset, args.batchsize, repeat=False,
                                            shuffle=False)
    _, (probs,), (labels,) = apply_to_iterator(
        lambda imgs: numpy.stack(model.predict(imgs, crop=args.crop)), iterator)
    result = eval_classification(probs, labels, (1, 5))
    print(f'{args.model} ({args.weights}) on {len(dataset)} images of {args.dataset}:')
    for name, value in result.items():
        print(f'  {name}: {100 * value:.2f} %')


def _download(args) -> None:
    model = _build(args)
    if model.weight_spec is None:
        raise ValueError(f'{args.weights!r} is a file, not a weight of the manifest')
    print(model.weight_spec.local_path())


def main(argv=None) -> int:
    """Runs the command; returns the exit status (1 with a message on standard error for a
    failed download, a wrong hash, an unknown name or a bad argument)."""
    args = _parse_args(argv)
    run = {'list': _list, 'predict': _predict, 'evaluate': _evaluate,
           'download': _download}[args.command]
    try:
        run(args)
    except (OSError, ValueError, TypeError) as e:
        print(f'vision {args.command}: error: {e}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
