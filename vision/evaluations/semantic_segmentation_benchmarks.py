"""ChainerCV's evaluation of semantic segmentation on a benchmark (its
``examples/semantic_segmentation/eval_semantic_segmentation.py``): CamVid test, Cityscapes val,
ADE20K val, PASCAL VOC 2012 val, and synthetic shapes, each with its data and classes, scored
by :func:`~vision.evaluations.eval_semantic_segmentation` (the IoU of each class, their mean,
the pixel accuracy and the mean class accuracy; pixels labelled -1 ignored).
``scripts/eval_semantic_segmentation.py`` and ``vision evaluate`` both run it.

>>> benchmark = SEMANTIC_SEGMENTATION_BENCHMARKS['camvid']
>>> dataset = benchmark.dataset()  # downloaded once into $VISION_HOME/datasets
>>> iterator = SerialIterator(dataset, 1, repeat=False, shuffle=False)
>>> result = benchmark.evaluate(SegNetBasic(pretrained_model='camvid'), iterator)
>>> benchmark.summarize(result)['mIoU']  # ChainerCV publishes 49.4 %
"""

from __future__ import annotations

import os

from vision.datasets import (
    ADE20KSemanticSegmentationDataset,
    CamVidDataset,
    CityscapesSemanticSegmentationDataset,
    ShapesSemanticSegmentationDataset,
    VOCSemanticSegmentationDataset,
    ade20k_semantic_segmentation_label_names,
    camvid_label_names,
    cityscapes_semantic_segmentation_label_names,
    shapes_semantic_segmentation_label_names,
    voc_semantic_segmentation_label_names,
)
from vision.evaluations.benchmark import Benchmark, percent
from vision.evaluations.eval_semantic_segmentation import eval_semantic_segmentation


class SemanticSegmentationBenchmark(Benchmark):
    """A benchmark of semantic segmentation: the model predicts a label map of each image,
    scored by :func:`~vision.evaluations.eval_semantic_segmentation`; the subclasses fill in
    the data (see :class:`~vision.evaluations.benchmark.Benchmark`).

    Attributes:
        name (str): its name on the command line (``'camvid'``).
        title (str): what it is (``'CamVid test'``).
        label_names (tuple of str): its classes; a model for it has ``n_class`` of their
            number.
        marker (str or None): a path that a directory of the dataset holds, relative to it
            (None: the data is not read from a directory).
    """

    verb = 'segment'
    n_pred_values = 1

    def prepare(self, model) -> None:
        """Refuses a model built for another number of classes, or weights made for other
        classes.

        Args:
            model: a semantic segmentation model: ``model.predict(imgs)`` returns ``labels``;
                its ``n_class``, when it has one, is checked.

        Raises:
            ValueError: the model's weights (its ``weight_spec``) segment other classes, or
                its ``n_class`` is not the number of the benchmark's.
        """
        super().prepare(model)
        n_class = getattr(model, 'n_class', None)
        if n_class is not None and n_class != len(self.label_names):
            raise ValueError(f'{self.title} ({self.name}) has {len(self.label_names)} classes '
                             f'({self.label_names[0]}, ...), but the model segments {n_class}: '
                             f'evaluate a model of {len(self.label_names)} classes')

    def score(self, pred_values, gt_values) -> dict:
        """:func:`~vision.evaluations.eval_semantic_segmentation` of ``pred_labels`` (int32
        ``(H, W)`` an image) against ``gt_labels``."""
        return eval_semantic_segmentation(*pred_values, *gt_values)

    def summarize(self, result: dict) -> dict[str, str]:
        """``'mIoU'``, ``'pixel accuracy'``, ``'mean class accuracy'``, then the IoU of each
        of :attr:`label_names` (``'-'`` for a class neither in the ground truth nor
        predicted)."""
        return {'mIoU': percent(result['miou']),
                'pixel accuracy': percent(result['pixel_accuracy']),
                'mean class accuracy': percent(result['mean_class_accuracy']),
                **self._per_class(result['iou'])}


class CamVidTest(SemanticSegmentationBenchmark):
    """CamVid test (233 road scenes of 360x480, 11 classes), as the SegNet tutorial splits it;
    unlabelled pixels ignored."""

    name = 'camvid'
    title = 'CamVid test'
    label_names = tuple(camvid_label_names)
    marker = 'test.txt'

    def dataset(self, data_dir: str = 'auto') -> CamVidDataset:
        """``(img, label)`` of CamVid's test split; ``data_dir`` is the tutorial's ``CamVid``
        directory (``test.txt``, ``test/``, ``testannot/``), or ``'auto'``."""
        return CamVidDataset(data_dir, split='test')


