"""What the FPN training scripts (``train_fpn.py``, ``train_mask_rcnn.py``) share: ChainerCV's
recipe of ``examples/fpn/train_multi.py`` (the warm-up of the learning rate, the weight decay and
the frozen layers), its transform of the samples (a flip, the model's scaling, the mean
subtracted; masks follow the image), the seeded sampling of the train chains, the options and
the run."""

from __future__ import annotations

import argparse

import numpy

from framework.links import BatchNormalization
from framework.optimizer_hooks import WeightDecay
from vision.transforms import flip, flip_bbox, random_flip, resize

import _detection  # isort: skip
import _training  # isort: skip

#: The iterations of the warm-up of the learning rate (the recipes' ``warmup``).
WARMUP_ITERATION = 500
#: The share of ``--lr`` the warm-up starts from (the recipes' ``warmup_rate``).
WARMUP_RATE = 1 / 3

class Seeded:
    """A mixin of an FPN train chain that samples the anchors and regions of each batch from
    a generator seeded by ``seed``, ``rank`` and the number of the batch, which the snapshots
    save (the persistent ``batch_count``): a resumed run draws what the uninterrupted one
    would have drawn (ChainerCV draws from NumPy's global generator, whose state no snapshot
    holds).

    Args:
        model (FasterRCNN): the FPN model trained.
        seed (int): the seed of the run.
        rank (int): the process of the MPI job (0 without MPI).
    """

    def __init__(self, model, seed: int, rank: int):
        super().__init__(model)
        self.seed = seed
        self.rank = rank
        self.add_persistent('batch_count', 0)

    def forward(self, *inputs):
        """The loss of a batch (see the train chain's ``forward``)."""
        self.rng = numpy.random.default_rng((self.seed, self.rank, int(self.batch_count)))
        self.batch_count = int(self.batch_count) + 1
        return super().forward(*inputs)


class Transform:
    """ChainerCV's preparation of an FPN training sample: a horizontal flip with probability
    1/2, the boxes (and masks) following; then the image scaled as ``faster_rcnn.prepare``
    scales it (the shorter side to ``min_size`` unless the longer one would pass
    ``max_size``; a side keeps at least one pixel), without ``prepare``'s padding, which the
    train chain does for the whole batch; the boxes scaled by the same factor, as ChainerCV
    scales them, the masks resized to the image by their nearest pixel; the mean subtracted.
    The flip draws from Python's :mod:`random`, which the loader processes seed for each
    image.

    Args:
        faster_rcnn (FasterRCNN): the FPN model: its ``min_size``, ``max_size`` and the
            extractor's ``mean``.
    """

    def __init__(self, faster_rcnn):
        self.min_size = faster_rcnn.min_size
        self.max_size = faster_rcnn.max_size
        self.mean = faster_rcnn.extractor.mean

    def __call__(self, in_data):
        """``(img, bbox, label)`` or ``(img, bbox, label, mask)`` to the prepared image
        float32 ``(3, H', W')``, its boxes ``(R, 4)`` float32, their labels ``(R,)`` int32
        and, when given, their masks ``(R, H', W')`` bool."""
        img, bbox, label, *mask = in_data
        img, param = random_flip(img, x_random=True, return_param=True)
        bbox = flip_bbox(bbox, img.shape[1:], x_flip=param['x_flip'])
        _, H, W = img.shape
        scale = self.min_size / min(H, W)
        if scale * max(H, W) > self.max_size:
            scale = self.max_size / max(H, W)
        size = (max(int(H * scale), 1), max(int(W * scale), 1))
        img = resize(img, size)
        img = (img - self.mean).astype(numpy.float32, copy=False)
        out = (img, (bbox * scale).astype(numpy.float32, copy=False), label)
        if mask:
            mask = flip(mask[0], x_flip=param['x_flip'])
            if len(mask) == 0:
                out += (numpy.zeros((0,) + size, bool),)
            else:
                out += (resize(mask.astype(numpy.float32), size, 'nearest') > 0.5,)
        return out


def setup_hooks(train_chain) -> None:
    """ChainerCV's weight decay, 1e-4 on every parameter, and its frozen layers: the
    extractor's ``conv1`` and ``res2``, and every batch normalization (their statistics stay
    too, since the train chain runs the extractor in test mode)."""
    for param in train_chain.params():
        param.update_rule.add_hook(WeightDecay(0.0001))
    base = train_chain.model.extractor.base
    base.conv1.disable_update()
    base.res2.disable_update()
    for link in train_chain.links():
        if isinstance(link, BatchNormalization):
            link.disable_update()


def parse_args(description: str, recipe: _detection.Recipe, argv=None) -> argparse.Namespace:
    """The options of an FPN training script: those of the detection scripts, ``--min-size``
    and ``--max-size`` (ChainerCV's 800 and 1333), checked; ImageNet's weights by default
    (:func:`_detection.start_from_imagenet`)."""
    parser = argparse.ArgumentParser(description=description)
    _detection.add_arguments(parser, recipe)
    _detection.add_size_arguments(parser, min_size=800, max_size=1333)
    args = parser.parse_args(argv)
    _detection.check_arguments(parser, args)
    _detection.check_size_arguments(parser, args)
    _detection.start_from_imagenet(args)
    return args


def train(args: argparse.Namespace, recipe: _detection.Recipe, prog: str, train_chain,
          loss_keys: tuple[str, ...], **run_kwargs) -> dict:
    """Trains an FPN model as the options say; returns the last entry of the log (on the
    processes of an MPI job other than rank 0 an empty dict).

    Args:
        args: the options.
        recipe (_detection.Recipe): the recipe.
        prog (str): the script's name, for the errors.
        train_chain (type): the class of the train chain, a :class:`Seeded` one.
        loss_keys (tuple of str): the parts of the loss printed.
        run_kwargs: the training set and the evaluator (:func:`_detection.run`'s ``train``
            and ``make_evaluator``) where they are not the detectors'.

    Raises:
        SystemExit: ``--batchsize`` is not a multiple of the processes of the MPI job, the
            options contradict the weights, or a sample of the training set cannot be
            trained on (one line on stderr).
    """
    comm = _training.create_communicator(args)
    batch_size = _training.batch_size_per_process(args, comm, prog)
    _training.seed_everything(args.seed)
    model = _detection.create_model(args, prog, min_size=args.min_size,
                                    max_size=args.max_size)
    setup = _training.Training(
        model=model, train_chain=train_chain(model, args.seed, 0 if comm is None else comm.rank),
        transform=Transform(model), batch_size=batch_size, loss_keys=loss_keys,
        setup_hooks=setup_hooks, converter=_detection.converter)
    with _training.dataset_errors_end_the_run(prog, comm):
        return _detection.run(args, recipe, setup, comm, **run_kwargs)
