"""The ``vision`` command.

::

    vision list [--model resnet50] [--verbose]
    vision predict --model resnet50 --weights imagenet [--arg arch=he] [--top 5] IMG...
    vision predict --model mtcnn --weights facenet-pytorch --out faces/ IMG...
    vision predict --model mask_rcnn_fpn_resnet50 --weights coco --out drawn/ IMG...
    vision evaluate --model resnet50 --weights imagenet --dataset /data/imagenet/val [--crop 10]
    vision evaluate --model ssd300 --weights voc0712 --dataset voc07-test
    vision evaluate --model segnet_basic --weights camvid --dataset camvid
    vision evaluate --model mask_rcnn_fpn_resnet50 --weights coco --dataset coco2017-val
    vision download --model resnet50 --weights torchvision-imagenet1k-v2

``list`` prints every pretrained weight of the manifest with its published scores;
``predict`` prints what the model's task predicts for each image (the most probable classes;
the detected boxes, with their points for a keypoint detector; the classes covering a label
map; each object's class, score, the box around its mask and its pixels), and with ``--out
DIR`` draws it on the image; ``evaluate`` prints the metric of the model's task: top-1 and
top-5 accuracy on a directory of class directories (ImageNet's layout) or on synthetic shapes,
a detector's mAP and each class's AP with ChainerCV's protocol
(:mod:`vision.evaluations.detection_benchmarks`: PASCAL VOC 2007 test, or MS COCO 2017 val),
the mean IoU, pixel accuracy, mean class accuracy and each class's IoU of semantic segmentation
with ChainerCV's protocol (:mod:`vision.evaluations.semantic_segmentation_benchmarks`: CamVid
test, Cityscapes val, ADE20K val, PASCAL VOC 2012 val, or synthetic shapes), the mask mAPs and
each class's AP of instance segmentation with ChainerCV's protocol
(:mod:`vision.evaluations.instance_segmentation_benchmarks`: MS COCO 2017 val's mask AP, AP50,
AP75 and AP by size, SBD val's or VOC 2012's mask mAP at IoU 0.5, or synthetic shapes);
``download`` fetches, verifies and converts a weight and prints where it is cached.
``--arg NAME=VALUE`` passes constructor arguments (``arch=he``, ``depth_multiplier=1.4``);
values are read as JSON when they parse. ``predict`` and ``evaluate`` run the model as a static
graph (:func:`framework.graph.compile`) unless ``--eager``.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import zipfile

import numpy

_DESCRIPTION = ('Pretrained models of the vision zoo: list them, classify images, evaluate, '
                'download.')


def _parse_args(argv) -> argparse.Namespace:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument('--debug', action='store_true',
                        help='show the traceback of an error (also VISION_DEBUG=1)')
    parser = argparse.ArgumentParser(prog='vision', description=_DESCRIPTION)
    commands = parser.add_subparsers(dest='command', required=True)
    listing = commands.add_parser('list', parents=[common],
                                  help='list the pretrained weights and their scores')
    listing.add_argument('--model', help='only the weights of this model')
    listing.add_argument('--verbose', '-v', action='store_true',
                         help='also print sources, hashes, preprocessing, licences, protocols')
    for name, help_text in (('predict', 'print the top classes of images'),
                            ('evaluate', "print the metric of the model's task on a dataset"),
                            ('download', 'fetch and convert a weight; print its cached path')):
        command = commands.add_parser(name, parents=[common], help=help_text)
        command.add_argument('--model', required=True, help='a model name (see vision list)')
        command.add_argument('--weights', required=True,
                             help='a weight name of the model, or the path of a weight file')
        command.add_argument('--arg', action='append', default=[], metavar='NAME=VALUE',
                             help='a constructor argument of the model (repeatable)')
        if name == 'predict':
            command.add_argument('images', nargs='+', metavar='IMG')
            command.add_argument('--top', type=_positive_int, default=5,
                                 help='how many classes to print (5)')
            command.add_argument('--out', metavar='DIR',
                                 help='also draw the predictions on each image, into DIR')
            command.add_argument('--alpha', default='blend_with_white',
                                 choices=('blend_with_white', 'blend_with_black', 'ignore'),
                                 help='how to read an image with transparency '
                                      '(blend_with_white)')
        if name == 'download':
            command.add_argument('--force', action='store_true',
                                 help='delete the cached files of the weight and fetch them '
                                      'again (a corrupt file)')
        if name in ('predict', 'evaluate'):
            command.add_argument('--crop', choices=('center', '10'),
                                 help="'center' or '10' crops (default: the weights')")
            command.add_argument('--eager', action='store_true',
                                 help='run the model define-by-run, not as a static graph '
                                      '(the default of models where it does not pay)')
        if name == 'evaluate':
            command.add_argument('--dataset', required=True,
                                 help="classification: a directory of class directories, or "
                                      "'shapes'; detection: 'voc07-test' or 'coco2017-val' "
                                      '(downloaded once), or a VOC2007 directory; semantic '
                                      "segmentation: 'camvid', 'cityscapes', 'ade20k', 'voc' "
                                      "(downloaded once; Cityscapes by hand) or 'shapes', or "
                                      "a directory of one of them; instance segmentation: "
                                      "'coco2017-val', 'sbd', 'voc' (downloaded once) or "
                                      "'shapes', or a directory of one of them")
            command.add_argument('--split',
                                 help='the split of VOC for instance segmentation (val)')
            command.add_argument('--n-images', type=_positive_int, default=1000,
                                 help='the images of --dataset shapes (1000)')
            command.add_argument('--seed', type=int, default=1,
                                 help='the seed of --dataset shapes (1: the validation set of '
                                      'the training scripts)')
            command.add_argument('--batchsize', type=_positive_int, default=32)
            command.add_argument('--loaderjob', type=_natural_int, default=2,
                                 help='processes that read the images (0: this one)')
            command.add_argument('--strict', action='store_true',
                                 help='stop at the first image that cannot be read, instead '
                                      'of reporting and skipping it')
    return parser.parse_args(argv)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f'must be a positive integer, but got {text}')
    return value


def _natural_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f'must be 0 or a positive integer, but got {text}')
    return value


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
            if digest is None and spec.source.get('files'):
                digest = 'of each file: ' + ', '.join(
                    f'{os.path.basename(name)} {sha256[:12]}...'
                    for name, sha256 in spec.source['files'].items())
            pre = spec.preprocessing
            crop = 'no crop' if pre.crop is None else f'{pre.crop} crop {pre.crop_size}'
            print(f'    source: {describe_source(spec.source)} (sha256 '
                  f'{digest or "not published"}; converter {spec.converter})')
            print(f'    input: {pre.channel_order}, mean {list(pre.mean)}, std '
                  f'{list(pre.std) if pre.std else None} (values 0-{pre.value_range:g}), resize '
                  f'{pre.resize}, {crop}; ' +
                  (f'{spec.n_class} classes ({spec.categories})' if spec.n_class is not None
                   else 'no classes (the weights of an extractor)'))
            for s in spec.scores:
                print(f'    {s["metric"]} {s["value"]}{s.get("unit", "")}: {s["protocol"]}; '
                      f'{s["dataset"]}; {s["reference"]}')
            print(f'    licence: {spec.licence}')


_PREDICT_BATCH = 8  # images predicted together at most...
_PREDICT_PIXELS = 24_000_000  # ... and at most this many pixels (read as uint8: ~70 MB)


def _predict(args) -> int:
    model = _build(args)
    if not args.eager and getattr(model, 'hybridize_by_default', True):
        model.hybridize()
    report = _REPORTS[model.task]
    options = {'crop': args.crop} if model.task == 'classification' else {}
    if args.out is not None:
        os.makedirs(args.out, exist_ok=True)
    n_failed = 0
    for batch in _image_batches(args.images, args.alpha):
        n_failed += sum(img is None for _, img in batch)
        batch = [(path, img) for path, img in batch if img is not None]
        if not batch:
            continue
        outputs = model.predict([img for _, img in batch], **options)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        for i, (path, img) in enumerate(batch):
            print(f'{path}:')
            report(args, model, path, img, *(output[i] for output in outputs))
    return n_failed


def _image_batches(paths, alpha: str):
    """``(path, image)`` pairs in batches of at most :data:`_PREDICT_BATCH` images and
    :data:`_PREDICT_PIXELS` pixels; an image that cannot be read is reported on standard error
    and comes as ``(path, None)``."""
    batch, pixels = [], 0
    for path in paths:
        try:
            img = _read_image(path, alpha)
        except (OSError, ValueError) as e:
            message = _explain(e)
            print(f'vision predict: error: {message if path in message else f"{path}: {message}"}',
                  file=sys.stderr)
            img = None
        size = 0 if img is None else img.shape[1] * img.shape[2]
        if batch and (len(batch) == _PREDICT_BATCH or pixels + size > _PREDICT_PIXELS):
            yield batch
            batch, pixels = [], 0
        batch.append((path, img))
        pixels += size
    if batch:
        yield batch


def _read_image(path: str, alpha: str) -> numpy.ndarray:
    """The image of ``path`` as uint8 (``predict`` casts each image in turn); an image with
    transparency is handled as ``alpha`` says, with a note on standard error."""
    from vision.utils.image import TransparencyError, read_image
    try:
        return read_image(path, dtype=numpy.uint8)
    except TransparencyError:
        how = {'blend_with_white': 'composited on white', 'blend_with_black':
               'composited on black', 'ignore': 'its transparency ignored'}[alpha]
        print(f'vision predict: note: {path} has transparency: {how} (--alpha)',
              file=sys.stderr)
        return read_image(path, dtype=numpy.uint8, alpha=alpha)


def _label_names(model, n_class: int | None = None):
    """The class names of the model's weights (ImageNet's for 1000 or 1001 classes when the
    weights name none), or None."""
    from vision.weights import label_names
    spec = getattr(model, 'weight_spec', None)
    names = spec.label_names if spec is not None else getattr(model, 'label_names', None)
    if names is None and n_class in (1000, 1001):
        names = label_names('imagenet' if n_class == 1000 else 'imagenet_with_background')
    return names


def _name(names, label: int) -> str:
    return names[label] if names is not None and label < len(names) else f'class {label}'


def _report_classification(args, model, path, img, prob) -> None:
    names = _label_names(model, len(prob))
    for rank, index in enumerate(numpy.argsort(-prob)[:args.top], 1):
        print(f'  {rank}. {prob[index]:.4f}  {_name(names, index)} ({index})')


def _report_detection(args, model, path, img, bbox, label, score, point=None) -> None:
    names = _label_names(model)
    _print_detections(names, bbox, label, score, point)
    if args.out is not None:
        from vision.visualizations import vis_bbox, vis_point
        ax = vis_bbox(img, bbox, label, score, label_names=names)
        if point is not None:
            vis_point(None, point, ax=ax)
        _save(args, path, ax)


def _print_detections(names, bbox, label, score, point=None) -> None:
    """Prints the detections of an image, the most confident first."""
    if len(bbox) == 0:
        print('  nothing detected')
    for i in numpy.argsort(-score, kind='stable'):
        y_min, x_min, y_max, x_max = bbox[i]
        print(f'  {_name(names, label[i])} {score[i]:.4f}  box (y_min, x_min, y_max, x_max) '
              f'= ({y_min:.1f}, {x_min:.1f}, {y_max:.1f}, {x_max:.1f})')
        if point is not None:
            print('    points (y, x): ' + ', '.join(f'({y:.1f}, {x:.1f})' for y, x in point[i]))


def _print_instances(names, mask, label, score) -> None:
    """Prints the objects of an image, the most confident first: each one's class, score, the
    box around its mask and its mask's pixels."""
    from vision.utils import mask_to_bbox
    if len(mask) == 0:
        print('  nothing detected')
    bbox = mask_to_bbox(mask)
    areas = mask.sum(axis=(1, 2))
    for i in numpy.argsort(-score, kind='stable'):
        y_min, x_min, y_max, x_max = bbox[i]
        where = (f'box (y_min, x_min, y_max, x_max) = ({y_min:.1f}, {x_min:.1f}, {y_max:.1f}, '
                 f'{x_max:.1f}), {areas[i]} pixels' if areas[i] else 'an empty mask')
        print(f'  {_name(names, label[i])} {score[i]:.4f}  {where}')


