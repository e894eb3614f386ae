"""DirectoryParsingLabelDataset and directory_parsing_label_names (ChainerCV's cases)."""

from __future__ import annotations

import os

import numpy
import pytest

from vision.datasets import DirectoryParsingLabelDataset, directory_parsing_label_names
from vision.datasets import directory_parsing_label_dataset as module
from vision.utils import assert_is_label_dataset, write_image

_SIZE = (48, 32)


def _save_image(path, color, rng):
    write_image(rng.integers(0, 255, size=(3 if color else 1,) + _SIZE, dtype=numpy.uint8),
                path)


def _make_tree(root, n_class, n_img, depth, color, suffix, rng, n_sub=6):
    """class_<i>/[nested_<j>/]img<k>.<suffix>, plus a file that is not an image in each
    directory; returns the expected image paths in order."""
    paths = []
    for i in range(n_class):
        leaves = [os.path.join(root, f'class_{i}')]
        if depth == 2:
            leaves = [os.path.join(leaves[0], f'nested_{j}') for j in range(n_sub)]
        for leaf in leaves:
            os.makedirs(leaf)
            for k in range(n_img):
                paths.append(os.path.join(leaf, f'img{k}.{suffix}'))
                _save_image(paths[-1], color, rng)
            open(os.path.join(leaf, 'dummy_file.XXX'), 'w').close()
    return paths


@pytest.mark.parametrize('color', [True, False])
@pytest.mark.parametrize('n_class', [2, 3])
@pytest.mark.parametrize('suffix', ['bmp', 'jpg', 'png', 'ppm', 'jpeg'])
@pytest.mark.parametrize('depth', [1, 2])
def test_directory_parsing_label_dataset(tmp_path, color, n_class, suffix, depth):
    root = str(tmp_path)
    expected = _make_tree(root, n_class, 5, depth, color, suffix, numpy.random.default_rng(0))
    dataset = DirectoryParsingLabelDataset(root, color=color)
    assert len(dataset) == 5 * n_class * (6 if depth == 2 else 1)
    assert_is_label_dataset(dataset, n_class, color=color)
    assert directory_parsing_label_names(root) == [f'class_{i}' for i in range(n_class)]
    assert dataset.img_paths == expected
    assert dataset.labels.dtype == numpy.int32
    numpy.testing.assert_array_equal(
        dataset.labels, [int(p.split('class_')[1][0]) for p in expected])


def test_numerical_sort(tmp_path):
    rng = numpy.random.default_rng(0)
    for i in range(11):
        os.makedirs(tmp_path / str(i))
        _save_image(tmp_path / str(i) / 'img_0.png', True, rng)
    dataset = DirectoryParsingLabelDataset(str(tmp_path), numerical_sort=True)
    assert_is_label_dataset(dataset, 11)
    assert directory_parsing_label_names(str(tmp_path), numerical_sort=True) == [
        str(i) for i in range(11)]
    assert directory_parsing_label_names(str(tmp_path))[:3] == ['0', '1', '10']
    assert [int(label) for label in dataset.slice[:, 'label']] == list(range(11))


def test_check_img_file_and_uppercase_extensions(tmp_path):
    rng = numpy.random.default_rng(0)
    os.makedirs(tmp_path / 'a')
    for name in ('x.PNG', 'y.png', 'skip_me.png'):
        _save_image(tmp_path / 'a' / name, True, rng)
    assert len(DirectoryParsingLabelDataset(str(tmp_path))) == 3
    dataset = DirectoryParsingLabelDataset(
        str(tmp_path), check_img_file=lambda path: 'skip' not in path)
    assert [os.path.basename(p) for p in dataset.img_paths] == ['x.PNG', 'y.png']


def test_labels_without_decoding_images(tmp_path, monkeypatch):
    rng = numpy.random.default_rng(0)
    for name in ('cat', 'dog'):
        os.makedirs(tmp_path / name)
        _save_image(tmp_path / name / 'a.png', True, rng)
    dataset = DirectoryParsingLabelDataset(str(tmp_path))
    monkeypatch.setattr(module, 'read_image', None)
    assert [int(label) for label in dataset.slice[:, 'label']] == [0, 1]


def test_errors(tmp_path):
    os.makedirs(tmp_path / 'ten')
    with pytest.raises(ValueError, match=r'numerical_sort=True every directory name must be an '
                                         r"integer, but .* holds \['ten'\]"):
        directory_parsing_label_names(str(tmp_path), numerical_sort=True)
    with pytest.raises(FileNotFoundError, match='root .*missing is not a directory'):
        DirectoryParsingLabelDataset(str(tmp_path / 'missing'))
