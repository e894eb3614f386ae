"""Optimizers and update rules: how parameters change from their gradients (Chainer's design).

An :class:`Optimizer` optimizes the parameters of a *target* link, registered with
:meth:`Optimizer.setup`. A :class:`GradientMethod` (every first-order method of
:mod:`framework.optimizers`) gives each parameter its own :class:`UpdateRule`, stored in
``param.update_rule``: the rule holds the per-parameter state (moment estimates, ...) and its
own :class:`Hyperparameter`, whose missing entries are read from the optimizer's, so that::

    opt = optimizers.MomentumSGD(lr=0.1).setup(model)
    opt.lr = 0.01                                   # every parameter follows
    model.fc.W.update_rule.hyperparam.lr = 0.001    # except this one, from now on
    model.extractor.disable_update()                # and these stay as they are

Hooks (:mod:`framework.optimizer_hooks`) run before (``'pre'``) or after (``'post'``) the
update, once per update or once per parameter. Optimizers are saved and loaded with the
serializers; the state keys are Chainer's (``'t'``, ``'epoch'``, ``'<param path>/<state>'``),
so snapshots written by Chainer load.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy

from framework import backend
from framework.links.link import Link
from framework.serializers.serializer import Deserializer
from framework.variable import Variable

_TIMINGS = ('pre', 'post')


class Hyperparameter:
    """A set of hyperparameters whose missing entries are read from a parent set.

    The hyperparameter of each update rule has the optimizer's as parent: changing an entry of
    the optimizer changes it for every rule that has not set the entry itself.

    Args:
        parent (Hyperparameter): where entries not set here are read from.
        values: initial entries (``Hyperparameter(lr=0.1)``).
    """

    def __init__(self, parent: Hyperparameter | None = None, **values):
        self._parent = parent
        self.__dict__.update(values)

    def __getattr__(self, name):
        parent = self.__dict__.get('_parent')
        if parent is None:
            raise AttributeError(f'hyperparameter {name!r} is not set')
        return getattr(parent, name)

    @property
    def parent(self) -> Hyperparameter | None:
        """The parent hyperparameter."""
        return self._parent

    def get_dict(self) -> dict:
        """Every entry visible from here (parents' entries overridden by this one's)."""
        values = {} if self._parent is None else self._parent.get_dict()
        values.update((k, v) for k, v in self.__dict__.items() if k != '_parent')
        return values

    def __repr__(self):
        entries = ', '.join(f'{k}={v}' for k, v in sorted(self.get_dict().items()))
        return f'Hyperparameter({entries})'


class HyperparameterProxy:
    """A class attribute of an optimizer that reads and writes ``self.hyperparam.<name>``.

    Args:
        attr_name: the name of the hyperparameter entry.
    """

    def __init__(self, attr_name: str):
        self._attr_name = attr_name
        self.__doc__ = f'Alias of ``self.hyperparam.{attr_name}``.'

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._attr_name, value)


class _Hooks:
    """Named hooks called before (``'pre'``) or after (``'post'``) an update, in the order they
    were added."""

    def __init__(self, owner: str):
        self._owner = owner
        self._hooks = {timing: {} for timing in _TIMINGS}

    def add(self, hook: Callable, name: str | None, timing: str) -> None:
        if not callable(hook):
            raise TypeError(f'{self._owner}.add_hook: hook must be callable, but got '
                            f'{type(hook).__name__}')
        if timing not in _TIMINGS + ('auto',):
            raise ValueError(f"{self._owner}.add_hook: timing must be 'pre', 'post' or 'auto', "
                             f'but got {timing!r}')
        if timing == 'auto':
            timing = getattr(hook, 'timing', 'pre')
            if timing not in _TIMINGS:
                warnings.warn(f"{self._owner}.add_hook: the hook's timing attribute is "
                              f"{timing!r}, not 'pre' or 'post'; using 'pre'", stacklevel=3)
                timing = 'pre'
        if name is None:
            name = getattr(hook, 'name', getattr(hook, '__name__', None))
            if name is None:
                raise ValueError(f'{self._owner}.add_hook: the hook has no name attribute; '
                                 'pass name=')
        if any(name in hooks for hooks in self._hooks.values()):
            raise KeyError(f'{self._owner}.add_hook: a hook named {name!r} already exists')
        self._hooks[timing][name] = hook

    def remove(self, name: str) -> None:
        for hooks in self._hooks.values():
            if name in hooks:
                del hooks[name]
                return
        raise KeyError(f'{self._owner}.remove_hook: no hook named {name!r}')

    def of(self, timing: str) -> list[Callable]:
        if timing not in _TIMINGS:
            raise ValueError(f"{self._owner}.call_hooks: timing must be 'pre' or 'post', but "
                             f'got {timing!r}')
        return list(self._hooks[timing].values())


def _own_grad(param) -> None:
    """Replaces a gradient that is a read-only or broadcast view (as the backward of ``sum``
    leaves) by a copy, so that hooks and rules can change it in place."""
    g = param.grad
    if g is not None and (not getattr(g.flags, 'writeable', True) or 0 in g.strides):
        param.grad = g.copy()


class UpdateRule:
    """How one parameter is updated from its gradient; the base of every optimizer's rule.

    A subclass implements :meth:`update_core` (with ``param.xp``, so that it runs on every
    device) and, when it keeps a state, :meth:`init_state`. The state is created on the first
    update, on the parameter's device, and follows the parameter when it moves.

    Args:
        parent_hyperparam (Hyperparameter): the parent of :attr:`hyperparam`, usually the
            optimizer's.

    Attributes:
        enabled (bool): when False, :meth:`update` leaves the parameter (and ``t``) alone.
        hyperparam (Hyperparameter): this rule's hyperparameters; entries set here override
            the parent's for this parameter only.
        t (int): the number of updates made by this rule.
    """

    def __init__(self, parent_hyperparam: Hyperparameter | None = None):
        self._state = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param = None
        self._hooks = _Hooks(type(self).__name__)

    def _set_hyperparams(self, **values) -> None:
        """Sets the entries that are not None (the constructor arguments of a rule)."""
        for name, value in values.items():
            if value is not None:
                setattr(self.hyperparam, name, value)

    @property
    def state(self) -> dict | None:
        """The state: a dict of arrays (and scalars), None before the first update."""
        return self._state

    def add_hook(self, hook: Callable, name: str | None = None, timing: str = 'auto') -> None:
        """Adds a hook, called as ``hook(rule, param)`` around each update of this parameter.

        Args:
            hook: the hook.
            name: its name; by default ``hook.name`` or ``hook.__name__``.
            timing: ``'pre'`` (before the update), ``'post'`` (after it) or ``'auto'``
                (``hook.timing``, ``'pre'`` when it has none).
        """
        self._hooks.add(hook, name, timing)

    def remove_hook(self, name: str) -> None:
        """Removes the hook registered as ``name``."""
        self._hooks.remove(name)

    def update(self, param: Variable) -> None:
        """Updates ``param`` from its gradient, calling the hooks, unless the rule is disabled.

        The gradient is first divided by the loss scale it was computed with
        (``param._loss_scale``, set by ``backward(loss_scale=...)``). A parameter without a
        gradient is left unchanged (``t`` still counts the call).
        """
        if not self.enabled:
            return
        self.t += 1
        _own_grad(param)
        target = self._fp32_copy(param) if self._uses_fp32(param) else param
        with param.device.scope():
            if target.array is not None:
                self._init_states(target)
                if param._loss_scale is not None and target.grad is not None:
                    target.grad /= param._loss_scale
            for hook in self._hooks.of('pre'):
                hook(self, target)
            self.update_core(target)
            for hook in self._hooks.of('post'):
                hook(self, target)
        if target is not param:
            param.array[...] = target.array.astype(param.dtype)
            target.grad = None

    def update_core(self, param: Variable) -> None:
        """Updates ``param.array`` in place from ``param.grad`` (None: nothing to do)."""
        raise NotImplementedError(f'{type(self).__name__} must implement update_core')

    def init_state(self, param: Variable) -> None:
        """Fills :attr:`state` for ``param`` (arrays made with ``param.xp``, on its device)."""

    def use_fp32_update(self, flag: bool = True) -> None:
        """Updates float16 parameters through a float32 copy (mixed-precision training).

        The gradient is cast to float32, the float32 copy is updated, and the parameter is set
        to the copy cast back to float16, so small updates are not lost to rounding.
        """
        self._use_fp32_update = flag

    def _uses_fp32(self, param) -> bool:
        return (self._use_fp32_update and param.array is not None
                and param.dtype == numpy.float16)

    def _fp32_copy(self, param) -> Variable:
        if self._fp32_param is None:
            self._fp32_param = Variable(param.array.astype(numpy.float32), name=param.name)
        copy = self._fp32_param
        copy.to_device(param.device)
        copy.grad = None if param.grad is None else param.grad.astype(numpy.float32)
        return copy

    def _init_states(self, param) -> None:
        if self._state is None:
            self._state = {}
            self.init_state(param)
        device = param.device
        for key, value in self._state.items():
            if backend.is_array(value):
                self._state[key] = device.send(value)

    def serialize(self, serializer) -> None:
        """Saves or loads ``t`` and the state (not the parameter itself).

        Loading into a rule that has no state yet reads the entries :meth:`init_state` would
        make; if the snapshot lacks them, the state stays empty and is created on the first
        update.
        """
        self.t = serializer('t', self.t)
        if self._state is not None:
            for key in self._state:
                self._state[key] = serializer(key, self._state[key])
            return
        if not isinstance(serializer, Deserializer):
            return
        dummy = numpy.empty(1, dtype=numpy.float32)
        self._state = {}
        self.init_state(Variable(dummy, grad=dummy))
        keys = list(self._state)
        self._state = None
        loaded = {}
        for key in keys:
            try:
                value = serializer(key, None)
            except KeyError:
                if self.enabled:
                    raise
                return
            if value is None:
                return
            loaded[key] = value
        self._state = loaded


class Optimizer:
    """The base of every optimizer: a target link, step and epoch counts, hooks.

    Attributes:
        target (Link): the link whose parameters are optimized (set by :meth:`setup`).
        t (int): the number of updates.
        epoch (int): the current epoch, counted by :meth:`new_epoch`.
        use_auto_new_epoch (bool): set by an updater that calls ``new_epoch(auto=True)``.
    """

    target = None
    t = 0
    epoch = 0
    use_auto_new_epoch = False
    _hooks = None
    _loss_scale = None
    _loss_scale_max = 65504  # the largest float16
    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False

    def setup(self, link: Link) -> Optimizer:
        """Makes ``link`` the target, resets ``t``, ``epoch`` and the hooks.

        Returns:
            The optimizer itself (``opt = SGD().setup(model)``).
        """
        if not isinstance(link, Link):
            raise TypeError(f'{type(self).__name__}.setup: link must be a Link, but got '
                            f'{type(link).__name__}')
        self.target = link
        self.t = 0
        self.epoch = 0
        self._hooks = _Hooks(type(self).__name__)
        return self

    def _check_set_up(self, where: str) -> None:
        if self._hooks is None:
            raise RuntimeError(f'{type(self).__name__}.{where}: the optimizer is not set up; '
                               'call setup(link) first')

    def update(self, lossfun: Callable | None = None, *args, **kwds) -> None:
        """Updates the parameters of the target (see :meth:`GradientMethod.update`)."""
        raise NotImplementedError(f'{type(self).__name__} must implement update')

    def new_epoch(self, auto: bool = False) -> None:
        """Counts a new epoch.

        Args:
            auto: True when called by an updater, which must have set
                :attr:`use_auto_new_epoch`; calling it by hand as well would count twice.
        """
        if auto and not self.use_auto_new_epoch:
            raise RuntimeError('new_epoch: called with auto=True, but use_auto_new_epoch is '
                               'False; the updater must set optimizer.use_auto_new_epoch = True')
        if not auto and self.use_auto_new_epoch:
            raise RuntimeError('new_epoch: the updater already counts epochs '
                               '(use_auto_new_epoch is True); stop calling new_epoch by hand '
                               'or pass auto_new_epoch=False to the updater')
        self.epoch += 1

    def add_hook(self, hook: Callable, name: str | None = None, timing: str = 'auto') -> None:
        """Adds a hook.

        A hook whose ``call_for_each_param`` is True is called as ``hook(param.update_rule,
        param)`` for every parameter; any other as ``hook(optimizer)``, once per update.

        Args:
            hook: the hook.
            name: its name; by default ``hook.name`` or ``hook.__name__``.
            timing: ``'pre'`` (before the parameters are updated), ``'post'`` (after) or
                ``'auto'`` (``hook.timing``, ``'pre'`` when it has none).
        """
        self._check_set_up('add_hook')
        self._hooks.add(hook, name, timing)

    def remove_hook(self, name: str) -> None:
        """Removes the hook registered as ``name``."""
        self._check_set_up('remove_hook')
        self._hooks.remove(name)

    def call_hooks(self, timing: str = 'pre') -> None:
        """Calls the hooks of ``timing`` (``'pre'`` or ``'post'``) in registration order."""
        self._check_set_up('call_hooks')
        for hook in self._hooks.of(timing):
            self.call_hook(hook)

    def call_hook(self, hook: Callable) -> None:
        """Calls one hook: per parameter or once, as its ``call_for_each_param`` says."""
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer) -> None:
        """Saves or loads ``t``, ``epoch`` and the state of every update rule (not the
        parameters: serialize the target link for those)."""
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                rule.serialize(serializer[name])

    # --- loss scaling --------------------------------------------------------------------

    def loss_scaling(self, interval: int = 1000, scale: float | None = None) -> None:
        """Turns on loss scaling (for float16 training).

        The loss is multiplied by the scale before backward, and the gradients divided by it
        before the update.

        Args:
            interval: with dynamic scaling, the number of updates without overflow after which
                the scale has doubled.
            scale: a fixed scale; None for dynamic scaling, which starts at 1, halves the scale
                (and skips the update) when a gradient is not finite, and grows it otherwise
                (doubling each update until the first overflow, then by ``2 ** (1 /
                interval)``), between 1 and 65504.
        """
        if scale is None:
            if interval < 1:
                raise ValueError(f'loss_scaling: interval must be at least 1, but got '
                                 f'{interval}')
            self._loss_scaling_is_dynamic = True
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            if scale <= 0:
                raise ValueError(f'loss_scaling: scale must be positive, but got {scale}')
            self._loss_scale = scale

    def set_loss_scale(self, loss_scale: float) -> None:
        """Sets a fixed loss scale (see :meth:`loss_scaling`)."""
        self.loss_scaling(scale=loss_scale)

    def check_nan_in_grads(self) -> None:
        """With dynamic loss scaling, records (and warns) whether some gradient is not
        finite."""
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        for name, param in self.target.namedparams():
            grad = param.grad
            if grad is not None and not param.xp.all(param.xp.isfinite(grad)):
                self._loss_scaling_isnan = True
                self._loss_scaling_isnan_ever = True
                warnings.warn(f'non-finite gradient in {name} (update {self.t}, loss scale '
                              f'{self._loss_scale}); the update is skipped', stacklevel=3)

    def is_safe_to_update(self) -> bool:
        """False when :meth:`check_nan_in_grads` found a non-finite gradient."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self) -> None:
        """Adjusts a dynamic loss scale after an update (see :meth:`loss_scaling`)."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(1, min(self._loss_scale_max, self._loss_scale * multiplier))


class GradientMethod(Optimizer):
    """The base of first-order optimizers: one :class:`UpdateRule` per parameter.

    A subclass implements :meth:`create_update_rule` and exposes its hyperparameters as
    :class:`HyperparameterProxy` attributes.

    Attributes:
        hyperparam (Hyperparameter): the parent of every rule's hyperparameter.
    """

    def __init__(self):
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False
        self.use_engine = False

    def setup(self, link: Link) -> GradientMethod:
        """Makes ``link`` the target and gives each of its parameters a new update rule.

        The rules of parameters in links whose updates were disabled
        (:meth:`~framework.links.Link.disable_update`) start disabled.
        """
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        for sublink in link.links():  # parents first, so that each parameter's owner decides
            for param in sublink.params():
                param.update_rule.enabled = sublink.update_enabled
        return self

    def create_update_rule(self) -> UpdateRule:
        """A new update rule whose hyperparameter's parent is :attr:`hyperparam`."""
        raise NotImplementedError(f'{type(self).__name__} must implement create_update_rule')

    def reallocate_cleared_grads(self) -> None:
        """Gives zero gradients to initialized parameters that have none."""
        for param in self.target.params(include_uninit=False):
            if param.grad is None:
                param.grad = param.xp.zeros_like(param.array)

    def call_hook(self, hook: Callable) -> None:
        super().call_hook(hook)
        self.reallocate_cleared_grads()

    def _prepare_grads(self) -> None:
        """Makes the gradients writable and divides them by the loss scale they were computed
        with, so that hooks see true gradients."""
        for param in self.target.params(include_uninit=False):
            _own_grad(param)
            if param._loss_scale is not None:
                param.grad /= param._loss_scale
                param._loss_scale = None

    def update(self, lossfun: Callable | None = None, *args, **kwds) -> None:
        """Updates every parameter of the target from its gradient.

        Args:
            lossfun: when given, ``lossfun(*args, **kwds)`` is computed, the gradients are
                cleared and the loss's ``backward`` computes new ones (with the loss scale,
                if any); when None, the gradients already computed are used. A parameter
                without a gradient is updated with a zero gradient (as in Chainer: momentum
                and weight decay still act on it).
        """
        self._check_set_up('update')
        if lossfun is not None and self._can_overlap():
            self._update_overlapping_backward(lossfun(*args, **kwds))
            return
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            self.target.cleargrads()
            loss.backward(loss_scale=self._loss_scale)
            del loss
        self.reallocate_cleared_grads()
        self._prepare_grads()
        self.check_nan_in_grads()
        self.call_hooks('pre')
        self.t += 1
        if self.is_safe_to_update():
            for param in self.target.params():
                param.update()
        self.reallocate_cleared_grads()
        self.call_hooks('post')
        self.update_loss_scale()

    def _can_overlap(self) -> bool:
        """Whether parameters may be updated while the backward pass goes on: the engine is
        asked for, and no hook or loss-scaling check needs every gradient at once."""
        return (self.use_engine and not self._loss_scaling_is_dynamic
                and all(getattr(hook, 'call_for_each_param', False)
                        for timing in ('pre', 'post') for hook in self._hooks.of(timing)))

    def _update_overlapping_backward(self, loss, gradient_gate=None) -> None:
        """``update(lossfun)`` with each parameter's update pushed to the dependency engine as
        soon as backprop has finished its gradient, so that updating a layer overlaps the
        backward pass of the layers before it. The numbers are those of the synchronous path:
        each parameter still gets its per-parameter hooks, then its update rule.

        ``gradient_gate(param)``, when given, stands between a final gradient and its update:
        it is called, once per parameter, instead of :meth:`_push_update`, which it must see
        called for each parameter (the multi-node optimizer averages the gradients over the
        processes first)."""
        from framework import _backprop
        from framework.engine import get_engine
        params = {id(p): p for p in self.target.params(include_uninit=False)}
        pending = set(params)

        def push(param):
            if id(param) not in pending:
                return
            pending.discard(id(param))
            (gradient_gate or self._push_update)(param)

        self.target.cleargrads()
        _backprop.backward(loss, False, False, self._loss_scale, None, on_leaf_grad=push)
        del loss
        self.reallocate_cleared_grads()
        for key in list(pending):
            push(params[key])
        get_engine().wait_for_all()
        self.t += 1
        self.reallocate_cleared_grads()
        self.call_hooks('post')

    def _push_update(self, param, after=()) -> None:
        """Pushes the update of ``param`` to the engine, to run after the work pushed before
        that writes the engine variables ``after``."""
        from framework.engine import get_engine
        engine = get_engine()
        variables = self.__dict__.setdefault('_engine_vars', {})
        var = variables.get(id(param))
        if var is None:
            var = variables[id(param)] = engine.new_var()
        engine.push(lambda run_ctx: self._update_one(param), const_vars=after,
                    mutate_vars=(var,), name=f'update {param.name}')

    def _update_one(self, param) -> None:
        _own_grad(param)
        if param._loss_scale is not None:
            param.grad /= param._loss_scale
            param._loss_scale = None
        for hook in self._hooks.of('pre'):
            hook(param.update_rule, param)
        param.update()

    def use_fp32_update(self, flag: bool = True) -> None:
        """Updates float16 parameters through float32 copies (see
        :meth:`UpdateRule.use_fp32_update`), now and for rules made by later setups."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                if param.update_rule is not None:
                    param.update_rule.use_fp32_update(flag)
