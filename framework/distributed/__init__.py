"""Data-parallel training over MPI, with ChainerMN's API and names.

Run a script under MPI (``mpiexec -n 2 python train.py``); each process holds a copy of the
model and a part of the data::

    comm = distributed.create_communicator('flat')
    train = distributed.scatter_dataset(train if comm.rank == 0 else None, comm, shuffle=True)
    optimizer = distributed.create_multi_node_optimizer(optimizers.MomentumSGD(), comm)
    optimizer.setup(model)            # rank 0's parameters, copied to every process
    evaluator = distributed.create_multi_node_evaluator(extensions.Evaluator(...), comm)

- :func:`create_communicator`: ``'naive'``, ``'flat'``, ``'non_cuda_aware'`` (CPU or GPU) and
  ``'pure_nccl'`` (GPU); ranks, collectives on arrays and objects, ``bcast_data``,
  ``multi_node_mean_grad`` (:class:`MpiCommunicatorBase`).
- :func:`create_multi_node_optimizer`, :func:`scatter_dataset`,
  :func:`create_multi_node_evaluator`, :func:`create_multi_node_iterator`. The optimizer
  averages the gradients in buckets pushed to the dependency engine as backprop finishes them
  (:mod:`~framework.distributed.gradient_buckets`), so that the all-reduce overlaps the rest
  of the backward pass.
- :class:`MultiNodeBatchNormalization` (statistics over every process's batch), built on the
  differentiable :func:`allreduce_sum`; :func:`create_mnbn_model` swaps it into a model.
- :mod:`global_except_hook`: an exception on one process aborts the job instead of leaving
  the others waiting.

mpi4py comes with the ``dist`` extra (``pip install '.[dist]'``); it is imported, and MPI
started, only when a communicator is created.
"""

from framework.distributed import global_except_hook
from framework.distributed.allreduce_sum import allreduce_sum
from framework.distributed.create_communicator import create_communicator
from framework.distributed.create_mnbn_model import create_mnbn_model
from framework.distributed.flat_communicator import FlatCommunicator
from framework.distributed.mpi_communicator_base import MpiCommunicatorBase
from framework.distributed.multi_node_batch_normalization import MultiNodeBatchNormalization
from framework.distributed.multi_node_evaluator import create_multi_node_evaluator
from framework.distributed.multi_node_iterator import create_multi_node_iterator
from framework.distributed.multi_node_optimizer import create_multi_node_optimizer
from framework.distributed.naive_communicator import NaiveCommunicator
from framework.distributed.non_cuda_aware_communicator import NonCudaAwareCommunicator
from framework.distributed.pure_nccl_communicator import PureNcclCommunicator
from framework.distributed.scatter_dataset import scatter_dataset

__all__ = [
    'FlatCommunicator', 'MpiCommunicatorBase', 'MultiNodeBatchNormalization', 'NaiveCommunicator',
    'NonCudaAwareCommunicator', 'PureNcclCommunicator', 'allreduce_sum', 'create_communicator',
    'create_mnbn_model', 'create_multi_node_evaluator', 'create_multi_node_iterator',
    'create_multi_node_optimizer', 'global_except_hook', 'scatter_dataset',
]
