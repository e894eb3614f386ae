"""SSD300, Faster R-CNN VGG16, Faster R-CNN FPN ResNet-50 and YOLOv3 of the zoo beside
torchvision's and ChainerCV's: ``predict`` and one training iteration (the FPN and YOLOv3:
``predict`` only; YOLOv3 at 416 beside ChainerCV's).

Ours are :class:`vision.models.SSD300`, :class:`vision.models.FasterRCNNVGG16` and
:class:`vision.models.YOLOv3` (``n_fg_class=20``), their ``predict`` eagerly and after
``hybridize()`` (the convolutions as static graphs). ChainerCV 0.13's ``SSD300``,
``FasterRCNNVGG16`` and ``YOLOv3`` run the same code here, since ours keep ChainerCV's names and
signatures: both get the same weights (the parity fixtures' rule,
``vision/utils/testing/parity.py``, which fills every parameter from its name: the names are the
same) and the same thresholds (``--preset``, ChainerCV's ``use_preset``). torchvision's is
``ssd300_vgg16(num_classes=21)``, the same network with weights filled by the same rule from its
own names, its ``eval()`` forward on a list of images (its resizing, normalization and
postprocess: at most 400 candidates per class and 200 detections per image) with our
``score_thresh`` and ``nms_thresh``. The FPN detectors (``FasterRCNNFPNResNet50`` and
torchvision's ``fasterrcnn_resnet50_fpn(num_classes=21)``) resize the 500x375 image to 800 px
on its short side (1066x800); torchvision's keeps at most 100 detections, ChainerCV's and ours
all of them (random weights give few in the ``visualize`` preset).

Images: the 500x375 image of the Faster R-CNN parity fixture
(``tests/data/chainercv_faster_rcnn_vgg16.npz``), and for a batch, copies of it rolled
sideways by 37 px each. One training iteration is forward, loss, backward and a
``MomentumSGD`` update: SSD300 on ``--train-batch`` of these images resized to 300x300
(nearest pixel, mean subtracted) with ``multibox_loss`` (k = 3) of three boxes an image
encoded beforehand by the model's coder; Faster R-CNN on one image prepared by the model
(600x800) through ``FasterRCNNTrainChain``, the sampling seeded alike.

::

    python bench/detection.py [--batch 1 8] [--train-batch 8] [--repeat 3]
        [--preset visualize|evaluate] [--models ssd300 faster_rcnn fpn yolo_v3]
        [--tasks predict train]
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/detection.py \\
        --torch-python /tmp/torchvenv/bin/python --chainer-python /tmp/chainervenv/bin/python
    python bench/detection.py --device @cupy:0 --models ssd300 --batch 1 8

On a GPU (``--device @cupy:0``) ours and torchvision run on it (ChainerCV is left out), and each
timed call ends with the device's synchronization.

Each peer runs in a child process, before ours (see ``bench/harness.py``): this interpreter
when it can import the peer, else the one given (which needs the peer and NumPy, not this
project); a peer found nowhere is left out with a message. The torchvision peer needs torch
and torchvision; where torchvision's C++ ops do not load (PyPI's CUDA builds beside torch's
CPU build), ``bench/torchvision_cpu_nms.py`` stands in for its ``nms`` and the time its best
call spent there is printed, and torchvision runs its own PyTorch ``roi_align`` (its
fallback). torch runs on ``--threads`` threads (default: the cores this
process may use). Times are the best of ``--repeat`` calls after a warm-up; a ratio is the
peer's time / ours (above 1: we are faster); ``dets`` is the number of detections of the
warm-up call over its images (random weights: ``visualize`` finds few or none, so the rows
time the network; ``evaluate`` loads the postprocess with thousands). Published figures are
taken with ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` unset in the command.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import types

import harness
import numpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE = os.path.join(ROOT, 'tests', 'data', 'chainercv_faster_rcnn_vgg16.npz')
MODELS = ('ssd300', 'faster_rcnn', 'fpn', 'yolo_v3')
TASKS = ('predict', 'train')
N_FG_CLASS = 20
STATIC = ', hybridized'
_FPN = 'Faster R-CNN FPN ResNet-50 800px'
# RGB: the ImageNet means SSD300 subtracts.
_SSD_MEAN = numpy.array((123, 117, 104), numpy.float32)[:, None, None]
_SSD_INSIZE = 300
_GT_PER_IMAGE = 3


def parity_rule():
    """``rule_array`` of vision/utils/testing/parity.py, loaded by its path (a peer's
    interpreter has no ``vision``)."""
    spec = importlib.util.spec_from_file_location(
        'parity', os.path.join(ROOT, 'vision', 'utils', 'testing', 'parity.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.rule_array


def images(n: int) -> list[numpy.ndarray]:
    """``n`` float32 ``(3, 375, 500)`` RGB 0-255 images: the fixture's, rolled sideways."""
    with numpy.load(IMAGE) as npz:
        img = npz['input']
    return [numpy.roll(img, 37 * i, axis=2) for i in range(n)]


