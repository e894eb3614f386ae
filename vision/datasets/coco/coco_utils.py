"""MS COCO: download, annotation files and label names."""

from __future__ import annotations

import json
import os

from vision.datasets._annotation import AnnotationError
from vision.datasets._prepare import prepare_dataset
from vision.utils.download import FileLock, extractall, get_dataset_directory

root = 'coco'
_ZIPS = 'http://images.cocodataset.org/zips/'
_ANNOTATIONS = 'http://images.cocodataset.org/annotations/'
# The archives of the COCO site, with the sha256 that torchvision records for each (md5 for the
# panoptic annotations; the minival lists of Detectron, hosted on Dropbox, have none).
img_resources = {
    ('2014', 'train'): (_ZIPS + 'train2014.zip', (
        'sha256', 'ede4087e640bddba550e090eae701092534b554b42b05ac33f0300b984b31775')),
    ('2014', 'val'): (_ZIPS + 'val2014.zip', (
        'sha256', 'fe9be816052049c34717e077d9e34aa60814a55679f804cd043e3cbee3b9fde0')),
    ('2017', 'train'): (_ZIPS + 'train2017.zip', (
        'sha256', '69a8bb58ea5f8f99d24875f21416de2e9ded3178e903f1f7603e283b9e06d929')),
    ('2017', 'val'): (_ZIPS + 'val2017.zip', (
        'sha256', '4f7e2ccb2866ec5041993c9cf2a952bbed69647b115d0f74da7ce8f4bef82f05')),
}
_TRAINVAL_2014 = (_ANNOTATIONS + 'annotations_trainval2014.zip', (
    'sha256', '031296bbc80c45a1d1f76bf9a90ead27e94e99ec629208449507a4917a3bf009'))
_TRAINVAL_2017 = (_ANNOTATIONS + 'annotations_trainval2017.zip', (
    'sha256', '113a836d90195ee1f884e704da6304dfaaecff1f023f49b6ca93c4aaae470268'))
instances_anno_resources = {
    ('2014', 'train'): _TRAINVAL_2014,
    ('2014', 'val'): _TRAINVAL_2014,
    ('2014', 'minival'): (
        'https://dl.dropboxusercontent.com/s/o43o90bna78omob/instances_minival2014.json.zip',
        None),
    ('2014', 'valminusminival'): (
        'https://dl.dropboxusercontent.com/s/s3tw5zcg7395368/'
        'instances_valminusminival2014.json.zip', None),
    ('2017', 'train'): _TRAINVAL_2017,
    ('2017', 'val'): _TRAINVAL_2017,
}
panoptic_anno_resource = (_ANNOTATIONS + 'panoptic_annotations_trainval2017.zip',
                          ('md5', '4170db65fc022c9c296af880dbca6055'))


def check_instances_split(fname: str, split: str, year: str) -> str:
    """Raises ValueError for an unknown ``(year, split)``; returns the split of the images."""
    if year not in ('2014', '2017'):
        raise ValueError(f"{fname}: year must be '2014' or '2017', but got {year!r}")
    if (year, split) not in instances_anno_resources:
        splits = sorted(s for y, s in instances_anno_resources if y == year)
        raise ValueError(f'{fname}: split must be one of {splits} for year {year!r}, but got '
                         f'{split!r}')
    return 'train' if split == 'train' else 'val'


def get_coco(split: str, img_split: str, year: str, mode: str = 'instances',
             fname: str = 'get_coco') -> str:
    """Downloads and extracts the COCO images and annotations of a split (once).

    The layout under ``$VISION_HOME/datasets/coco`` is that of ChainerCV:
    ``images/{img_split}{year}/`` and ``annotations/instances_{split}{year}.json`` (or, for
    ``mode='panoptic'``, ``annotations/panoptic_{split}2017.json`` and the PNG directory
    ``annotations/panoptic_{split}2017/``). Each archive is checked against its checksum.

    Args:
        split (str): The split of the annotations (``'train'``, ``'val'``, ``'minival'``,
            ``'valminusminival'``).
        img_split ({'train', 'val'}): The split of the images.
        year ({'2014', '2017'}): The release.
        mode ({'instances', 'panoptic'}): Which annotations.
        fname (str): The public name to put in error messages.

    Returns:
        str: The COCO data directory.

    """
    img_url, img_checksum = img_resources[(year, img_split)]
    prepare_dataset(fname, f'{root}/images', img_url, f'{img_split}{year}', img_checksum)
    if mode == 'instances':
        url, checksum = instances_anno_resources[(year, split)]
        name = f'instances_{split}{year}.json'
        if split in ('train', 'val'):
            prepare_dataset(fname, root, url, f'annotations/{name}', checksum)
        else:
            prepare_dataset(fname, f'{root}/annotations', url, name, checksum)
    elif mode == 'panoptic':
        url, checksum = panoptic_anno_resource
        prepare_dataset(fname, root, url, f'annotations/panoptic_{split}{year}.json', checksum)
        annotations = os.path.join(get_dataset_directory(root), 'annotations')
        with FileLock(os.path.join(annotations, '.panoptic.lock')):
            png_dir = os.path.join(annotations, f'panoptic_{split}{year}')
            if not os.path.isdir(png_dir):
                extractall(png_dir + '.zip', annotations)
    else:
        raise ValueError(f"{fname}: mode must be 'instances' or 'panoptic', but got {mode!r}")
    return get_dataset_directory(root)


