"""Numerical gradient checks of differentiable functions.

:func:`check_backward` compares the gradient computed by backpropagation with a central
difference along one random direction of all inputs at once: two (or, with
``detect_nondifferentiable``, four) extra forward passes, however many elements the inputs
have. On failure it reports eps, the tolerances, the inputs, the direction and both
derivatives. :func:`check_double_backward` applies the same check to the gradient function.
"""

from __future__ import annotations

import numpy

from framework import backend
from framework._backprop import grad
from framework.variable import Variable


class NondifferentiableError(AssertionError):
    """The function is not differentiable at the point checked (its one-sided derivatives
    differ)."""


def _as_tuple(x):
    if x is None:
        return None
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _directions(shapes):
    """A random unit vector of the joint space of all inputs, one host array per input."""
    ds = [numpy.random.normal(size=s) for s in shapes]
    norm = numpy.sqrt(sum(float(numpy.square(d).sum()) for d in ds))
    return [d / norm if norm else d for d in ds]


def _as_array(x):
    """NumPy turns 0-dimensional results into scalars; turn them back into arrays."""
    return numpy.asarray(x) if isinstance(x, numpy.generic) else x


def _to_host64(x):
    return backend.to_cpu(x).astype(numpy.float64)


def _evaluate(func, arrays, y_grad_host):
    """Returns sum_j <y_j, y_grad_j> for the inputs ``arrays`` (in float64, on the host)."""
    ys = _as_tuple(func(*[Variable(a) for a in arrays]))
    total = 0.0
    for i, y in enumerate(ys):
        if y is None:
            continue
        y = _to_host64(y.array)
        gy = numpy.ones_like(y) if y_grad_host is None else y_grad_host[i]
        if gy is None:
            continue
        total += float((y * gy).sum())
    return total


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5, rtol=1e-4,
                   no_grads=None, dtype=None, detect_nondifferentiable=False) -> None:
    """Checks the gradients of ``func`` computed by backprop against numerical ones.

    Args:
        func (callable): takes Variables and returns a Variable or a tuple of Variables.
        x_data (array or tuple of arrays): the inputs.
        y_grad (array, tuple of arrays or None): gradients of the outputs; None when the
            output is a single-element loss.
        params (tuple of Variable): parameters that ``func`` uses besides its inputs (e.g. a
            link's); their gradients are checked too.
        eps (float): the step of the central difference.
        atol, rtol (float): tolerances of the comparison of the directional derivatives.
        no_grads (sequence of bool): inputs not to differentiate; by default those that are
            not floating-point.
        dtype: compute the numerical derivative with inputs, ``y_grad`` and params cast to this
            float dtype (e.g. ``numpy.float64`` for a float16 function).
        detect_nondifferentiable (bool): raise :class:`NondifferentiableError` when the
            left and right derivatives at the point differ.

    Raises:
        AssertionError: with a report when the derivatives differ.
    """
    x_data = _as_tuple(x_data)
    y_grad = _as_tuple(y_grad)
    params = tuple(params)
    if no_grads is None:
        no_grads = [x.dtype.kind != 'f' for x in x_data]
    elif len(no_grads) != len(x_data):
        raise ValueError(f'check_backward: no_grads must have {len(x_data)} entries, '
                         f'got {len(no_grads)}')
    if dtype is not None and numpy.dtype(dtype).kind != 'f':
        raise ValueError(f'check_backward: dtype must be a float dtype, got {dtype}')

    xs = [Variable(x, requires_grad=not ng) for x, ng in zip(x_data, no_grads)]
    ys = _as_tuple(func(*xs))
    for i, y in enumerate(ys):
        if not isinstance(y, Variable):
            raise TypeError(f'check_backward: output {i} of func must be a Variable, '
                            f'got {type(y).__name__}')
    if y_grad is not None and len(y_grad) != len(ys):
        raise ValueError(f'check_backward: y_grad must have {len(ys)} entries, got {len(y_grad)}')
    targets = [x for x in xs if x.requires_grad] + list(params)
    if not targets:
        return
    analytic_grads = grad(list(ys), targets, y_grad)

    directions = _directions([t.shape for t in targets])
    analytic = 0.0
    for g, d in zip(analytic_grads, directions):
        if g is not None:
            analytic += float((_to_host64(g.array) * d).sum())

    cast = (lambda a: a.astype(dtype)) if dtype is not None else (lambda a: a)
    base_inputs = [cast(x) if not ng else x for x, ng in zip(x_data, no_grads)]
    base_params = [cast(p.array) for p in params]
    y_grad_host = None if y_grad is None else [
        None if g is None else _to_host64(g) for g in y_grad]
    device_of = [backend.get_device_from_array(t.array) for t in targets]

    def g_at(delta):
        arrays = list(base_inputs)
        k = 0
        for i, ng in enumerate(no_grads):
            if not ng:
                step = device_of[k].send(directions[k] * delta).astype(arrays[i].dtype)
                arrays[i] = _as_array(arrays[i] + step)
                k += 1
        saved = [p.array for p in params]
        try:
            for j, p in enumerate(params):
                step = device_of[k + j].send(directions[k + j] * delta)
                p.array = _as_array(base_params[j] + step.astype(base_params[j].dtype))
            return _evaluate(func, arrays, y_grad_host)
        finally:
            for p, a in zip(params, saved):
                p.array = a

    if detect_nondifferentiable:
        g0, gm1, gp1, gm2, gp2 = g_at(0.0), g_at(-eps), g_at(eps), g_at(-2 * eps), g_at(2 * eps)
        left = (3 * g0 - 4 * gm1 + gm2) / (2 * eps)
        right = (-3 * g0 + 4 * gp1 - gp2) / (2 * eps)
        if abs(left - right) > atol + rtol * max(abs(left), abs(right)):
            raise NondifferentiableError(_report(
                'the function is not differentiable at the point: the one-sided derivatives '
                f'differ (left {left!r}, right {right!r})', eps, atol, rtol, x_data, directions,
                None, analytic, analytic_grads))
        numerical = (gp1 - gm1) / (2 * eps)
    else:
        numerical = (g_at(eps) - g_at(-eps)) / (2 * eps)

    if not abs(numerical - analytic) <= atol + rtol * abs(numerical):
        raise AssertionError(_report('backprop and the numerical derivative differ', eps, atol,
                                     rtol, x_data, directions, numerical, analytic,
                                     analytic_grads))