class CityscapesVal(SemanticSegmentationBenchmark):
    """Cityscapes val with its fine annotations (500 images of 1024x2048, 19 classes, the
    train ids); the classes ignored in evaluation ignored."""

    name = 'cityscapes'
    title = 'Cityscapes val (fine)'
    label_names = tuple(cityscapes_semantic_segmentation_label_names)
    marker = os.path.join('gtFine', 'val')

    def dataset(self, data_dir: str = 'auto') -> CityscapesSemanticSegmentationDataset:
        """``(img, label)`` of Cityscapes' val split, fine annotations; ``data_dir`` holds
        ``leftImg8bit/val`` and ``gtFine/val`` (Cityscapes cannot be downloaded for you:
        ``'auto'`` is ``$VISION_HOME/datasets/cityscapes``, where it must be extracted)."""
        return CityscapesSemanticSegmentationDataset(data_dir, label_resolution='fine',
                                                     split='val')


class ADE20KVal(SemanticSegmentationBenchmark):
    """ADE20K val, the MIT Scene Parsing Benchmark's (2,000 images, 150 classes); the pixels
    of "other objects" ignored."""

    name = 'ade20k'
    title = 'ADE20K val'
    label_names = tuple(ade20k_semantic_segmentation_label_names)
    marker = os.path.join('ADEChallengeData2016', 'annotations', 'validation')

    def dataset(self, data_dir: str = 'auto') -> ADE20KSemanticSegmentationDataset:
        """``(img, label)`` of ADE20K's val split; ``data_dir`` holds
        ``ADEChallengeData2016``, or is ``'auto'``."""
        return ADE20KSemanticSegmentationDataset(data_dir, split='val')


class VOC2012Val(SemanticSegmentationBenchmark):
    """PASCAL VOC 2012 val (1,449 images, 21 classes with the background); object borders
    ignored."""

    name = 'voc'
    title = 'PASCAL VOC 2012 val'
    label_names = tuple(voc_semantic_segmentation_label_names)
    marker = os.path.join('ImageSets', 'Segmentation', 'val.txt')

    def dataset(self, data_dir: str = 'auto') -> VOCSemanticSegmentationDataset:
        """``(img, label)`` of VOC 2012's segmentation val split; ``data_dir`` is a
        ``VOCdevkit/VOC2012`` directory, or ``'auto'``."""
        return VOCSemanticSegmentationDataset(data_dir, split='val')


class ShapesVal(SemanticSegmentationBenchmark):
    """Synthetic shapes (:class:`~vision.datasets.ShapesSemanticSegmentationDataset`; 5
    classes with the background), drawn from the validation seed of the training scripts'
    shapes (1; they train on seed 0) at the side they train on (64). Example ``i`` of a seed
    is the same whatever the length: the first images are the validation set of a training
    script, whatever its ``--n-val``.

    Args:
        length (int): the number of images (1000, as ``vision evaluate --n-images``).
        size (int): their side in pixels (64).
        seed (int): the seed they are drawn from (1).
    """

    name = 'shapes'
    label_names = tuple(shapes_semantic_segmentation_label_names)

    def __init__(self, length: int = 1000, size: int = 64, seed: int = 1) -> None:
        self.length = length
        self.size = size
        self.seed = seed
        self.title = f'shapes ({length} images of {size}x{size}, seed {seed})'

    def dataset(self, data_dir: str = 'auto') -> ShapesSemanticSegmentationDataset:
        """``(img, label)`` drawn on the fly.

        Args:
            data_dir (str): ``'auto'``: the images are drawn, not read.

        Raises:
            ValueError: ``data_dir`` is not ``'auto'``.
        """
        if data_dir != 'auto':
            raise ValueError(f"the shapes are drawn, not read: data_dir must be 'auto', but "
                             f'got {data_dir!r}')
        return ShapesSemanticSegmentationDataset(self.length, self.size, self.seed)


#: The benchmarks by name.
SEMANTIC_SEGMENTATION_BENCHMARKS: dict[str, SemanticSegmentationBenchmark] = {
    benchmark.name: benchmark
    for benchmark in (CamVidTest(), CityscapesVal(), ADE20KVal(), VOC2012Val(), ShapesVal())}
