"""KVStore: MXNet's key-value store of parameters, for data parallelism on one machine.

Each key holds an array. Workers (one per device) :meth:`~KVStore.push` their values of a key,
which the store sums; :meth:`~KVStore.pull` copies the stored value to every worker. With an
optimizer (:meth:`~KVStore.set_optimizer`), the store holds the weights and a push of
gradients updates them (MXNet's ``update_on_kvstore``)::

    kv = kvstore.create('device')
    kv.init(3, weight)
    kv.set_optimizer(optimizers.SGD(lr=0.1))
    kv.push(3, [grad_on_device0, grad_on_device1])    # weight -= 0.1 * (sum of the grads)
    kv.pull(3, out=[weight_on_device0, weight_on_device1])
    kv.wait_to_read(weight_on_device0)

Synchronisation. Every key is a variable of the dependency engine (:mod:`framework.engine`):
``init`` and ``push`` write it, ``pull`` reads it and writes the variables of its outputs. The
methods check their arguments and return at once; the work runs when the engine gets to it,
so that communication overlaps computation. Operations on one key happen in call order. The
outputs of a pull hold the pulled value once :meth:`KVStore.wait_to_read` on them (a
``wait_for_var`` of their variable) or the engine's ``wait_for_all`` has returned; errors of
the work are raised there. The values given to ``push`` are read when the push runs: do not
write them before waiting (MXNet's rule, where the engine orders the writes it knows of).
"""

from __future__ import annotations

import dataclasses
import threading

from framework import backend, engine, serializers
from framework.kvstore import _arguments
from framework.kvstore._array_vars import ArrayVars
from framework.optimizer import GradientMethod, UpdateRule
from framework.variable import Variable


@dataclasses.dataclass
class _Entry:
    """What the store knows of a key; ``value`` is set by the engine."""

    var: engine.Var
    shape: tuple
    dtype: object
    device: backend.Device
    value: object = None
    placed: bool = False
    rule: UpdateRule | None = None
    param: Variable | None = None


