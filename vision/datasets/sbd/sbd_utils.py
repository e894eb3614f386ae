"""SBD: download, split lists and label names."""

from __future__ import annotations

import os

from vision.datasets._annotation import read_id_list, write_text
from vision.datasets._prepare import prepare_dataset
from vision.datasets.voc.voc_utils import voc_instance_segmentation_label_names
from vision.utils.download import FileLock, cached_download

root = 'sbd'
# The archive of the SBD site and the list of its training images that are not in the VOC 2012
# validation set, with the sha256 that torchvision records for each.
resources = {
    'benchmark': (
        'https://www2.eecs.berkeley.edu/Research/Projects/CS/vision/grouping/semantic_contours/'
        'benchmark.tgz',
        ('sha256', '6a5a2918d5c73ce032fdeba876574d150d9d04113ab87540a1304cbcc715be53')),
    'train_noval': (
        'http://home.bharathh.info/pubs/codes/SBD/train_noval.txt',
        ('sha256', '0b2068f7a359d2907431803e1cd63bf6162da37d7d503b589d3b08c6fd0c2432')),
}


def _write_voc2012_lists(fname: str, base: str, train_noval: str) -> None:
    """Writes ``{train,val,trainval}_voc2012.txt``: SBD's images split so that the training
    images are not in the VOC 2012 validation set; ``train_voc2012.txt``, the marker of a
    complete preparation, comes last."""
    all_ids = sorted(set(read_id_list(fname, os.path.join(base, 'train.txt'), 'SBD')
                         + read_id_list(fname, os.path.join(base, 'val.txt'), 'SBD')))
    train_ids = read_id_list(fname, train_noval, 'SBD')
    train_set = set(train_ids)
    val_ids = [id_ for id_ in all_ids if id_ not in train_set]
    write_text(os.path.join(base, 'val_voc2012.txt'), '\n'.join(val_ids) + '\n')
    write_text(os.path.join(base, 'trainval_voc2012.txt'), '\n'.join(all_ids) + '\n')
    write_text(os.path.join(base, 'train_voc2012.txt'), '\n'.join(train_ids) + '\n')


def get_sbd(fname: str = 'get_sbd') -> str:
    """Downloads and extracts SBD (once) and returns its ``benchmark_RELEASE/dataset``
    directory.

    The archive is downloaded into the cache, checked against its sha256 and extracted under
    ``$VISION_HOME/datasets/sbd``; the list of training images without VOC 2012 validation
    images is downloaded too, and ``{train,val,trainval}_voc2012.txt`` are written beside
    SBD's own lists.

    Args:
        fname (str): The public name to put in error messages.

    Returns:
        str: The path of ``benchmark_RELEASE/dataset``.

    """
    url, checksum = resources['benchmark']
    data_root = prepare_dataset(fname, root, url, 'benchmark_RELEASE', checksum)
    base = os.path.join(data_root, 'benchmark_RELEASE', 'dataset')
    with FileLock(os.path.join(data_root, '.lists.lock')):
        if not os.path.exists(os.path.join(base, 'train_voc2012.txt')):
            url, (_, sha256) = resources['train_noval']
            _write_voc2012_lists(fname, base, cached_download(url, sha256))
    return base


sbd_instance_segmentation_label_names = voc_instance_segmentation_label_names
