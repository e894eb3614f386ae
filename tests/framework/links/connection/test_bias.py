import numpy

import framework.links as L


def test_learned_and_given_terms():
    link = L.Bias(axis=1, shape=(3,))
    assert [(p, v.shape) for p, v in link.namedparams()] == [('/b', (3,))]
    link.b.array[...] = [1, 2, 3]
    x = numpy.zeros((2, 3, 2), numpy.float32)
    numpy.testing.assert_array_equal(link(x).array[1, :, 0], [1, 2, 3])
    given = L.Bias(axis=2)
    assert list(given.params()) == []
    y = given(x, numpy.array([5, 6], numpy.float32))
    numpy.testing.assert_array_equal(y.array[0, 0], [5, 6])