def _report_semantic_segmentation(args, model, path, img, label) -> None:
    names = _label_names(model)
    classes, counts = numpy.unique(label[label >= 0], return_counts=True)
    for index in numpy.argsort(-counts, kind='stable')[:args.top]:
        print(f'  {100 * counts[index] / label.size:.2f} %  {_name(names, classes[index])} '
              f'({classes[index]})')
    if args.out is not None:
        from vision.visualizations import vis_semantic_segmentation
        ax, handles = vis_semantic_segmentation(img, label, label_names=names, alpha=0.6)
        ax.legend(handles=handles, bbox_to_anchor=(1, 1), loc='upper left')
        _save(args, path, ax)


def _report_instance_segmentation(args, model, path, img, mask, label, score) -> None:
    names = _label_names(model)
    _print_instances(names, mask, label, score)
    if args.out is not None:
        from vision.visualizations import vis_instance_segmentation
        _save(args, path, vis_instance_segmentation(img, mask, label, score, label_names=names))


def _save(args, path: str, ax) -> None:
    """Writes the figure of ``ax`` to ``--out``, named after the image, and closes it."""
    from vision.visualizations._matplotlib import pyplot
    stem = os.path.splitext(os.path.basename(path))[0]
    target = os.path.join(args.out, f'{stem}.png')
    ax.set_axis_off()
    ax.figure.savefig(target, bbox_inches='tight', dpi=100)
    pyplot().close(ax.figure)
    print(f'  drawn in {target}')


