"""SegNetBasic, PSPNetResNet50, DeepLabV3plusXception65 and torchvision's DeepLabV3 and FCN
of the zoo beside ChainerCV's and torchvision's: ``predict``, and the peak memory of PSPNet's
tiled ``predict`` on a Cityscapes-sized image.

Ours are :class:`vision.models.SegNetBasic` (``n_class=11``, a 360x480 image, CamVid's),
:class:`vision.models.PSPNetResNet50` (``n_class=21``, ``input_size`` 473x473, a 473x473
image: one tile and its flip) and :class:`vision.models.DeepLabV3plusXception65`
(``n_class=21``, ``min_input_size`` 513x513, a 513x513 image), their ``predict`` eagerly and,
where the model is :class:`~framework.graph.hybridizable.Hybridizable` (all three are), after
``hybridize()``. ChainerCV 0.13's models of the same names and arguments run the same code
here, since ours keep ChainerCV's names and signatures: both get the same weights (the parity
fixtures' rule, ``vision/utils/testing/parity.py``, which fills every parameter and
floating-point persistent from its Chainer path). torchvision has none of the three: its
``deeplabv3_resnet50(weights=None, num_classes=21)`` on an image of the same size, its
``eval()`` forward and the argmax of ``'out'``, is the nearest peer of their rows. Ours
:class:`vision.models.DeepLabV3ResNet50` and :class:`vision.models.FCNResNet50` (the network
seeing the image at its size, ``resize_size=None``) get torchvision's weights of the same
models filled by the rule from its state-dict keys, converted as the zoo converts
torchvision's checkpoints, on a 520x520 image (the published weights' size), beside
torchvision's same models. The images are uniform noise in 0-255.

Memory (``--tasks memory``): ``PSPNetResNet50(n_class=19, input_size=(713, 713))``, ChainerCV's
Cityscapes setting, labels a 2048x1024 image (eight tiles, each run with its flip), ours and
ChainerCV's each in a fresh process: the process's peak resident memory (``ru_maxrss``) once
the model and the image are made and after ``predict``, and for ours the bytes of the blocks
the framework's memory pool holds afterwards (it caches what it hands out: at least the most
its arrays held at once). Minutes of a CPU: the row is left out unless asked for::

    python bench/segmentation.py [--rows segnet pspnet deeplab deeplabv3_resnet50
        fcn_resnet50] [--repeat 3] [--tasks predict memory]
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/segmentation.py \\
        --torch-python /tmp/torchvenv/bin/python --chainer-python /tmp/chainervenv/bin/python

Each peer runs in a child process, before ours (see ``bench/harness.py``): this interpreter
when it can import the peer, else the one given (which needs the peer and NumPy, not this
project); a peer found nowhere is left out with a message. torch runs on ``--threads`` threads
(default: the cores this process may use). Times are the best of ``--repeat`` calls after a
warm-up; a ratio is the peer's time / ours (above 1: we are faster). Published figures are
taken with ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` unset in the command.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
import types

import harness
import numpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, 'tests', 'data')
_STATIC = ', hybridized'
_PEER_TITLE = 'torchvision deeplabv3_resnet50'

#: the rows of ChainerCV's models: name, class, its arguments, the image's (H, W)
CHAINER_ROWS = {
    'segnet': ('SegNetBasic', {'n_class': 11}, (360, 480)),
    'pspnet': ('PSPNetResNet50', {'n_class': 21, 'input_size': (473, 473)}, (473, 473)),
    'deeplab': ('DeepLabV3plusXception65', {'n_class': 21, 'min_input_size': (513, 513)},
                (513, 513)),
}
#: the rows of torchvision's models in the zoo: name, class, the image's (H, W)
TORCHVISION_ROWS = {
    'deeplabv3_resnet50': ('DeepLabV3ResNet50', (520, 520)),
    'fcn_resnet50': ('FCNResNet50', (520, 520)),
}
ROWS = (*CHAINER_ROWS, *TORCHVISION_ROWS)
TASKS = ('predict', 'memory')
N_CLASS = 21
#: PSPNet's memory row: ChainerCV's Cityscapes PSPNet on a Cityscapes image
MEMORY_KWARGS = {'n_class': 19, 'input_size': (713, 713)}
MEMORY_SIZE = (1024, 2048)


def _load(path: str, name: str) -> types.ModuleType:
    """A module loaded by its path (a peer's interpreter has no ``vision``)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _parity() -> types.ModuleType:
    return _load(os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'), 'parity')


def image(size: tuple[int, int]) -> numpy.ndarray:
    """A float32 ``(3, H, W)`` image of uniform noise in 0-255."""
    return numpy.random.RandomState(0).uniform(0, 255, (3, *size)).astype(numpy.float32)


def label(name: str, size: tuple[int, int]) -> str:
    """The label of a row: the model's name and the image's size."""
    return f'{name} predict, {size[0]}x{size[1]}'


def _chainer_models(name: str) -> dict:
    """Ours or ChainerCV's classes of :data:`CHAINER_ROWS`, by row."""
    if name == 'ours':
        import vision.models as links
        return {row: getattr(links, cls) for row, (cls, _, _) in CHAINER_ROWS.items()}
    # Chainer 7.8.1's resize_images still spells numpy.float, an alias of the builtin that
    # NumPy 1.24 removed.
    if not hasattr(numpy, 'float'):
        numpy.float = float
    from chainercv.experimental.links import PSPNetResNet50
    from chainercv.links import DeepLabV3plusXception65, SegNetBasic
    return {'segnet': SegNetBasic, 'pspnet': PSPNetResNet50,
            'deeplab': DeepLabV3plusXception65}


def _filled(model, img):
    """``model`` with every parameter and floating-point persistent filled by the parity rule
    from its Chainer path (a first ``predict`` creates the parameters a link leaves to its
    first call)."""
    if any(p.array is None for _, p in model.namedparams()):
        model.predict([img])
    fixtures = _load(os.path.join(DATA, 'make_chainercv_segmentation_fixtures.py'), 'fixtures')
    fixtures.fill_by_rule(_parity(), model)
    return model


def _timed(fn, repeat: int) -> dict:
    return {'seconds': harness.best_of(fn, repeat)[0]}


def _predict_rows(model, title: str, img, repeat: int) -> dict:
    """The eager row and, where the model hybridizes, the hybridized one."""
    rows = {label(title, img.shape[1:]): _timed(lambda: model.predict([img]), repeat)}
    if hasattr(model, 'hybridize'):
        model.hybridize()
        rows[label(title, img.shape[1:]) + _STATIC] = _timed(lambda: model.predict([img]),
                                                             repeat)
        model.hybridize(False)
    return rows


def bench_chainer_api(name: str, settings) -> dict:
    """Ours (``name`` ``'ours'``) or ChainerCV's rows of :data:`CHAINER_ROWS`."""
    classes = _chainer_models(name)
    rows = {}
    for row, (title, kwargs, size) in CHAINER_ROWS.items():
        if row in settings.rows:
            img = image(size)
            model = _filled(classes[row](**kwargs), img)
            rows.update(_predict_rows(model, title, img, settings.repeat))
    return rows


def _zoo_model(row: str):
    """Ours of a :data:`TORCHVISION_ROWS` row with torchvision's weights filled by the rule,
    converted as the zoo converts torchvision's checkpoints."""
    import vision.models
    from vision.models.segmentation.torchvision_segmentation import torchvision_converters
    from vision.weights import IMAGENET_TORCHVISION

    parity = _parity()
    convert = getattr(torchvision_converters, f"convert_torchvision_{row.split('_')[0]}")
    state = parity.rule_state(os.path.join(DATA, f'tv_{row}_params.tsv'))
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, f'{row}.npz')
        numpy.savez(path, **convert(state, IMAGENET_TORCHVISION))
        return getattr(vision.models, TORCHVISION_ROWS[row][0])(pretrained_model=path,
                                                                 resize_size=None)


def bench_ours(settings) -> dict:
    """Our rows: ChainerCV's models, then torchvision's."""
    rows = bench_chainer_api('ours', settings)
    for row, (_, size) in TORCHVISION_ROWS.items():
        if row in settings.rows:
            rows.update(_predict_rows(_zoo_model(row), row, image(size), settings.repeat))
    return rows


def bench_chainercv(settings) -> dict:
    return {'rows': bench_chainer_api('chainercv', settings), 'about': harness.about_chainercv()}


def bench_torchvision(settings) -> dict:
    """torchvision's rows: deeplabv3_resnet50 at the size of each ChainerCV row asked for
    (their nearest peer), and its models of :data:`TORCHVISION_ROWS`."""
    import torchvision_cpu_nms

    torchvision_cpu_nms.install()  # PyPI's torchvision is a CUDA build: its ops may not load
    import torch
    import torchvision

    torch.set_num_threads(settings.threads)
    rule_array = _parity().rule_array
    runs = [(label(title, size), 'deeplabv3_resnet50', size)
            for row, (title, _, size) in CHAINER_ROWS.items() if row in settings.rows]
    runs += [(label(row, size), row, size)
             for row, (_, size) in TORCHVISION_ROWS.items() if row in settings.rows]
    rows = {}
    for title, name, size in runs:
        model = getattr(torchvision.models.segmentation, name)(
            weights=None, weights_backbone=None, num_classes=N_CLASS)
        with torch.no_grad():
            for key, tensor in model.state_dict().items():
                if tensor.is_floating_point():
                    tensor.copy_(torch.from_numpy(rule_array(key, tuple(tensor.shape))))
        model.eval()
        x = torch.from_numpy(image(size) / 255)[None]

        def predict(model=model, x=x):
            with torch.no_grad():
                return model(x)['out'].argmax(1)
        rows[title] = _timed(predict, settings.repeat)
    return {'rows': rows, 'about': harness.about_torch()}


def peak_memory(name: str) -> dict:
    """PSPNet's tiled ``predict`` in this process, ours (``name`` ``'ours'``) or ChainerCV's:
    the peak resident bytes before and after it, and for ours the memory pool's bytes."""
    if name == 'ours':
        from framework import memory
        from vision.models import PSPNetResNet50
    else:
        PSPNetResNet50 = _chainer_models(name)['pspnet']
    model = PSPNetResNet50(**MEMORY_KWARGS)
    img = image(MEMORY_SIZE)
    before = harness.peak_rss()
    model.predict([img])
    result = {'before': before, 'after': harness.peak_rss()}
    if name == 'ours':
        result['pool'] = memory.get_pool().total_bytes()
    return result


#: name: (module it needs, option of its interpreter, its rows, whether the rows asked for
#: include some of its)
PEERS = {'chainercv': ('chainercv', 'chainer_python', bench_chainercv,
                       lambda args: bool(set(args.rows) & set(CHAINER_ROWS))),
         'torchvision': ('torchvision', 'torch_python', bench_torchvision,
                         lambda args: True)}


def _peer_python(name: str, args) -> str | None:
    module, option = PEERS[name][:2]
    return harness.peer_python(name, module, option, getattr(args, option))


def _run_peer(name: str, args) -> dict | None:
    """The peer's rows and description, measured in a child process; None when no
    interpreter has it or when it has none of the rows asked for."""
    if not PEERS[name][3](args) or not (python := _peer_python(name, args)):
        return None
    return harness.run_child(python, [
        os.path.abspath(__file__), '--peer-only', name, '--rows', *args.rows,
        '--repeat', str(args.repeat), '--threads', str(args.threads)])


def _cell(row: dict | None) -> str:
    return f'{"-":>12}' if row is None else f'{row["seconds"] * 1e3:>10.0f}ms'


def print_table(ours: dict, peers: dict) -> None:
    print(f'{"":<54}{"ours":>12}' + ''.join(f'{name:>12}{"ratio":>7}' for name in peers))
    for title, row in ours.items():
        line = f'{title:<54}{_cell(row)}'
        for peer in peers.values():
            theirs = peer['rows'].get(title.removesuffix(_STATIC))
            line += _cell(theirs) + (f'{theirs["seconds"] / row["seconds"]:>7.2f}' if theirs
                                     else f'{"":>7}')
        print(line)
    if 'torchvision' in peers and set(ours) - {label(row, size) for row, (_, size)
                                               in TORCHVISION_ROWS.items()}:
        print(f"torchvision's column: {_PEER_TITLE} at the image's size for ChainerCV's "
              'models (none of them is in torchvision), the same model for its own')


def print_memory(args) -> None:
    """The memory rows, each from a fresh process."""
    runs = {'ours': sys.executable}
    if python := _peer_python('chainercv', args):
        runs['chainercv'] = python
    print(f'PSPNetResNet50{MEMORY_KWARGS} predict of one {MEMORY_SIZE[1]}x{MEMORY_SIZE[0]} '
          'image, peak resident memory (ru_maxrss)')
    harness.print_memory({name: harness.run_child(python, [os.path.abspath(__file__),
                                                           '--memory-only', name])
                          for name, python in runs.items()})


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rows', choices=ROWS, nargs='+', default=list(ROWS),
                        help='the models of the predict rows')
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--tasks', choices=TASKS, nargs='+', default=['predict'],
                        help="predict rows, PSPNet's peak memory (minutes; not by default)")
    harness.add_peer_options(parser)
    parser.add_argument('--peer-only', choices=sorted(PEERS), help=argparse.SUPPRESS)
    parser.add_argument('--memory-only', choices=('ours', 'chainercv'), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer_only:
        print(json.dumps(PEERS[args.peer_only][2](args)))
        return
    if args.memory_only:
        print(json.dumps(peak_memory(args.memory_only)))
        return
    harness.print_blas()
    if 'predict' in args.tasks:
        peers = {name: _run_peer(name, args) for name in PEERS}
        peers = {name: peer for name, peer in peers.items() if peer is not None}
        for name, peer in peers.items():
            print(f"{name}: {peer['about']}")
        print('random weights (the parity rule), images of uniform noise')
        print_table(bench_ours(args), peers)
    if 'memory' in args.tasks:
        print_memory(args)


if __name__ == '__main__':
    main()