def ground_truth(n: int, height: float, width: float) -> tuple[list, list]:
    """Three boxes ``(y_min, x_min, y_max, x_max)`` float32 and labels int32 per image."""
    bboxes, labels = [], []
    for i in range(n):
        rng = numpy.random.RandomState(i)
        corner = rng.uniform(0, 0.6, (_GT_PER_IMAGE, 2))
        size = rng.uniform(0.15, 0.4, (_GT_PER_IMAGE, 2))
        box = numpy.concatenate((corner, corner + size), axis=1) * (height, width, height, width)
        bboxes.append(box.astype(numpy.float32))
        labels.append(rng.randint(0, N_FG_CLASS, _GT_PER_IMAGE).astype(numpy.int32))
    return bboxes, labels


def ssd_batch(n: int) -> numpy.ndarray:
    """``n`` images as SSD300 trains on them: ``(n, 3, 300, 300)`` float32, resized to the
    nearest pixel and the mean subtracted."""
    imgs = numpy.stack(images(n))
    rows = (numpy.arange(_SSD_INSIZE) + 0.5) * imgs.shape[2] // _SSD_INSIZE
    cols = (numpy.arange(_SSD_INSIZE) + 0.5) * imgs.shape[3] // _SSD_INSIZE
    return imgs[:, :, rows.astype(int)][:, :, :, cols.astype(int)] - _SSD_MEAN


def _timed(fn, repeat: int, count=None, sync=None) -> dict:
    """The best time of ``fn`` and the detections of its warm-up call (``count`` of its
    result)."""
    seconds, result, _ = harness.best_of(fn, repeat, sync)
    return {'seconds': seconds, 'detections': None if count is None else count(result)}


def filled(model, rule_array, img):
    """``model`` with every parameter filled by the parity rule from its name (a first
    ``predict`` creates the parameters a link leaves to its first call; a grey image when the
    first leaves a head uncalled, as a two-stage detector without proposals does)."""
    for candidate in (img, numpy.full_like(img, 128)):
        if all(p.array is not None for _, p in model.namedparams()):
            break
        model.predict([candidate])
    for name, param in model.namedparams():
        param.array[...] = rule_array(name, param.shape)
    return model


def _library(name: str) -> types.SimpleNamespace:
    """Ours or ChainerCV's models, losses and optimizer, which have the same names and
    signatures."""
    if name == 'ours':
        from framework.optimizers import MomentumSGD
        from vision.models import SSD300, FasterRCNNFPNResNet50, FasterRCNNVGG16, YOLOv3
        from vision.models.detection.faster_rcnn import FasterRCNNTrainChain
        from vision.models.detection.ssd import multibox_loss
    else:
        from chainer.optimizers import MomentumSGD
        from chainercv.links import SSD300, FasterRCNNFPNResNet50, FasterRCNNVGG16, YOLOv3
        from chainercv.links.model.faster_rcnn import FasterRCNNTrainChain
        from chainercv.links.model.ssd import multibox_loss
    return types.SimpleNamespace(
        SSD300=SSD300, FasterRCNNVGG16=FasterRCNNVGG16, YOLOv3=YOLOv3,
        FasterRCNNFPNResNet50=FasterRCNNFPNResNet50,
        FasterRCNNTrainChain=FasterRCNNTrainChain, multibox_loss=multibox_loss,
        MomentumSGD=MomentumSGD, hybridizes=name == 'ours')