_REPORTS = {
    'classification': _report_classification,
    'detection': _report_detection,
    'semantic_segmentation': _report_semantic_segmentation,
    'instance_segmentation': _report_instance_segmentation,
}


def _classification_dataset(args, model):
    """The ``(img, label)`` dataset of ``--dataset``; shapes are drawn at the size the
    weights resize to."""
    from vision.datasets import DirectoryParsingLabelDataset, ShapesLabelDataset
    if args.dataset == 'shapes':
        pre = model.weight_spec.preprocessing if model.weight_spec is not None else None
        size = pre.resize if pre is not None and pre.resize is not None else 224
        return ShapesLabelDataset(args.n_images, size, args.seed)
    _check_directory(args, "'shapes' or a directory of class directories")
    return DirectoryParsingLabelDataset(args.dataset)


def _detection_benchmark(args):
    """The benchmark of ``--dataset``: one of
    :data:`~vision.evaluations.detection_benchmarks.DETECTION_BENCHMARKS` by name, its data
    downloaded by the dataset loader, or VOC 2007 test on a local VOC directory."""
    from vision.evaluations.detection_benchmarks import DETECTION_BENCHMARKS
    if args.split is not None:
        raise ValueError('--split is for instance segmentation; a detector is evaluated on the '
                         'test split of VOC2007 (ChainerCV\'s protocol)')
    if args.dataset in DETECTION_BENCHMARKS:
        return DETECTION_BENCHMARKS[args.dataset], 'auto'
    _check_directory(args, f"{' or '.join(map(repr, DETECTION_BENCHMARKS))} or a VOC "
                           'directory (VOCdevkit/VOC2007)')
    return DETECTION_BENCHMARKS['voc07-test'], args.dataset


