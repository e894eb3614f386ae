"""create_multi_node_optimizer: an optimizer whose updates use gradients averaged over processes."""

from __future__ import annotations

from framework import _backprop, backend
from framework.distributed import _packing, gradient_buckets
from framework.distributed._mpi import import_mpi
from framework.distributed.gradient_buckets import GradientBuckets
from framework.distributed.mpi_communicator_base import grads_to_reduce
from framework.engine import get_engine

# PyTorch DistributedDataParallel's bucket size: large enough for MPI's bandwidth, small
# enough that the first bucket is ready early in the backward pass.
BUCKET_SIZE = 25 << 20


class _MultiNodeOptimizer:
    """Wraps an optimizer: gradients are averaged over the processes before each update.

    Every attribute other than :meth:`setup` and :meth:`update` is the wrapped optimizer's
    (``opt.lr = 0.01`` sets it there).
    """

    def __init__(self, actual_optimizer, communicator, zero_fill: bool,
                 bucket_size: int | None = None):
        object.__setattr__(self, 'actual_optimizer', actual_optimizer)
        object.__setattr__(self, 'communicator', communicator)
        object.__setattr__(self, 'zero_fill', zero_fill)
        object.__setattr__(self, 'bucket_size', bucket_size)
        object.__setattr__(self, '_broadcast_params', None)
        object.__setattr__(self, '_buckets', None)
        object.__setattr__(self, '_bucket_communicator', None)
        if actual_optimizer.target is not None:
            self._bcast_if_changed()

    def setup(self, link):
        """Sets up the wrapped optimizer and copies rank 0's parameters to every process.

        Returns:
            The multi-node optimizer itself.
        """
        self.actual_optimizer.setup(link)
        self._bcast_if_changed()
        return self

    def update(self, lossfun=None, *args, **kwds) -> None:
        """Computes the gradients (when ``lossfun`` is given), averages them over the
        processes and updates the parameters.

        When parameters were initialized since the last call (a link whose shapes are known
        at its first forward), rank 0's values are broadcast instead of updating: the
        gradients of this step were computed with different values on each process.

        With ``lossfun`` and buckets (see :func:`create_multi_node_optimizer`), the
        gradients are averaged bucket by bucket during the backward pass, and when the wrapped
        optimizer updates through the engine (``use_engine``), each parameter is updated as
        soon as its bucket is averaged.

        Args:
            lossfun: as in :meth:`~framework.optimizer.GradientMethod.update`.
        """
        if lossfun is not None and self._uses_buckets():
            loss = lossfun(*args, **kwds)
            if not self._bcast_if_changed():
                self._update_with_buckets(loss)
            return
        if lossfun is not None:
            self._backward(lossfun(*args, **kwds))
        if self._bcast_if_changed():
            return
        self.communicator.multi_node_mean_grad(self.target, self.zero_fill)
        self.actual_optimizer.update()

    def _uses_buckets(self) -> bool:
        return self.bucket_size is not None and gradient_buckets.supported(self.communicator)

    def _update_with_buckets(self, loss) -> None:
        """Backprop with the gradients averaged in buckets as they are final, then the
        update (overlapping the rest of the backward pass when the engine updates)."""
        buckets = self._gradient_buckets()
        actual = self.actual_optimizer
        if actual._can_overlap():
            buckets.begin(then=actual._push_update)
            actual._update_overlapping_backward(loss, gradient_gate=buckets.final)
            return
        buckets.begin()
        self.target.cleargrads()
        _backprop.backward(loss, False, False, actual._loss_scale, None,
                           on_leaf_grad=buckets.final)
        del loss
        buckets.finish()
        get_engine().wait_for_all()
        actual.update()

    def _gradient_buckets(self) -> GradientBuckets:
        """The buckets of the initialized parameters, made again when those changed."""
        if self._buckets is None or self._buckets.names != self._broadcast_params:
            if self._bucket_communicator is None:
                object.__setattr__(self, '_bucket_communicator',
                                   self.communicator.split(0, self.communicator.rank))
            object.__setattr__(self, '_buckets', GradientBuckets(
                list(self.target.namedparams(include_uninit=False)),
                self._bucket_communicator, self.bucket_size, get_engine()))
        return self._buckets

    def _backward(self, loss) -> None:
        self.target.cleargrads()
        loss.backward(loss_scale=self.actual_optimizer._loss_scale)

    def _bcast_if_changed(self) -> bool:
        """Broadcasts rank 0's parameters if the initialized ones changed since the last
        broadcast; returns whether it did."""
        initialized = [name for name, param in self.target.namedparams()
                       if param.is_initialized]
        if initialized == self._broadcast_params:
            return False
        self.communicator.bcast_data(self.target)
        object.__setattr__(self, '_broadcast_params', initialized)
        return True

    def __getattr__(self, name):
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value):
        setattr(self.actual_optimizer, name, value)


