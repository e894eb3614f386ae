"""What every evaluator does alike: one pass over the iterator from its start, whatever the
batching, reported to the current reporter, split among workers, run by a trainer."""

import contextlib
import threading

import numpy
import pytest

from framework import reporter
from framework.iterators import SerialIterator
from framework.training import extensions

KINDS = ['detection_voc', 'detection_coco', 'semantic_segmentation',
         'instance_segmentation_voc', 'instance_segmentation_coco']
OBJECT_KINDS = [kind for kind in KINDS if kind != 'semantic_segmentation']


def _iterator(samples, batch_size=2):
    return SerialIterator(samples, batch_size, repeat=False, shuffle=False)


def _assert_same(values, expected):
    assert sorted(values) == sorted(expected)
    for key, value in expected.items():
        numpy.testing.assert_equal(values[key], value, err_msg=key)


def _first_mean(values):
    """The first mean the evaluator reports: mAP, or mIoU."""
    return next(iter(values.values()))


@pytest.mark.parametrize('kind', KINDS)
def test_each_evaluation_starts_from_the_first_batch(cases, kind):
    case = cases.make_case(kind)
    link = case.link()
    evaluator = case.evaluator(_iterator(case.samples), link, label_names=cases.LABEL_NAMES)
    first = evaluator()
    second = evaluator()
    _assert_same(second, first)
    assert link.calls == [[0, 1], [2, 3], [4]] * 2


@pytest.mark.parametrize('kind', KINDS)
def test_an_iterator_without_reset_is_copied(cases, kind):
    case = cases.make_case(kind)
    expected = case.evaluator(_iterator(case.samples), case.link())()
    batches = [case.samples[:3], case.samples[3:]]
    link = case.link()
    evaluator = case.evaluator(batches, link)
    _assert_same(evaluator(), expected)
    _assert_same(evaluator(), expected)
    assert link.calls == [[0, 1, 2], [3, 4]] * 2


@pytest.mark.parametrize('kind', KINDS)
def test_the_result_is_reported_to_the_current_reporter(cases, kind):
    case = cases.make_case(kind)
    evaluator = case.evaluator(_iterator(case.samples), case.link())
    evaluator.name = 'val'
    current = reporter.Reporter()
    with current:
        values = evaluator()
    assert values and all(key.startswith('val/main/') for key in values)
    assert current.observation == values


@pytest.mark.parametrize('kind', KINDS)
def test_evaluate_reports_with_the_target_as_observer(cases, kind):
    case = cases.make_case(kind)
    link = case.link()
    evaluator = case.evaluator(_iterator(case.samples), link)
    current = reporter.Reporter()
    current.add_observer('target', link)
    with current:
        values = evaluator.evaluate()
    assert current.observation == {}
    _assert_same({key.replace('target/', 'main/', 1): value for key, value in values.items()},
                 evaluator())


@pytest.mark.parametrize('size', [2, 3])
@pytest.mark.parametrize('kind', KINDS)
def test_workers_split_the_batches(cases, fake_comms, kind, size):
    case = cases.make_case(kind)
    expected = case.evaluator(_iterator(case.samples), case.link(),
                              label_names=cases.LABEL_NAMES)()
    comms = fake_comms(size)
    links = [case.link() for _ in comms]
    results = [None] * size

    def work(rank):
        iterator = _iterator(case.samples, 3) if rank == 0 else None
        evaluator = case.evaluator(iterator, links[rank], label_names=cases.LABEL_NAMES,
                                   comm=comms[rank])
        results[rank] = evaluator()

    threads = [threading.Thread(target=work, args=(rank,)) for rank in range(1, size)]
    for thread in threads:
        thread.start()
    with pytest.warns(RuntimeWarning, match='not a multiple') if size == 2 else \
            contextlib.nullcontext():
        work(0)
    for thread in threads:
        thread.join(timeout=20)

    _assert_same(results[0], expected)
    assert results[1:] == [{}] * (size - 1)
    predicted = sorted(index for link in links for call in link.calls for index in call)
    assert predicted == list(range(cases.N_IMAGE))
    assert all(link.calls for link in links)


@pytest.mark.parametrize('kind', KINDS)
def test_runs_in_a_trainer(cases, kind, make_trainer):
    case = cases.make_case(kind)
    expected = case.evaluator(_iterator(case.samples), case.link(),
                              label_names=cases.LABEL_NAMES)()
    trainer = make_trainer(2)
    trainer.extend(case.evaluator(_iterator(case.samples), case.link(),
                                  label_names=cases.LABEL_NAMES), trigger=(1, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.run()

    log = trainer.get_extension('LogReport').log
    assert [entry['iteration'] for entry in log] == [1, 2]
    for entry in log:
        _assert_same({key: value for key, value in entry.items()
                      if key.startswith('validation/')},
                     {f'validation/{key}': value for key, value in expected.items()})


@pytest.mark.parametrize('kind', OBJECT_KINDS)
def test_no_predicted_object_scores_zero(cases, kind):
    case = cases.make_case(kind, empty=True)
    assert all(len(labels) == 0 for labels in case.predictions[1])
    values = case.evaluator(_iterator(case.samples), case.link())()
    assert _first_mean(values) == 0


@pytest.mark.parametrize('kind', KINDS)
def test_rejects_samples_of_another_layout(cases, kind):
    case = cases.make_case(kind)
    samples = [sample + (None, None, None) for sample in case.samples]
    evaluator = case.evaluator(_iterator(samples), case.link())
    with pytest.raises(ValueError, match=r'each sample of the iterator must be \(img, '):
        evaluator()


@pytest.mark.parametrize('kind', KINDS)
def test_rejects_a_predict_of_another_layout(cases, kind):
    case = cases.make_case(kind)
    link = cases.PredictionStub(case.predictions + (case.predictions[0],))
    evaluator = case.evaluator(_iterator(case.samples), link)
    with pytest.raises(ValueError, match='target.predict must return'):
        evaluator()


@pytest.mark.parametrize('label_names, match', [
    ('cat', 'label_names must be an iterable of str, but got the str'),
    (('cat', 1), "got an entry 1 of type int"),
])
@pytest.mark.parametrize('kind', KINDS)
def test_rejects_label_names_that_are_not_strings(cases, kind, label_names, match):
    case = cases.make_case(kind)
    with pytest.raises(TypeError, match=match):
        case.evaluator(_iterator(case.samples), case.link(), label_names=label_names)


def test_label_names_may_be_a_generator(cases):
    case = cases.make_case('detection_voc')
    evaluator = case.evaluator(_iterator(case.samples), case.link(),
                               label_names=(name for name in cases.LABEL_NAMES))
    values = evaluator()
    _assert_same(evaluator(), values)
    assert 'main/ap/absent' in values


@pytest.mark.parametrize('kind', KINDS)
def test_no_iterator_only_on_other_ranks(cases, fake_comms, kind):
    case = cases.make_case(kind)
    with pytest.raises(ValueError, match='iterator may be None only on a worker other than'):
        case.evaluator(None, case.link())
    with pytest.raises(ValueError, match='iterator may be None only'):
        case.evaluator(None, case.link(), comm=fake_comms(2)[0])
