import pathlib

import numpy
import pytest

from vision.models.detection.mtcnn import MTCNN, convert_facenet_pytorch
from vision.utils.testing.parity import read_params_tsv, rule_state

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data' / 'mtcnn'


def facenet_pytorch_states():
    """facenet-pytorch's three state dicts with their real keys and shapes, filled by the
    parity rule."""
    states = {'pnet': {}, 'rnet': {}, 'onet': {}}
    for name, value in rule_state(DATA / 'facenet_pytorch_params.tsv').items():
        net, key = name.split('/')
        states[net][key] = value
    return states


def random_model():
    numpy.random.seed(0)
    return MTCNN(pretrained_model=None)


def test_state_dict_keys_map_one_to_one_to_the_parameters():
    arrays = convert_facenet_pytorch(facenet_pytorch_states())
    params = {name.lstrip('/'): p.array for name, p in random_model().namedparams()}
    assert {k: v.shape for k, v in arrays.items()} == {k: v.shape for k, v in params.items()}
    assert len(arrays) == len(read_params_tsv(DATA / 'facenet_pytorch_params.tsv'))


def test_converter_refuses_a_missing_net_or_an_unknown_key():
    states = facenet_pytorch_states()
    with pytest.raises(ValueError, match=r"but \['rnet'\] are missing"):
        convert_facenet_pytorch({k: v for k, v in states.items() if k != 'rnet'})
    states['onet']['dense5.running_mean'] = numpy.zeros(3)
    with pytest.raises(ValueError, match="the state dict of onet has the key 'dense5.runn"):
        convert_facenet_pytorch(states)
