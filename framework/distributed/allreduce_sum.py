"""allreduce_sum: a differentiable sum of a Variable over the processes."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.variable import Variable


class AllreduceSum(FunctionNode):
    """The element-wise sum over the processes; its gradient is the sum of theirs."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        x, = inputs
        return self.comm.allreduce(x),

    def backward(self, indexes, grad_outputs):
        return AllreduceSum(self.comm).apply(grad_outputs)


def allreduce_sum(x, comm) -> Variable:
    """Sums ``x`` element-wise over the processes of ``comm``, differentiably.

    Every process must call it with an array of the same shape and dtype. The gradient with
    respect to each process's ``x`` is the sum over the processes of the gradients with
    respect to the output, so that backward computes the gradient of the sum of every
    process's loss.

    Args:
        x (Variable or array): a floating-point array.
        comm (MpiCommunicatorBase): the processes.

    Returns:
        Variable: of the shape and dtype of ``x``, the same on every process.
    """
    return AllreduceSum(comm).apply((x,))[0]
