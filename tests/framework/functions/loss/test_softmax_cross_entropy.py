import numpy
import pytest

import framework
import framework.functions as F
from framework import Variable, using_config
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

SHAPES = [(4, 3), (2, 3, 2), (2, 4, 2, 2)]


def _log_softmax(x):
    x = x.astype(numpy.float64)
    m = x.max(axis=1, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))


def _expected_loss(x, t, class_weight, ignore_label, normalize, reduce):
    n_classes = x.shape[1]
    log_y = numpy.moveaxis(_log_softmax(x), 1, -1).reshape(-1, n_classes)
    labels = t.ravel()
    valid = labels != ignore_label
    safe = numpy.where(valid, labels, 0)
    loss = -log_y[numpy.arange(labels.size), safe] * valid
    if class_weight is not None:
        loss *= class_weight[safe]
    if reduce == 'no':
        return loss.reshape(t.shape)
    count = max(valid.sum(), 1) if normalize else len(x)
    return numpy.asarray(loss.sum() / count)


def _options(**kwargs):
    defaults = {'normalize': True, 'cache_score': True, 'weighted': False, 'ignore_label': -1,
                'reduce': 'mean'}
    defaults.update(kwargs)
    return defaults


def _params(variants):
    return [dict(p, **v) for p in product({'shape': SHAPES, 'dtype': FLOAT_DTYPES})
            for v in variants]


class _LabelCase(FunctionTestCase):
    enable_double_backprop = False

    @property
    def check_forward_options(self):
        return {'atol': 5e-3, 'rtol': 5e-3} if self.dtype == numpy.float16 else {}

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        t_shape = self.shape[:1] + self.shape[2:]
        t = numpy.random.randint(0, self.shape[1], t_shape).astype(numpy.int32)
        t[numpy.random.uniform(size=t_shape) < 0.3] = self.ignore_label
        self.class_weight = (numpy.random.uniform(0.5, 2, self.shape[1]).astype(self.dtype)
                             if self.weighted else None)
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return F.softmax_cross_entropy(
            x, t, normalize=self.normalize, cache_score=self.cache_score,
            class_weight=self.class_weight, ignore_label=self.ignore_label, reduce=self.reduce,
            enable_double_backprop=self.enable_double_backprop),

    def forward_expected(self, inputs):
        x, t = inputs
        return _expected_loss(x, t, self.class_weight, self.ignore_label, self.normalize,
                              self.reduce).astype(self.dtype),


class TestSoftmaxCrossEntropy(_LabelCase):
    params = _params([
        _options(),
        _options(normalize=False, weighted=True),
        _options(reduce='no', weighted=True, ignore_label=1),
        _options(cache_score=False, reduce='no'),
    ])
    # As in Chainer, the fast backward (enable_double_backprop=False) is not differentiable.
    skip_double_backward_test = True


class TestSoftmaxCrossEntropyDoubleBackprop(_LabelCase):
    params = _params([
        _options(weighted=True),
        _options(normalize=False, reduce='no', ignore_label=2),
    ])
    enable_double_backprop = True


class _SoftTargetCase(FunctionTestCase):
    enable_double_backprop = False

    @property
    def check_forward_options(self):
        return {'atol': 5e-3, 'rtol': 5e-3} if self.dtype == numpy.float16 else {}

    def generate_inputs(self):
        # The targets are not an input of the test: the loss is not differentiable by them.
        t = numpy.random.uniform(0.1, 1, self.shape)
        self.t = (t / t.sum(axis=1, keepdims=True)).astype(self.dtype)
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.softmax_cross_entropy(x, device.send(self.t), reduce=self.reduce,
                                       soft_target_loss=self.soft_target_loss,
                                       enable_double_backprop=self.enable_double_backprop),

    def forward_expected(self, inputs):
        x, = inputs
        t = self.t.astype(numpy.float64)
        loss = -(t * _log_softmax(x)).sum(axis=1)
        if self.soft_target_loss == 'kl-divergence':
            loss += (t * numpy.log(t + 1e-7)).sum(axis=1)
        if self.reduce == 'mean':
            loss = numpy.asarray(loss.mean())
        return loss.astype(self.dtype),


class TestSoftmaxCrossEntropySoftTarget(_SoftTargetCase):
    params = product({'shape': SHAPES, 'reduce': ['mean', 'no'],
                      'soft_target_loss': ['cross-entropy', 'kl-divergence'],
                      'dtype': FLOAT_DTYPES})
    # As in Chainer, the fast backward (enable_double_backprop=False) is not differentiable.
    skip_double_backward_test = True


