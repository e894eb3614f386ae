"""MpiCommunicatorBase: ranks, objects, arrays and models over an MPI communicator (ChainerMN).

Every communicator of :func:`~framework.distributed.create_communicator` is one of these; they
differ only in how :meth:`MpiCommunicatorBase.multi_node_mean_grad` all-reduces gradients.
Arrays travel through MPI's buffer interface, never pickled: the shapes and dtypes go first
as a small object, then the bytes. CuPy arrays are staged through the host and come back on
the receiver's current GPU.
"""

from __future__ import annotations

import numpy

from framework import backend
from framework.distributed import _packing, global_except_hook
from framework.distributed._mpi import import_mpi


class MpiCommunicatorBase:
    """The base of the MPI communicators.

    All processes of the communicator must call its collective methods (every method but
    :meth:`send`, :meth:`recv`, :meth:`send_obj` and :meth:`recv_obj`) in the same order.

    Args:
        mpi_comm (mpi4py.MPI.Comm): the processes to communicate among; it is duplicated, so
            that the messages of this communicator never mix with the caller's.

    Attributes:
        rank (int): the rank of this process, ``0 .. size - 1``.
        size (int): the number of processes.
        intra_rank (int): the rank among the processes of this machine.
        intra_size (int): the number of processes on this machine.
        inter_rank (int): the index of this machine among the machines.
        inter_size (int): the number of machines.
    """

    def __init__(self, mpi_comm):
        self._mpi = import_mpi(type(self).__name__)
        self._mpi_comm = mpi_comm.Dup()
        self.rank = self._mpi_comm.rank
        self.size = self._mpi_comm.size
        hosts = self._mpi_comm.allgather(self._mpi.Get_processor_name())
        machines = list(dict.fromkeys(hosts))
        self.inter_rank = machines.index(hosts[self.rank])
        self.inter_size = len(machines)
        self.intra_rank = hosts[:self.rank].count(hosts[self.rank])
        self.intra_size = hosts.count(hosts[self.rank])
        if self.size > 1:
            global_except_hook.add_hook()

    @property
    def mpi_comm(self):
        """The mpi4py communicator (a duplicate of the one given)."""
        return self._mpi_comm

    def split(self, color: int, key: int) -> MpiCommunicatorBase:
        """Splits the processes into communicators, one per ``color`` (``MPI_Comm_split``).

        Args:
            color: the processes of a color form a new communicator.
            key: the order of the processes within their new communicator.

        Returns:
            MpiCommunicatorBase: a communicator of the same kind over this process's color.
        """
        part = self._mpi_comm.Split(color, key)
        try:
            return type(self)(part)
        finally:
            part.Free()

    def finalize(self) -> None:
        """Frees the MPI communicator; this communicator must not be used afterwards."""
        self._mpi_comm.Free()

    # Python objects (pickled).

    def send_obj(self, obj, dest: int, tag: int = 0) -> None:
        """Sends a picklable object to ``dest``."""
        self._mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source: int, tag: int = 0):
        """Receives an object sent by :meth:`send_obj` from ``source``."""
        return self._mpi_comm.recv(source=source, tag=tag)

    def bcast_obj(self, obj, root: int = 0):
        """Returns the object of ``root`` on every process (``obj`` is ignored elsewhere)."""
        return self._mpi_comm.bcast(obj, root=root)

    def gather_obj(self, obj, root: int = 0) -> list | None:
        """Returns the list of every process's object on ``root``, None elsewhere."""
        return self._mpi_comm.gather(obj, root=root)

    def allreduce_obj(self, obj):
        """Returns the sum (``+``) of every process's object, on every process."""
        return self._mpi_comm.allreduce(obj)

    # Arrays (through MPI's buffer interface).

    def send(self, data, dest: int, tag: int = 0) -> None:
        """Sends an array, or a tuple of arrays, to ``dest``.

        Args:
            data: a NumPy or CuPy array, or a tuple of them (any shapes and dtypes).
            dest: the rank to send to.
            tag: the message tag.
        """
        arrays = data if isinstance(data, tuple) else (data,)
        hosts = [_host('send', 'data', array) for array in arrays]
        specs = [_spec(array, host) for array, host in zip(arrays, hosts)]
        self._mpi_comm.send((isinstance(data, tuple), specs), dest=dest, tag=tag)
        for host in hosts:
            self._mpi_comm.Send(_bytes(host), dest=dest, tag=tag)

    def recv(self, source: int, tag: int = 0):
        """Receives what :meth:`send` sent from ``source``.

        Returns:
            An array, or a tuple of arrays if a tuple was sent, each with the sent shape and
            dtype (on the current GPU if it was sent from a GPU).
        """
        is_tuple, specs = self._mpi_comm.recv(source=source, tag=tag)
        arrays = []
        for spec in specs:
            host = _empty(spec)
            self._mpi_comm.Recv(_bytes(host), source=source, tag=tag)
            arrays.append(_placed(host, spec))
        return tuple(arrays) if is_tuple else arrays[0]

    def bcast(self, x, root: int = 0):
        """Broadcasts the array of ``root``.

        Args:
            x: the array to broadcast on ``root``; ignored (may be None) elsewhere.
            root: the rank whose array is broadcast.

        Returns:
            A new array with the contents of ``root``'s on every process.
        """
        host = _host('bcast', 'x', x).copy() if self.rank == root else None
        spec = self._mpi_comm.bcast(_spec(x, host) if self.rank == root else None, root=root)
        if host is None:
            host = _empty(spec)
        self._mpi_comm.Bcast(_bytes(host), root=root)
        return _placed(host, spec)

    def gather(self, x, root: int = 0) -> tuple | None:
        """Gathers every process's array on ``root``.

        Args:
            x: this process's array; the shapes and dtypes may differ between processes.
            root: the rank that receives the arrays.

        Returns:
            tuple: the arrays, in rank order, on ``root``; None elsewhere.
        """
        host = _host('gather', 'x', x)
        specs = self._mpi_comm.gather(_spec(x, host), root=root)
        if self.rank != root:
            self._mpi_comm.Gatherv(_bytes(host), None, root=root)
            return None
        received, counts = _receive_buffer(specs)
        self._mpi_comm.Gatherv(_bytes(host), [received, counts], root=root)
        return _split(received, specs)

    def allgather(self, x) -> tuple:
        """Gathers every process's array on every process.

        Args:
            x: this process's array; the shapes and dtypes may differ between processes.

        Returns:
            tuple: the arrays, in rank order.
        """
        host = _host('allgather', 'x', x)
        specs = self._mpi_comm.allgather(_spec(x, host))
        received, counts = _receive_buffer(specs)
        self._mpi_comm.Allgatherv(_bytes(host), [received, counts])
        return _split(received, specs)

    def scatter(self, xs, root: int = 0):
        """Sends the ``i``-th array of ``root``'s ``xs`` to the process of rank ``i``.

        Args:
            xs: on ``root``, a sequence of :attr:`size` arrays (or an array whose first axis
                has length :attr:`size`); ignored (may be None) elsewhere.
            root: the rank that sends.

        Returns:
            This process's array.
        """
        error, hosts, specs = None, None, None
        if self.rank == root:
            if xs is None or len(xs) != self.size:
                error = ValueError(
                    f'scatter: xs must hold one array per process ({self.size}), but got '
                    f'{"None" if xs is None else len(xs)} on rank {root}')
            else:
                hosts = [_host('scatter', 'xs[i]', x) for x in xs]
                specs = [_spec(x, host) for x, host in zip(xs, hosts)]
        error = self._mpi_comm.bcast(error, root=root)
        if error is not None:
            raise error
        spec = self._mpi_comm.scatter(specs, root=root)
        received = _empty(spec)
        if self.rank == root:
            send = numpy.concatenate([_bytes(host) for host in hosts])
            counts = [host.nbytes for host in hosts]
            self._mpi_comm.Scatterv([send, counts], _bytes(received), root=root)
        else:
            self._mpi_comm.Scatterv(None, _bytes(received), root=root)
        return _placed(received, spec)

    def allreduce(self, x):
        """Returns the element-wise sum of every process's array, on every process.

        Args:
            x: a numeric array of the same shape and dtype on every process.

        Returns:
            A new array of ``x``'s shape and dtype.
        """
        host = _host('allreduce', 'x', x)
        if host.dtype.kind not in 'iufc':
            raise TypeError(f'allreduce: x must be a numeric array, but its dtype is '
                            f'{host.dtype}')
        specs = self._mpi_comm.allgather(_spec(x, host))
        for rank, spec in enumerate(specs):
            if spec[:2] != specs[0][:2]:
                raise ValueError(
                    f'allreduce: x must have the same shape and dtype on every process, but '
                    f'it is {_describe(specs[0])} on rank 0 and {_describe(spec)} on rank '
                    f'{rank}')
        buffer = host.astype(_packing.transport_dtype(host.dtype))
        self._mpi_comm.Allreduce(self._mpi.IN_PLACE, buffer, op=self._mpi.SUM)
        return _placed(buffer.astype(host.dtype, copy=False), specs[self.rank])

    # Models.

    def bcast_data(self, model) -> None:
        """Copies the parameters of ``model`` on rank 0 into the models of the other ranks.

        Args:
            model (~framework.Link): the model; it must have the same parameters (names,
                shapes, dtypes) on every process.

        Raises:
            ValueError: the models differ; the message names the first differing parameter.
        """
        params = _sorted_params(model)
        structures = self._mpi_comm.allgather(
            {name: (param.shape if param.is_initialized else None,
                    param.dtype.name if param.is_initialized else None)
             for name, param in params})
        _check_same_structure(structures)
        arrays = [param.array for _, param in params if param.is_initialized]
        if not arrays:
            return
        packed = _packing.pack(arrays)
        for buffer, _ in packed:
            host = backend.to_cpu(buffer)
            self._mpi_comm.Bcast(host, root=0)
            if host is not buffer:
                buffer[...] = backend.get_array_module(buffer).asarray(host)
        _packing.unpack(packed)

    def multi_node_mean_grad(self, model, zero_fill: bool = False) -> None:
        """Replaces the gradient of each parameter by its mean over the processes.

        Args:
            model (~framework.Link): the model whose gradients were computed on this
                process's part of the batch.
            zero_fill: when True, an initialized parameter without a gradient counts with a
                zero gradient (and gets one); when False, it is left out, so it must have no
                gradient on every process.
        """
        grads = grads_to_reduce(model, zero_fill)
        if grads:
            self._mean_arrays(grads)

    def allreduce_grad(self, model, zero_fill: bool = False) -> None:
        """The same as :meth:`multi_node_mean_grad` (ChainerMN's older name)."""
        self.multi_node_mean_grad(model, zero_fill)

    def _mean_arrays(self, arrays) -> None:
        """Replaces each array, in place, by its element-wise mean over the processes."""
        raise NotImplementedError(f'{type(self).__name__} must implement _mean_arrays')


