"""A declarative base for testing differentiable functions.

A test declares its parameter combinations, how to make inputs, the function under test and
the expected outputs; the base runs forward, backward and double backward for every
combination on every device (the CPU, the emulated device, and a GPU when CuPy has one)::

    class TestExp(FunctionTestCase):
        params = product({'shape': [(3, 2), ()], 'dtype': FLOAT_DTYPES})

        def generate_inputs(self):
            return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

        def forward(self, inputs, device):
            x, = inputs
            return F.exp(x),

        def forward_expected(self, inputs):
            x, = inputs
            return numpy.exp(x),

Each entry of ``params`` becomes attributes of the test instance (``self.shape``,
``self.dtype``). Inputs whose dtype is not floating-point are not differentiated. The numerical
gradients are computed in float64 whatever the dtype under test. Gradients at kinks, where the
numerical derivative is undefined, are checked against ``backward_expected`` when a test
defines it.
"""

from __future__ import annotations

import numpy

from framework import backend
from framework.testing import gradient_check
from framework.testing.devices import devices
from framework.variable import Variable

FLOAT_DTYPES = (numpy.float16, numpy.float32, numpy.float64)

_FORWARD_TOLERANCE = {
    numpy.float16: {'atol': 1e-3, 'rtol': 1e-3},
    numpy.float32: {'atol': 1e-6, 'rtol': 1e-5},
    numpy.float64: {'atol': 1e-12, 'rtol': 1e-10},
}
_BACKWARD_TOLERANCE = {
    numpy.float16: {'atol': 1e-2, 'rtol': 1e-2},
    numpy.float32: {'atol': 1e-4, 'rtol': 1e-3},
    numpy.float64: {'atol': 1e-6, 'rtol': 1e-5},
}


def _param_id(param: dict) -> str:
    def text(v):
        if isinstance(v, type) and issubclass(v, numpy.generic):
            return v.__name__
        if isinstance(v, numpy.dtype):
            return v.name
        return repr(v).replace(' ', '')
    return '-'.join(f'{k}={text(v)}' for k, v in param.items()) or 'default'


def assert_allclose(actual, expected, atol=1e-5, rtol=1e-4, err_msg='') -> None:
    """``numpy.testing.assert_allclose`` for arrays of any device."""
    numpy.testing.assert_allclose(backend.to_cpu(actual), backend.to_cpu(expected), atol=atol,
                                  rtol=rtol, err_msg=err_msg)


