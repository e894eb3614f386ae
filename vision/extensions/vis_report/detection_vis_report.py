"""DetectionVisReport: saves the predictions of a detector next to the ground truth, as images."""

from __future__ import annotations

import importlib.util
import os
import warnings
from collections.abc import Sequence

from framework import backend
from framework.config import no_backprop_mode
from framework.training.extension import Extension
from vision.extensions._rewind import rewind
from vision.utils import apply_to_iterator
from vision.visualizations import vis_bbox


class DetectionVisReport(Extension):
    """An extension that draws the boxes a detection model predicts, with the ground truth.

    Each call runs ``target.predict`` over the whole iterator (reset first, or copied if it
    has no ``reset``) and saves one figure per image into ``trainer.out``: the ground truth
    boxes above, the predicted boxes with their scores below, both drawn by
    :func:`~vision.visualizations.vis_bbox`. In outline::

        for index, (img, gt_bbox, gt_label) in enumerate(samples):
            pred_bbox, pred_label, pred_score = ...  # target.predict, batch by batch
            vis_bbox(img, gt_bbox, gt_label)                  # 'ground truth'
            vis_bbox(img, pred_bbox, pred_label, pred_score)  # 'prediction'
            # saved as filename.format(iteration=trainer.updater.iteration, index=index)

    The figures are drawn on matplotlib's Agg canvas, without :mod:`matplotlib.pyplot`: no
    window opens, and the backend the user chose for pyplot is left alone. Like any
    extension it runs every iteration unless ``trainer.extend`` is given a ``trigger``.

    Args:
        iterator (~framework.dataset.Iterator): The images to draw, one pass
            (``repeat=False``). Each sample is ``(img, bbox, label, ...)``: an image
            ``(3, H, W)``, RGB in :math:`[0, 255]`, float32 boxes ``(R, 4)`` and int32 labels
            ``(R,)``; further values are ignored.
        target (~framework.Link): A detection link: ``target.predict(imgs)`` returns
            ``bboxes, labels, scores``.
        label_names (sequence of str): The names of the classes, indexed by label, shown next
            to the boxes. If None, no names are shown.
        filename (str): The name of each file, relative to ``trainer.out``, in which
            ``{iteration}`` (the trainer's iteration) and ``{index}`` (the image's position in
            the iterator) are replaced; its extension picks the format (``.jpg``, ``.png``).

    Attributes:
        iterator, target, label_names, filename: As given.
    """

    def __init__(self, iterator, target, label_names: Sequence[str] | None = None,
                 filename: str = 'detection_iter={iteration}_idx={index}.jpg'):
        if not self.available():
            warnings.warn('DetectionVisReport: matplotlib is not installed, so nothing will be '
                          'drawn; install it with `pip install matplotlib`', stacklevel=2)
        self.iterator = iterator
        self.target = target
        self.label_names = label_names
        self.filename = filename

    @staticmethod
    def available() -> bool:
        """Whether matplotlib, which draws the figures, can be imported."""
        return importlib.util.find_spec('matplotlib') is not None

    def __call__(self, trainer) -> None:
        """Draws and saves one figure per image of the iterator.

        Args:
            trainer (~framework.training.Trainer): Gives the directory (``trainer.out``) and
                the iteration (``trainer.updater.iteration``).
        """
        if not self.available():
            return
        with no_backprop_mode():
            in_values, out_values, rest_values = apply_to_iterator(
                self.target.predict, rewind(self.iterator))
            if len(out_values) != 3 or len(rest_values) < 2:
                raise ValueError(
                    'DetectionVisReport: each sample must be (img, bbox, label, ...) and '
                    'target.predict must return (bboxes, labels, scores), but got samples of '
                    f'{len(rest_values) + 1} values and {len(out_values)} predicted values')
            imgs, = in_values
            for index, (img, gt_bbox, gt_label, pred_bbox, pred_label, pred_score) in \
                    enumerate(zip(imgs, *rest_values[:2], *out_values)):
                path = os.path.join(trainer.out, self.filename.format(
                    iteration=trainer.updater.iteration, index=index))
                self._save(path, backend.to_cpu(img), (gt_bbox, gt_label),
                           backend.to_cpu((pred_bbox, pred_label, pred_score)))

    def _save(self, path: str, img, ground_truth: tuple, prediction: tuple) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        figure = Figure()
        FigureCanvasAgg(figure)
        for row, (title, values) in enumerate(
                (('ground truth', ground_truth), ('prediction', prediction)), start=1):
            ax = figure.add_subplot(2, 1, row)
            ax.set_title(title)
            vis_bbox(img, *values, label_names=self.label_names, ax=ax)
        os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
        figure.savefig(path)