def _count(result) -> int:
    return sum(len(bbox) for bbox in result[0])


def predict_rows(model, title: str, batches, settings, hybridizes: bool) -> dict:
    imgs = images(max(batches))
    rows = {}
    for static in (False, True) if hybridizes else (False,):
        if static:
            model.hybridize()
        for batch in batches:
            rows[f'{title} predict, batch {batch}' + (STATIC if static else '')] = _timed(
                lambda batch=batch: model.predict(imgs[:batch]), settings.repeat, _count)
    if hybridizes:
        model.hybridize(False)
    return rows


def _train_ssd(lib, model, batch: int, repeat: int, device=None) -> dict:
    send = device.send if device is not None else (lambda x: x)
    x = send(ssd_batch(batch))
    targets = [model.coder.encode(bbox, label)
               for bbox, label in zip(*ground_truth(batch, _SSD_INSIZE, _SSD_INSIZE))]
    gt_mb_locs = send(numpy.stack([loc for loc, _ in targets]))
    gt_mb_labels = send(numpy.stack([label for _, label in targets]))
    optimizer = lib.MomentumSGD(lr=1e-3, momentum=0.9)
    optimizer.setup(model)

    def step():
        mb_locs, mb_confs = model(x)
        loc_loss, conf_loss = lib.multibox_loss(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, 3)
        loss = loc_loss + conf_loss
        model.cleargrads()
        loss.backward()
        optimizer.update()
    return _timed(step, repeat, sync=harness.device_sync(device))


def _train_faster_rcnn(lib, model, repeat: int) -> dict:
    img = images(1)[0]
    x = model.prepare(img)[None]
    scale = x.shape[3] / img.shape[2]
    bboxes, labels = ground_truth(1, *img.shape[1:])
    chain = lib.FasterRCNNTrainChain(model)
    optimizer = lib.MomentumSGD(lr=1e-3, momentum=0.9)
    optimizer.setup(chain)
    numpy.random.seed(0)

    def step():
        loss = chain(x, bboxes[0][None] * scale, labels[0][None],
                     numpy.array([scale], numpy.float32))
        chain.cleargrads()
        loss.backward()
        optimizer.update()
    return _timed(step, repeat)


def bench_chainer_api(name: str, settings) -> dict:
    """Ours (``name`` ``'ours'``) or ChainerCV's rows: predict, then a training iteration."""
    lib = _library(name)
    numpy.random.seed(0)  # the initial weights, before the rule: the same every run
    rule_array = parity_rule()
    img = images(1)[0]
    rows = {}
    device = None
    if name == 'ours':
        from framework import backend
        device = backend.get_device(settings.device)
    if 'ssd300' in settings.models:
        model = filled(lib.SSD300(n_fg_class=N_FG_CLASS), rule_array, img)
        model.use_preset(settings.preset)
        if device is not None:
            model.to_device(device)
        if 'predict' in settings.tasks:
            rows.update(predict_rows(model, 'SSD300', settings.batch, settings,
                                      lib.hybridizes))
        if 'train' in settings.tasks:
            rows[f'SSD300 training iteration, batch {settings.train_batch}'] = _train_ssd(
                lib, model, settings.train_batch, settings.repeat, device)
    if 'faster_rcnn' in settings.models:
        model = filled(lib.FasterRCNNVGG16(n_fg_class=N_FG_CLASS), rule_array, img)
        model.use_preset(settings.preset)
        if device is not None:
            model.to_device(device)
        if 'predict' in settings.tasks:
            rows.update(predict_rows(model, 'Faster R-CNN', [1], settings, lib.hybridizes))
        if 'train' in settings.tasks:
            rows['Faster R-CNN training iteration, batch 1'] = _train_faster_rcnn(
                lib, model, settings.repeat)
    if 'fpn' in settings.models and 'predict' in settings.tasks:
        model = filled(lib.FasterRCNNFPNResNet50(n_fg_class=N_FG_CLASS), rule_array, img)
        model.use_preset(settings.preset)
        if device is not None:
            model.to_device(device)
        rows.update(predict_rows(model, _FPN, [1], settings, lib.hybridizes))
    if 'yolo_v3' in settings.models and 'predict' in settings.tasks:
        model = filled(lib.YOLOv3(n_fg_class=N_FG_CLASS), rule_array, img)
        model.use_preset(settings.preset)
        if device is not None:
            model.to_device(device)
        rows.update(predict_rows(model, 'YOLOv3 416', settings.batch, settings,
                                  lib.hybridizes))
    return rows