class FunctionTestCase:
    """Base of declarative tests of differentiable functions (see the module docstring)."""

    params: list[dict] = [{}]
    dtype = numpy.float32
    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    #: Overrides of the default tolerances and options, per test kind.
    check_forward_options: dict = {}
    check_backward_options: dict = {}
    check_double_backward_options: dict = {}

    # --- what a test declares --------------------------------------------------------------

    def generate_inputs(self) -> tuple:
        """Returns the input arrays (host arrays) for the current parameters."""
        raise NotImplementedError

    def forward(self, inputs: tuple, device) -> tuple:
        """Applies the function under test to input Variables on ``device``."""
        raise NotImplementedError

    def forward_expected(self, inputs: tuple) -> tuple:
        """Returns the expected output arrays, computed from the host inputs."""
        raise NotImplementedError

    def generate_grad_outputs(self, outputs_template: tuple) -> tuple:
        """Returns gradients of the outputs; random by default."""
        return tuple(numpy.random.uniform(-1, 1, y.shape).astype(y.dtype)
                     for y in outputs_template)

    def generate_grad_grad_inputs(self, inputs_template: tuple) -> tuple:
        """Returns gradients of the inputs' gradients; random by default."""
        return tuple(numpy.random.uniform(-1, 1, x.shape).astype(x.dtype)
                     for x in inputs_template)

    backward_expected = None
    """Optionally ``backward_expected(inputs, grad_outputs) -> tuple`` of the expected
    gradients of the differentiable inputs, checked exactly (for values at kinks)."""

    # --- collection --------------------------------------------------------------------------

    def pytest_generate_tests(self, metafunc):
        skipped = {
            'test_forward': self.skip_forward_test,
            'test_backward': self.skip_backward_test,
            'test_double_backward': self.skip_double_backward_test,
            'test_backward_expected': self.backward_expected is None,
        }.get(metafunc.function.__name__, False)
        params = [] if skipped else self.params
        if 'param' in metafunc.fixturenames:
            metafunc.parametrize('param', params, ids=[_param_id(p) for p in params])
        if 'device' in metafunc.fixturenames:
            metafunc.parametrize('device', devices(), ids=str)

    def _setup(self, param):
        for key, value in param.items():
            setattr(self, key, value)
        numpy.random.seed(0)

    def _tolerance(self, table, options):
        defaults = dict(table.get(numpy.dtype(self.dtype).type, table[numpy.float32]))
        defaults.update(options)
        return defaults

    def _run_forward(self, inputs, device):
        xs = tuple(Variable(device.send(x)) for x in inputs)
        outputs = self.forward(xs, device)
        if not isinstance(outputs, tuple) or not all(isinstance(y, Variable) for y in outputs):
            raise TypeError(f'{type(self).__name__}.forward must return a tuple of Variables')
        return outputs

    def _differentiable(self, inputs):
        return [i for i, x in enumerate(inputs) if x.dtype.kind == 'f']

    # --- the tests -----------------------------------------------------------------------------

    def test_forward(self, param, device):
        self._setup(param)
        inputs = self.generate_inputs()
        expected = self.forward_expected(tuple(x.copy() for x in inputs))
        outputs = self._run_forward(inputs, device)
        assert len(outputs) == len(expected), 'number of outputs'
        tolerance = self._tolerance(_FORWARD_TOLERANCE, self.check_forward_options)
        for i, (y, e) in enumerate(zip(outputs, expected)):
            e = numpy.asarray(e)
            assert backend.get_device_from_array(y.array) == device, \
                f'output {i} is on {backend.get_device_from_array(y.array)}, not on {device}'
            assert y.shape == e.shape, f'output {i}: shape {y.shape}, expected {e.shape}'
            assert y.dtype == e.dtype, f'output {i}: dtype {y.dtype}, expected {e.dtype}'
            assert_allclose(y.array, e, err_msg=f'output {i}', **tolerance)

    def test_backward(self, param, device):
        self._setup(param)
        inputs = self.generate_inputs()
        outputs = self._run_forward(inputs, device)
        grad_outputs = self.generate_grad_outputs(tuple(y.array for y in outputs))
        options = {'dtype': numpy.float64}
        options.update(self._tolerance(_BACKWARD_TOLERANCE, self.check_backward_options))
        gradient_check.check_backward(
            lambda *xs: self.forward(xs, device), device.send(tuple(inputs)),
            device.send(tuple(grad_outputs)), **options)

    def test_double_backward(self, param, device):
        self._setup(param)
        inputs = self.generate_inputs()
        outputs = self._run_forward(inputs, device)
        grad_outputs = self.generate_grad_outputs(tuple(y.array for y in outputs))
        differentiable = [inputs[i] for i in self._differentiable(inputs)]
        grad_grad_inputs = self.generate_grad_grad_inputs(tuple(differentiable))
        options = {'dtype': numpy.float64}
        options.update(self._tolerance(_BACKWARD_TOLERANCE, self.check_double_backward_options))
        gradient_check.check_double_backward(
            lambda *xs: self.forward(xs, device), device.send(tuple(inputs)),
            device.send(tuple(grad_outputs)), device.send(tuple(grad_grad_inputs)), **options)

    def test_backward_expected(self, param, device):
        self._setup(param)
        inputs = self.generate_inputs()
        xs = tuple(Variable(device.send(x)) for x in inputs)
        outputs = self.forward(xs, device)
        grad_outputs = self.generate_grad_outputs(tuple(y.array for y in outputs))
        from framework import grad
        targets = [xs[i] for i in self._differentiable(inputs)]
        gxs = grad(list(outputs), targets, [device.send(g) for g in grad_outputs])
        expected = self.backward_expected(tuple(x.copy() for x in inputs), grad_outputs)
        tolerance = self._tolerance(_FORWARD_TOLERANCE, self.check_forward_options)
        for i, (g, e) in enumerate(zip(gxs, expected)):
            assert g is not None, f'input {i} got no gradient'
            assert_allclose(g.array, numpy.asarray(e), err_msg=f'gradient of input {i}',
                            **tolerance)