def load_coco_json(fname: str, path: str, keys: tuple[str, ...]) -> dict:
    """Reads a COCO annotation file and checks that it is an object with these list fields.

    Raises:
        AnnotationError: The file is not JSON, or not an object with these lists.

    """
    if not os.path.isfile(path):
        raise FileNotFoundError(f'{fname}: the annotation file {path} does not exist')
    try:
        with open(path, encoding='utf-8') as f:
            content = json.load(f)
    except json.JSONDecodeError as error:
        raise AnnotationError(fname, path, 'the JSON', f'is not valid: {error}') from None
    if not isinstance(content, dict):
        raise AnnotationError(fname, path, 'the top level',
                              f'must be an object with the fields {keys}, but is a '
                              f'{type(content).__name__}; this is not a COCO annotation file')
    for key in keys:
        if not isinstance(content.get(key), list):
            raise AnnotationError(fname, path, key,
                                  'must be a list, but is missing' if key not in content else
                                  f'must be a list, but is a {type(content[key]).__name__}')
    return content


def field(fname: str, path: str, record: dict, key: str, where: str, kinds: tuple[type, ...],
          what: str):
    """Returns ``record[key]``, checking that it is present and of one of ``kinds``."""
    if not isinstance(record, dict):
        raise AnnotationError(fname, path, where, f'must be an object, but is {record!r}')
    if key not in record:
        raise AnnotationError(fname, path, f'{where}.{key}', 'is missing')
    value = record[key]
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
        raise AnnotationError(fname, path, f'{where}.{key}', f'must be {what}, but is '
                                                            f'{value!r}')
    return value


def index_images(fname: str, path: str, images: list) -> dict:
    """Maps image id to ``(file_name, height, width)``, checking every record."""
    result = {}
    for k, image in enumerate(images):
        where = f'images[{k}]'
        image_id = field(fname, path, image, 'id', where, (int, str), 'an id')
        file_name = field(fname, path, image, 'file_name', where, (str,), 'a file name')
        height = field(fname, path, image, 'height', where, (int,), 'an integer')
        width = field(fname, path, image, 'width', where, (int,), 'an integer')
        result[image_id] = (file_name, height, width)
    return result


def index_categories(fname: str, path: str, categories: list) -> dict:
    """Maps category id to its position in ``categories``, the label."""
    return {field(fname, path, category, 'id', f'categories[{k}]', (int,), 'an integer'): k
            for k, category in enumerate(categories)}


coco_bbox_label_names = (
    'person', 'bicycle', 'car', 'motorcycle', 'airplane', 'bus', 'train', 'truck', 'boat',
    'traffic light', 'fire hydrant', 'stop sign', 'parking meter', 'bench', 'bird', 'cat',
    'dog', 'horse', 'sheep', 'cow', 'elephant', 'bear', 'zebra', 'giraffe', 'backpack',
    'umbrella', 'handbag', 'tie', 'suitcase', 'frisbee', 'skis', 'snowboard', 'sports ball',
    'kite', 'baseball bat', 'baseball glove', 'skateboard', 'surfboard', 'tennis racket',
    'bottle', 'wine glass', 'cup', 'fork', 'knife', 'spoon', 'bowl', 'banana', 'apple',
    'sandwich', 'orange', 'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake', 'chair',
    'couch', 'potted plant', 'bed', 'dining table', 'toilet', 'tv', 'laptop', 'mouse', 'remote',
    'keyboard', 'cell phone', 'microwave', 'oven', 'toaster', 'sink', 'refrigerator', 'book',
    'clock', 'vase', 'scissors', 'teddy bear', 'hair drier', 'toothbrush')

coco_instance_segmentation_label_names = coco_bbox_label_names

