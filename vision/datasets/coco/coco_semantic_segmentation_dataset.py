"""COCOSemanticSegmentationDataset: MS COCO 2017 semantic segmentation from the panoptic
annotations."""

from __future__ import annotations

import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets._annotation import AnnotationError, check_size, image_size
from vision.datasets.coco import coco_utils
from vision.utils import read_image


class COCOSemanticSegmentationDataset(GetterDataset):
    """Semantic segmentation dataset for `MS COCO`_ 2017.

    The label maps come from the panoptic annotations, as the `official converter`_ makes
    them: each segment's pixels get its category, the pixels of no segment are -1.

    .. _`MS COCO`: http://cocodataset.org/#home
    .. _`official converter`: https://github.com/cocodataset/panopticapi/blob/master/
        converters/panoptic2semantic_segmentation.py

    Args:
        data_dir (str): The COCO directory, holding ``images/{split}2017/``,
            ``annotations/panoptic_{split}2017.json`` and the PNG directory
            ``annotations/panoptic_{split}2017/``. If ``'auto'``, the data is downloaded (once,
            checked against its checksum) under ``$VISION_HOME/datasets/coco``.
        split ({'train', 'val'}): The split.

    This dataset returns the following data.

    ========= ========= ======= ====================
    name      shape     dtype   format
    ========= ========= ======= ====================
    ``img``   (3, H, W) float32 RGB, [0, 255]
    ``label`` (H, W)    int32   [-1, #class - 1]
    ========= ========= ======= ====================

    The label of :math:`l` is the :math:`l`-th category of the file
    (:data:`coco_semantic_segmentation_label_names` for the official files).

    Raises:
        ValueError: ``split`` is not one of the above.
        AnnotationError: The JSON file is not a COCO panoptic annotation file (when the
            dataset is made), or a segment is malformed or a PNG does not have the size of its
            image (when its example is read).

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train') -> None:
        super().__init__()
        fname = 'COCOSemanticSegmentationDataset'
        if split not in ('train', 'val'):
            raise ValueError(f"{fname}: split must be 'train' or 'val', but got {split!r}")
        if data_dir == 'auto':
            data_dir = coco_utils.get_coco(split, split, '2017', 'panoptic', fname)
        self.data_dir = data_dir
        self.img_root = os.path.join(data_dir, 'images', f'{split}2017')
        self.label_root = os.path.join(data_dir, 'annotations', f'panoptic_{split}2017')
        self.anno_path = os.path.join(data_dir, 'annotations', f'panoptic_{split}2017.json')

        annos = coco_utils.load_coco_json(fname, self.anno_path,
                                          ('images', 'annotations', 'categories'))
        images = coco_utils.index_images(fname, self.anno_path, annos['images'])
        self.cat_ids = [category['id'] for category in annos['categories']]
        self._cat_index = coco_utils.index_categories(fname, self.anno_path,
                                                      annos['categories'])
        self.annos = annos['annotations']
        self.img_paths = []
        for k, anno in enumerate(self.annos):
            where = f'annotations[{k}]'
            image_id = coco_utils.field(fname, self.anno_path, anno, 'image_id', where,
                                        (int, str), 'an image id')
            if image_id not in images:
                raise AnnotationError(fname, self.anno_path, f'{where}.image_id',
                                      f'is {image_id!r}, which is not the id of an image')
            coco_utils.field(fname, self.anno_path, anno, 'file_name', where, (str,),
                             'a file name')
            coco_utils.field(fname, self.anno_path, anno, 'segments_info', where, (list,),
                             'a list of segments')
            self.img_paths.append(images[image_id][0])

        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)

    def __len__(self) -> int:
        return len(self.annos)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(os.path.join(self.img_root, self.img_paths[i]), color=True)

    def _get_label(self, i: int) -> numpy.ndarray:
        fname = 'COCOSemanticSegmentationDataset'
        anno = self.annos[i]
        ids, labels = [], []
        for s, segment in enumerate(anno['segments_info']):
            where = f'annotations[{i}].segments_info[{s}]'
            ids.append(coco_utils.field(fname, self.anno_path, segment, 'id', where, (int,),
                                        'an integer'))
            category = coco_utils.field(fname, self.anno_path, segment, 'category_id', where,
                                        (int,), 'a category id')
            if category not in self._cat_index:
                raise AnnotationError(fname, self.anno_path, f'{where}.category_id',
                                      f'is {category}, which is not the id of a category')
            labels.append(self._cat_index[category])
        png_path = os.path.join(self.label_root, anno['file_name'])
        rgb = read_image(png_path, dtype=numpy.int64, color=True)
        check_size(fname, png_path, 'the panoptic PNG', rgb.shape,
                   image_size(os.path.join(self.img_root, self.img_paths[i])),
                   self.img_paths[i])
        # A segment's id is R + 256 G + 256 ** 2 B.
        id_map = rgb[0] + 256 * rgb[1] + 256 * 256 * rgb[2]
        ids = numpy.array(ids, dtype=numpy.int64)
        labels = numpy.array(labels, dtype=numpy.int32)
        order = numpy.argsort(ids)
        position = numpy.searchsorted(ids[order], id_map).clip(max=max(len(ids) - 1, 0))
        label = numpy.full(id_map.shape, -1, dtype=numpy.int32)
        if len(ids):
            found = ids[order][position] == id_map
            label[found] = labels[order][position[found]]
        return label
