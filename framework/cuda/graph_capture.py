"""A static graph's calls replayed as one captured CUDA graph."""

from __future__ import annotations

import warnings


class CudaGraphExecutor:
    """Runs the calls of an :class:`~framework.graph.executor.Executor` on a GPU as one CUDA
    graph: one launch in place of the launches of every kernel of a call, so that the host's
    time per call no longer grows with the number of ops (what inference at a small batch
    spends its time on).

    The first call runs the executor once on a stream of its own with a memory pool of its own
    (which compiles the kernels and leaves in the pool a block for every allocation of a call),
    then captures a second call into a CUDA graph. Every call copies its inputs into the
    captured inputs, launches the graph on the current stream and returns copies of the
    captured outputs. Where a call cannot be captured (an op that waits for the host), it warns
    once and runs the executor as it is. Calls are not thread-safe, as the executor's are:
    :meth:`copy` makes another.

    Args:
        executor (Executor): of a graph on a GPU (``graph.xp`` is CuPy).
    """

    def __init__(self, executor):
        self.executor = executor
        self.graph = executor.graph
        self._captured = None
        self._uncapturable = False

    def copy(self) -> CudaGraphExecutor:
        """Another one, on an executor with memory of its own."""
        return CudaGraphExecutor(self.executor.copy())

    def _capture(self, inputs) -> None:
        cupy = self.graph.xp
        pool = cupy.cuda.MemoryPool()
        stream = cupy.cuda.Stream(non_blocking=True)
        stream.wait_event(cupy.cuda.get_current_stream().record())
        with cupy.cuda.using_allocator(pool.malloc), stream:
            captured_inputs = [cupy.array(x, copy=True) for x in inputs]
            self.executor(*captured_inputs)
            stream.begin_capture()
            try:
                outputs = self.executor(*captured_inputs)
            except Exception:
                stream.end_capture()
                raise
            cuda_graph = stream.end_capture()
        stream.synchronize()
        # The pool and the stream live as long as the graph that replays into their memory.
        self._captured = (cuda_graph, captured_inputs, outputs, pool, stream)

    def __call__(self, *inputs) -> list:
        """The graph's outputs (new arrays, in order) from its inputs."""
        if self._uncapturable:
            return self.executor(*inputs)
        if self._captured is None:
            try:
                self._capture(inputs)
            except self.graph.xp.cuda.runtime.CUDARuntimeError as error:
                self._uncapturable = True
                warnings.warn(f'this graph cannot be captured as a CUDA graph ({error}); it '
                              'runs op by op', RuntimeWarning, stacklevel=2)
                return self.executor(*inputs)
        cuda_graph, captured_inputs, outputs, _, _ = self._captured
        for captured, x in zip(captured_inputs, inputs):
            captured[...] = x
        cuda_graph.launch()
        return [y.copy() for y in outputs]
