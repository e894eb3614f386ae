"""Mask R-CNN FPN ResNet-50 of the zoo beside ChainerCV's and torchvision's: ``predict`` of one
image, and the peak memory of that ``predict``.

Two rows, each of ours beside the peer that computes the same network.

- Ours, :class:`vision.models.MaskRCNNFPNResNet50` (``n_fg_class=20``), beside ChainerCV 0.13's
  ``MaskRCNNFPNResNet50``, which runs the same code here since ours keeps ChainerCV's names and
  signature: both get the same weights (the parity fixtures' rule,
  ``vision/utils/testing/parity.py``, which fills every parameter from its name: the names are
  the same; ChainerCV's mask head, whose input channels wait for its first call, is made first;
  the box head's class logits and box offsets, too large for ChainerCV's softmax and
  clipping, scaled down in both) and the same thresholds (``--preset``, ChainerCV's
  ``use_preset``). Both keep all their detections.
- Ours converted from torchvision's model (``, torchvision's``: ``MaskRCNNFPNResNet50`` with
  ``n_fg_class=80`` and ``TORCHVISION_MASK_RCNN_KWARGS``, the weights converted as the zoo
  converts torchvision's checkpoint) beside torchvision's ``maskrcnn_resnet50_fpn`` as its COCO
  weights build it, both on the weights of torchvision's parity fixture
  (``tests/data/make_torchvision_mask_rcnn_fixture.py``: the rule from torchvision's names, its
  ten unused classes never detected) but at 800 px, with our thresholds: its ``eval()`` forward
  on a list of one image (its resizing, normalization and postprocess, which pastes each
  detection's 28x28 mask onto the image). Both keep at most 100 detections.

Ours run eagerly and after ``hybridize()``. All resize the 500x375 image of
``bench/detection.py`` to 800 px on its short side (1066x800) and return a mask of the image's
size for each detection; ``dets``, the number of detections of the warm-up call, says how much
mask work each did: with random weights the ``visualize`` preset leaves torchvision's model
without any, so ``evaluate`` is the default.

Memory (``--tasks memory``): the four models (``ours``, ``chainercv``, ``ours_torchvision``,
``torchvision``), each in a fresh process, made and filled as above: the process's resident
memory once the model and the image are made and its peak during one (eager) ``predict``
(Linux: ``VmHWM`` after resetting it through ``/proc/self/clear_refs``, so that the calls that
made ChainerCV's parameters do not count; elsewhere ``ru_maxrss``, the peak since the process
began), and for ours the bytes of the blocks the framework's memory pool holds afterwards (it
caches what it hands out: at least the most its arrays held at once)::

    python bench/instance_segmentation.py [--repeat 3] [--preset evaluate|visualize]
        [--tasks predict memory]
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/instance_segmentation.py \\
        --torch-python /tmp/torchvenv/bin/python --chainer-python /tmp/chainervenv/bin/python \\
        --chainer-path /tmp/cv2peer

ChainerCV's Mask R-CNN pastes its masks with OpenCV: ``--chainer-path`` is put on the
``PYTHONPATH`` of ChainerCV's processes only (ours would import its ``cv2`` too).

Each peer runs in a child process, before ours (see ``bench/harness.py``): this interpreter
when it can import the peer, else the one given (which needs the peer and NumPy, not this
project); a peer found nowhere is left out with a message. torchvision's C++ ops, where they
do not load, are stood in for as in ``bench/detection.py`` (``bench/torchvision_cpu_nms.py``,
its PyTorch ``roi_align``). torch runs on ``--threads`` threads (default: the cores this process
may use). Times are the best of ``--repeat`` calls after a warm-up; a ratio is the peer's time /
ours (above 1: we are faster). Published figures are taken with ``OPENBLAS_CORETYPE`` and
``OPENBLAS_L2_SIZE`` unset in the command.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import types

import detection
import harness
import numpy

TITLE = 'Mask R-CNN FPN ResNet-50 800px'
#: the row of ours converted from torchvision's model, beside torchvision's
TV_TITLE = f"{TITLE}, torchvision's"
TASKS = ('predict', 'memory')
N_FG_CLASS = detection.N_FG_CLASS
#: the input channels of every convolution of ChainerCV's mask head (the pooled features')
_MASK_HEAD_CHANNELS = 256
_CONF_SCALE = 0.25
_LOC_SCALE = 0.01
_DATA = os.path.join(detection.ROOT, 'tests', 'data')
_TV_TSV = os.path.join(_DATA, 'tv_maskrcnn_resnet50_fpn_params.tsv')
_TV_MIN_SIZE, _TV_MAX_SIZE = 800, 1333
#: the processes of the memory task: ours of ChainerCV's model, ours of torchvision's, peers
MEMORY_RUNS = ('ours', 'chainercv', 'ours_torchvision', 'torchvision')


def _load(name: str):
    """A parity fixture's script of tests/data, loaded by its path."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(_DATA, f'{name}.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _model(name: str, settings):
    """Ours (``name`` ``'ours'``) or ChainerCV's ``MaskRCNNFPNResNet50`` with the rule's weights
    and the preset's thresholds."""
    if name == 'ours':
        from vision.models import MaskRCNNFPNResNet50
    else:
        # ChainerCV 0.13.1 still spells numpy.bool, an alias that NumPy 1.24 removed.
        numpy.__dict__.setdefault('bool', bool)
        from chainercv.links import MaskRCNNFPNResNet50
    numpy.random.seed(0)  # the initial weights, before the rule: the same every run
    model = MaskRCNNFPNResNet50(n_fg_class=N_FG_CLASS)
    # A head that the first image's detections might leave uncalled: its parameters made now.
    for link in model.mask_head.links():
        if getattr(link, 'W', None) is not None and link.W.array is None:
            link._initialize_params(_MASK_HEAD_CHANNELS)
    # ChainerCV's first predict, which makes its parameters, runs on its initial weights:
    # whatever its softmax and boxes do there is of no account.
    with numpy.errstate(over='ignore', invalid='ignore'):
        model = detection.filled(model, detection.parity_rule(), detection.images(1)[0])
    # The rule's head outputs are too large for ChainerCV: class logits of up to 86 overflow its
    # softmax (exp unshifted) into NaN scores, and box offsets of up to 190 move boxes off the
    # image, where its clipping leaves them of negative size and its mask pasting fails. Both
    # heads are scaled down, the same in both models.
    for link, scale in ((model.bbox_head.conf, _CONF_SCALE), (model.bbox_head.loc, _LOC_SCALE)):
        link.W.array[...] *= scale
        link.b.array[...] *= scale
    model.use_preset(settings.preset)
    return model