def _detection_dataset(args, model):
    return _benchmark_dataset(*_detection_benchmark(args), model)


def _benchmark_dataset(benchmark, data_dir: str, model):
    """The dataset of a benchmark, once it has checked that the model fits it (before any
    download)."""
    benchmark.prepare(model)
    return benchmark.dataset(data_dir)


def _semantic_segmentation_benchmark(args):
    """The benchmark of ``--dataset``: one of
    :data:`~vision.evaluations.semantic_segmentation_benchmarks.SEMANTIC_SEGMENTATION_BENCHMARKS`
    by name, its data downloaded by the dataset loader (shapes: ``--n-images`` drawn from
    ``--seed``), or the one whose layout a local directory has."""
    from vision.evaluations.semantic_segmentation_benchmarks import (
        SEMANTIC_SEGMENTATION_BENCHMARKS,
        ShapesVal,
    )
    if args.split is not None:
        raise ValueError('--split is for instance segmentation; a semantic segmenter is '
                         "evaluated on the split of its benchmark (ChainerCV's protocol)")
    if args.dataset == 'shapes':
        return ShapesVal(args.n_images, seed=args.seed), 'auto'
    if args.dataset in SEMANTIC_SEGMENTATION_BENCHMARKS:
        return SEMANTIC_SEGMENTATION_BENCHMARKS[args.dataset], 'auto'
    names = ', '.join(map(repr, SEMANTIC_SEGMENTATION_BENCHMARKS))
    _check_directory(args, f'one of {names} or a directory of one of them')
    return _benchmark_of_directory(args.dataset, SEMANTIC_SEGMENTATION_BENCHMARKS), args.dataset