def grads_to_reduce(model, zero_fill: bool) -> list:
    """The gradients of the initialized parameters of ``model``, in name order, made
    C-contiguous and writable (zeros given to parameters without one if ``zero_fill``).

    Args:
        model (~framework.Link): the model.
        zero_fill: see :meth:`MpiCommunicatorBase.multi_node_mean_grad`.

    Returns:
        list: the gradient arrays, which are the parameters' own.
    """
    grads = []
    for _, param in _sorted_params(model):
        if not param.is_initialized or (param.grad is None and not zero_fill):
            continue
        grads.append(reducible_grad(param))
    return grads


def reducible_grad(param):
    """The gradient of an initialized parameter, made C-contiguous and writable (a zero one
    given to a parameter without one), which an all-reduce may replace in place.

    Args:
        param (~framework.Parameter): the parameter.

    Returns:
        array: the parameter's own gradient.
    """
    if param.grad is None:
        param.grad = param.xp.zeros_like(param.array)
    elif not (param.grad.flags.c_contiguous and getattr(param.grad.flags, 'writeable', True)):
        param.grad = param.xp.array(param.grad, order='C')
    return param.grad


def _sorted_params(model) -> list:
    return sorted(model.namedparams(), key=lambda pair: pair[0])


def _check_same_structure(structures) -> None:
    """Raises on every process if a rank's parameters differ from rank 0's."""
    reference = structures[0]
    for rank, structure in enumerate(structures[1:], 1):
        for name in sorted(reference.keys() | structure.keys()):
            if reference.get(name) != structure.get(name):
                raise ValueError(
                    'bcast_data: the model must have the same parameters on every process, but '
                    f'parameter {name!r} is {_describe_param(reference.get(name))} on rank 0 '
                    f'and {_describe_param(structure.get(name))} on rank {rank}')


