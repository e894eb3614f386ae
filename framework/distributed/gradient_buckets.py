"""GradientBuckets: gradients averaged over the processes bucket by bucket, each bucket pushed to
the dependency engine as soon as backprop has finished its gradients, so that the all-reduce of
the last layers overlaps the backward pass of the first ones.

The parameters are split into buckets once, in the reverse of their order in the model (the
order in which backprop finishes them, roughly), each of about ``bucket_size`` bytes. Every
process must all-reduce the same buckets in the same order, whatever order its own backward
pass finishes them in: a bucket is pushed only after the buckets before it, and all of them
go through one engine variable, which runs them one at a time in that order. They need a
communicator of their own, so that they never mix with the collectives that the forward and
backward passes make meanwhile (those of
:class:`~framework.distributed.MultiNodeBatchNormalization`): the two may run at once, which
needs an MPI library with ``MPI_THREAD_MULTIPLE`` (:func:`supported` says whether it has it).
"""

from __future__ import annotations

from framework.distributed._mpi import import_mpi
from framework.distributed.mpi_communicator_base import reducible_grad


def supported(communicator) -> bool:
    """Whether the MPI library lets collectives run from several threads at once
    (``MPI_THREAD_MULTIPLE``), which buckets that overlap the backward pass need."""
    MPI = import_mpi('GradientBuckets')
    return MPI.Query_thread() >= MPI.THREAD_MULTIPLE and communicator.size > 1


class GradientBuckets:
    """Averages the gradients of parameters over the processes, in buckets pushed to an engine.

    Call :meth:`begin` before a backward pass, :meth:`final` with each parameter whose
    gradient is final (``on_leaf_grad`` of the backward pass), then :meth:`finish`; the
    engine's :meth:`~framework.engine.Engine.wait_for_all` waits for the last bucket.

    Args:
        named_params (list of tuple): the initialized parameters with their names, in an order
            that is the same on every process (the model's ``namedparams``).
        communicator (MpiCommunicatorBase): the processes to average over, a communicator
            that nothing else uses while the buckets run.
        bucket_size (int): the bytes of gradients in a bucket (a bucket closes at the first
            parameter that makes it reach this size; a larger parameter is a bucket alone).
        engine (~framework.engine.Engine): the engine that runs the all-reduces.

    Attributes:
        names (list of str): the names of the parameters, in the order given.
        buckets (list of list): the parameters of each bucket, in the order they are averaged.
    """

    def __init__(self, named_params, communicator, bucket_size: int, engine):
        self.names = [name for name, _ in named_params]
        self.buckets = _split([param for _, param in reversed(named_params)], bucket_size)
        self._bucket_of = {id(param): i for i, bucket in enumerate(self.buckets)
                           for param in bucket}
        self._communicator = communicator
        self._engine = engine
        self._order = engine.new_var()
        self._vars = [engine.new_var() for _ in self.buckets]
        self._then = None
        self._missing: list[int] = []
        self._done: set[int] = set()
        self._next = 0

    def begin(self, then=None) -> None:
        """Starts a backward pass.

        Args:
            then: when given, ``then(param, after)`` is called for each parameter once its
                bucket is pushed, with ``after`` the engine variables that work reading the
                averaged gradient must list among those it reads (the optimizer pushes the
                parameter's update with it).
        """
        self._then = then
        self._missing = [len(bucket) for bucket in self.buckets]
        self._done = set()
        self._next = 0

    def final(self, param) -> None:
        """Notes that backprop has finished the gradient of ``param``; pushes the buckets
        that this completes (in order). Parameters not in the buckets, and a parameter given
        again, are ignored."""
        i = self._bucket_of.get(id(param))
        if i is None or id(param) in self._done:
            return
        self._done.add(id(param))
        self._missing[i] -= 1
        while self._next < len(self.buckets) and not self._missing[self._next]:
            self._push(self._next)
            self._next += 1

    def finish(self) -> None:
        """Ends the backward pass: parameters that got no gradient count with a zero one,
        and the rest of the buckets are pushed."""
        for bucket in self.buckets:
            for param in bucket:
                self.final(param)

    def _push(self, i: int) -> None:
        bucket = self.buckets[i]
        communicator = self._communicator

        def mean(run_ctx):
            communicator._mean_arrays([reducible_grad(param) for param in bucket])

        self._engine.push(mean, mutate_vars=(self._order, self._vars[i]), priority=1,
                          name=f'GradientBuckets: the mean of bucket {i}')
        if self._then is not None:
            for param in bucket:
                self._then(param, (self._vars[i],))


def _split(params, bucket_size: int) -> list[list]:
    """Consecutive runs of ``params`` of about ``bucket_size`` bytes each."""
    buckets, current, nbytes = [], [], 0
    for param in params:
        current.append(param)
        nbytes += param.array.nbytes
        if nbytes >= bucket_size:
            buckets.append(current)
            current, nbytes = [], 0
    if current:
        buckets.append(current)
    return buckets
