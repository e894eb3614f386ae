import numpy
import pytest

import framework.functions as F
import framework.links as L
from framework import Sequential
from framework.testing.emulated_device import EmulatedArray, EmulatedDevice


def _x():
    return numpy.random.RandomState(0).uniform(-1, 1, (2, 3)).astype(numpy.float32)


def _double(x):
    return x * 2


def test_applies_layers_in_order_and_registers_links():
    l1, l2 = L.Linear(3, 4), L.Linear(4, 2)
    seq = Sequential(l1, F.relu, l2)
    assert len(seq) == 3 and list(seq) == [l1, F.relu, l2]
    assert [p for p, _ in seq.namedparams()] == ['/0/W', '/0/b', '/1/W', '/1/b']
    assert [child.name for child in seq.children()] == ['0', '1']
    x = _x()
    numpy.testing.assert_allclose(seq(x).array, l2(F.relu(l1(x))).array)


def test_tuples_are_spread():
    seq = Sequential(lambda x: (x, x + 1), lambda a, b: a * b)
    assert seq(numpy.float32(2)) == 6


def test_empty_and_bad_layers():
    with pytest.raises(RuntimeError, match='no layer'):
        Sequential()(_x())
    with pytest.raises(TypeError, match='Link or a callable'):
        Sequential(3)


def test_list_operations_keep_children_in_order():
    a, b, c = L.Linear(3, 3), L.Linear(3, 3), L.Linear(3, 3)
    seq = Sequential(a, F.relu)
    seq.append(b)
    seq.insert(0, c)
    assert list(seq) == [c, a, F.relu, b]
    assert [x.name for x in seq.children()] == ['0', '1', '2'] and b.name == '2'
    assert seq.index(F.relu) == 2 and seq.count(a) == 1 and F.relu in seq
    assert list(reversed(seq)) == [b, F.relu, a, c]
    del seq[0]
    assert list(seq.children()) == [a, b] and a.name == '0'
    seq[1] = _double
    assert list(seq) == [a, _double, b]
    seq[-1] = c
    assert list(seq) == [a, _double, c] and c.name == '1'
    assert seq.pop() is c and list(seq.children()) == [a]
    seq.remove(_double)
    seq.extend([b, F.relu])
    assert list(seq) == [a, b, F.relu]
    assert list(seq[1:]) == [b, F.relu] and isinstance(seq[1:], Sequential)


def test_add_and_flatten():
    a, b = L.Linear(3, 3), L.Linear(3, 3)
    s1, s2 = Sequential(a), Sequential(F.relu, b)
    joined = s1 + s2
    assert list(joined) == [a, F.relu, b]
    s1 += s2
    assert list(s1) == [a, F.relu, b]
    nested = Sequential(Sequential(a, Sequential(F.relu)), b)
    assert list(nested.flatten()) == [a, F.relu, b]
    with pytest.raises(TypeError):
        s1 + [a]


@pytest.mark.parametrize('mode', ['share', 'copy', 'init'])
def test_copy_keeps_functions_and_copies_links(mode):
    seq = Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
    copied = seq.copy(mode)
    assert copied[1] is F.relu
    assert copied[0] is not seq[0] and list(copied.children()) == [copied[0], copied[2]]
    assert (copied[0].W.array is seq[0].W.array) == (mode == 'share')
    assert copied(_x()).shape == (2, 2)


def test_to_device_and_repr():
    seq = Sequential(L.Linear(3, 2), F.relu).to_device('@emulated')
    assert isinstance(seq[0].W.array, EmulatedArray)
    assert str(seq) == ('Sequential(\n  (0): Linear(in_size=3, out_size=2, nobias=False),\n'
                        '  (1): relu,\n)')
    assert repr(Sequential()) == 'Sequential()'


def test_slice_leaves_the_layers_on_their_device():
    seq = Sequential(L.Linear(2, 3), L.Linear(3, 1)).to_device(EmulatedDevice())
    head = seq[:1]
    assert isinstance(head[0].W.array, EmulatedArray)
    assert isinstance(seq[0].W.array, EmulatedArray)