def _describe_param(entry) -> str:
    if entry is None:
        return 'missing'
    shape, dtype = entry
    if shape is None:
        return 'not initialized'
    return f'of shape {shape} and dtype {dtype}'


def _host(where: str, name: str, x) -> numpy.ndarray:
    """A C-contiguous NumPy array with the contents of the array ``x``."""
    if not backend.is_array(x):
        raise TypeError(f'{where}: {name} must be a NumPy or CuPy array, but got '
                        f'{type(x).__name__}')
    return numpy.asarray(backend.to_cpu(x), order='C')


def _spec(x, host) -> tuple:
    """What a receiver needs to rebuild an array: shape, dtype, whether it lives on a GPU."""
    return host.shape, host.dtype.str, not isinstance(x, numpy.ndarray)


def _describe(spec) -> str:
    return f'of shape {spec[0]} and dtype {numpy.dtype(spec[1])}'


def _empty(spec) -> numpy.ndarray:
    return numpy.empty(spec[0], dtype=spec[1])


def _bytes(host: numpy.ndarray) -> numpy.ndarray:
    """The bytes of a C-contiguous array, so that any dtype travels as MPI bytes."""
    return host.reshape(-1).view(numpy.uint8)


def _placed(host: numpy.ndarray, spec):
    """The received host array, moved to the current GPU if it was sent from one."""
    return backend.to_gpu(host) if spec[2] else host


def _receive_buffer(specs) -> tuple[numpy.ndarray, list[int]]:
    counts = [_empty_nbytes(spec) for spec in specs]
    return numpy.empty(sum(counts), dtype=numpy.uint8), counts


def _empty_nbytes(spec) -> int:
    return int(numpy.prod(spec[0], dtype=numpy.int64)) * numpy.dtype(spec[1]).itemsize


def _split(received: numpy.ndarray, specs) -> tuple:
    arrays, offset = [], 0
    for spec in specs:
        nbytes = _empty_nbytes(spec)
        host = received[offset:offset + nbytes].view(spec[1]).reshape(spec[0]).copy()
        arrays.append(_placed(host, spec))
        offset += nbytes
    return tuple(arrays)
