"""ChainerCV's evaluation of instance segmentation on a benchmark (its
``examples/instance_segmentation/eval_instance_segmentation.py``): MS COCO 2017 val scored by
COCO's mask metrics, SBD val by VOC's mask mAP, PASCAL VOC 2012 (a local directory) and
synthetic shapes, each with its data and the numbers it reports. The model predicts with its
``'evaluate'`` preset (many objects, a low score threshold).
``scripts/eval_instance_segmentation.py`` and ``vision evaluate`` both run it.

>>> benchmark = INSTANCE_SEGMENTATION_BENCHMARKS['coco2017-val']
>>> dataset = benchmark.dataset()  # downloaded once into $VISION_HOME/datasets
>>> iterator = SerialIterator(dataset, 1, repeat=False, shuffle=False)
>>> result = benchmark.evaluate(MaskRCNNFPNResNet50(pretrained_model='coco'), iterator)
>>> benchmark.summarize(result)['mask mmAP (all, IoU 0.50:0.95)']  # ChainerCV: 34.2 %
"""

from __future__ import annotations

import os

from vision.datasets import (
    COCOInstanceSegmentationDataset,
    SBDInstanceSegmentationDataset,
    ShapesInstanceSegmentationDataset,
    VOCInstanceSegmentationDataset,
    coco_instance_segmentation_label_names,
    sbd_instance_segmentation_label_names,
    shapes_label_names,
    voc_instance_segmentation_label_names,
)
from vision.evaluations.benchmark import Benchmark, percent
from vision.evaluations.eval_instance_segmentation_coco import eval_instance_segmentation_coco
from vision.evaluations.eval_instance_segmentation_voc import eval_instance_segmentation_voc


class InstanceSegmentationBenchmark(Benchmark):
    """A benchmark of instance segmentation: the model predicts ``masks, labels, scores`` with
    its ``'evaluate'`` preset; the subclasses fill in its data, its metric and its summary (see
    :class:`~vision.evaluations.benchmark.Benchmark`).

    Attributes:
        name (str): its name on the command line (``'coco2017-val'``).
        title (str): what it is (``'MS COCO 2017 val'``).
        label_names (tuple of str): its classes; a model for it has ``n_fg_class`` of their
            number.
        marker (str or None): a path that a directory of the dataset holds, relative to it
            (None: the data is not read from a directory).
    """

    verb = 'segment'
    n_pred_values = 3


class _VOCMetric(InstanceSegmentationBenchmark):
    """Scored by :func:`~vision.evaluations.eval_instance_segmentation_voc` at mask IoU 0.5:
    each class's average precision and their mean."""

    use_07_metric = True

    @property
    def map_name(self) -> str:
        metric = 'VOC2007 11-point' if self.use_07_metric else 'area under the PR curve'
        return f'mAP ({metric}, mask IoU 0.5)'

    def score(self, pred_values, gt_values) -> dict:
        """:func:`~vision.evaluations.eval_instance_segmentation_voc` at IoU 0.5."""
        return eval_instance_segmentation_voc(*pred_values, *gt_values, iou_thresh=0.5,
                                              use_07_metric=self.use_07_metric)

    def summarize(self, result: dict) -> dict[str, str]:
        return {self.map_name: percent(result['map']), **self._per_class(result['ap'])}