def _report(what, eps, atol, rtol, x_data, directions, numerical, analytic, analytic_grads):
    lines = [f'check_backward: {what}', f'  eps: {eps}  atol: {atol}  rtol: {rtol}',
             f'  directional derivative, numerical: {numerical!r}',
             f'  directional derivative, backprop:  {analytic!r}']
    with numpy.printoptions(precision=6, threshold=40, edgeitems=3):
        for i, x in enumerate(x_data):
            lines.append(f'  input {i} {x.shape} {x.dtype}:\n{backend.to_cpu(x)}')
        for i, (d, g) in enumerate(zip(directions, analytic_grads)):
            lines.append(f'  direction {i}:\n{d}')
            lines.append(f'  backprop gradient {i}:\n'
                         f'{None if g is None else backend.to_cpu(g.array)}')
    return '\n'.join(lines)


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(), params_grad_grad=(),
                          eps=1e-3, atol=1e-4, rtol=1e-3, no_grads=None, dtype=None,
                          detect_nondifferentiable=False) -> None:
    """Checks the second-order gradients of ``func`` (the gradient of its gradient).

    The function checked with :func:`check_backward` maps ``(x_data, y_grad)`` to the
    gradients of the differentiable inputs and params, computed with double backprop.

    Args:
        func, x_data, y_grad, params, eps, atol, rtol, no_grads, dtype,
        detect_nondifferentiable: as in :func:`check_backward`.
        x_grad_grad (array or tuple of arrays): gradients of the first-order gradients of the
            differentiable inputs.
        params_grad_grad (tuple of arrays): gradients of the params' first-order gradients.
    """
    x_data = _as_tuple(x_data)
    y_grad = _as_tuple(y_grad)
    x_grad_grad = _as_tuple(x_grad_grad) or ()
    params = tuple(params)
    params_grad_grad = _as_tuple(params_grad_grad) or ()
    n_x = len(x_data)
    if no_grads is None:
        no_grads = [x.dtype.kind != 'f' for x in x_data]

    def first_order_grad(*inputs):
        xs = inputs[:n_x]
        gys = inputs[n_x:] if y_grad is not None else None
        ys = _as_tuple(func(*xs))
        targets = [x for x, ng in zip(xs, no_grads) if not ng] + list(params)
        gxs = grad(list(ys), targets, gys, enable_double_backprop=True)
        return tuple(g if g is not None else Variable(t.xp.zeros_like(t.array))
                     for g, t in zip(gxs, targets))

    inputs = x_data + (y_grad or ())
    full_no_grads = list(no_grads) + [False] * len(y_grad or ())
    check_backward(first_order_grad, inputs, x_grad_grad + params_grad_grad, params=params,
                   eps=eps, atol=atol, rtol=rtol, no_grads=full_no_grads, dtype=dtype,
                   detect_nondifferentiable=detect_nondifferentiable)
