"""Checks of framework.distributed on 2 processes: ``mpiexec -n 2 python communicator_checks.py``.

Every communicator method (arrays of several dtypes and shapes, objects), split, bcast_data,
multi_node_mean_grad, scatter_dataset, the multi-node evaluator and iterator, and the
equivalence of 2 processes with batch b and 1 process with batch 2b, for each CPU communicator.
A failed check raises, which aborts the job (the communicators' except hook); the last line of
rank 0 is ``all checks passed``.
"""

from __future__ import annotations

import contextlib
import re

import numpy
from numpy.testing import assert_allclose, assert_array_equal

import framework.functions as F
import framework.links as L
from framework import distributed, optimizers, reporter
from framework.distributed.multi_node_optimizer import BUCKET_SIZE
from framework.iterators import SerialIterator
from framework.optimizer_hooks import GradientClipping
from framework.training.extensions import Evaluator

NAMES = ('naive', 'flat', 'non_cuda_aware')
DTYPES = (numpy.float16, numpy.float32, numpy.float64, numpy.int32, numpy.int64, numpy.uint8,
          numpy.bool_)
SHAPES = ((), (0,), (5,), (2, 3, 4))


@contextlib.contextmanager
def raises(error: type, pattern: str):
    try:
        yield
    except error as caught:
        assert re.search(pattern, str(caught)), f'{caught!r} does not match {pattern!r}'
    else:
        raise AssertionError(f'{error.__name__} matching {pattern!r} was not raised')


def array(dtype, shape, seed: int) -> numpy.ndarray:
    values = numpy.random.RandomState(seed).uniform(0, 100, shape)
    return values.astype(dtype)


def check_ranks(comm) -> None:
    assert (comm.rank, comm.size) == (comm.mpi_comm.rank, 2)
    assert (comm.intra_rank, comm.intra_size) == (comm.rank, 2)
    assert (comm.inter_rank, comm.inter_size) == (0, 1)


def check_objects(comm) -> None:
    assert comm.bcast_obj({'rank': comm.rank}, root=1) == {'rank': 1}
    assert comm.gather_obj(('x', comm.rank)) == ([('x', 0), ('x', 1)] if comm.rank == 0
                                                  else None)
    assert comm.allreduce_obj(comm.rank + 1) == 3
    assert comm.allreduce_obj([comm.rank]) == [0, 1]
    if comm.rank == 0:
        comm.send_obj({'a': [1, 2]}, dest=1, tag=3)
    else:
        assert comm.recv_obj(source=0, tag=3) == {'a': [1, 2]}


def check_send_recv(comm) -> None:
    sent = tuple(array(dtype, shape, i) for i, (dtype, shape) in
                 enumerate((d, s) for d in DTYPES for s in SHAPES))
    transposed = array(numpy.float32, (3, 4), 0).T
    if comm.rank == 0:
        comm.send(sent, dest=1)
        comm.send(transposed, dest=1, tag=7)
        back = comm.recv(source=1)
        assert_array_equal(back, sent[5] * 2)
    else:
        received = comm.recv(source=0)
        assert isinstance(received, tuple) and len(received) == len(sent)
        for got, want in zip(received, sent):
            assert (got.dtype, got.shape) == (want.dtype, want.shape), (got, want)
            assert_array_equal(got, want)
        single = comm.recv(source=0, tag=7)
        assert_array_equal(single, transposed)
        comm.send(received[5] * 2, dest=0)


def check_bcast_scatter_gather(comm) -> None:
    for dtype in DTYPES:
        for shape in SHAPES:
            for root in (0, 1):
                mine = array(dtype, shape, 10 * root)
                got = comm.bcast(mine if comm.rank == root else None, root=root)
                assert got.dtype == dtype and got.shape == shape
                assert_array_equal(got, mine)
    parts = [array(numpy.float64, (2, 3), 1), array(numpy.int32, (4,), 2)]
    got = comm.scatter(parts if comm.rank == 1 else None, root=1)
    assert got.dtype == parts[comm.rank].dtype
    assert_array_equal(got, parts[comm.rank])
    with raises(ValueError, 'one array per process'):
        comm.scatter(parts[:1] if comm.rank == 0 else None)
    own = [array(numpy.float32, (3,), 5), array(numpy.int64, (2, 2), 6)][comm.rank]
    expected = (array(numpy.float32, (3,), 5), array(numpy.int64, (2, 2), 6))
    for gathered in (comm.gather(own, root=1), comm.allgather(own)):
        if gathered is None:
            assert comm.rank == 0
            continue
        assert len(gathered) == 2
        for got, want in zip(gathered, expected):
            assert got.dtype == want.dtype
            assert_array_equal(got, want)