class COCO2017Val(InstanceSegmentationBenchmark):
    """MS COCO 2017 val (5,000 images, 80 classes): COCO's average precision of masks over
    IoU 0.5 to 0.95 (at most 100 objects an image), at IoU 0.5 and 0.75, of the small, medium
    and large objects, crowds matched without counting, and each class's."""

    name = 'coco2017-val'
    title = 'MS COCO 2017 val'
    label_names = tuple(coco_instance_segmentation_label_names)
    marker = os.path.join('annotations', 'instances_val2017.json')
    _AP = 'ap/iou={}/area={}/max_dets=100'

    def dataset(self, data_dir: str = 'auto') -> COCOInstanceSegmentationDataset:
        """``(img, mask, label, area, crowded)`` of COCO 2017 val; ``data_dir`` is a COCO
        directory (``images/val2017``, ``annotations/instances_val2017.json``), or
        ``'auto'``."""
        return COCOInstanceSegmentationDataset(data_dir, split='val', year='2017',
                                               use_crowded=True, return_area=True,
                                               return_crowded=True)

    def score(self, pred_values, gt_values) -> dict:
        """:func:`~vision.evaluations.eval_instance_segmentation_coco`."""
        return eval_instance_segmentation_coco(*pred_values, *gt_values)

    def summarize(self, result: dict) -> dict[str, str]:
        """The mask mmAP of all objects, the mAP at IoU 0.50 and 0.75, the mmAP of the large,
        medium and small objects (ChainerCV's lines), then each class's AP over IoU 0.50 to
        0.95."""
        means = {}
        for iou, area in (('0.50:0.95', 'all'), ('0.50', 'all'), ('0.75', 'all'),
                          ('0.50:0.95', 'large'), ('0.50:0.95', 'medium'),
                          ('0.50:0.95', 'small')):
            mean = 'mmAP' if ':' in iou else 'mAP'
            means[f'mask {mean} ({area}, IoU {iou})'] = percent(
                result['m' + self._AP.format(iou, area)])
        return {**means, **self._per_class(result[self._AP.format('0.50:0.95', 'all')])}


class SBDVal(_VOCMetric):
    """SBD val (ChainerCV's split: the 5,732 images of SBD outside its train_noval list, 20
    classes): ChainerCV's protocol, VOC's mask mAP at IoU 0.5 with the 11-point metric."""

    name = 'sbd'
    title = 'SBD val'
    label_names = tuple(sbd_instance_segmentation_label_names)
    marker = 'val_voc2012.txt'

    def dataset(self, data_dir: str = 'auto') -> SBDInstanceSegmentationDataset:
        """``(img, mask, label)`` of SBD val; ``data_dir`` is SBD's
        ``benchmark_RELEASE/dataset`` directory, or ``'auto'``."""
        return SBDInstanceSegmentationDataset(data_dir, split='val')


class VOC2012(_VOCMetric):
    """A split of PASCAL VOC 2012's instance segmentation (val: 1,449 images, 20 classes),
    scored as SBD val.

    Args:
        split (str): the split (``'val'``).
    """

    name = 'voc'
    label_names = tuple(voc_instance_segmentation_label_names)
    marker = 'SegmentationObject'

    def __init__(self, split: str = 'val') -> None:
        self.split = split
        self.title = f'PASCAL VOC 2012 {split}'

    def dataset(self, data_dir: str = 'auto') -> VOCInstanceSegmentationDataset:
        """``(img, mask, label)`` of the split; ``data_dir`` is a ``VOCdevkit/VOC2012``
        directory, or ``'auto'``."""
        return VOCInstanceSegmentationDataset(data_dir, split=self.split)


class ShapesVal(_VOCMetric):
    """Synthetic shapes (:class:`~vision.datasets.ShapesInstanceSegmentationDataset`, 4
    classes) drawn from the validation seed of the training scripts' shapes (1; they train on
    seed 0), scored as the training scripts score them: VOC's mask AP at IoU 0.5, the area
    under the precision-recall curve. Example ``i`` of a seed is the same whatever the length.

    Args:
        length (int): the number of images (1000, as ``vision evaluate --n-images``).
        size (int): their side in pixels (128, the training scripts' ``--size``).
        seed (int): the seed they are drawn from (1).
    """

    name = 'shapes'
    label_names = tuple(shapes_label_names)
    use_07_metric = False

    def __init__(self, length: int = 1000, size: int = 128, seed: int = 1) -> None:
        self.length = length
        self.size = size
        self.seed = seed
        self.title = f'shapes ({length} images of {size}x{size}, seed {seed})'

    def dataset(self, data_dir: str = 'auto') -> ShapesInstanceSegmentationDataset:
        """``(img, mask, label)`` drawn on the fly.

        Raises:
            ValueError: ``data_dir`` is not ``'auto'``: the images are drawn, not read.
        """
        if data_dir != 'auto':
            raise ValueError(f"the shapes are drawn, not read: data_dir must be 'auto', but "
                             f'got {data_dir!r}')
        return ShapesInstanceSegmentationDataset(self.length, self.size, self.seed)


#: The benchmarks by name.
INSTANCE_SEGMENTATION_BENCHMARKS: dict[str, InstanceSegmentationBenchmark] = {
    benchmark.name: benchmark
    for benchmark in (COCO2017Val(), SBDVal(), VOC2012(), ShapesVal())}
