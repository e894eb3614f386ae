import hashlib
import io
import pathlib

import numpy
import pytest
from PIL import Image

from framework.serializers import save_npz
from vision import weights
from vision.__main__ import main
from vision.datasets import DirectoryParsingLabelDataset, ShapesLabelDataset
from vision.evaluations import eval_classification
from vision.models import FeaturePredictor, ResNet14
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
    assert main(['list', '--model', 'alexnet']) == 1
    assert "no model is named 'alexnet'" in capsys.readouterr().err


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