class _DoubleBufferingOptimizer(_MultiNodeOptimizer):
    """A multi-node optimizer whose all-reduce of step ``t`` runs during step ``t + 1``.

    Each update starts a non-blocking all-reduce (``MPI_Iallreduce``, on host buffers) of the
    new gradients and updates the parameters with the previous step's averaged gradients: the
    parameters lag one step behind (the first update only starts the all-reduce), as in
    ChainerMN.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill: bool):
        object.__setattr__(self, '_pending', None)
        super().__init__(actual_optimizer, communicator, zero_fill)

    def update(self, lossfun=None, *args, **kwds) -> None:
        """Starts averaging this step's gradients, then updates the parameters with the
        previous step's averaged gradients (see :meth:`_MultiNodeOptimizer.update`)."""
        if lossfun is not None:
            self._backward(lossfun(*args, **kwds))
        if self._bcast_if_changed():
            object.__setattr__(self, '_pending', None)
            return
        grads = grads_to_reduce(self.target, self.zero_fill)
        previous = self._pending
        object.__setattr__(self, '_pending', self._start_sum(grads))
        if previous is None:
            return
        requests, buffers = previous
        import_mpi('create_multi_node_optimizer').Request.Waitall(requests)
        for buffer, members in zip(buffers, _packing.group(grads)):
            xp = backend.get_array_module(members[0])
            _packing.unpack([(xp.asarray(buffer), members)], divisor=self.communicator.size)
        self.actual_optimizer.update()

    def _start_sum(self, grads) -> tuple[list, list]:
        """Copies ``grads`` into host buffers and starts their all-reduce.

        Returns:
            tuple: the MPI requests and the host buffers, one per transport dtype.
        """
        MPI = import_mpi('create_multi_node_optimizer')
        buffers = [backend.to_cpu(buffer) for buffer, _ in _packing.pack(grads)]
        requests = [self.communicator.mpi_comm.Iallreduce(MPI.IN_PLACE, buffer, op=MPI.SUM)
                    for buffer in buffers]
        return requests, buffers


def create_multi_node_optimizer(actual_optimizer, communicator, double_buffering: bool = False,
                                zero_fill: bool = True, bucket_size: int | None = BUCKET_SIZE):
    """Makes an optimizer average the gradients over the processes before updating.

    ``optimizer = create_multi_node_optimizer(optimizers.MomentumSGD(), comm).setup(model)``
    makes every process start from rank 0's parameters and take the same steps, as one process
    would with the union of their batches. Rank 0's parameters are broadcast when the optimizer
    is set up (now, if it already is), so that, unlike ChainerMN's, the first update is not
    spent on the broadcast; only parameters initialized later (by a first forward) cost one.

    Args:
        actual_optimizer (~framework.Optimizer): the optimizer that updates the parameters,
            set up or not.
        communicator (MpiCommunicatorBase): the processes to average over.
        double_buffering: when True, the all-reduce of a step's gradients overlaps the next
            step and each update uses the gradients of the step before (one step stale).
        zero_fill: parameters without a gradient count as zero gradients (see
            :meth:`MpiCommunicatorBase.multi_node_mean_grad`).
        bucket_size: the bytes of gradients averaged at once during the backward pass of
            ``update(lossfun)`` (:class:`~framework.distributed.gradient_buckets.
            GradientBuckets`): the all-reduce of a bucket starts as soon as backprop has
            finished its gradients, on the dependency engine, and overlaps the rest of the
            backward pass. Parameters without a gradient then always count as zero
            gradients. None averages every gradient after the backward pass, in one call of
            the communicator's ``multi_node_mean_grad``; so does an MPI library without
            ``MPI_THREAD_MULTIPLE``, a single process, and ``double_buffering``.

    Returns:
        An optimizer with the interface of ``actual_optimizer``.
    """
    if double_buffering:
        return _DoubleBufferingOptimizer(actual_optimizer, communicator, zero_fill)
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill, bucket_size)
