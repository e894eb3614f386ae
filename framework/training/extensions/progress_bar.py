"""ProgressBar: shows how far the training is, how fast it goes and how long it has left."""

from __future__ import annotations

from framework.training import extension
from framework.training.extensions import _console


class ProgressBar(extension.Extension):
    """Shows the progress of the training every ``update_interval`` iterations.

    On a terminal it redraws, in place, bars for the whole training and the current epoch,
    the iteration and epoch, the throughput (iterations per second) and the estimated time
    left::

             total [#########.........................................] 18.00%
        this epoch [############################################......] 90.00%
                90 iter, 0 epoch / 5 epochs
            254.21 iters/sec. Estimated time to finish: 0:00:02.

    On any other stream (a log file) it writes the same facts as one plain line per update.

    Args:
        training_length (tuple): ``(length, unit)`` of the training, e.g. ``(20, 'epoch')``;
            when None, read from the stop trigger (its ``get_training_length()``).
        update_interval (int): the number of iterations between updates.
        bar_length (int): the length of the bars in characters.
        out: the stream; the current ``sys.stdout`` when None.
    """

    def __init__(self, training_length: tuple | None = None, update_interval: int = 100,
                 bar_length: int = 50, out=None):
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._display = _TrainerProgress(training_length, bar_length, out)

    def __call__(self, trainer) -> None:
        if trainer.updater.iteration % self._update_interval == 0:
            self._display.trainer = trainer
            self._display.update()

    def finalize(self) -> None:
        self._display.close()


class _TrainerProgress(_console.ProgressDisplay):
    def __init__(self, training_length, bar_length, out):
        super().__init__(bar_length, out)
        self.trainer = None
        self.training_length = training_length

    def _state(self):
        updater = self.trainer.updater
        if self.training_length is None:
            get_length = getattr(self.trainer.stop_trigger, 'get_training_length', None)
            if get_length is None:
                raise TypeError('ProgressBar: cannot read the training length from a stop '
                                f'trigger of type {type(self.trainer.stop_trigger).__name__}; '
                                "pass training_length=(length, 'epoch' or 'iteration')")
            self.training_length = get_length()
        length, unit = self.training_length
        iteration, epoch = updater.iteration, updater.epoch_detail
        position = iteration if unit == 'iteration' else epoch
        speed_t, speed_e = self.update_speed(iteration, epoch)
        speed = speed_t if unit == 'iteration' else speed_e
        return {
            'rate': min(position / length, 1.0),
            'epoch_rate': epoch - int(epoch),
            'status': f'{updater.iteration:10} iter, {updater.epoch} epoch / {length} {unit}s',
            'speed': speed_t,
            'left': _console.seconds_left(length - position, speed),
        }

    def get_lines(self):
        state = self._state()
        n = self._bar_length
        return [
            f'     total {_console.bar(state["rate"], n)} {state["rate"]:6.2%}\n',
            f'this epoch {_console.bar(state["epoch_rate"], n)} {state["epoch_rate"]:6.2%}\n',
            state['status'] + '\n',
            _console.speed_line(state['speed'], state['left']),
        ]

    def get_plain_line(self):
        state = self._state()
        return (f'{state["status"].strip()}: total {state["rate"]:.2%}, this epoch '
                f'{state["epoch_rate"]:.2%}, {state["speed"]:.5g} iters/sec, estimated time '
                f'to finish {_console.format_duration(state["left"])}')