def _semantic_segmentation_dataset(args, model):
    return _benchmark_dataset(*_semantic_segmentation_benchmark(args), model)


def _instance_segmentation_benchmark(args):
    """The benchmark of ``--dataset``: one of
    :data:`~vision.evaluations.instance_segmentation_benchmarks.INSTANCE_SEGMENTATION_BENCHMARKS`
    by name, its data downloaded by the dataset loader (shapes: ``--n-images`` drawn from
    ``--seed``; VOC: the split ``--split``), or the one whose layout a local directory has."""
    from vision.evaluations.instance_segmentation_benchmarks import (
        INSTANCE_SEGMENTATION_BENCHMARKS,
        VOC2012,
        ShapesVal,
    )
    benchmarks = INSTANCE_SEGMENTATION_BENCHMARKS
    if args.dataset == 'shapes':
        benchmark, data_dir = ShapesVal(args.n_images, seed=args.seed), 'auto'
    elif args.dataset in benchmarks:
        benchmark, data_dir = benchmarks[args.dataset], 'auto'
    else:
        names = ', '.join(map(repr, benchmarks))
        _check_directory(args, f'one of {names} or a directory of COCO, SBD or VOC2012')
        benchmark = _benchmark_of_directory(args.dataset, benchmarks, called='title')
        data_dir = args.dataset
    if benchmark.name == 'voc':
        return VOC2012(args.split or 'val'), data_dir
    if args.split is not None:
        raise ValueError(f'--split is for a VOC directory; {benchmark.title} is evaluated on '
                         "its split (ChainerCV's protocol)")
    return benchmark, data_dir


def _instance_segmentation_dataset(args, model):
    return _benchmark_dataset(*_instance_segmentation_benchmark(args), model)


def _benchmark_of_directory(data_dir: str, benchmarks: dict, called: str = 'name'):
    """The first of ``benchmarks`` whose dataset ``data_dir`` is a directory of (it holds
    their ``marker``), or the error naming each by its attribute ``called`` and what it would
    hold."""
    local = [b for b in benchmarks.values() if b.marker is not None]
    for benchmark in local:
        if benchmark.holds(data_dir):
            return benchmark
    raise ValueError(f'--dataset {data_dir!r} is a directory of none of '
                     f'{", ".join(getattr(b, called) for b in local)}: it holds none of '
                     f'{", ".join(b.marker for b in local)}')