def _ours_torchvision(settings):
    """Ours with torchvision's weights made by the rule (those of :func:`_torch_model`),
    converted as the zoo converts torchvision's checkpoint, with the preset's thresholds."""
    from framework.serializers import NpzDeserializer
    from vision.models import MaskRCNNFPNResNet50
    from vision.models.detection.fpn.torchvision_fpn import TORCHVISION_CLASSES
    from vision.models.instance.mask_rcnn.torchvision_mask_rcnn import (
        TORCHVISION_MASK_RCNN_KWARGS,
        convert_torchvision_mask_rcnn,
    )
    from vision.utils.testing.parity import rule_state
    from vision.weights import get_weight

    preprocessing = get_weight('mask_rcnn_fpn_resnet50', 'torchvision-coco').preprocessing
    state = rule_state(_TV_TSV)
    unused = [i for i in range(91) if i not in TORCHVISION_CLASSES]
    state['roi_heads.box_predictor.cls_score.bias'][unused] = _load(
        'make_torchvision_fpn_fixture').UNUSED_BIAS
    model = MaskRCNNFPNResNet50(n_fg_class=80, min_size=_TV_MIN_SIZE, max_size=_TV_MAX_SIZE,
                                mean=preprocessing.model_mean(), **TORCHVISION_MASK_RCNN_KWARGS)
    NpzDeserializer(convert_torchvision_mask_rcnn(state, preprocessing)).load(model)
    model.use_preset(settings.preset)
    return model


def bench_chainer_api(name: str, settings) -> dict:
    """Ours or ChainerCV's rows: ``predict`` of one image (ours also hybridized, and ours of
    torchvision's model)."""
    rows = detection.predict_rows(_model(name, settings), TITLE, [1], settings, name == 'ours')
    if name == 'ours':
        rows.update(detection.predict_rows(_ours_torchvision(settings), TV_TITLE, [1],
                                           settings, True))
    return rows


def bench_chainercv(settings) -> dict:
    return {'rows': bench_chainer_api('chainercv', settings), 'about': harness.about_chainercv()}


def _torch_model(settings):
    """torch, torchvision's ``maskrcnn_resnet50_fpn`` as its COCO weights build it (91
    classes), on the parity fixture's weights made by the rule (its ten unused classes never
    detected) with our thresholds, and a description of the ops it runs."""
    import torchvision_cpu_nms

    nms = torchvision_cpu_nms.install()
    import torch
    import torchvision
    from torchvision.models.detection import MaskRCNN_ResNet50_FPN_Weights

    roi_align = "torchvision's C++" if torchvision.extension._has_ops() else (
        "torchvision's PyTorch fallback")
    torch.set_num_threads(settings.threads)
    fpn = _load('make_torchvision_fpn_fixture')
    categories = MaskRCNN_ResNet50_FPN_Weights.COCO_V1.meta['categories']
    model = _load('make_torchvision_mask_rcnn_fixture').build_model(fpn, len(categories))
    model.transform.min_size, model.transform.max_size = (_TV_MIN_SIZE,), _TV_MAX_SIZE
    parity = types.SimpleNamespace(rule_array=detection.parity_rule())
    model.load_state_dict(fpn.rule_filled_state(
        parity, model, [i for i, name in enumerate(categories) if name == 'N/A']))
    model.eval()
    model.roi_heads.nms_thresh, model.roi_heads.score_thresh = settings.thresh
    return torch, model, (f'{harness.about_torch()}, nms: {nms}, roi_align: {roi_align}')


