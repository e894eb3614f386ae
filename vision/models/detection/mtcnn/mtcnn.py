"""MTCNN: the three-stage face detector with five facial landmarks."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

import numpy

from framework import backend
from framework.config import no_backprop_mode, using_config
from framework.graph.hybridizable import Hybridizable
from framework.links.link import Chain
from framework.serializers import load_npz
from vision.models._registry import register_model
from vision.models.detection.mtcnn.area_resampling import summed_area_table
from vision.models.detection.mtcnn.facenet_pytorch import (
    FACENET_PYTORCH_FILES,
    load_facenet_pytorch_weights,
)
from vision.models.detection.mtcnn.o_net import ONet
from vision.models.detection.mtcnn.p_net import PNet
from vision.models.detection.mtcnn.r_net import RNet
from vision.models.detection.mtcnn.stages import output, propose, refine
from vision.weights import fetch_weight_files, get_weight

_N_POINT = 5


@register_model('mtcnn')
class MTCNN(Hybridizable, Chain):
    """MTCNN face detection (Zhang et al., "Joint Face Detection and Alignment using Multi-task
    Cascaded Convolutional Networks", 2016), as facenet-pytorch 2.6.0 runs it.

    P-Net scans an image pyramid for face windows, R-Net rescores and refines 24x24 crops of
    them, O-Net rescores 48x48 crops and places five landmarks. Its numbers are those of
    facenet-pytorch's ``MTCNN(keep_all=True).detect(img, landmarks=True)``: the same area
    resampling, normalisation, suppressions and box arithmetic.

    ``pretrained_model``:

    - ``'facenet-pytorch'``: the weights that ship in the ``facenet-pytorch`` wheel (the
      authors' models, converted), fetched with pip and cached (``weights_manifest.json``);
    - the path of a folder that holds ``pnet.pt``, ``rnet.pt`` and ``onet.pt``;
    - the path of an NPZ file saved from this model (:func:`framework.serializers.save_npz`);
    - None: random initialisation.

    Args:
        pretrained_model (str, path or None): see above.
        min_size (float): the smallest face to find, in pixels.
        thresholds (sequence of float): the least face probabilities of P-Net, R-Net and
            O-Net.
        factor (float): the ratio of consecutive scales of the pyramid, in ``(0, 1)``.

    ``min_size``, ``thresholds`` and ``factor`` are attributes, which may be set after
    construction. ``hybridize()`` runs the three nets as static graphs (one per input shape:
    the pyramid's levels and the numbers of crops vary, so it pays only when they repeat).

    Attributes:
        pnet (PNet), rnet (RNet), onet (ONet): the three nets.
        weight_spec (vision.weights.WeightSpec or None): the manifest's row of the loaded
            weights (None for a folder, a file or random weights).
    """

    task = 'detection'
    hybridize_by_default = False  # the pyramid levels and crop counts vary: eager is faster

    def __init__(self, pretrained_model: str | os.PathLike | None = 'facenet-pytorch',
                 min_size: float = 20, thresholds: Sequence[float] = (0.6, 0.7, 0.7),
                 factor: float = 0.709):
        super().__init__()
        with self.init_scope():
            self.pnet = PNet()
            self.rnet = RNet()
            self.onet = ONet()
        self.min_size = min_size
        self.thresholds = thresholds
        self.factor = factor
        self.weight_spec = None
        if pretrained_model:
            _load_pretrained(self, pretrained_model)

    @property
    def min_size(self) -> float:
        """The smallest face to find, in pixels (a positive number)."""
        return self._min_size

    @min_size.setter
    def min_size(self, value: float) -> None:
        if not _is_real(value) or not value > 0:
            raise ValueError(f'MTCNN: min_size must be a positive number, but got {value!r}')
        self._min_size = float(value)

    @property
    def thresholds(self) -> tuple[float, float, float]:
        """The least face probabilities of P-Net, R-Net and O-Net, each in ``[0, 1]``."""
        return self._thresholds

    @thresholds.setter
    def thresholds(self, value: Sequence[float]) -> None:
        try:
            values = tuple(value)
        except TypeError:
            values = None
        if values is None or len(values) != 3 or not all(
                _is_real(v) and 0 <= v <= 1 for v in values):
            raise ValueError('MTCNN: thresholds must be three numbers in [0, 1] (P-Net, R-Net, '
                             f'O-Net), but got {value!r}')
        self._thresholds = tuple(float(v) for v in values)

    @property
    def factor(self) -> float:
        """The ratio of consecutive scales of the image pyramid, in ``(0, 1)``."""
        return self._factor

    @factor.setter
    def factor(self, value: float) -> None:
        if not _is_real(value) or not 0 < value < 1:
            raise ValueError(f'MTCNN: factor must be a number in (0, 1), but got {value!r}')
        self._factor = float(value)

    def predict(self, imgs: Iterable) -> tuple[list, list, list, list]:
        """Detects faces and their landmarks.

        Images are processed one at a time (they may differ in size), each pyramid level in
        bands of rows, so memory stays within a few times the image's size.

        Args:
            imgs (iterable of array): images ``(C, H, W)``, RGB, values 0-255 (any real
                dtype). A grayscale image ``(1, H, W)`` is replicated to three channels; the
                alpha channel of an RGBA image ``(4, H, W)`` is dropped (the colours are used
                as they are, not composited).

        Returns:
            tuple of four lists, one entry per image:

            - **bboxes**: float32 ``(R, 4)``, each ``(y_min, x_min, y_max, x_max)``;
            - **labels**: int32 ``(R,)``, all 0 (face);
            - **scores**: float32 ``(R,)``, O-Net's face probabilities, decreasing;
            - **points**: float32 ``(R, 5, 2)``, each ``(y, x)``: left eye, right eye, nose,
              left and right mouth corners (left and right as seen in the image).

            An image without faces, or smaller than P-Net's 12x12 window at the largest scale,
            gives empty arrays of these shapes.

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1, 3 or 4 channels.
        """
        bboxes, labels, scores, points = [], [], [], []
        with using_config('train', False), no_backprop_mode():
            for i, img in enumerate(imgs):
                bbox, score, point = self._detect(self._prepare(img, i))
                bboxes.append(backend.to_cpu(bbox).astype(numpy.float32, copy=False))
                labels.append(numpy.zeros(len(bbox), dtype=numpy.int32))
                scores.append(backend.to_cpu(score).astype(numpy.float32, copy=False))
                points.append(backend.to_cpu(point).astype(numpy.float32, copy=False))
        return bboxes, labels, scores, points

    def _prepare(self, img, index: int):
        """The image as a float32 ``(3, H, W)`` array on the model's device."""
        shape = getattr(img, 'shape', None)
        if shape is None or len(shape) != 3 or shape[0] not in (1, 3, 4):
            got = type(img).__name__ if shape is None else f'shape {tuple(shape)}'
            raise ValueError(f'MTCNN.predict: image {index} must be an array (C, H, W) with C '
                             f'= 3 (RGB), 1 (grayscale) or 4 (RGBA, alpha dropped), but got '
                             f'{got}')
        img = self.xp.asarray(img, dtype=numpy.float32)
        if img.shape[0] == 1:
            return self.xp.broadcast_to(img, (3,) + img.shape[1:])
        return img[:3]

    def _detect(self, img):
        """Boxes, scores and points of one image ``(3, H, W)``, on the model's device."""
        table = summed_area_table(img)
        p_thresh, r_thresh, o_thresh = self.thresholds
        bbox = propose(self.pnet, table, self.min_size, self.factor, p_thresh)
        bbox = refine(self.rnet, table, bbox, r_thresh)
        return output(self.onet, table, bbox, o_thresh)


def _is_real(value) -> bool:
    return isinstance(value, (int, float, numpy.integer, numpy.floating)) and not isinstance(
        value, bool) and numpy.isfinite(value)


def _load_pretrained(model: MTCNN, pretrained_model: str | os.PathLike) -> None:
    path = os.fspath(pretrained_model)
    if os.path.isdir(path):
        load_facenet_pytorch_weights(model, {net: os.path.join(path, os.path.basename(member))
                                             for net, member in FACENET_PYTORCH_FILES.items()})
    elif os.path.isfile(path):
        load_npz(path, model)
    else:
        model.weight_spec = get_weight(model.model_name, path)
        files = fetch_weight_files(model.model_name, path)
        load_facenet_pytorch_weights(model, {net: files[member]
                                             for net, member in FACENET_PYTORCH_FILES.items()})