def _check_directory(args, expected: str) -> None:
    if not os.path.isdir(args.dataset):
        raise ValueError(f'--dataset must be {expected}, but {args.dataset!r} is not a '
                         'directory')


def _classification_scores(args, model, batches) -> dict:
    from vision.evaluations import eval_classification
    (probs,), (labels,) = _predict_all(lambda imgs: model.predict(imgs, crop=args.crop),
                                       batches)
    result = eval_classification(probs, labels, (1, 5))
    return {name: f'{100 * value:.2f} %' for name, value in result.items()}


def _detection_scores(args, model, batches) -> dict:
    benchmark, _ = _detection_benchmark(args)
    return benchmark.summarize(benchmark.evaluate(model, batches))


def _semantic_segmentation_scores(args, model, batches) -> dict:
    benchmark, _ = _semantic_segmentation_benchmark(args)
    return benchmark.summarize(benchmark.evaluate(model, batches))


def _instance_segmentation_scores(args, model, batches) -> dict:
    benchmark, _ = _instance_segmentation_benchmark(args)
    return benchmark.summarize(benchmark.evaluate(model, batches))


def _predict_all(predict, batches) -> tuple[tuple, tuple]:
    """The predictions of every batch and the ground truth that follows each image."""
    from vision.utils import apply_to_iterator
    _, predictions, truths = apply_to_iterator(predict, batches)
    return predictions, truths


# task: (the dataset of --dataset, the scores of the model on its batches by name, as text)
_EVALUATIONS = {
    'classification': (_classification_dataset, _classification_scores),
    'detection': (_detection_dataset, _detection_scores),
    'semantic_segmentation': (_semantic_segmentation_dataset, _semantic_segmentation_scores),
    'instance_segmentation': (_instance_segmentation_dataset,
                              _instance_segmentation_scores),
}


def _evaluate(args) -> int:
    from framework import iterators
    model = _build(args)
    if not args.eager and getattr(model, 'hybridize_by_default', True):
        model.hybridize()
    make_dataset, scores = _EVALUATIONS[model.task]
    dataset = make_dataset(args, model)
    if len(dataset) == 0:
        layout = ('one directory per class, each holding images' if model.task == 'classification'
                  else 'the images of the split it is evaluated on')
        raise ValueError(f'--dataset {args.dataset!r} holds no images; it must hold {layout}')
    examples = _Readable(dataset)
    if args.loaderjob > 0:
        iterator = iterators.MultiprocessIterator(examples, args.batchsize, repeat=False,
                                                  shuffle=False, n_processes=args.loaderjob)
    else:
        iterator = iterators.SerialIterator(examples, args.batchsize, repeat=False,
                                            shuffle=False)
    unreadable = []
    try:
        result = scores(args, model, _readable_batches(iterator, unreadable, args.strict))
    except ValueError:
        if len(unreadable) == len(dataset):
            raise ValueError(f'none of the {len(dataset)} images of --dataset '
                             f'{args.dataset!r} could be read') from None
        raise
    n_read = len(dataset) - len(unreadable)
    print(f'{args.model} ({args.weights}) on {n_read} images of {args.dataset}' +
          (f' ({len(unreadable)} unreadable, skipped):' if unreadable else ':'))
    for name, value in result.items():
        print(f'  {name}: {value}')
    return 0


class _Unreadable:
    """Stands for an example of a dataset that could not be read."""

    def __init__(self, index: int, error: BaseException):
        self.index = index
        self.message = _explain(error)


class _Readable:
    """The examples of ``dataset``, each one that cannot be read (an :class:`OSError` or
    :class:`ValueError` of its image or annotation) as an :class:`_Unreadable`."""

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self) -> int:
        return len(self.dataset)

    def __getitem__(self, index: int):
        try:
            return self.dataset[index]
        except (OSError, ValueError) as e:
            return _Unreadable(index, e)


