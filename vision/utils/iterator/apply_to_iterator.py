"""Applying a batched function to the batches of an iterator, lazily."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from vision.utils.iterator.unzip import unzip

_END = object()


class Communicator(Protocol):
    """What :func:`apply_to_iterator` uses of a communicator (ChainerMN's interface)."""

    rank: int
    size: int
    mpi_comm: Any  # ``scatter(list)`` from rank 0 to every rank, as mpi4py's ``Comm.scatter``

    def gather_obj(self, obj: Any) -> list | None:
        """Returns the objects of all ranks, in rank order, on rank 0 (None elsewhere)."""


def apply_to_iterator(func: Callable[..., Any], iterator: Iterable[Sequence],
                      n_input: int = 1, hook: Callable[[tuple, tuple, tuple], Any] | None = None,
                      comm: Communicator | None = None
                      ) -> tuple[tuple[Iterator, ...], tuple[Iterator, ...],
                                 tuple[Iterator, ...]] | None:
    """Applies a function to the batches of an iterator and returns the values lazily.

    Each batch from ``iterator`` is a list of samples (as from
    :class:`~framework.iterators.SerialIterator`). A sample is a tuple whose first ``n_input``
    values are the inputs of ``func`` and whose other values ("rest values", e.g. ground
    truth) are passed through; a sample that is not a tuple is a single input.

    >>> batch = next(iterator)
    >>> # batch: [in_val] or [(in_val0, ..., in_val{n_input - 1}, rest_val0, ...)]

    ``func`` takes one list per input and returns one list of per-sample values, or a tuple of
    such lists, e.g. ``model.predict``:

    >>> out_vals = func([in_val0, ...])  # [out_val, ...]
    >>> out_vals0, out_vals1 = func([in_val0, ...], [in_val1, ...])

    The returned iterators yield one value per sample, in order. Only the first batch is
    drawn and computed when this function is called; every later batch is drawn from
    ``iterator`` and computed when one of the returned iterators needs it, so an infinite
    ``iterator`` is fine. Values drawn for one iterator are kept until the others have
    consumed them too; delete the iterators you do not need to free their values.

    >>> in_values, out_values, rest_values = apply_to_iterator(model.predict, iterator)
    >>> imgs, = in_values
    >>> pred_bboxes, pred_labels, pred_scores = out_values
    >>> gt_bboxes, gt_labels = rest_values

    Args:
        func (callable): Takes ``n_input`` lists of input values of a batch and returns a
            list with one computed value per sample, or a tuple of such lists.
        iterator (iterable): An iterator (or any iterable) of batches, lists of samples.
            With ``comm``, only the iterator of rank 0 is used.
        n_input (int): The number of input values at the start of each sample. The default
            is 1.
        hook (callable): Called as ``hook(in_values, out_values, rest_values)`` after each
            batch, with the values of that batch only: tuples of lists, one list per input,
            output and rest value. With ``comm``, only rank 0 calls it.
        comm: A communicator (ChainerMN's interface: ``rank``, ``size``, ``mpi_comm.scatter``
            and ``gather_obj``). If given, rank 0 splits each batch among the ranks, every rank
            applies ``func`` to its part, and rank 0 gathers the results. Every rank must call
            this function; the other ranks return once rank 0's iterator is exhausted.

    Returns:
        Three tuples of iterators, ``in_values``, ``out_values`` and ``rest_values``:

        * ``in_values``: one iterator per input; ``next(in_values[i])`` is the :math:`i`-th
          input of the next sample.
        * ``out_values``: one iterator per output of ``func``.
        * ``rest_values``: one iterator per rest value of the samples; empty if the samples
          have none.

        On ranks other than 0, :obj:`None`.

    Raises:
        ValueError: ``iterator`` yields no batch, a sample has fewer than ``n_input`` values,
            or ``func`` does not return one value per sample.
    """
    if isinstance(n_input, bool) or not isinstance(n_input, int) or n_input < 1:
        raise ValueError(f'apply_to_iterator: n_input must be a positive int, but got '
                         f'{n_input!r}')
    if comm is not None and comm.rank != 0:
        for _ in _apply(func, None, n_input, None, comm):
            pass
        return None

    columns = unzip(_apply(func, iterator, n_input, hook, comm))
    if not columns:
        raise ValueError('apply_to_iterator: iterator must yield at least one batch, but it '
                         'was exhausted')
    # Each of the three yields a tuple of per-batch lists; unzip it into one iterator per
    # value and flatten the batches.
    in_values, out_values, rest_values = (
        tuple(_flatten(batches) for batches in unzip(column)) for column in columns)
    return in_values, out_values, rest_values


def _split_sample(sample: Any, n_input: int) -> tuple[tuple, tuple]:
    if not isinstance(sample, tuple):
        sample = (sample,)
    if len(sample) < n_input:
        raise ValueError(f'apply_to_iterator: each sample must hold at least n_input '
                         f'({n_input}) values, but got a sample of {len(sample)}')
    return sample[:n_input], sample[n_input:]


def _columns(rows: Sequence[tuple]) -> tuple[list, ...]:
    """``[(a0, b0), (a1, b1)]`` -> ``([a0, a1], [b0, b1])``."""
    return tuple(list(column) for column in zip(*rows))


def _compute(func: Callable[..., Any], inputs: list[tuple] | None) -> tuple | None:
    """Applies ``func`` to the samples' inputs; returns a tuple of per-sample sequences."""
    if not inputs:
        return None
    outputs = func(*_columns(inputs))
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    for i, values in enumerate(outputs):
        if len(values) != len(inputs):
            raise ValueError(f'apply_to_iterator: func must return one value per sample, but '
                             f'output {i} has {len(values)} values for {len(inputs)} samples')
    return outputs


def _merge(parts: list[tuple | None]) -> tuple:
    """Concatenates the outputs of the ranks, output by output."""
    parts = [part for part in parts if part is not None]
    if len(parts) == 1:
        return parts[0]
    return tuple([value for values in outputs for value in values] for outputs in zip(*parts))


def _apply(func: Callable[..., Any], iterator: Iterable | None, n_input: int,
           hook: Callable[[tuple, tuple, tuple], Any] | None,
           comm: Communicator | None) -> Iterator[tuple[tuple, tuple, tuple]]:
    """Yields ``(in_values, out_values, rest_values)`` per batch on rank 0.

    Every rank runs this loop: rank 0 draws a batch and scatters its inputs in contiguous
    chunks (the first ``len(batch) % size`` ranks get one sample more; only the first batch,
    as the last may be short, is checked to split evenly), each rank applies ``func`` to its
    chunk, and rank 0 gathers the outputs. ``None`` scattered to every rank ends the loop.
    """
    size, rank = (1, 0) if comm is None else (comm.size, comm.rank)
    iterator = iter(iterator) if rank == 0 else None
    first = True
    while True:
        chunks = None
        if rank == 0:
            batch = next(iterator, _END)
            if batch is _END:
                chunks = [None] * size
            elif len(batch) == 0:
                continue
            else:
                inputs, rests = zip(*(_split_sample(s, n_input) for s in batch))
                q, r = divmod(len(batch), size)
                if r and first:
                    warnings.warn(
                        f'apply_to_iterator: the batch size ({len(batch)}) is not a multiple of '
                        f'the number of workers ({size}); give the iterator the total batch '
                        'size of all workers', RuntimeWarning, stacklevel=3)
                first = False
                starts = [k * q + min(k, r) for k in range(size + 1)]
                chunks = [list(inputs[a:b]) for a, b in zip(starts[:-1], starts[1:])]
        local = chunks[0] if comm is None else comm.mpi_comm.scatter(chunks)
        if local is None:
            return
        outputs = _compute(func, local)
        parts = [outputs] if comm is None else comm.gather_obj(outputs)
        if rank == 0:
            in_values, out_values, rest_values = _columns(inputs), _merge(parts), _columns(rests)
            if hook is not None:
                hook(in_values, out_values, rest_values)
            yield in_values, out_values, rest_values


def _flatten(batches: Iterator[Sequence]) -> Iterator:
    return (value for batch in batches for value in batch)