# The names of the keypoints of each keypoint category (COCO has one: the person), in the
# order of the annotations' ``keypoints`` arrays, as ChainerCV gives them.
coco_keypoint_names = {
    0: ('nose', 'left_eye', 'right_eye', 'left_ear', 'right_ear', 'left_shoulder',
        'right_shoulder', 'left_elbow', 'right_elbow', 'left_wrist', 'right_wrist', 'left_hip',
        'right_hip', 'left_knee', 'right_knee', 'left_ankle', 'right_ankle'),
}

# The 80 thing and 53 stuff categories of the panoptic annotations, in their order.
coco_semantic_segmentation_label_names = coco_bbox_label_names + (
    'banner', 'blanket', 'bridge', 'cardboard', 'counter', 'curtain', 'door-stuff',
    'floor-wood', 'flower', 'fruit', 'gravel', 'house', 'light', 'mirror-stuff', 'net',
    'pillow', 'platform', 'playingfield', 'railroad', 'river', 'road', 'roof', 'sand', 'sea',
    'shelf', 'snow', 'stairs', 'tent', 'towel', 'wall-brick', 'wall-stone', 'wall-tile',
    'wall-wood', 'water-other', 'window-blind', 'window-other', 'tree-merged', 'fence-merged',
    'ceiling-merged', 'sky-other-merged', 'cabinet-merged', 'table-merged',
    'floor-other-merged', 'pavement-merged', 'mountain-merged', 'grass-merged', 'dirt-merged',
    'paper-merged', 'food-other-merged', 'building-other-merged', 'rock-merged',
    'wall-other-merged', 'rug-merged')

# The colours of panopticapi's panoptic_coco_categories.json.
coco_semantic_segmentation_label_colors = (
    (220, 20, 60), (119, 11, 32), (0, 0, 142), (0, 0, 230), (106, 0, 228), (0, 60, 100),
    (0, 80, 100), (0, 0, 70), (0, 0, 192), (250, 170, 30), (100, 170, 30), (220, 220, 0),
    (175, 116, 175), (250, 0, 30), (165, 42, 42), (255, 77, 255), (0, 226, 252),
    (182, 182, 255), (0, 82, 0), (120, 166, 157), (110, 76, 0), (174, 57, 255), (199, 100, 0),
    (72, 0, 118), (255, 179, 240), (0, 125, 92), (209, 0, 151), (188, 208, 182), (0, 220, 176),
    (255, 99, 164), (92, 0, 73), (133, 129, 255), (78, 180, 255), (0, 228, 0), (174, 255, 243),
    (45, 89, 255), (134, 134, 103), (145, 148, 174), (255, 208, 186), (197, 226, 255),
    (171, 134, 1), (109, 63, 54), (207, 138, 255), (151, 0, 95), (9, 80, 61), (84, 105, 51),
    (74, 65, 105), (166, 196, 102), (208, 195, 210), (255, 109, 65), (0, 143, 149),
    (179, 0, 194), (209, 99, 106), (5, 121, 0), (227, 255, 205), (147, 186, 208), (153, 69, 1),
    (3, 95, 161), (163, 255, 0), (119, 0, 170), (0, 182, 199), (0, 165, 120), (183, 130, 88),
    (95, 32, 0), (130, 114, 135), (110, 129, 133), (166, 74, 118), (219, 142, 185),
    (79, 210, 114), (178, 90, 62), (65, 70, 15), (127, 167, 115), (59, 105, 106),
    (142, 108, 45), (196, 172, 0), (95, 54, 80), (128, 76, 255), (201, 57, 1), (246, 0, 122),
    (191, 162, 208), (255, 255, 128), (147, 211, 203), (150, 100, 100), (168, 171, 172),
    (146, 112, 198), (210, 170, 100), (92, 136, 89), (218, 88, 184), (241, 129, 0),
    (217, 17, 255), (124, 74, 181), (70, 70, 70), (255, 228, 255), (154, 208, 0), (193, 0, 92),
    (76, 91, 113), (255, 180, 195), (106, 154, 176), (230, 150, 140), (60, 143, 255),
    (128, 64, 128), (92, 82, 55), (254, 212, 124), (73, 77, 174), (255, 160, 98),
    (255, 255, 255), (104, 84, 109), (169, 164, 131), (225, 199, 255), (137, 54, 74),
    (135, 158, 223), (7, 246, 231), (107, 255, 200), (58, 41, 149), (183, 121, 142),
    (255, 73, 97), (107, 142, 35), (190, 153, 153), (146, 139, 141), (70, 130, 180),
    (134, 199, 156), (209, 226, 140), (96, 36, 108), (96, 96, 96), (64, 170, 64),
    (152, 251, 152), (208, 229, 228), (206, 186, 171), (152, 161, 64), (116, 112, 0),
    (0, 114, 143), (102, 102, 156), (250, 141, 255))
