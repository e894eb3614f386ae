import numpy
import pytest

from framework import distributed
from framework.links import BatchNormalization, Chain
from vision.models import ResNet14


def test_the_copy_has_multi_node_batch_normalizations_and_the_same_state():
    model = ResNet14(n_class=4, base_channels=4)
    for _, bn in model.namedlinks():
        if isinstance(bn, BatchNormalization):
            bn.avg_mean[...] = numpy.arange(bn.avg_mean.size)
    comm = object()
    copy = distributed.create_mnbn_model(model, comm)
    kinds = {name: type(link) for name, link in model.namedlinks()}
    for name, link in copy.namedlinks():
        if kinds[name] is BatchNormalization:
            assert type(link) is distributed.MultiNodeBatchNormalization and link.comm is comm
        else:
            assert type(link) is kinds[name], name
    assert copy.layer_names == model.layer_names
    originals = dict(model.namedpersistents())
    for name, value in copy.namedpersistents():
        numpy.testing.assert_array_equal(value, originals[name], err_msg=name)
    # The model itself is left as it was.
    assert not any(isinstance(link, distributed.MultiNodeBatchNormalization)
                   for link in model.links())


def test_a_batch_normalization_over_given_axes_is_refused():
    model = Chain(bn=BatchNormalization(axis=(0, 2)))
    with pytest.raises(ValueError, match=r'/bn must normalize .* but it has axis=\(0, 2\)'):
        distributed.create_mnbn_model(model, object())