class TestSoftmaxCrossEntropySoftTargetDoubleBackprop(_SoftTargetCase):
    params = product({'shape': SHAPES[:2], 'reduce': ['mean', 'no'],
                      'soft_target_loss': ['cross-entropy', 'kl-divergence'],
                      'dtype': FLOAT_DTYPES})
    enable_double_backprop = True


def test_softmax_cross_entropy_docstring_example():
    x = numpy.array([[-1, 0, 1, 2], [2, 0, 1, -1]], numpy.float32)
    loss = F.softmax_cross_entropy(x, numpy.array([3, 0], numpy.int32))
    assert loss.dtype == numpy.float32 and loss.shape == ()
    numpy.testing.assert_allclose(loss.array, 0.44018970, rtol=1e-6)


def test_softmax_cross_entropy_reduces_float16_in_float32():
    x = numpy.zeros((4096, 2), numpy.float16)
    loss = F.softmax_cross_entropy(x, numpy.zeros(4096, numpy.int32))
    assert loss.dtype == numpy.float16
    numpy.testing.assert_allclose(loss.array, numpy.log(2), rtol=1e-3)


@pytest.mark.parametrize('enable_double_backprop', [False, True])
def test_softmax_cross_entropy_with_every_label_ignored_is_zero(enable_double_backprop):
    x = Variable(numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32))
    loss = F.softmax_cross_entropy(x, numpy.full(3, -1, numpy.int32),
                                   enable_double_backprop=enable_double_backprop)
    loss.backward()
    assert loss.array == 0
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((3, 4), numpy.float32))


def test_softmax_cross_entropy_fast_backward_refuses_double_backprop():
    x = Variable(numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32))
    loss = F.softmax_cross_entropy(x, numpy.array([0, 1, 2], numpy.int32))
    gx, = framework.grad([loss], [x], enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='enable_double_backprop=True'):
        framework.grad([F.sum(gx * gx)], [x])


def test_softmax_cross_entropy_checks_labels_in_debug_mode():
    x = numpy.zeros((2, 3), numpy.float32)
    with using_config('debug', True), pytest.raises(
            ValueError, match=r'softmax_cross_entropy: each label of t must be in \[0, 3\)'):
        F.softmax_cross_entropy(x, numpy.array([0, 3], numpy.int32))


@pytest.mark.parametrize('class_weight, message', [
    (Variable(numpy.ones(3, numpy.float32)), 'class_weight must be an array or None'),
    (numpy.ones((1, 3), numpy.float32), 'class_weight must be 1-dimensional'),
    (numpy.ones(3, numpy.int32), 'class_weight must be a floating-point array'),
    (numpy.ones(4, numpy.float32), r'class_weight must have shape \(3,\)'),
])
def test_softmax_cross_entropy_rejects_bad_class_weight(class_weight, message):
    with pytest.raises(ValueError, match='softmax_cross_entropy: ' + message):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32),
                                class_weight=class_weight)


def test_softmax_cross_entropy_rejects_class_weight_with_soft_targets():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='class_weight applies to integer labels only'):
        F.softmax_cross_entropy(x, x, class_weight=numpy.ones(3, numpy.float32))


def test_softmax_cross_entropy_rejects_bad_options():
    x, t = numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match="reduce must be 'mean' or 'no', but got 'sum'"):
        F.softmax_cross_entropy(x, t, reduce='sum')
    with pytest.raises(ValueError, match="soft_target_loss must be 'cross-entropy' or"):
        F.softmax_cross_entropy(x, t, soft_target_loss='mse')


def test_softmax_cross_entropy_rejects_bad_labels():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    with pytest.raises(ValueError, match=r't must have shape \(2, 4\), but got shape \(2,\)'):
        F.softmax_cross_entropy(x, numpy.zeros(2, numpy.int32))
    with pytest.raises(TypeError, match='t must be a signed integer or floating-point array'):
        F.softmax_cross_entropy(x, numpy.zeros((2, 4), numpy.uint8))
    with pytest.raises(ValueError, match='t must have the shape of x'):
        F.softmax_cross_entropy(x, numpy.zeros((2, 4), numpy.float32))


def test_softmax_cross_entropy_rejects_one_dimensional_scores():
    with pytest.raises(ValueError, match='softmax_cross_entropy: x must have at least 2 dim'):
        F.softmax_cross_entropy(numpy.zeros(3, numpy.float32), numpy.zeros((), numpy.int32))
