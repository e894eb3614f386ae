import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase


class TestCrop(FunctionTestCase):
    # shape, size, offset, the expected window (top, left)
    params = [{'case': c, 'dtype': d}
              for c in (((3, 5, 6), (2, 3), None, (2, 2)),
                        ((3, 5, 6), (2, 3), (1, 0), (1, 0)),
                        ((2, 1, 4, 4), (4, 4), None, (0, 0)),
                        ((2, 1, 4, 7), (3, 2), None, (0, 2)),
                        ((5, 5), (1, 1), (4, 4), (4, 4)))
              for d in FLOAT_DTYPES]

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        _, size, offset, _ = self.case
        return F.crop(inputs[0], size, offset),

    def forward_expected(self, inputs):
        _, (h, w), _, (top, left) = self.case
        return inputs[0][..., top:top + h, left:left + w],


def test_crop_centres_as_chainercv_center_crop():
    # int(round((H - H_O) / 2)) rounds halves to even: (5 - 2) / 2 = 1.5 -> 2, (6 - 5) / 2 -> 0
    x = numpy.arange(30, dtype=numpy.float32).reshape(1, 5, 6)
    numpy.testing.assert_array_equal(F.crop(x, (2, 5)).array, x[:, 2:4, 0:5])


@pytest.mark.parametrize('size, offset, error, message', [
    ((6, 2), None, ValueError, r'crop: size \(6, 2\) must lie within the spatial shape \(5, 6\) '
                               r'of x \(shape \(3, 5, 6\)\)'),
    ((2, 2), (4, 0), ValueError, r'crop: offset \(4, 0\) puts the window of size \(2, 2\) '
                                 r'outside x of spatial shape \(5, 6\)'),
    ((2.5, 2), None, TypeError, r'crop: size must be a pair of ints \(height, width\), but got '
                                r'\(2.5, 2\)'),
    ((2, 2), 1, TypeError, r'crop: offset must be a pair of ints'),
])
def test_crop_rejects_bad_input(size, offset, error, message):
    with pytest.raises(error, match=message):
        F.crop(numpy.zeros((3, 5, 6), numpy.float32), size, offset)