def check_allreduce(comm) -> None:
    for dtype in DTYPES[:-1]:
        for shape in SHAPES:
            got = comm.allreduce(array(dtype, shape, comm.rank))
            want = (array(dtype, shape, 0).astype(numpy.float64)
                    + array(dtype, shape, 1)).astype(dtype)
            assert got.dtype == numpy.dtype(dtype) and got.shape == shape
            assert_allclose(got, want, rtol=1e-3 if dtype == numpy.float16 else 1e-7)
    with raises(ValueError, r'shape \(2,\) and dtype float32 on rank 0 and of shape \(3,\)'):
        comm.allreduce(numpy.zeros(2 + comm.rank, numpy.float32))
    with raises(TypeError, 'numeric'):
        comm.allreduce(numpy.zeros(2, bool))


def check_split(comm) -> None:
    alone = comm.split(color=comm.rank, key=0)
    assert type(alone) is type(comm) and (alone.rank, alone.size) == (0, 1)
    assert_array_equal(alone.allreduce(numpy.arange(3)), numpy.arange(3))
    alone.finalize()
    reversed_ = comm.split(color=0, key=-comm.rank)
    assert (reversed_.rank, reversed_.size) == (1 - comm.rank, 2)
    assert reversed_.bcast_obj(comm.rank) == 1
    reversed_.finalize()


class MLP(L.Chain):
    def __init__(self, n_hidden: int = 8, normalization=None):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(5, n_hidden)
            self.l2 = L.Linear(n_hidden, 3)
            if normalization is not None:
                self.bn = normalization

    def forward(self, x):
        h = self.l1(x)
        if hasattr(self, 'bn'):
            h = self.bn(h)
        return self.l2(F.relu(h))


def fill(model, seed: int):
    random = numpy.random.RandomState(seed)
    for _, param in sorted(model.namedparams()):
        param.array[...] = random.normal(0, 0.5, param.shape)
    return model


def check_bcast_data(comm) -> None:
    model = fill(MLP(), comm.rank)
    comm.bcast_data(model)
    for (_, got), (_, want) in zip(sorted(model.namedparams()),
                                   sorted(fill(MLP(), 0).namedparams())):
        assert_array_equal(got.array, want.array)
    with raises(ValueError, r"parameter '/l1/W' is of shape \(8, 5\) and dtype float32 on rank "
                            r'0 and of shape \(9, 5\) and dtype float32 on rank 1'):
        comm.bcast_data(MLP(8 + comm.rank))
    lazy = MLP()
    if comm.rank == 1:
        with lazy.init_scope():
            lazy.l2 = L.Linear(None, 3)
    with raises(ValueError, r"'/l2/W' is of shape \(3, 8\).* not initialized on rank 1"):
        comm.bcast_data(lazy)


def check_mean_grad(comm) -> None:
    model = MLP()
    with model.init_scope():
        model.half = L.Bias(shape=(4,))
    model.half.b.array = model.half.b.array.astype(numpy.float16)
    grads = {}
    for name, param in sorted(model.namedparams()):
        if name == '/l2/b':
            continue
        param.grad = array(param.dtype, param.shape, comm.rank + 100 * len(grads))
        grads[name] = (array(param.dtype, param.shape, 100 * len(grads)).astype(numpy.float64)
                       + array(param.dtype, param.shape, 1 + 100 * len(grads))) / 2
    model.l1.b.grad = numpy.broadcast_to(numpy.float32(comm.rank), (8,))
    grads['/l1/b'] = numpy.full(8, 0.5)
    for method in ('multi_node_mean_grad', 'allreduce_grad'):
        for name, param in model.namedparams():
            if name in grads and method == 'allreduce_grad':
                param.grad = numpy.full(param.shape, comm.rank, param.dtype)
        getattr(comm, method)(model)
        for name, param in model.namedparams():
            if name == '/l2/b':
                assert param.grad is None
            elif method == 'multi_node_mean_grad':
                assert param.grad.dtype == param.dtype
                assert_allclose(param.grad, grads[name],
                                rtol=1e-3 if param.dtype == numpy.float16 else 1e-6)
            else:
                assert_array_equal(param.grad, numpy.full(param.shape, 0.5, param.dtype))
    comm.multi_node_mean_grad(model, zero_fill=True)
    assert_array_equal(model.l2.b.grad, numpy.zeros(3, numpy.float32))


def train(model, optimizer, batches) -> None:
    for x, t in batches:
        optimizer.update(lambda x, t: F.softmax_cross_entropy(model(x), t), x, t)


def data(n_steps: int, batch_size: int):
    random = numpy.random.RandomState(0)
    x = random.normal(size=(n_steps * batch_size, 5)).astype(numpy.float32)
    t = random.randint(0, 3, n_steps * batch_size).astype(numpy.int32)
    return x, t


