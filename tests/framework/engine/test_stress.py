"""Random workloads give exactly what running them one by one in push order gives.

Each task reads and writes a few of a handful of variables (cells of a shared list), some
sleep, some are asynchronous (finished by another thread), some fail. The reference runs the
tasks in push order with the engine's error rule: a task touching a variable poisoned by an
earlier failure is skipped and poisons what it writes.
"""

import concurrent.futures
import dataclasses
import time

import numpy
import pytest

_P = 1_000_003


class TaskError(Exception):
    pass


@dataclasses.dataclass
class Task:
    index: int
    reads: tuple
    writes: tuple
    sleep: float
    fails: bool
    is_async: bool

    def run(self, data):
        acc = self.index
        for v in self.reads + self.writes:
            acc = (acc * 31 + data[v]) % _P
        if self.sleep:
            time.sleep(self.sleep)
        if self.fails:
            raise TaskError(f'task {self.index}')
        for k, v in enumerate(self.writes):
            data[v] = (acc + k) % _P


def make_tasks(seed, n_tasks, n_vars, fail_rate):
    rng = numpy.random.RandomState(seed)
    tasks = []
    for i in range(n_tasks):
        reads = tuple(rng.choice(n_vars, rng.randint(0, 4)).tolist())
        writes = tuple(rng.choice(n_vars, rng.randint(0, 3)).tolist())
        sleep = float(rng.uniform(0, 3e-4)) if rng.rand() < 0.1 else 0.0
        tasks.append(Task(i, reads, writes, sleep, bool(rng.rand() < fail_rate),
                          bool(rng.rand() < 0.1)))
    return tasks


def reference(tasks, data):
    """Runs ``tasks`` on ``data`` one by one; returns the tasks run, the failures and the
    failure poisoning each variable (indices of tasks)."""
    poison = {}
    ran, failures = [], []
    for task in tasks:
        inherited = [poison[v] for v in task.reads + task.writes if v in poison]
        if inherited:
            for v in task.writes:
                poison[v] = min(inherited)
            continue
        try:
            task.run(data)
        except TaskError:
            failures.append(task.index)
            for v in task.writes:
                poison[v] = task.index
        else:
            ran.append(task.index)
    return ran, failures, poison


def push_all(engine, tasks, data, variables, ran, executor):
    def sync_fn(task):
        def fn(run_ctx):
            task.run(data)
            ran.append(task.index)
        return fn

    def async_fn(task):
        def fn(run_ctx, on_complete):
            def work():
                try:
                    task.run(data)
                except TaskError as error:
                    on_complete(error)
                else:
                    ran.append(task.index)
                    on_complete()
            executor.submit(work)
        return fn

    for task in tasks:
        push = engine.push_async if task.is_async else engine.push
        push(async_fn(task) if task.is_async else sync_fn(task),
             const_vars=[variables[v] for v in task.reads],
             mutate_vars=[variables[v] for v in task.writes], name=f'task{task.index}')


def check_waits(engine, variables, failures, poison, barrier):
    """Checks what the waits raise after a chunk.

    Without a barrier, wait_for_all raises the earliest failure, and only it. With one (a
    last task writing every variable, so that a wait for any variable waits for every task
    touching one), the first wait_for_var raises the failure poisoning its variable, once:
    the variables it poisons are clean afterwards; wait_for_all raises the earliest other one.
    """
    remaining = set(failures)
    if barrier and poison:
        v = min(poison)
        with pytest.raises(TaskError, match=f'^task{poison[v]}: task {poison[v]}$'):
            engine.wait_for_var(variables[v])
        remaining.discard(poison[v])
        for other in poison:
            if poison[other] == poison[v]:
                engine.wait_for_var(variables[other])
    if remaining:
        first = min(remaining)
        with pytest.raises(TaskError, match=f'^task{first}: task {first}$'):
            engine.wait_for_all()
    engine.wait_for_all()
    for var in variables:
        engine.wait_for_var(var)


def check(engine, seed, n_tasks, n_vars, fail_rate, chunk=250):
    """Runs the workload in chunks, checking the waits after each (every other chunk ends
    with a barrier); returns the failures."""
    tasks = make_tasks(seed, n_tasks, n_vars, fail_rate)
    expected, data = list(range(n_vars)), list(range(n_vars))
    variables = [engine.new_var() for _ in range(n_vars)]
    expected_ran, ran, all_failures = [], [], []
    with concurrent.futures.ThreadPoolExecutor(2) as executor:
        for k, start in enumerate(range(0, n_tasks, chunk)):
            part = tasks[start:start + chunk]
            barrier = k % 2 == 1
            if barrier:
                part.append(Task(n_tasks + k, (), tuple(range(n_vars)), 0.0, False, False))
            part_ran, failures, poison = reference(part, expected)
            expected_ran += part_ran
            all_failures += failures
            push_all(engine, part, data, variables, ran, executor)
            check_waits(engine, variables, failures, poison, barrier)
            assert data == expected
    assert sorted(ran) == sorted(expected_ran)
    return all_failures


@pytest.mark.parametrize('seed', range(3))
def test_random_workload_matches_sequential_execution(engine, seed):
    failures = check(engine, seed, n_tasks=2000, n_vars=6, fail_rate=0.004)
    assert len(failures) >= 4


def test_random_workload_without_failures(engine):
    assert check(engine, 10, n_tasks=2000, n_vars=12, fail_rate=0.0, chunk=2000) == []


@pytest.mark.slow
@pytest.mark.parametrize('seed', range(3))
def test_long_random_workload(engine, seed):
    check(engine, 100 + seed, n_tasks=20000, n_vars=10, fail_rate=0.001, chunk=1000)
