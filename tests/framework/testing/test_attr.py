import importlib.util

from framework.testing import attr
from framework.testing.devices import gpu_count


def test_marks():
    assert attr.slow.name == 'slow'
    assert attr.mpi.args == (importlib.util.find_spec('mpi4py') is None,)


@attr.gpu
def test_gpu_tests_run_only_with_a_gpu():
    import cupy
    assert cupy.cuda.runtime.getDeviceCount() > 0


def test_gpu_marks_and_skips_where_there_is_no_gpu():
    marks = {mark.name: mark for mark in test_gpu_tests_run_only_with_a_gpu.pytestmark}
    assert set(marks) == {'gpu', 'skipif'}
    assert marks['skipif'].args == (not gpu_count(),)
    assert 'pip install' in marks['skipif'].kwargs['reason']


def test_the_plugin_marks_and_skips_the_tests_of_the_absent_gpu(pytester):
    pytester.makeconftest("pytest_plugins = ['framework.testing.pytest_plugin']")
    pytester.makepyfile("""
        import pytest
        from framework.testing import devices

        @pytest.mark.parametrize('device', devices(), ids=str)
        def test_on(device):
            pass
    """)
    result = pytester.runpytest('-p', 'no:cacheprovider', '-m', 'gpu', '-rs')
    if gpu_count():
        result.assert_outcomes(passed=1, deselected=2)
    else:
        result.assert_outcomes(skipped=1, deselected=2)
        result.stdout.fnmatch_lines(['*needs CuPy and a GPU*'])