def check_equivalence(comm, double_buffering: bool = False, bucket_size=BUCKET_SIZE,
                      use_engine: bool = False) -> None:
    """2 processes with batch b each take the steps of 1 process with batch 2b."""
    n_steps, b = 4, 3
    x, t = data(n_steps, 2 * b)
    model = fill(MLP(), comm.rank)
    actual = optimizers.MomentumSGD(lr=0.1)
    actual.use_engine = use_engine
    optimizer = distributed.create_multi_node_optimizer(
        actual, comm, double_buffering=double_buffering, bucket_size=bucket_size)
    optimizer.setup(model)
    mine = [(x[2 * b * i + b * comm.rank:][:b], t[2 * b * i + b * comm.rank:][:b])
            for i in range(n_steps)]
    train(model, optimizer, mine)
    alone = fill(MLP(), 0)
    reference = optimizers.MomentumSGD(lr=0.1).setup(alone)
    whole = [(x[2 * b * i:][:2 * b], t[2 * b * i:][:2 * b]) for i in range(n_steps)]
    if double_buffering:
        stale = None
        for xs, ts in whole:
            alone.cleargrads()
            F.softmax_cross_entropy(alone(xs), ts).backward()
            grads = [param.grad.copy() for _, param in sorted(alone.namedparams())]
            if stale is not None:
                for (_, param), grad in zip(sorted(alone.namedparams()), stale):
                    param.grad = grad
                reference.update()
            stale = grads
    else:
        train(alone, reference, whole)
    assert optimizer.t == reference.t == n_steps - double_buffering
    for (name, got), (_, want) in zip(sorted(model.namedparams()),
                                      sorted(alone.namedparams())):
        assert_allclose(got.array, want.array, rtol=1e-5, atol=1e-6, err_msg=name)


class Branches(L.Chain):
    """Three linear layers of which rank 1 skips the first: its gradients are final at
    different points of the backward pass on the two ranks (and never on rank 1)."""

    def __init__(self, rank: int):
        super().__init__()
        self.rank = rank
        with self.init_scope():
            self.a = L.Linear(5, 4)
            self.b = L.Linear(5, 4)
            self.c = L.Linear(4, 3)

    def forward(self, x):
        h = self.b(x) if self.rank else self.a(x) * self.b(x)
        return F.sum(self.c(F.tanh(h)) ** 2)


def check_buckets(comm) -> None:
    """Buckets of one parameter each, on ranks whose backward passes finish the parameters in
    different orders (and one not at all), average the gradients of each parameter: SGD with
    lr 1 takes each parameter down by the mean over the ranks of its gradient; a parameter
    that one rank leaves without a gradient counts as zero there. With the engine updating
    (use_engine) and with a hook that needs every gradient (GradientClipping) alike."""
    x = numpy.random.RandomState(comm.rank).normal(size=(6, 5)).astype(numpy.float32)
    for use_engine, clip in ((False, False), (True, False), (True, True)):
        model = fill(Branches(comm.rank), 0)
        local = fill(Branches(comm.rank), 0)
        local(x).backward()
        grads = {name: numpy.zeros_like(param.array) if param.grad is None else param.grad
                 for name, param in local.namedparams()}
        mean = {name: sum(theirs) / 2
                for name, theirs in ((name, comm.allgather(g)) for name, g in grads.items())}
        actual = optimizers.SGD(lr=1.0)
        actual.use_engine = use_engine
        optimizer = distributed.create_multi_node_optimizer(actual, comm, bucket_size=1)
        optimizer.setup(model)
        if clip:
            optimizer.add_hook(GradientClipping(1e9))
        assert optimizer._uses_buckets()
        optimizer.update(model, x)
        assert len(optimizer._buckets.buckets) == 6
        assert optimizer.t == 1
        initial = dict(fill(Branches(comm.rank), 0).namedparams())
        for name, param in model.namedparams():
            assert_allclose(param.array, initial[name].array - mean[name], rtol=1e-5,
                            atol=1e-6, err_msg=f'{name}, use_engine={use_engine}, clip={clip}')


def check_lazy_initialization(comm) -> None:
    """A parameter initialized by the first forward is broadcast then, instead of an update."""
    x, t = data(2, 2)
    model = MLP()
    with model.init_scope():
        model.l2 = L.Linear(None, 3)
    optimizer = distributed.create_multi_node_optimizer(optimizers.SGD(), comm).setup(model)
    for step in range(2):
        train(model, optimizer, [(x[2 * comm.rank:][:2], t[2 * comm.rank:][:2])])
        assert optimizer.t == step
        theirs = comm.allgather(model.l2.W.array)
        assert_array_equal(theirs[0], theirs[1])