class KVStore:
    """A key-value store on one process (MXNet's ``local`` and ``device`` types).

    Make one with :func:`framework.kvstore.create`.

    Args:
        kvstore_type: ``'local'``: values are summed and kept in host memory; ``'device'``:
            each key's values are summed, and kept, on one of the devices they come from, the
            keys spread over those devices by size (MXNet's merge buffers on the GPUs).
    """

    def __init__(self, kvstore_type: str = 'local'):
        self._type = kvstore_type
        self._engine = engine.get_engine()
        self._array_vars = ArrayVars(self._engine)
        self._entries: dict[int | str, _Entry] = {}
        self._device_bytes: dict[backend.Device, int] = {}
        self._optimizer: GradientMethod | None = None
        self._lock = threading.Lock()

    @property
    def type(self) -> str:
        """The type given to :func:`~framework.kvstore.create`."""
        return self._type

    @property
    def rank(self) -> int:
        """The rank of this worker among :attr:`num_workers` (0 on one process)."""
        return 0

    @property
    def num_workers(self) -> int:
        """The number of worker processes (1 on one process)."""
        return 1

    # --- init, push, pull -----------------------------------------------------------------

    def init(self, key, value) -> None:
        """Initialises keys with values (copied); each key once.

        Args:
            key (int, str or list of them): the key or keys.
            value: an array, or a list of arrays, one per key.

        Raises:
            ValueError: a key initialised already.
        """
        for k, (array,) in _arguments.group('init', 'value', key, value, single=True):
            with self._lock:
                if k in self._entries:
                    raise ValueError(f'init: key {k!r} is initialised already; push to '
                                     'change its value')
                device = (backend.get_device_from_array(array) if self._on_devices()
                          else backend.CpuDevice())
                entry = _Entry(self._engine.new_var(), array.shape, array.dtype, device)
                if self._optimizer is not None:
                    entry.rule = self._optimizer.create_update_rule()
                self._entries[k] = entry
            self._engine.push(lambda run_ctx, e=entry, a=array: self._initialise(e, a),
                              ctx=device, const_vars=self._array_vars.existing((array,)),
                              mutate_vars=(entry.var,) + self._collective_vars(),
                              name=f'KVStore.init of key {k!r}')

    def push(self, key, value, priority: int = 0) -> None:
        """Pushes values of keys: the values of a key (one per device) are summed; the sum
        replaces the stored value or, after :meth:`set_optimizer`, is the gradient with which
        the optimizer updates it.

        Args:
            key (int, str or list of them): the key or keys.
            value: for one key, an array or a list of arrays of its shape; for a list of keys,
                a list with one such entry per key.
            priority: among pending work, higher runs first.

        Raises:
            KeyError: a key not initialised.
            ValueError: a value whose shape is not the key's.
        """
        for k, arrays in _arguments.group('push', 'value', key, value):
            entry = self._entry('push', k)
            self._check_shapes('push', 'value', k, entry, arrays)
            with self._lock:
                device = self._merge_device(entry, arrays)
                rule = entry.rule
            self._engine.push(
                lambda run_ctx, e=entry, a=arrays, r=rule: self._merge(e, a, r), ctx=device,
                const_vars=self._array_vars.existing(arrays),
                mutate_vars=(entry.var,) + self._collective_vars(), priority=priority,
                name=f'KVStore.push of key {k!r}')

    def pull(self, key, out=None, priority: int = 0) -> None:
        """Copies the values of keys into arrays (see the module docstring for when they are
        ready).

        Args:
            key (int, str or list of them): the key or keys.
            out: for one key, an array or a list of arrays of its shape (on any devices); for
                a list of keys, a list with one such entry per key.
            priority: among pending work, higher runs first.

        Raises:
            KeyError: a key not initialised.
            ValueError: no ``out``, or an output whose shape is not the key's.
        """
        if out is None:
            raise ValueError('pull: out must be given: the arrays to copy the values into')
        for k, arrays in _arguments.group('pull', 'out', key, out):
            entry = self._entry('pull', k)
            self._check_shapes('pull', 'out', k, entry, arrays)
            self._engine.push(lambda run_ctx, e=entry, a=arrays: _copy_out(e, a),
                              const_vars=(entry.var,), mutate_vars=self._array_vars.of(arrays),
                              priority=priority, name=f'KVStore.pull of key {k!r}')

    def pushpull(self, key, value, out=None, priority: int = 0) -> None:
        """A :meth:`push` followed by a :meth:`pull`.

        Args:
            key (int, str or list of them): the key or keys.
            value: as for :meth:`push`.
            out: as for :meth:`pull`; None to pull into ``value``.
            priority: among pending work, higher runs first.
        """
        self.push(key, value, priority)
        self.pull(key, value if out is None else out, priority)

    def wait_to_read(self, out) -> None:
        """Waits for the pulls into ``out`` pushed so far (``wait_for_var`` of its variable).

        Args:
            out: an array given to :meth:`pull` (any other array returns at once).

        Raises:
            The error of a failed push or pull of the key, if not raised before.
        """
        for var in self._array_vars.existing((out,)):
            self._engine.wait_for_var(var)

    def barrier(self) -> None:
        """Waits for every worker to get here (nothing to wait for on one process)."""

    # --- optimizer ------------------------------------------------------------------------

    def set_optimizer(self, optimizer: GradientMethod) -> None:
        """Makes pushes update the stored values: from now on, a push of a key is taken as its
        gradient, and the optimizer's update rule (one per key) updates its value.

        Args:
            optimizer: a gradient method (:mod:`framework.optimizers`); its hyperparameters
                (``optimizer.lr = ...``) apply to every key.
        """
        if not isinstance(optimizer, GradientMethod):
            raise TypeError('set_optimizer: optimizer must be a GradientMethod such as '
                            f'optimizers.SGD, but got {type(optimizer).__name__}')
        with self._lock:
            self._optimizer = optimizer
            for entry in self._entries.values():
                entry.rule = optimizer.create_update_rule()

    def save_optimizer_states(self, fname) -> None:
        """Saves the state of each key's update rule to an NPZ file, atomically, once the
        pushes made before have run.

        Args:
            fname (str or os.PathLike): the file.
        """
        self._wait_for_keys('save_optimizer_states')
        serializers.save_npz(fname, _RuleStates(self._entries))

    def load_optimizer_states(self, fname) -> None:
        """Loads the states saved by :meth:`save_optimizer_states` into the update rules of
        the keys (those the file lacks are left as they are).

        Args:
            fname (str or os.PathLike): the file.
        """
        self._wait_for_keys('load_optimizer_states')
        serializers.load_npz(fname, _RuleStates(self._entries), strict=False)

    # --- for the distributed store --------------------------------------------------------

    def _collective_vars(self) -> tuple[engine.Var, ...]:
        """Variables that every communicating push writes, so that they run in call order."""
        return ()

    def _reduce(self, merged):
        """Returns the sum of ``merged`` (this worker's sum) over the workers."""
        return merged

    def _initial(self, array):
        """Returns the value a key is initialised with, given this worker's."""
        return array

    # --- helpers --------------------------------------------------------------------------

    def _on_devices(self) -> bool:
        return 'device' in self._type

    def _entry(self, where: str, key) -> _Entry:
        with self._lock:
            entry = self._entries.get(key)
        if entry is None:
            raise KeyError(f'{where}: key {key!r} is not initialised; call init({key!r}, value) '
                           'first')
        return entry

    @staticmethod
    def _check_shapes(where, name, key, entry, arrays) -> None:
        for array in arrays:
            if array.shape != entry.shape:
                raise ValueError(f'{where}: {name} for key {key!r} must have the shape the key '
                                 f'was initialised with, {entry.shape}, but got {array.shape}')

    def _merge_device(self, entry: _Entry, arrays) -> backend.Device:
        """The device a key is summed on; on a ``device`` store, chosen at its first push among
        the devices of the values, the one holding the fewest bytes of keys (lock held)."""
        if self._on_devices() and not entry.placed:
            devices = list(dict.fromkeys(backend.get_device_from_array(a) for a in arrays))
            entry.device = min(devices, key=lambda d: self._device_bytes.get(d, 0))
            self._device_bytes[entry.device] = (self._device_bytes.get(entry.device, 0)
                                                + arrays[0].nbytes)
            entry.placed = True
        return entry.device

    def _initialise(self, entry: _Entry, array) -> None:
        value = self._initial(array)
        entry.value = entry.device.xp.array(entry.device.send(value), copy=True)

    def _merge(self, entry: _Entry, arrays, rule: UpdateRule | None) -> None:
        device = entry.device
        merged = device.xp.array(device.send(arrays[0]), dtype=entry.dtype, copy=True)
        for array in arrays[1:]:
            merged += device.send(array)
        merged = device.send(self._reduce(merged))
        entry.value = device.send(entry.value)
        if rule is None:
            entry.value[...] = merged
            return
        if entry.param is None or entry.param.array is not entry.value:
            entry.param = Variable(entry.value)
        entry.param.grad = merged
        rule.update(entry.param)
        entry.param.grad = None

    def _wait_for_keys(self, where: str) -> None:
        if self._optimizer is None:
            raise RuntimeError(f'{where}: no optimizer; call set_optimizer first')
        with self._lock:
            entries = list(self._entries.values())
        for entry in entries:
            self._engine.wait_for_var(entry.var)


def _copy_out(entry: _Entry, arrays) -> None:
    for array in arrays:
        array[...] = backend.get_device_from_array(array).send(entry.value)


class _RuleStates:
    """The update rules of a store's keys, as the serializers see them (``'<key>/<state>'``)."""

    def __init__(self, entries: dict):
        self._entries = entries

    def serialize(self, serializer) -> None:
        for key, entry in sorted(self._entries.items(), key=lambda item: str(item[0])):
            if entry.rule is not None:
                entry.rule.serialize(serializer[str(key)])
