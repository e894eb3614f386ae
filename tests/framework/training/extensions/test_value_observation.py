"""observe_value and observe_lr."""

from framework import training
from framework.training import extensions


def test_observe_value_and_lr(make_trainer):
    trainer = make_trainer((4, 'iteration'), iter_per_epoch=2)
    trainer.updater.get_optimizer('main').lr = 0.25
    seen = []
    observe = extensions.observe_value('it', lambda t: t.updater.iteration)
    assert observe.priority == training.PRIORITY_WRITER and observe.trigger == (1, 'epoch')
    trainer.extend(observe)
    trainer.extend(extensions.observe_lr(observation_key='learning_rate'),
                   trigger=(1, 'iteration'))
    trainer.extend(lambda t: seen.append(dict(t.observation)), name='read')
    trainer.run()
    assert seen == [{'learning_rate': 0.25}, {'learning_rate': 0.25, 'it': 2},
                    {'learning_rate': 0.25}, {'learning_rate': 0.25, 'it': 4}]
