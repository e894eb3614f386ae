import pathlib
import sys
from types import SimpleNamespace

import pytest
from PIL import Image

from framework.iterators import SerialIterator
from vision.extensions import DetectionVisReport


def _iterator(samples):
    return SerialIterator(samples, 2, repeat=False, shuffle=False)


def _trainer(out, iteration):
    """What the extension reads of a trainer."""
    return SimpleNamespace(out=str(out), updater=SimpleNamespace(iteration=iteration))


def _open(path):
    with Image.open(path) as image:
        image.load()
        return image.format, image.size


def test_saves_one_figure_per_image(cases, tmp_path):
    case = cases.make_case('detection_voc')
    link = case.link()
    extension = DetectionVisReport(_iterator(case.samples), link, label_names=cases.LABEL_NAMES)
    extension(_trainer(tmp_path, 7))

    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == [f'detection_iter=7_idx={i}.jpg' for i in range(cases.N_IMAGE)]
    for name in names:
        image_format, (width, height) = _open(tmp_path / name)
        assert image_format == 'JPEG' and width > 100 and height > 100
    assert link.calls == [[0, 1], [2, 3], [4]]


def test_filename_pattern_and_format(cases, tmp_path):
    case = cases.make_case('detection_voc', empty=True)
    extension = DetectionVisReport(_iterator(case.samples[:2]), case.link(),
                                   filename='vis/{index}_at_{iteration}.png')
    extension(_trainer(tmp_path, 3))
    paths = sorted((tmp_path / 'vis').iterdir())
    assert [path.name for path in paths] == ['0_at_3.png', '1_at_3.png']
    assert all(_open(path)[0] == 'PNG' for path in paths)


def test_runs_in_a_trainer_from_the_first_image_each_time(cases, make_trainer):
    case = cases.make_case('detection_coco')  # samples with areas and crowded flags
    link = case.link()
    trainer = make_trainer(2)
    trainer.extend(DetectionVisReport(_iterator(case.samples[:3]), link),
                   trigger=(1, 'iteration'))
    trainer.run()
    names = sorted(path.name for path in pathlib.Path(trainer.out).glob('detection_*'))
    assert names == [f'detection_iter={iteration}_idx={i}.jpg'
                     for iteration in (1, 2) for i in range(3)]
    assert link.calls == [[0, 1], [2]] * 2


def test_rejects_samples_without_boxes_and_labels(cases, tmp_path):
    case = cases.make_case('detection_voc')
    samples = [sample[:2] for sample in case.samples]
    extension = DetectionVisReport(_iterator(samples), case.link())
    with pytest.raises(ValueError, match=r'each sample must be \(img, bbox, label, \.\.\.\)'):
        extension(_trainer(tmp_path, 0))


def test_without_matplotlib_it_warns_and_draws_nothing(cases, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, 'matplotlib', None)
    case = cases.make_case('detection_voc')
    link = case.link()
    assert not DetectionVisReport.available()
    with pytest.warns(UserWarning, match='matplotlib is not installed'):
        extension = DetectionVisReport(_iterator(case.samples), link)
    extension(_trainer(tmp_path, 0))
    assert list(tmp_path.iterdir()) == [] and link.calls == []


def test_available_with_matplotlib():
    assert DetectionVisReport.available()
