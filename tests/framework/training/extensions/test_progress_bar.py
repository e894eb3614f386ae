"""ProgressBar: drawn in place on a terminal, plain lines on other streams."""

import io
import re

import pytest

from framework.training import extensions, triggers


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_plain_lines_on_a_file(make_trainer):
    out = io.StringIO()
    trainer = make_trainer((2, 'epoch'), iter_per_epoch=4)
    trainer.extend(extensions.ProgressBar(update_interval=2, out=out))
    trainer.run()
    lines = out.getvalue().splitlines()
    assert len(lines) == 4
    assert '\033' not in out.getvalue()
    assert lines[0].startswith('2 iter, 0 epoch / 2 epochs: total 25.00%, this epoch 50.00%, ')
    assert lines[3].startswith('8 iter, 2 epoch / 2 epochs: total 100.00%, this epoch 0.00%')
    for line in lines:
        assert re.search(r', [0-9.e+inf]+ iters/sec, estimated time to finish '
                         r'(\d+:\d\d:\d\d|unknown)$', line), line


def test_in_place_block_on_a_terminal(make_trainer):
    out = Terminal()
    trainer = make_trainer((10, 'iteration'), iter_per_epoch=4)
    trainer.extend(extensions.ProgressBar(update_interval=5, bar_length=10, out=out))
    trainer.run()
    text = out.getvalue()
    blocks = text.split('\033[J')
    # two updates and the final erase
    assert len(blocks) == 4 and blocks[-1] == ''
    first = blocks[1]
    assert first.endswith('\033[4A')
    lines = first[:-len('\033[4A')].splitlines()
    assert lines[0] == '     total [#####.....] 50.00%'
    assert lines[1] == 'this epoch [##........] 25.00%'
    assert lines[2] == '         5 iter, 1 epoch / 10 iterations'
    assert 'iters/sec. Estimated time to finish: ' in lines[3]


def test_training_length_from_the_stop_trigger_or_given(make_trainer):
    out = io.StringIO()
    trainer = make_trainer(triggers.EarlyStoppingTrigger(max_trigger=(3, 'iteration')))
    trainer.extend(extensions.ProgressBar(update_interval=1, out=out))
    trainer.run()
    assert 'total 100.00%' in out.getvalue().splitlines()[-1]

    trainer = make_trainer(lambda trainer: trainer.updater.iteration >= 2)
    trainer.extend(extensions.ProgressBar(update_interval=1, out=io.StringIO()))
    with pytest.raises(TypeError, match='cannot read the training length'):
        trainer.run()

    out = io.StringIO()
    trainer = make_trainer(lambda trainer: trainer.updater.iteration >= 2)
    trainer.extend(extensions.ProgressBar((4, 'iteration'), update_interval=1, out=out))
    trainer.run()
    assert out.getvalue().splitlines()[-1].startswith('2 iter, 0 epoch / 4 iterations: total '
                                                      '50.00%')
