"""The base of the COCO detection and instance segmentation datasets: one instances file."""

from __future__ import annotations

import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets._annotation import AnnotationError
from vision.datasets.coco import coco_utils
from vision.datasets.coco._segmentation import SegmentationError, segmentation_to_mask
from vision.utils import read_image

# Boxes may overshoot the image by this many pixels (rounding in the files); they are clipped.
_TOLERANCE = 1.0


class COCOInstancesBaseDataset(GetterDataset):
    """Reads ``annotations/instances_{split}{year}.json`` and the images it lists.

    The getters are ``img``, ``mask`` and ``(bbox, label, area, crowded)``; the subclasses
    choose the keys. An annotation whose box has no area is dropped, and so is a crowd
    annotation unless ``use_crowded``; the same annotations are dropped from every key, so that
    masks, boxes and labels always match.

    Args:
        data_dir (str): The COCO directory, holding ``images/`` and ``annotations/``; with
            ``'auto'`` the data is downloaded under ``$VISION_HOME/datasets/coco``.
        split ({'train', 'val', 'minival', 'valminusminival'}): The split; the last two are
            2014 only.
        year ({'2014', '2017'}): The release.
        use_crowded (bool): Keep the crowd annotations.
        fname (str): The public name to put in error messages.

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train', year: str = '2017',
                 use_crowded: bool = False, fname: str = 'COCOInstancesBaseDataset') -> None:
        super().__init__()
        self._fname = fname
        img_split = coco_utils.check_instances_split(fname, split, year)
        if data_dir == 'auto':
            data_dir = coco_utils.get_coco(split, img_split, year, 'instances', fname)
        self.data_dir = data_dir
        self.use_crowded = use_crowded
        self.img_root = os.path.join(data_dir, 'images', f'{img_split}{year}')
        self.anno_path = os.path.join(data_dir, 'annotations', f'instances_{split}{year}.json')

        annos = coco_utils.load_coco_json(fname, self.anno_path,
                                          ('images', 'annotations', 'categories'))
        self.id_to_prop = coco_utils.index_images(fname, self.anno_path, annos['images'])
        self.ids = sorted(self.id_to_prop)
        self.cat_ids = [category['id'] for category in annos['categories']]
        self._cat_index = coco_utils.index_categories(fname, self.anno_path,
                                                      annos['categories'])
        # Each image's annotations, with their positions in the file for error messages.
        self.id_to_anno: dict = {image_id: [] for image_id in self.ids}
        for k, anno in enumerate(annos['annotations']):
            image_id = coco_utils.field(fname, self.anno_path, anno, 'image_id',
                                        f'annotations[{k}]', (int, str), 'an image id')
            if image_id not in self.id_to_anno:
                raise AnnotationError(fname, self.anno_path, f'annotations[{k}].image_id',
                                      f'is {image_id!r}, which is not the id of an image')
            self.id_to_anno[image_id].append((k, anno))

        self.add_getter('img', self._get_image)
        self.add_getter('mask', self._get_mask)
        self.add_getter(('bbox', 'label', 'area', 'crowded'), self._get_annotations)

    def __len__(self) -> int:
        return len(self.ids)

    def _get_image(self, i: int) -> numpy.ndarray:
        file_name = self.id_to_prop[self.ids[i]][0]
        return read_image(os.path.join(self.img_root, file_name), color=True)

    def _parse(self, i: int) -> tuple[numpy.ndarray, ...]:
        """All the annotations of image ``i``: ``bbox, label, area, crowded, keep``."""
        _, height, width = self.id_to_prop[self.ids[i]]
        fname, path = self._fname, self.anno_path
        bbox, label, area, crowded = [], [], [], []
        number = (int, float)
        for k, anno in self.id_to_anno[self.ids[i]]:
            where = f'annotations[{k}]'
            box = coco_utils.field(fname, path, anno, 'bbox', where, (list,),
                                   'a list [x, y, width, height]')
            if len(box) != 4 or not all(isinstance(v, number) and not isinstance(v, bool)
                                        for v in box):
                raise AnnotationError(fname, path, f'{where}.bbox',
                                      f'must be a list [x, y, width, height], but is {box!r}')
            x, y, w, h = box
            if w < 0 or h < 0 or x < -_TOLERANCE or y < -_TOLERANCE or \
                    x + w > width + _TOLERANCE or y + h > height + _TOLERANCE:
                raise AnnotationError(fname, path, f'{where}.bbox',
                                      f'{box} has a negative size or is not inside the image '
                                      f'of width {width} and height {height}')
            bbox.append((y, x, y + h, x + w))
            category = coco_utils.field(fname, path, anno, 'category_id', where, (int,),
                                        'a category id')
            if category not in self._cat_index:
                raise AnnotationError(fname, path, f'{where}.category_id',
                                      f'is {category}, which is not the id of a category')
            label.append(self._cat_index[category])
            area.append(coco_utils.field(fname, path, anno, 'area', where, number, 'a number'))
            crowded.append(coco_utils.field(fname, path, anno, 'iscrowd', where, (int, bool),
                                            '0 or 1'))
        bbox = numpy.array(bbox, dtype=numpy.float32).reshape(-1, 4)
        bbox[:, 0::2] = bbox[:, 0::2].clip(0, height)
        bbox[:, 1::2] = bbox[:, 1::2].clip(0, width)
        crowded = numpy.array(crowded, dtype=bool)
        keep = (bbox[:, 2] > bbox[:, 0]) & (bbox[:, 3] > bbox[:, 1])
        if not self.use_crowded:
            keep &= ~crowded
        return (bbox, numpy.array(label, dtype=numpy.int32),
                numpy.array(area, dtype=numpy.float32), crowded, keep)

    def _get_annotations(self, i: int) -> tuple[numpy.ndarray, ...]:
        *values, keep = self._parse(i)
        return tuple(value[keep] for value in values)

    def _get_mask(self, i: int) -> numpy.ndarray:
        keep = self._parse(i)[-1]
        _, height, width = self.id_to_prop[self.ids[i]]
        annotations = [item for item, kept in zip(self.id_to_anno[self.ids[i]], keep) if kept]
        mask = numpy.zeros((len(annotations), height, width), dtype=bool)
        for r, (k, anno) in enumerate(annotations):
            where = f'annotations[{k}]'
            segmentation = coco_utils.field(self._fname, self.anno_path, anno, 'segmentation',
                                            where, (list, dict), 'polygons or an RLE object')
            try:
                mask[r] = segmentation_to_mask(segmentation, (height, width))
            except SegmentationError as error:
                raise AnnotationError(self._fname, self.anno_path,
                                      f'{where}.segmentation{error.field}',
                                      error.problem) from None
        return mask
