import copy

import numpy
import pytest

import framework.functions as F
from framework import Chain, ChainList, Link, Parameter, Sequential, backend, initializers
from framework.testing.emulated_device import EmulatedArray, EmulatedDevice


class Affine(Link):
    """A link with two parameters (one lazy when ``n_in`` is None) and two persistents."""

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_out = n_out
        with self.init_scope():
            self.W = Parameter(initializers.Normal(1.0))
            self.b = Parameter(0.5, (n_out,))
        if n_in is not None:
            self.W.initialize((n_out, n_in))
        self.add_persistent('mean', numpy.zeros(n_out, numpy.float32))
        self.add_persistent('count', 0)

    def forward(self, x):
        if self.W.array is None:
            self.W.initialize((self.n_out, x.shape[1]))
        return F.linear(x, self.W, self.b)


class Net(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l2 = Affine(3, 2)
            self.l1 = Affine(4, 3)
            self.seq = ChainList(Affine(2, 2), Affine(2, 1))

    def forward(self, x):
        return self.seq[1](self.seq[0](self.l2(self.l1(x))))


def _x():
    return numpy.random.RandomState(0).uniform(-1, 1, (5, 4)).astype(numpy.float32)


# --- registration --------------------------------------------------------------------------

def test_init_scope_registers_parameters_only_inside():
    link = Link()
    link.outside = Parameter(0.0, (1,))
    with link.init_scope():
        link.inside = Parameter(0.0, (1,))
        link.plain = 3
    assert [name for name, _ in link.namedparams()] == ['/inside']
    assert link.inside.name == 'inside'
    assert not link.within_init_scope


def test_link_keyword_parameters_and_add_param():
    link = Link(x=(2, 3), y=None, z=((2,), numpy.float16))
    assert link.x.shape == (2, 3) and link.x.dtype == numpy.float32
    assert numpy.isnan(link.x.array).all()
    assert not link.y.is_initialized
    assert link.z.dtype == numpy.float16
    link.add_param('w', (2,), initializer=initializers.Zero())
    numpy.testing.assert_array_equal(link.w.array, [0., 0.])
    with pytest.raises(AttributeError, match="attribute 'w'"):
        link.add_param('w', (2,))


def test_persistents():
    link = Link()
    link.add_persistent('p', numpy.ones(2, numpy.float32))
    link.add_persistent('n', 1)
    with pytest.raises(AttributeError, match="attribute 'p'"):
        link.add_persistent('p', 0)
    link.q = 'text'
    link.register_persistent('q')
    with pytest.raises(AttributeError, match="no attribute 'r'"):
        link.register_persistent('r')
    assert dict(link.namedpersistents()).keys() == {'/n', '/p', '/q'}
    with link.init_scope():
        link.w = Parameter(0.0, (1,))
    link.register_persistent('w')
    assert list(link.params()) == [] and '/w' in dict(link.namedpersistents())
    with link.init_scope():
        link.w = Parameter(0.0, (1,))
    assert '/w' not in dict(link.namedpersistents()) and len(list(link.params())) == 1


def test_delattr_unregisters():
    net = Net()
    del net.l1.b
    del net.l1.mean
    del net.l2
    assert [p for p, _ in net.namedparams()] == ['/l1/W', '/seq/0/W', '/seq/0/b', '/seq/1/W',
                                                 '/seq/1/b']
    assert '/l1/mean' not in dict(net.namedpersistents())


def test_chain_registration_rules():
    chain = Chain(a=Affine(1, 1))
    assert chain.a.name == 'a' and chain['a'] is chain.a
    with pytest.raises(AttributeError, match="attribute 'a'"):
        chain.add_link('a', Affine(1, 1))
    with pytest.raises(TypeError, match='must be a Link'):
        chain.add_link('f', F.relu)
    chain.value = 1
    with pytest.raises(AttributeError, match="'value'"):
        with chain.init_scope():
            chain.value = Affine(1, 1)
    cl = ChainList()
    with pytest.raises(TypeError, match='ChainList'):
        with cl.init_scope():
            cl.x = Affine(1, 1)


# --- traversal: paths and order as Chainer's -------------------------------------------------

def test_paths_and_order():
    net = Net()
    assert [p for p, _ in net.namedlinks()] == ['/', '/l1', '/l2', '/seq', '/seq/0', '/seq/1']
    assert [p for p, _ in net.namedlinks(skipself=True)] == ['/l1', '/l2', '/seq', '/seq/0',
                                                             '/seq/1']
    assert [p for p, _ in net.namedparams()] == ['/l1/W', '/l1/b', '/l2/W', '/l2/b',
                                                 '/seq/0/W', '/seq/0/b', '/seq/1/W',
                                                 '/seq/1/b']
    assert [p.name for p in net.params()] == ['W', 'b'] * 4
    assert list(net.children()) == [net.l1, net.l2, net.seq]
    assert list(net.links()) == [net, net.l1, net.l2, net.seq, net.seq[0], net.seq[1]]
    assert [child.name for child in net.seq.children()] == ['0', '1']
    assert [p for p, _ in net.namedpersistents()][:4] == ['/l1/count', '/l1/mean', '/l2/count',
                                                         '/l2/mean']


def test_uninitialized_parameters():
    net = Chain(lazy=Affine(None, 2), fixed=Affine(2, 2))
    assert [p for p, _ in net.namedparams()] == ['/fixed/W', '/fixed/b', '/lazy/W', '/lazy/b']
    assert [p for p, _ in net.namedparams(include_uninit=False)] == ['/fixed/W', '/fixed/b',
                                                                     '/lazy/b']
    with pytest.warns(UserWarning, match="'/lazy/W'"):
        assert net.count_params() == 4 + 2 + 2
    net.lazy(numpy.zeros((1, 5), numpy.float32))
    assert net.lazy.W.shape == (2, 5)
    assert net.count_params() == 4 + 2 + 10 + 2


# --- gradients -------------------------------------------------------------------------------

def test_cleargrads_zerograds_addgrads():
    net, other = Net(), Net()
    F.sum(net(_x())).backward()
    assert all(p.grad is not None for p in net.params())
    other.zerograds()
    assert all((p.grad == 0).all() for p in other.params())
    other.addgrads(net)
    other.addgrads(net)
    for (path, mine), (_, theirs) in zip(other.namedparams(), net.namedparams()):
        numpy.testing.assert_allclose(mine.grad, 2 * theirs.grad, err_msg=path)
    net.cleargrads()
    assert all(p.grad is None for p in net.params())


def test_copyparams_copies_values_and_persistents():
    net, other = Net(), Net()
    other.l1.mean[...] = 7
    other.l1.count = 3
    net.copyparams(other)
    for (path, mine), (_, theirs) in zip(net.namedparams(), other.namedparams()):
        numpy.testing.assert_array_equal(mine.array, theirs.array, err_msg=path)
        assert mine.array is not theirs.array
    numpy.testing.assert_array_equal(net.l1.mean, 7)
    assert net.l1.count == 3
    other.l1.count = 4
    net.copyparams(other, copy_persistent=False)
    assert net.l1.count == 3


def test_copyparams_across_devices():
    net, other = Net(), Net().to_device('@emulated')
    net.copyparams(other)
    assert type(net.l1.W.array) is numpy.ndarray and type(net.l1.mean) is numpy.ndarray
    numpy.testing.assert_array_equal(net.l1.W.array, backend.to_cpu(other.l1.W.array))


def test_enable_and_disable_update():
    class Rule:
        enabled = True

    net = Net()
    for p in net.params():
        p.update_rule = Rule()
    net.l1.disable_update()
    assert [p.update_rule.enabled for p in net.params()] == [False] * 2 + [True] * 6
    assert not net.l1.update_enabled and net.update_enabled
    net.disable_update()
    assert not any(p.update_rule.enabled for p in net.params())
    assert not any(link.update_enabled for link in net.links())
    net.enable_update()
    assert all(p.update_rule.enabled for p in net.params())


# --- devices ---------------------------------------------------------------------------------

def test_to_device_moves_parameters_persistents_and_lazy_parameters():
    net = Chain(lazy=Affine(None, 2), fixed=Affine(2, 2))
    net.fixed.W.grad = numpy.ones((2, 2), numpy.float32)
    assert net.to_device('@emulated') is net
    device = EmulatedDevice()
    assert all(link.device == device for link in net.links())
    assert net.xp is device.xp
    for path, p in net.namedparams(include_uninit=False):
        assert isinstance(p.array, EmulatedArray), path
    assert isinstance(net.fixed.W.grad, EmulatedArray)
    assert isinstance(net.fixed.mean, EmulatedArray) and net.fixed.count == 0
    y = net.lazy(device.send(numpy.ones((3, 4), numpy.float32)))
    assert isinstance(net.lazy.W.array, EmulatedArray) and isinstance(y.array, EmulatedArray)
    net.to_cpu()
    assert type(net.lazy.W.array) is numpy.ndarray and type(net.fixed.mean) is numpy.ndarray


def test_members_registered_later_follow_the_device():
    net = Chain().to_device('@emulated')
    with net.init_scope():
        net.child = Affine(2, 2)
        net.p = Parameter(0.0, (2,))
    net.add_persistent('s', numpy.zeros(2, numpy.float32))
    assert isinstance(net.child.W.array, EmulatedArray) and net.child.device == net.device
    assert isinstance(net.p.array, EmulatedArray) and isinstance(net.s, EmulatedArray)
    cl = ChainList().to_device('@emulated')
    cl.append(Affine(1, 1))
    assert isinstance(cl[0].W.array, EmulatedArray)


# --- copies ----------------------------------------------------------------------------------

def test_copy_share():
    net = Net()
    F.sum(net(_x())).backward()
    shared = net.copy()
    assert shared.name is None and shared is not net
    assert shared.l1 is not net.l1 and shared.l1.name == 'l1'
    assert shared.seq[0] is not net.seq[0] and shared.seq[0].name == '0'
    assert shared.l1.W is not net.l1.W and shared.l1.W.array is net.l1.W.array
    assert shared.l1.mean is net.l1.mean
    assert all(p.grad is None for p in shared.params())
    assert all(p.grad is not None for p in net.params())
    shared.cleargrads()
    F.sum(shared(_x())).backward()
    assert shared.l1.W.grad is not net.l1.W.grad


def test_copy_copy():
    net = Net()
    copied = net.copy(mode='copy')
    for (path, a), (_, b) in zip(net.namedparams(), copied.namedparams()):
        assert a is not b and a.array is not b.array, path
        numpy.testing.assert_array_equal(a.array, b.array)
    assert copied.l1.mean is not net.l1.mean
    copied.l1.W.array[...] = 0
    assert (net.l1.W.array != 0).any()
    F.sum(copied(_x())).backward()
    assert net.l1.W.grad is None and copied.l1.W.grad is not None


def test_copy_init_reinitializes_initialized_parameters():
    net = Chain(lazy=Affine(None, 2), fixed=Affine(3, 2))
    net.fixed.b.array[...] = 9
    inited = net.copy(mode='init')
    assert not inited.lazy.W.is_initialized
    numpy.testing.assert_array_equal(inited.fixed.b.array, [0.5, 0.5])
    assert not numpy.array_equal(inited.fixed.W.array, net.fixed.W.array)


def test_copy_bad_mode():
    with pytest.raises(ValueError, match="'deep'"):
        Net().copy(mode='deep')


@pytest.mark.parametrize('mode', ['share', 'copy', 'init'])
def test_copy_on_the_emulated_device(mode):
    net = Net().to_device('@emulated')
    copied = net.copy(mode)
    assert copied.device == net.device
    assert all(isinstance(p.array, EmulatedArray) for p in copied.params())


def test_deepcopy_is_a_working_model():
    net = Net()
    copied = copy.deepcopy(net)
    F.sum(copied(_x())).backward()
    assert all(p.grad is not None for p in copied.params())
    assert all(p.grad is None for p in net.params())


def test_repeat():
    link = Affine(2, 2)
    for mode in ('init', 'copy', 'share'):
        seq = link.repeat(3, mode)
        assert isinstance(seq, Sequential) and len(seq) == 3
        assert [p for p, _ in seq.namedparams()] == ['/0/W', '/0/b', '/1/W', '/1/b', '/2/W',
                                                     '/2/b']
    shared = link.repeat(2, 'share')
    assert shared[0].W.array is link.W.array and shared[1].W.array is link.W.array
    copied = link.repeat(2, 'copy')
    numpy.testing.assert_array_equal(copied[1].W.array, link.W.array)
    assert copied[1].W.array is not link.W.array
    inited = link.repeat(2)
    assert not numpy.array_equal(inited[0].W.array, inited[1].W.array)
    assert len(link.repeat(0)) == 0
    with pytest.raises(ValueError, match='mode'):
        link.repeat(2, 'deep')


# --- serialization ---------------------------------------------------------------------------

class FakeSerializer:
    """Chainer's serializer protocol over a flat dict: saves, or loads when ``load``."""

    def __init__(self, target, load=False, path=''):
        self.target, self.load, self.path = target, load, path

    def __getitem__(self, key):
        return FakeSerializer(self.target, self.load, self.path + key + '/')

    def __call__(self, key, value):
        key = self.path + key
        if not self.load:
            self.target[key] = None if value is None else backend.to_cpu(numpy.asarray(
                value) if numpy.isscalar(value) else value)
            return value
        data = self.target[key]
        if value is None:
            return data
        if backend.is_array(value):
            value[...] = backend.get_device_from_array(value).send(data)
            return value
        return type(value)(data)


def test_serialize_saves_every_parameter_and_persistent_by_path():
    net = Net()
    net.l1.count = 5
    target = {}
    net.serialize(FakeSerializer(target))
    assert sorted(target) == sorted(
        [f'{link}/{name}' for link in ('l1', 'l2', 'seq/0', 'seq/1')
         for name in ('W', 'b', 'mean', 'count')])
    numpy.testing.assert_array_equal(target['seq/1/W'], net.seq[1].W.array)
    assert target['l1/count'] == 5


@pytest.mark.parametrize('device', ['@numpy', '@emulated'])
def test_serialize_loads_in_place_and_initializes_lazy_parameters(device):
    source = Net()
    source.l1.count = 2
    source.seq[0].mean[...] = 3
    target = {}
    source.serialize(FakeSerializer(target))

    net = Net()
    with net.init_scope():
        del net.l1
        net.l1 = Affine(None, 3)
    net.to_device(device)
    W = net.l2.W.array
    net.serialize(FakeSerializer(target, load=True))
    assert net.l2.W.array is W
    assert str(net.l1.W.device) == device and net.l1.W.shape == (3, 4)
    for (path, a), (_, b) in zip(net.namedparams(), source.namedparams()):
        numpy.testing.assert_array_equal(backend.to_cpu(a.array), b.array, err_msg=path)
    assert net.l1.count == 2 and type(net.l1.count) is int
    numpy.testing.assert_array_equal(backend.to_cpu(net.seq[0].mean), 3)


def test_serialize_puts_loaded_arrays_on_the_device():
    link = Link()
    link.add_persistent('stat', None)
    link.to_device('@emulated')
    link.serialize(FakeSerializer({'stat': numpy.ones(2, numpy.float32)}, load=True))
    assert isinstance(link.stat, EmulatedArray)


# --- calls and text --------------------------------------------------------------------------

def test_call_is_forward():
    with pytest.raises(NotImplementedError, match='Link does not implement forward'):
        Link()(1)


def test_str_and_repr():
    class Spec(Link):
        @property
        def printable_specs(self):
            yield from (('size', 3), ('dtype', numpy.dtype(numpy.float32)))

    assert str(Spec()) == 'Spec(size=3, dtype=float32)'
    assert repr(Link()) == 'Link()'
    net = Chain(b=Spec(), a=Chain(c=Spec()))
    assert str(net) == ('Chain(\n  (a): Chain(\n    (c): Spec(size=3, dtype=float32),\n  ),\n'
                        '  (b): Spec(size=3, dtype=float32),\n)')
    assert str(ChainList(Spec())) == 'ChainList(\n  (0): Spec(size=3, dtype=float32),\n)'


def test_chain_list_operations():
    a, b, c = Affine(1, 1), Affine(1, 1), Affine(1, 1)
    cl = ChainList(a)
    cl.append(b)
    cl.insert(0, c)
    assert list(cl) == [c, a, b] and [x.name for x in cl] == ['0', '1', '2']
    del cl[0]
    assert list(cl) == [a, b] and a.name == '0'
    cl[1] = c
    assert list(cl) == [a, c] and c.name == '1' and len(cl) == 2
    with pytest.raises(TypeError, match='must be a Link'):
        cl.append(F.relu)


@pytest.mark.parametrize('mode', ['share', 'copy', 'init'])
def test_copies_have_no_update_rules(mode):
    net = Net()
    for p in net.params():
        p.update_rule = object()
    assert all(p.update_rule is None for p in net.copy(mode).params())
    assert all(p.update_rule is not None for p in net.params())
