import sys
import unittest

import pytest

from framework import testing


def _double(x):
    return 2 * x


@testing.parameterize(*testing.product({'a': [1, 2], 'f': [_double]}))
class TestParameterize(unittest.TestCase):

    def test_attributes(self):
        assert self.a in (1, 2)
        assert self.f(self.a) == 2 * self.a  # a function stays a plain function


def test_parameterize_makes_one_class_per_dictionary():
    module = sys.modules[__name__]
    assert TestParameterize is None  # the unparameterised class is not collected
    classes = [getattr(module, f'TestParameterize_param_{i}') for i in range(2)]
    assert [c.a for c in classes] == [1, 2]
    assert all(issubclass(c, unittest.TestCase) for c in classes)


def test_product():
    assert testing.product({'a': [1, 2], 'b': ['x']}) == [{'a': 1, 'b': 'x'},
                                                         {'a': 2, 'b': 'x'}]
    assert testing.product({}) == [{}]
    assert testing.product([[{'a': 1}, {'a': 2}], [{'b': 3}]]) == [{'a': 1, 'b': 3},
                                                                  {'a': 2, 'b': 3}]
    with pytest.raises(TypeError, match='product: parameter must be a dict of lists or a list '
                                        'of lists of dicts'):
        testing.product([{'a': 1}])


@testing.parameterize_pytest('a,b', [(1, 2), (3, 4)])
class TestParameterizePytest:

    def test_attributes(self):
        assert self.b == self.a + 1


def test_parameterize_pytest():
    module = sys.modules[__name__]
    assert [getattr(module, f'TestParameterizePytest_param_{i}').a for i in range(2)] == [1, 3]
    with pytest.raises(ValueError, match=r"each value must have 2 entries \(a,b\), but got "
                                         r"\(1,\)"):
        testing.parameterize_pytest('a,b', [(1,)])


def test_product_dict():
    assert testing.product_dict([{'a': 1}, {'a': 2}], [{'b': 3, 'c': 4}]) == [
        {'a': 1, 'b': 3, 'c': 4}, {'a': 2, 'b': 3, 'c': 4}]


def test_run_module_does_nothing_when_imported():
    testing.run_module(__name__, __file__)