def _readable_batches(iterator, unreadable: list, strict: bool):
    """The batches of ``iterator`` without their unreadable examples, which are reported on
    standard error and appended to ``unreadable`` (or stop the run when ``strict``)."""
    for batch in iterator:
        readable = []
        for example in batch:
            if isinstance(example, _Unreadable):
                if strict:
                    raise ValueError(f'example {example.index}: {example.message}')
                print(f'vision evaluate: example {example.index}: {example.message} '
                      '(skipped)', file=sys.stderr)
                unreadable.append(example)
            else:
                readable.append(example)
        if readable:
            yield readable


def _download(args) -> None:
    from vision.weights import fetch_weight_files, forget_weight, get_weight
    kwargs = _constructor_args(args.arg)
    if args.force:
        forget_weight(args.model, args.weights, **kwargs)
    spec = None if os.path.isfile(args.weights) else get_weight(args.model, args.weights,
                                                                **kwargs)
    if spec is None or spec.n_class is not None:
        # Loaded into the model, which checks that they fit it; the weights of an extractor
        # fit no model alone (its number of classes is the user's).
        spec = _build(args).weight_spec
    if spec is None:
        raise ValueError(f'{args.weights!r} is a file, not a weight of the manifest')
    if spec.source.get('files'):
        for path in fetch_weight_files(spec.model, spec.name).values():
            print(path)
    else:
        print(spec.local_path())


def main(argv=None) -> int:
    """Runs the command; returns the exit status: 0, 1 with one line on standard error for
    anything that goes wrong (a failed download, a corrupt or mismatched weight, a bad image,
    an unknown name, a bad argument, too little memory), 2 for a command line argparse
    refuses, 130 when interrupted. ``--debug`` (or ``VISION_DEBUG=1``) shows the traceback
    instead."""
    args = _parse_args(argv)
    run = {'list': _list, 'predict': _predict, 'evaluate': _evaluate,
           'download': _download}[args.command]
    debug = args.debug or os.environ.get('VISION_DEBUG', '') not in ('', '0')
    try:
        n_failed = run(args)
    except KeyboardInterrupt:
        if debug:
            raise
        print(f'vision {args.command}: interrupted', file=sys.stderr)
        return 130
    except Exception as e:  # one line for the user; --debug for the rest
        if debug:
            raise
        print(f'vision {args.command}: error: {_explain(e)}', file=sys.stderr)
        return 1
    return 1 if n_failed else 0


# Errors that say what the user did wrong or what went wrong around them; others are
# unexpected, and their line points to --debug.
_EXPECTED_ERRORS = (OSError, ValueError, TypeError, LookupError, MemoryError, EOFError,
                    zipfile.BadZipFile, pickle.UnpicklingError)


def _explain(error: BaseException) -> str:
    """One line saying what went wrong and, where it is known, what to do."""
    from framework.serializers import NpzMismatchError
    if isinstance(error, NpzMismatchError) and (error.problems or error.unread):
        return (f'the weights do not fit the model: {error.summary()}; they are probably '
                'the weights of another model, or of another number of classes (--arg '
                'n_class=N)')
    if isinstance(error, MemoryError):
        return ('out of memory; try fewer images at a time, smaller images or a smaller '
                '--batchsize')
    lines = str(error).strip().splitlines()
    text = lines[0] if lines else type(error).__name__
    if isinstance(error, KeyError) and len(error.args) == 1 and not lines[1:]:
        text = f'no {error.args[0]!r}'
    if isinstance(error, zipfile.BadZipFile):
        text += ' (the file is corrupt or incomplete: delete it and run the command again)'
    if not isinstance(error, _EXPECTED_ERRORS):
        text = f'{type(error).__name__}: {text} (run with --debug for the traceback)'
    return text


if __name__ == '__main__':
    sys.exit(main())
