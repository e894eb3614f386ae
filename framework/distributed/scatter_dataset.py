"""scatter_dataset: each process gets its part of a dataset (ChainerMN's semantics)."""

from __future__ import annotations

import numpy

from framework.datasets.sub_dataset import SubDataset


def scatter_dataset(dataset, comm, root: int = 0, shuffle: bool = False,
                    seed: int | None = None, *, force_equal_length: bool = True):
    """Splits the dataset of ``root`` into one contiguous part per process.

    With ``n`` examples and ``size`` processes, the part of rank ``i`` starts at example
    ``n * i // size`` (of the permuted order with ``shuffle``). With ``force_equal_length``
    every part has ``ceil(n / size)`` examples (neighbouring parts then share a few), so that
    every process runs the same number of iterations per epoch; otherwise the parts tile the
    dataset exactly.

    Args:
        dataset: the dataset, on ``root``; ignored (may be None) on the other processes,
            which receive their part pickled.
        comm (MpiCommunicatorBase): the processes to scatter to.
        root: the rank that holds the dataset.
        shuffle: whether to permute the examples before splitting.
        seed: the seed of the permutation (``numpy.random.RandomState(seed)``).
        force_equal_length: whether every part has the same length.

    Returns:
        SubDataset: this process's part.

    Raises:
        ValueError: on every process, if the dataset has fewer examples than processes.
    """
    parts = None
    if comm.rank == root:
        n = len(dataset)
        if n < comm.size:
            error = ValueError(
                f'scatter_dataset: the dataset must have at least one example per process, '
                f'but it has {n} for {comm.size} processes')
            parts = [error] * comm.size
        else:
            order = (numpy.random.RandomState(seed).permutation(n) if shuffle
                     else numpy.arange(n))
            part_size = -(-n // comm.size)
            parts = []
            for i in range(comm.size):
                start = n * i // comm.size
                finish = start + part_size if force_equal_length else n * (i + 1) // comm.size
                parts.append(SubDataset(dataset, start, finish, order))
    mine = parts[root] if comm.rank == root else None
    if parts is not None:
        parts[root] = None
    part = comm.mpi_comm.scatter(parts, root=root)
    if comm.rank == root:
        part = mine
    if isinstance(part, ValueError):
        raise part
    return part
