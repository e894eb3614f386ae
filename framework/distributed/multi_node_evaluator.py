"""create_multi_node_evaluator: an evaluator whose results are means over the processes."""

from __future__ import annotations


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Makes an evaluator report the means of its results over the processes.

    Each process evaluates its part of the validation set (:func:`scatter_dataset`, whose
    parts have equal lengths); ``evaluate`` then returns, on every process, the mean over the
    processes of each reported value.

    Args:
        actual_evaluator (~framework.training.extensions.Evaluator): the evaluator, changed
            in place.
        communicator (MpiCommunicatorBase): the processes to average over.

    Returns:
        The evaluator.
    """
    local_evaluate = actual_evaluator.evaluate

    def evaluate() -> dict:
        results = communicator.mpi_comm.allgather(local_evaluate())
        for rank, result in enumerate(results):
            if result.keys() != results[0].keys():
                raise ValueError(
                    'create_multi_node_evaluator: every process must report the same values, '
                    f'but rank 0 reported {sorted(results[0])} and rank {rank} '
                    f'{sorted(result)}')
        return {key: sum(result[key] for result in results) / len(results)
                for key in sorted(results[0])}

    evaluate.__doc__ = local_evaluate.__doc__
    actual_evaluator.evaluate = evaluate
    return actual_evaluator
