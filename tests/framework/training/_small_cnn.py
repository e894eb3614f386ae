"""A small CNN trained on generated images through the Trainer, with every extension on.

Imported by the tests (through conftest.py) and run as a script by the kill-and-resume
tests::

    python _small_cnn.py OUT_DIR [--kill-after-iteration N] [--kill-in-snapshot-at N]
                                 [--sleep SECONDS] [--multiprocess]

The script trains (resuming from the snapshots in OUT_DIR, if any) and saves the final
trainer to ``OUT_DIR/final_trainer``. When asked, it kills itself with SIGKILL after the
extensions of iteration N ran, or halfway through writing the snapshot of iteration N; or it
sleeps after each iteration (to give another process time to kill it).
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import time

import numpy

import framework
import framework.functions as F
import framework.links as L
from framework import iterators, optimizers, serializers, training
from framework.datasets import TupleDataset
from framework.training import extensions, triggers

N_CLASS = 3
ITERATIONS_PER_EPOCH = 6
N_EPOCH = 4
SNAPSHOT_INTERVAL = 5  # iterations, not a divisor of the epoch: snapshots fall mid-epoch


class SmallCNN(framework.Chain):
    def __init__(self, n_class: int = N_CLASS):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 4, 3, pad=1, nobias=True)
            self.bn1 = L.BatchNormalization(4)
            self.conv2 = L.Convolution2D(4, 8, 3, pad=1)
            self.fc = L.Linear(None, n_class)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
        return self.fc(h)


def make_images(n: int, seed: int) -> TupleDataset:
    """Noisy 8x8 images whose class is the orientation of a bright bar (row, column or
    diagonal)."""
    rng = numpy.random.RandomState(seed)
    x = rng.normal(0, 0.8, (n, 1, 8, 8)).astype(numpy.float32)
    t = rng.randint(0, N_CLASS, n).astype(numpy.int32)
    for i, label in enumerate(t):
        k = rng.randint(1, 7)
        if label == 0:
            x[i, 0, k, :] += 1.0
        elif label == 1:
            x[i, 0, :, k] += 1.0
        else:
            x[i, 0][numpy.eye(8, dtype=bool)] += 1.0
    return TupleDataset(x, t)


def build_trainer(out: str, *, log_postprocess=None, progress_out=None, print_out=None,
                  autoload: bool = True, make_iterator=iterators.SerialIterator
                  ) -> tuple[training.Trainer, L.Classifier]:
    """The trainer of the test: 4 epochs of 6 iterations with every extension on.

    ``make_iterator(dataset, batch_size, seed=...)`` (or with ``repeat=False,
    shuffle=False``) makes the iterators.
    """
    framework.random.seed(0)
    model = L.Classifier(SmallCNN())
    optimizer = optimizers.Adam(alpha=0.01).setup(model)
    train = make_images(48, seed=1)
    validation = make_images(24, seed=2)
    train_iter = make_iterator(train, 8, seed=3)
    val_iter = make_iterator(validation, 12, repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (N_EPOCH, 'epoch'), out=out)

    trainer.extend(extensions.Evaluator(val_iter, model), trigger=(1, 'epoch'))
    trainer.extend(extensions.observe_lr(), trigger=(1, 'iteration'))
    trainer.extend(extensions.ParameterStatistics(model.predictor, trigger=(1, 'epoch'),
                                                  statistics={'mean': numpy.mean}))
    trainer.extend(extensions.MicroAverage('main/accuracy', 'one', 'main/micro_accuracy'))
    trainer.extend(extensions.observe_value('one', lambda trainer: 1.0),
                   trigger=(1, 'iteration'))
    trainer.extend(extensions.observe_value('alpha', lambda trainer: optimizer.alpha),
                   trigger=(1, 'iteration'))
    # Every shift, each on an attribute of its own.
    trainer.extend(extensions.ExponentialShift('alpha', 0.9), trigger=(1, 'epoch'))
    trainer.extend(extensions.LinearShift('beta1', (0.9, 0.8), (0, 12)))
    trainer.extend(extensions.WarmupShift('eta', 0.1, 6, 1.0))
    trainer.extend(extensions.PolynomialShift('weight_decay_rate', 1.0, 24, init=1e-4))
    trainer.extend(extensions.MultistepShift('eps', 10.0, [6, 12], 1e-8))
    trainer.extend(extensions.StepShift('beta2', 0.9995, 6, init=0.999))
    trainer.extend(extensions.FailOnNonNumber())
    trainer.extend(extensions.dump_graph('main/loss'))
    trainer.extend(extensions.LogReport(trigger=(1, 'epoch'), postprocess=log_postprocess))
    trainer.extend(extensions.LogReport(trigger=(2, 'iteration'), filename='log_iter',
                                        postprocess=log_postprocess), name='log_iter')
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'main/loss', 'main/accuracy', 'validation/main/loss',
         'validation/main/accuracy', 'lr'], out=print_out))
    trainer.extend(extensions.ProgressBar(update_interval=2, out=progress_out))
    trainer.extend(extensions.PlotReport(['main/loss', 'validation/main/loss'],
                                         filename='loss.png'))
    trainer.extend(extensions.snapshot(n_retains=3, autoload=autoload),
                   trigger=(SNAPSHOT_INTERVAL, 'iteration'))
    trainer.extend(extensions.snapshot_object(model, 'model_epoch_{.updater.epoch}'),
                   trigger=triggers.MinValueTrigger('validation/main/loss'))
    return trainer, model


def drop_elapsed_time(entry: dict) -> None:
    """A LogReport postprocess that makes the log independent of the speed of the machine."""
    del entry['elapsed_time']


def _kill_after(iteration: int):
    @training.make_extension(trigger=(1, 'iteration'), priority=-1000)
    def kill(trainer):
        if trainer.updater.iteration == iteration:
            os.kill(os.getpid(), signal.SIGKILL)
    return kill


def _kill_in_snapshot(iteration: int, trainer: training.Trainer) -> None:
    """Makes the writing of the trainer snapshot of ``iteration`` die halfway."""
    original = numpy.savez_compressed

    def savez_compressed(file, **arrays):
        if trainer.updater.iteration != iteration:
            return original(file, **arrays)
        buffer = io.BytesIO()
        original(buffer, **arrays)
        data = buffer.getvalue()
        file.write(data[:len(data) // 2])
        file.flush()
        os.fsync(file.fileno())
        os.kill(os.getpid(), signal.SIGKILL)

    numpy.savez_compressed = savez_compressed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('out')
    parser.add_argument('--kill-after-iteration', type=int)
    parser.add_argument('--kill-in-snapshot-at', type=int)
    parser.add_argument('--sleep', type=float)
    parser.add_argument('--multiprocess', action='store_true',
                        help='load the batches with a MultiprocessIterator (2 workers)')
    args = parser.parse_args()
    make_iterator = iterators.SerialIterator
    if args.multiprocess:
        def make_iterator(*args, **kwargs):
            return iterators.MultiprocessIterator(*args, n_processes=2, **kwargs)
    with open(os.devnull, 'w') as devnull:
        trainer, _ = build_trainer(args.out, log_postprocess=drop_elapsed_time,
                                   progress_out=devnull, print_out=devnull,
                                   make_iterator=make_iterator)
        if args.kill_after_iteration is not None:
            trainer.extend(_kill_after(args.kill_after_iteration))
        if args.kill_in_snapshot_at is not None:
            _kill_in_snapshot(args.kill_in_snapshot_at, trainer)
        if args.sleep:
            trainer.extend(lambda trainer: time.sleep(args.sleep), name='sleep',
                           priority=-1000)
        trainer.run()
    serializers.save_npz(os.path.join(args.out, 'final_trainer'), trainer)


if __name__ == '__main__':
    main()
