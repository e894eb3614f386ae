import numpy

import framework.links as L
from framework import optimizers
from vision.models.detection.ssd import GradientScaling


def test_scales_the_gradients_of_the_parameters_it_hooks():
    link = L.Linear(3, 2)
    optimizer = optimizers.SGD(lr=1.0)
    optimizer.setup(link)
    link.b.update_rule.add_hook(GradientScaling(2))
    W, b = link.W.array.copy(), link.b.array.copy()
    link.cleargrads()
    link.W.grad = numpy.ones_like(W)
    link.b.grad = numpy.ones_like(b)
    optimizer.update()
    numpy.testing.assert_allclose(link.W.array, W - 1)
    numpy.testing.assert_allclose(link.b.array, b - 2)


def test_a_parameter_without_gradient_is_left_alone():
    link = L.Linear(3, 2)
    link.cleargrads()
    GradientScaling(3)(None, link.b)
    assert link.b.grad is None