def bench_chainercv(settings) -> dict:
    return {'rows': bench_chainer_api('chainercv', settings), 'about': harness.about_chainercv()}


def bench_torchvision(settings) -> dict:
    """torchvision's ssd300_vgg16 and fasterrcnn_resnet50_fpn rows (predict only)."""
    import torchvision_cpu_nms

    nms = torchvision_cpu_nms.install()
    import torch
    import torchvision

    # Without its C++ ops, torchvision's roi_align (the FPN's MultiScaleRoIAlign) runs its own
    # PyTorch fallback, whose first call (the warm-up) takes seconds longer than the others.
    roi_align = "torchvision's C++" if torchvision.extension._has_ops() else (
        "torchvision's PyTorch fallback")
    torch.set_num_threads(settings.threads)
    device, sync = harness.torch_device(torch, settings.device)
    rule_array = parity_rule()
    imgs = [torch.from_numpy(img / 255).to(device) for img in images(max(settings.batch))]
    detection = torchvision.models.detection
    rows = {}
    if 'ssd300' in settings.models:
        model = torch_filled(torch, rule_array, detection.ssd300_vgg16(
            weights=None, weights_backbone=None, num_classes=N_FG_CLASS + 1)).to(device)
        model.nms_thresh, model.score_thresh = settings.ssd_thresh
        for batch in settings.batch:
            rows[f'SSD300 predict, batch {batch}'] = torch_predict(
                torch, model, imgs[:batch], settings.repeat, sync)
    if 'fpn' in settings.models:
        model = torch_filled(torch, rule_array, detection.fasterrcnn_resnet50_fpn(
            weights=None, weights_backbone=None, num_classes=N_FG_CLASS + 1)).to(device)
        model.roi_heads.nms_thresh, model.roi_heads.score_thresh = settings.fpn_thresh
        rows[f'{_FPN} predict, batch 1'] = torch_predict(torch, model, imgs[:1],
                                                         settings.repeat, sync)
    return {'rows': rows, 'about': f'{harness.about_torch()}, nms: {nms}, '
                                   f'roi_align: {roi_align}'}


def torch_filled(torch, rule_array, model):
    """``model`` in ``eval()`` with every floating tensor of its state filled by the rule."""
    with torch.no_grad():
        for name, tensor in model.state_dict().items():
            if tensor.is_floating_point():
                tensor.copy_(torch.from_numpy(rule_array(name, tuple(tensor.shape))))
    return model.eval()


def torch_predict(torch, model, imgs, repeat: int, sync) -> dict:
    """The best time of ``model(imgs)``, its detections, and the time of that call in the
    NumPy port of torchvision's ``nms``."""
    import torchvision_cpu_nms

    nms_of_call = []  # seconds each call spent in the nms port

    def detect():
        in_nms = torchvision_cpu_nms.seconds
        with torch.no_grad():
            result = model(imgs)
        nms_of_call.append(torchvision_cpu_nms.seconds - in_nms)
        return result
    seconds, result, best = harness.best_of(detect, repeat, sync)
    return {'seconds': seconds, 'detections': sum(len(r['boxes']) for r in result),
            'nms_port': nms_of_call[1 + best]}


def _asks_torchvision(args) -> bool:
    return bool({'ssd300', 'fpn'} & set(args.models)) and 'predict' in args.tasks


#: name: (module it needs, option of its interpreter, its rows, whether the rows asked for
#: include some of its)
PEERS = {'torchvision': ('torchvision', 'torch_python', bench_torchvision, _asks_torchvision),
         'chainercv': ('chainercv', 'chainer_python', bench_chainercv,
                       lambda args: args.device == '@numpy')}


