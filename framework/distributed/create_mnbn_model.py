"""create_mnbn_model: a copy of a model whose batch normalizations use every process's batch."""

from __future__ import annotations

import copy

from framework.distributed.multi_node_batch_normalization import MultiNodeBatchNormalization
from framework.links.normalization.batch_normalization import BatchNormalization


def create_mnbn_model(link, comm):
    """Copies ``link`` with each :class:`~framework.links.BatchNormalization` made a
    :class:`MultiNodeBatchNormalization` over ``comm`` (ChainerMN's ``create_mnbn_model``).

    The copy keeps the parameters, the running statistics, the names and the order of the
    layers: each batch normalization of the copy becomes a multi-node one in place (that
    class adds only the communicator), so the copy serializes to the same keys and its
    snapshots load into the original model. Subclasses of ``BatchNormalization`` are left as
    they are.

    Args:
        link (~framework.Link): the model; not changed.
        comm (MpiCommunicatorBase): the processes whose batches the statistics are over.

    Returns:
        ~framework.Link: the copy.

    Raises:
        ValueError: a batch normalization made with ``axis`` (which the multi-node one
            lacks).
    """
    model = copy.deepcopy(link)
    for name, bn in model.namedlinks():
        if type(bn) is not BatchNormalization:
            continue
        if bn.axis is not None:
            raise ValueError(
                f'create_mnbn_model: the batch normalization {name} must normalize over the '
                f'batch and the spatial axes of a size given, as MultiNodeBatchNormalization '
                f'does, but it has axis={bn.axis}')
        bn.__class__ = MultiNodeBatchNormalization
        bn.comm = comm
    return model
