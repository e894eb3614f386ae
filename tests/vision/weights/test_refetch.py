"""``vision download --force``: the cached files of a weight are deleted and fetched again, the
fix that the error of a corrupt file names."""

import zipfile

import pytest

from vision import weights
from vision.__main__ import main

_DEMO = ['--model', 'tiny_classifier_for_tests', '--weights', 'demo']
_REFETCH = 'vision download --model tiny_classifier_for_tests --weights demo --force'


@pytest.mark.filterwarnings('ignore::UserWarning')  # the pin of the first download
def test_vision_download_force_fetches_a_corrupt_file_again(file_server, vision_home,
                                                            weights_manifest, weight_row,
                                                            random_weights, capsys):
    _, data = random_weights()
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url})])
    assert main(['download', *_DEMO]) == 0
    path = capsys.readouterr().out.strip()
    with open(path, 'wb') as f:
        f.write(data[:1000])
    assert main(['download', *_DEMO]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and path in err and 'is corrupt' in err and _REFETCH in err
    assert main(['download', *_DEMO, '--force']) == 0
    assert capsys.readouterr().out.strip() == path
    with open(path, 'rb') as f:
        assert f.read() == data
    assert file_server.count('/w/tiny.npz') == 2


@pytest.mark.filterwarnings('ignore::UserWarning')
def test_vision_download_force_converts_again(file_server, vision_home, weights_manifest,
                                              weight_row, tiny_checkpoint, capsys):
    url = file_server.serve('/w/tiny.pth', tiny_checkpoint)
    weights_manifest([weight_row(source={'url': url}, converter='tiny_torch_for_tests')])
    assert main(['download', *_DEMO]) == 0
    path = capsys.readouterr().out.strip()
    with open(path, 'wb') as f:
        f.write(b'PK\x03\x04')
    assert main(['download', *_DEMO]) == 1
    assert path in capsys.readouterr().err
    assert main(['download', *_DEMO, '--force']) == 0
    assert capsys.readouterr().out.strip() == path
    assert zipfile.ZipFile(path).testzip() is None
    assert file_server.count('/w/tiny.pth') == 2


def test_the_vision_command_shows_a_changed_file(file_server, vision_home, weights_manifest,
                                                 weight_row, random_weights, capsys):
    _, first = random_weights(0)
    _, second = random_weights(1)
    url = file_server.serve('/w/tiny.npz', first)
    weights_manifest([weight_row(source={'url': url})])
    with pytest.warns(UserWarning, match='recorded'):
        assert main(['download', '--model', 'tiny_classifier_for_tests', '--weights',
                     'demo']) == 0
    file_server.files['/w/tiny.npz'] = second
    with pytest.warns(weights.WeightChangedWarning, match=f'{url} has changed'):
        assert main(['download', '--model', 'tiny_classifier_for_tests', '--weights', 'demo',
                     '--force']) == 0