def bench_torchvision(settings) -> dict:
    """torchvision's row: its ``eval()`` forward on one image, masks pasted."""
    torch, model, about = _torch_model(settings)
    imgs = [torch.from_numpy(img / 255) for img in detection.images(1)]
    return {'rows': {f'{TV_TITLE} predict, batch 1': detection.torch_predict(
        torch, model, imgs, settings.repeat, None)}, 'about': about}


def _reset_peak() -> bool:
    """Resets this process's peak resident memory to its present one (Linux); whether it
    could."""
    try:
        with open('/proc/self/clear_refs', 'w') as refs:
            refs.write('5')
        return True
    except OSError:
        return False


def _resident() -> dict:
    """``VmRSS`` and ``VmHWM`` of /proc/self/status, in bytes."""
    with open('/proc/self/status') as status:
        fields = dict(line.split(':', 1) for line in status)
    return {key: int(fields[key].split()[0]) * 1024 for key in ('VmRSS', 'VmHWM')}


def peak_memory(name: str, settings) -> dict:
    """One ``predict`` of ours, ChainerCV's or torchvision's model in this process: the
    resident bytes before it, the peak during it, the detections; for ours the memory pool's
    bytes."""
    if name == 'torchvision':
        torch, model, _ = _torch_model(settings)
        img = torch.from_numpy(detection.images(1)[0] / 255)

        def predict():
            with torch.no_grad():
                return len(model([img])[0]['masks'])
    else:
        model = (_ours_torchvision(settings) if name == 'ours_torchvision'
                 else _model(name, settings))
        img = detection.images(1)[0]

        def predict():
            return len(model.predict([img])[0][0])
    if _reset_peak():
        before = _resident()['VmRSS']
        detections = predict()
        after = _resident()['VmHWM']
    else:
        before = harness.peak_rss()
        detections = predict()
        after = harness.peak_rss()
    result = {'before': before, 'after': after, 'detections': detections}
    if name.startswith('ours'):
        from framework import memory
        result['pool'] = memory.get_pool().total_bytes()
    return result


#: name: (module it needs, option of its interpreter, its rows)
PEERS = {'torchvision': ('torchvision', 'torch_python', bench_torchvision),
         'chainercv': ('chainercv', 'chainer_python', bench_chainercv)}


def _peer_python(name: str, args) -> str | None:
    module, option = PEERS[name][:2]
    return harness.peer_python(name, module, option, getattr(args, option))


def _child(name: str, python: str, args, task: list[str]):
    """What the child process of ``name`` prints (JSON): ChainerCV's with ``--chainer-path``
    on its ``PYTHONPATH``."""
    argv = [os.path.abspath(__file__), *task, '--repeat', str(args.repeat), '--preset',
            args.preset, '--threads', str(args.threads), '--thresh', *map(str, args.thresh)]
    return harness.run_child(python, argv, args.chainer_path if name == 'chainercv' else None)


def print_memory(args) -> None:
    """The memory rows, each from a fresh process."""
    runs = {name: sys.executable if name.startswith('ours') else _peer_python(name, args)
            for name in MEMORY_RUNS}
    runs = {name: python for name, python in runs.items() if python}
    found = {name: _child(name, python, args, ['--memory-only', name])
             for name, python in runs.items()}
    print(f'{TITLE} predict of one 500x375 image, resident memory before it and its peak '
          '(' + ('VmHWM, reset' if os.path.exists('/proc/self/clear_refs') else 'ru_maxrss')
          + '); detections: ' + ', '.join(f'{name} {row["detections"]}'
                                          for name, row in found.items()))
    harness.print_memory(found)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--preset', choices=('visualize', 'evaluate'), default='evaluate',
                        help="the thresholds of predict (ChainerCV's use_preset; visualize "
                             "leaves torchvision's model without detections)")
    parser.add_argument('--tasks', choices=TASKS, nargs='+', default=list(TASKS))
    harness.add_peer_options(parser)
    parser.add_argument('--chainer-path',
                        help="a folder put on the PYTHONPATH of ChainerCV's processes (its cv2)")
    parser.add_argument('--peer-only', choices=sorted(PEERS), help=argparse.SUPPRESS)
    parser.add_argument('--memory-only', choices=MEMORY_RUNS, help=argparse.SUPPRESS)
    parser.add_argument('--thresh', type=float, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer_only:
        print(json.dumps(PEERS[args.peer_only][2](args)))
        return
    if args.memory_only:
        print(json.dumps(peak_memory(args.memory_only, args)))
        return
    from vision.models import MaskRCNNFPNResNet50

    args.thresh = MaskRCNNFPNResNet50.presets[args.preset]
    harness.print_blas()
    if 'predict' in args.tasks:
        peers = {name: _child(name, python, args, ['--peer-only', name])
                 for name in PEERS if (python := _peer_python(name, args))}
        for name, peer in peers.items():
            print(f"{name}: {peer['about']}")
        print(f'preset {args.preset!r}, random weights (the parity rule), a 500x375 image')
        ours = bench_chainer_api('ours', args)
        detection.print_table(ours, peers, max(map(len, ours)) + 1)
    if 'memory' in args.tasks:
        print_memory(args)


if __name__ == '__main__':
    main()