def check_batch_normalization(comm, bucket_size=BUCKET_SIZE) -> None:
    """MultiNodeBatchNormalization on 2 processes with batch b is BatchNormalization on 1
    with batch 2b: parameters and running statistics. With a bucket per parameter, the
    buckets' all-reduces run while the backward pass of the normalization makes its own."""
    n_steps, b = 3, 4
    x, t = data(n_steps, 2 * b)
    model = fill(MLP(normalization=distributed.MultiNodeBatchNormalization(8, comm)), 0)
    optimizer = distributed.create_multi_node_optimizer(optimizers.SGD(lr=0.5), comm,
                                                        bucket_size=bucket_size)
    optimizer.setup(model)
    train(model, optimizer, [(x[2 * b * i + b * comm.rank:][:b], t[2 * b * i + b * comm.rank:][:b])
                             for i in range(n_steps)])
    alone = fill(MLP(normalization=L.BatchNormalization(8)), 0)
    train(alone, optimizers.SGD(lr=0.5).setup(alone),
          [(x[2 * b * i:][:2 * b], t[2 * b * i:][:2 * b]) for i in range(n_steps)])
    for (name, got), (_, want) in zip(sorted(model.namedparams()),
                                      sorted(alone.namedparams())):
        assert_allclose(got.array, want.array, rtol=1e-5, atol=1e-6, err_msg=name)
    assert_allclose(model.bn.avg_mean, alone.bn.avg_mean, rtol=1e-5, atol=1e-6)
    assert_allclose(model.bn.avg_var, alone.bn.avg_var, rtol=1e-5, atol=1e-6)


def check_scatter_dataset(comm) -> None:
    dataset = list(range(7))
    part = distributed.scatter_dataset(dataset if comm.rank == 0 else None, comm)
    assert list(part) == [[0, 1, 2, 3], [3, 4, 5, 6]][comm.rank]
    part = distributed.scatter_dataset(dataset if comm.rank == 1 else None, comm, root=1,
                                       force_equal_length=False)
    assert list(part) == [[0, 1, 2], [3, 4, 5, 6]][comm.rank]
    part = distributed.scatter_dataset(dataset, comm, shuffle=True, seed=3)
    parts = comm.allreduce_obj([list(part)])
    assert len(parts[0]) == len(parts[1]) == 4 and set(parts[0]) | set(parts[1]) == set(dataset)
    with raises(ValueError, 'at least one example per process, but it has 1 for 2 processes'):
        distributed.scatter_dataset([0] if comm.rank == 0 else None, comm)


class Mean(L.Chain):
    def forward(self, x):
        reporter.report({'mean': float(x.mean())}, self)


def check_evaluator(comm) -> None:
    dataset = numpy.arange(8, dtype=numpy.float32)[:, None]
    part = distributed.scatter_dataset(dataset, comm)
    evaluator = Evaluator(SerialIterator(part, 2, repeat=False, shuffle=False), Mean())
    evaluator = distributed.create_multi_node_evaluator(evaluator, comm)
    assert_allclose(evaluator()['main/mean'], 3.5)


def check_iterator(comm) -> None:
    dataset = list(range(5))
    master = SerialIterator(dataset, 2, repeat=True, shuffle=True) if comm.rank == 1 else None
    iterator = distributed.create_multi_node_iterator(master, comm, rank_master=1)
    batches = [next(iterator) for _ in range(3)]
    assert comm.allreduce_obj([batches]) == [batches, batches]
    state = iterator.epoch, iterator.is_new_epoch, iterator.epoch_detail
    assert state == (1, True, 1.2), state
    finite = SerialIterator(dataset, 4, repeat=False) if comm.rank == 0 else None
    assert [len(batch) for batch in
            distributed.create_multi_node_iterator(finite, comm)] == [4, 1]


def main() -> None:
    for name in NAMES:
        comm = distributed.create_communicator(name)
        if name == 'flat':
            check_ranks(comm)
            check_objects(comm)
            check_send_recv(comm)
            check_bcast_scatter_gather(comm)
            check_allreduce(comm)
            check_split(comm)
            check_bcast_data(comm)
            check_scatter_dataset(comm)
            check_evaluator(comm)
            check_iterator(comm)
            check_equivalence(comm, double_buffering=True)
            check_lazy_initialization(comm)
            check_batch_normalization(comm)
            check_batch_normalization(comm, bucket_size=1)
        check_mean_grad(comm)
        check_equivalence(comm)
        check_equivalence(comm, bucket_size=None)
        check_equivalence(comm, bucket_size=1, use_engine=True)
        check_buckets(comm)
        comm.finalize()
        if comm.rank == 0:
            print(f'{name}: ok', flush=True)
    if comm.rank == 0:
        print('all checks passed', flush=True)


if __name__ == '__main__':
    main()
