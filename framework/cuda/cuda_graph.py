"""A static graph's run replayed as one CUDA graph: every kernel of a call in one launch.

A compiled graph at a small batch is bound by the host, not the GPU: each of ResNet-50's ~200
kernels costs tens of microseconds of Python and CuPy to launch and a few to run. CUDA's stream
capture records the kernels of one run, with their arguments and memory addresses, into a
graph that a single ``cudaGraphLaunch`` replays (what PyTorch's ``torch.cuda.graphs`` and
MXNet's ``MXNET_ENABLE_CUDA_GRAPHS`` do for static models).

Replaying is only right if every address the run used still holds what the run put there:
:class:`CapturedRun` keeps its own input arrays (each call copies its inputs into them), the
outputs the capture produced (each call copies them out), and a memory pool of its own from
which everything the run allocated came, so that no other array is ever given that memory.
Before capturing it runs once on that pool and stream, uncaptured, so that the capture finds
its kernels compiled, its cuDNN plans made and its pool's blocks cached.
"""

from __future__ import annotations

from framework import backend


class CaptureError(RuntimeError):
    """The run could not be captured (it synchronizes with the host, say); the message says
    where."""


class CapturedRun:
    """Captures ``run`` on arrays like ``inputs`` and replays it on each call.

    Args:
        run (callable): takes a list of CuPy arrays of the shapes and dtypes of ``inputs`` and
            returns a list of CuPy arrays; it must launch the same work on the current stream
            whatever the inputs' values (no host synchronization, no data-dependent shapes).
        inputs (sequence of cupy.ndarray): arrays like the later calls' inputs, on one device.

    Raises:
        CaptureError: CUDA refused to capture the run (the error is chained).
    """

    def __init__(self, run, inputs):
        cupy = backend._cupy()
        self._device = inputs[0].device
        with self._device:
            self._pool = cupy.cuda.MemoryPool()
            self._stream = cupy.cuda.Stream(non_blocking=True)
            with cupy.cuda.using_allocator(self._pool.malloc):
                self._inputs = [cupy.empty(x.shape, x.dtype) for x in inputs]
                caller = cupy.cuda.get_current_stream()
                with self._stream:
                    self._stream.wait_event(caller.record())
                    self._copy_in(inputs)
                    run(self._inputs)
                    self._graph, self._outputs = self._capture(run)
            caller.wait_event(self._stream.record())

    def _capture(self, run):
        stream = self._stream
        stream.begin_capture()
        try:
            outputs = run(self._inputs)
        except Exception as error:
            _end_invalid_capture(stream)
            raise CaptureError(f'the static graph could not be captured as a CUDA graph: '
                               f'{error}') from error
        try:
            graph = stream.end_capture()
        except Exception as error:
            raise CaptureError(f'the static graph could not be captured as a CUDA graph: '
                               f'{error}') from error
        return graph, outputs

    def _copy_in(self, inputs) -> None:
        for static, x in zip(self._inputs, inputs):
            static[...] = x

    def __call__(self, inputs) -> list:
        """Runs the captured work on ``inputs`` (arrays of the captured shapes and dtypes) on
        the current stream; returns new arrays holding the outputs."""
        with self._device:
            self._copy_in(inputs)
            self._graph.launch()
            return [y.copy() for y in self._outputs]


def _end_invalid_capture(stream) -> None:
    """Ends a capture that failed, whose graph CUDA then refuses (the error it raises for that
    is the expected end of an invalidated capture, not news)."""
    try:
        stream.end_capture()
    except Exception:  # noqa: BLE001 (an invalidated capture always ends with an error)
        pass
