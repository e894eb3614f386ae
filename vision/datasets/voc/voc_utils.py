"""PASCAL VOC: download, annotation parsing, label names and colours."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import numpy

from vision.datasets._annotation import AnnotationError
from vision.datasets._prepare import prepare_dataset

root = 'voc'
# The archives of the VOC site, with the sha256 that torchvision records for each.
resources = {
    '2012': ('http://host.robots.ox.ac.uk/pascal/VOC/voc2012/VOCtrainval_11-May-2012.tar',
             ('sha256', 'e14f763270cf193d0b5f74b169f44157a4b0c6efa708f4dd0ff78ee691763bcb')),
    '2007': ('http://host.robots.ox.ac.uk/pascal/VOC/voc2007/VOCtrainval_06-Nov-2007.tar',
             ('sha256', '7d8cd951101b0957ddfd7a530bdc8a94f06121cfc1e511bb5937e973020c7508')),
    '2007_test': ('http://host.robots.ox.ac.uk/pascal/VOC/voc2007/VOCtest_06-Nov-2007.tar',
                  ('sha256', '6836888e2e01dca84577a849d339fa4f73e1e4f135d312430c4856b5609b4892')),
}


def check_split(fname: str, split: str, year: str, splits: tuple[str, ...] = (
        'train', 'val', 'trainval')) -> None:
    """Raises ValueError unless ``split`` is one of ``splits`` (``'test'`` only with 2007)."""
    if year not in ('2007', '2012'):
        raise ValueError(f"{fname}: year must be '2007' or '2012', but got {year!r}")
    if split == 'test' and 'test' in splits and year != '2007':
        raise ValueError(f"{fname}: split 'test' is only available for year '2007', but got "
                         f'year {year!r}')
    if split not in splits:
        raise ValueError(f'{fname}: split must be one of {splits}, but got {split!r}')


def get_voc(year: str, split: str, fname: str = 'get_voc') -> str:
    """Downloads and extracts a VOC archive (once) and returns the ``VOC<year>`` directory.

    The trainval archive of ``year`` (or, for ``split='test'`` of 2007, the test archive) is
    downloaded into the cache, checked against its sha256 and extracted under
    ``$VISION_HOME/datasets/voc``. Nothing is fetched when the split's list file exists.

    Args:
        year ({'2007', '2012'}): The challenge year.
        split ({'train', 'val', 'trainval', 'test'}): The split that will be read.
        fname (str): The public name to put in error messages.

    Returns:
        str: The path of ``VOCdevkit/VOC<year>``.

    """
    key = '2007_test' if (year, split) == ('2007', 'test') else year
    if key not in resources:
        raise ValueError(f"{fname}: year must be '2007' or '2012', but got {year!r}")
    url, checksum = resources[key]
    base = os.path.join('VOCdevkit', f'VOC{year}')
    # The segmentation lists are in the 2012 trainval archive, with the detection lists.
    marker = os.path.join(base, 'ImageSets', 'Main', f'{split}.txt')
    data_root = prepare_dataset(fname, root, url, marker, checksum)
    return os.path.join(data_root, base)


def _find_text(fname: str, path: str, element: ET.Element, tag: str, where: str) -> str:
    child = element.find(tag)
    if child is None or child.text is None or not child.text.strip():
        raise AnnotationError(fname, path, f'{where}/{tag}', 'is missing')
    return child.text.strip()


def _find_number(fname: str, path: str, element: ET.Element, tag: str, where: str) -> float:
    text = _find_text(fname, path, element, tag, where)
    try:
        return float(text)
    except ValueError:
        raise AnnotationError(fname, path, f'{where}/{tag}',
                              f'must be a number, but is {text!r}') from None


def parse_voc_bbox_annotation(path: str, label_names: tuple[str, ...],
                              fname: str = 'parse_voc_bbox_annotation') -> tuple[
        numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """Reads the objects of a VOC annotation file.

    Coordinates are 1-based in the files and become 0-based pixel indices
    ``(ymin - 1, xmin - 1, ymax - 1, xmax - 1)``, as in ChainerCV. A box must lie in the image
    of the ``<size>`` element, with corners in :math:`[0, H] \\times [0, W]` after the shift.
    An object without ``<difficult>`` is not difficult.

    Args:
        path (str): The XML file.
        label_names (tuple of str): The class names; an object's ``<name>`` (lower-cased) must
            be one of them.
        fname (str): The public name to put in error messages.

    Returns:
        tuple of arrays: ``bbox`` float32 :math:`(R, 4)`, ``label`` int32 :math:`(R,)` and
        ``difficult`` bool :math:`(R,)`, one row per ``<object>``.

    Raises:
        AnnotationError: The file is not well-formed XML, a field is missing or not a number,
            a name is not a class, or a box is reversed or outside the image.

    """
    try:
        anno = ET.parse(path).getroot()
    except ET.ParseError as error:
        raise AnnotationError(fname, path, 'the XML', f'is not well-formed: {error}') from None
    height = _find_number(fname, path, anno, 'size/height', 'annotation')
    width = _find_number(fname, path, anno, 'size/width', 'annotation')
    bbox, label, difficult = [], [], []
    for k, obj in enumerate(anno.findall('object'), 1):
        where = f'object[{k}]'
        name = _find_text(fname, path, obj, 'name', where).lower()
        if name not in label_names:
            raise AnnotationError(fname, path, f'{where}/name',
                                  f'is {name!r}, which is not one of the class names '
                                  f'{label_names}')
        label.append(label_names.index(name))
        bbox.append([_find_number(fname, path, obj, f'bndbox/{tag}', where) - 1
                     for tag in ('ymin', 'xmin', 'ymax', 'xmax')])
        y_min, x_min, y_max, x_max = bbox[-1]
        if not (0 <= y_min <= y_max <= height and 0 <= x_min <= x_max <= width):
            raise AnnotationError(
                fname, path, f'{where}/bndbox',
                f'(xmin, ymin, xmax, ymax) = ({x_min + 1:g}, {y_min + 1:g}, {x_max + 1:g}, '
                f'{y_max + 1:g}) has a minimum above its maximum or lies outside the image of '
                f'width {width:g} and height {height:g}')
        flag = obj.find('difficult')
        difficult.append(flag is not None and (flag.text or '0').strip() == '1')
    return (numpy.array(bbox, dtype=numpy.float32).reshape(-1, 4),
            numpy.array(label, dtype=numpy.int32), numpy.array(difficult, dtype=bool))


def image_wise_to_instance_wise(label_img: numpy.ndarray, inst_img: numpy.ndarray,
                                fname: str = 'image_wise_to_instance_wise',
                                path: str = '<array>') -> tuple[numpy.ndarray, numpy.ndarray]:
    """Splits a class map and an instance map into one mask and one label per instance.

    Args:
        label_img (~numpy.ndarray): int32 :math:`(H, W)`: 0 for background, the class id plus
            one for an object, -1 for pixels to ignore.
        inst_img (~numpy.ndarray): int32 :math:`(H, W)`: an instance id per pixel, -1 for
            pixels outside every instance.
        fname, path (str): For error messages: the public name and the annotation file.

    Returns:
        tuple of arrays: ``mask`` bool :math:`(R, H, W)` and ``label`` int32 :math:`(R,)`,
        sorted by instance id. An instance's label is the object class of most of its pixels.

    Raises:
        AnnotationError: The two maps differ in size, or an instance has no pixel of an object
            class in the class map.

    """
    if label_img.shape != inst_img.shape:
        raise AnnotationError(fname, path, 'the class map',
                              f'has shape {label_img.shape}, but the instance map has shape '
                              f'{inst_img.shape}')
    inside = inst_img != -1
    ids, index = numpy.unique(inst_img[inside], return_inverse=True)
    classes = label_img[inside] + 1  # 0 for ignored pixels, 1 for background
    n_value = max(int(classes.max(initial=0)) + 1, 3)
    counts = numpy.bincount(index * n_value + classes, minlength=len(ids) * n_value)
    counts = counts.reshape(len(ids), n_value)[:, 2:]
    if len(ids) and not counts.max(axis=1).all():
        bad = ids[counts.max(axis=1) == 0]
        raise AnnotationError(fname, path, f'instances {bad.tolist()}',
                              'have no pixel of an object class in the class map')
    label = counts.argmax(axis=1).astype(numpy.int32)
    mask = inst_img[None] == ids[:, None, None]
    return mask, label


voc_bbox_label_names = (
    'aeroplane', 'bicycle', 'bird', 'boat', 'bottle', 'bus', 'car', 'cat', 'chair', 'cow',
    'diningtable', 'dog', 'horse', 'motorbike', 'person', 'pottedplant', 'sheep', 'sofa',
    'train', 'tvmonitor')

voc_semantic_segmentation_label_names = ('background',) + voc_bbox_label_names

voc_instance_segmentation_label_names = voc_bbox_label_names

# The colours of the VOC development kit's MATLAB code (its colormap: the bits of the class id
# spread over the high bits of red, green and blue).
voc_semantic_segmentation_label_colors = (
    (0, 0, 0), (128, 0, 0), (0, 128, 0), (128, 128, 0), (0, 0, 128), (128, 0, 128),
    (0, 128, 128), (128, 128, 128), (64, 0, 0), (192, 0, 0), (64, 128, 0), (192, 128, 0),
    (64, 0, 128), (192, 0, 128), (64, 128, 128), (192, 128, 128), (0, 64, 0), (128, 64, 0),
    (0, 192, 0), (128, 192, 0), (0, 64, 128))
voc_semantic_segmentation_ignore_label_color = (224, 224, 192)