def _peer_argv(name: str, args) -> list[str]:
    return [os.path.abspath(__file__), '--peer-only', name, '--batch', *map(str, args.batch),
            '--train-batch', str(args.train_batch), '--repeat', str(args.repeat),
            '--preset', args.preset, '--models', *args.models, '--tasks', *args.tasks,
            '--threads', str(args.threads), '--device', args.device,
            '--ssd-thresh', *map(str, args.ssd_thresh), '--fpn-thresh', *map(str, args.fpn_thresh)]


def _run_peer(name: str, args) -> dict | None:
    """The peer's rows and description, measured in a child process; None when no
    interpreter has it or when it has none of the rows asked for."""
    module, option, _, asked = PEERS[name]
    if not asked(args) or not (python := harness.peer_python(name, module, option,
                                                             getattr(args, option))):
        return None
    return harness.run_child(python, _peer_argv(name, args))


def _cell(row: dict | None) -> str:
    if row is None:
        return f'{"-":>13}{"":>6}'
    dets = '' if row['detections'] is None else row['detections']
    return f'{row["seconds"] * 1e3:>11.0f}ms{dets:>6}'


def print_table(ours: dict, peers: dict, width: int = 46) -> None:
    """Our rows beside the peers' of the same label: time, detections, ratio (peer / ours);
    ``width``: that of the labels' column."""
    print(f'{"":<{width}}{"ours":>13}{"dets":>6}'
          + ''.join(f'{name:>13}{"dets":>6}{"ratio":>7}' for name in peers))
    for label, row in ours.items():
        line = f'{label:<{width}}{_cell(row)}'
        for peer in peers.values():
            theirs = peer['rows'].get(label.removesuffix(STATIC))
            line += _cell(theirs) + (f'{theirs["seconds"] / row["seconds"]:>7.2f}' if theirs
                                     else f'{"":>7}')
        print(line)
    for name, peer in peers.items():
        ported = {label: row['nms_port'] for label, row in peer['rows'].items()
                  if row.get('nms_port')}
        if ported:
            print(f"{name}: its best call's time in bench/torchvision_cpu_nms.py (torchvision's "
                  'C++ nms does not load here): ' + ', '.join(
                      f'{label} {seconds * 1e3:.1f}ms' for label, seconds in ported.items()))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--batch', type=int, nargs='+', default=[1, 8],
                        help='the batches of SSD300 predict')
    parser.add_argument('--train-batch', type=int, default=8,
                        help="SSD300's training batch (Faster R-CNN's is 1)")
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--preset', choices=('visualize', 'evaluate'), default='visualize',
                        help="the thresholds of predict (ChainerCV's use_preset)")
    parser.add_argument('--models', choices=MODELS, nargs='+', default=list(MODELS))
    parser.add_argument('--tasks', choices=TASKS, nargs='+', default=list(TASKS))
    harness.add_peer_options(parser)
    parser.add_argument('--device', default='@numpy',
                        help="where ours and torchvision run: '@numpy' or '@cupy:N'")
    parser.add_argument('--peer-only', choices=sorted(PEERS), help=argparse.SUPPRESS)
    parser.add_argument('--ssd-thresh', type=float, nargs=2, help=argparse.SUPPRESS)
    parser.add_argument('--fpn-thresh', type=float, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer_only:
        print(json.dumps(PEERS[args.peer_only][2](args)))
        return
    from vision.models import SSD300, FasterRCNNFPNResNet50

    args.ssd_thresh = SSD300.presets[args.preset]
    args.fpn_thresh = FasterRCNNFPNResNet50.presets[args.preset]
    peers = {name: _run_peer(name, args) for name in PEERS}
    peers = {name: peer for name, peer in peers.items() if peer is not None}
    harness.print_blas()
    for name, peer in peers.items():
        print(f"{name}: {peer['about']}")
    print(f'preset {args.preset!r}, random weights (the parity rule), 500x375 images')
    print_table(bench_chainer_api('ours', args), peers)


if __name__ == '__main__':
    main()
