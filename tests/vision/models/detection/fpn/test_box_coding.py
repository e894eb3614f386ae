"""The FPN's box offsets: Faster R-CNN's coding divided by the deviations, in float32."""

import numpy
import pytest

from framework import backend
from framework.testing import devices
from framework.testing.devices import is_gpu
from vision.models.detection.faster_rcnn.utils import bbox2loc, loc2bbox
from vision.models.detection.fpn.box_coding import EXP_CLIP, decode_bbox, encode_bbox

STD = (0.1, 0.2)  # the FPN heads' deviations: neither is a float32 exactly


def _boxes(rng, n):
    corner = rng.uniform(0, 500, (n, 2))
    return numpy.concatenate((corner, corner + rng.uniform(4, 300, (n, 2))), 1).astype(
        numpy.float32)


def test_encode_divides_by_the_deviations_in_float32():
    rng = numpy.random.default_rng(0)
    src, dst = _boxes(rng, 500), _boxes(rng, 500)
    loc = encode_bbox(src, dst, STD)
    std = numpy.float32([0.1, 0.1, 0.2, 0.2])
    assert loc.dtype == numpy.float32
    numpy.testing.assert_array_equal(loc, bbox2loc(src, dst) / std)
    # float64 deviations round some quotients to other float32 values
    in_float64 = bbox2loc(src, dst) / numpy.float64([0.1, 0.1, 0.2, 0.2])
    assert (loc != in_float64.astype(numpy.float32)).any()


def test_decode_multiplies_by_the_deviations_in_float32_and_inverts_encode():
    rng = numpy.random.default_rng(1)
    src = _boxes(rng, 500)
    loc = rng.normal(0, 1, (500, 4)).astype(numpy.float32)
    bbox = decode_bbox(src, loc, STD)
    std = numpy.float32([0.1, 0.1, 0.2, 0.2])
    assert bbox.dtype == numpy.float32
    numpy.testing.assert_array_equal(bbox, loc2bbox(src, loc * std))
    assert (loc * std != (loc * numpy.float64([0.1, 0.1, 0.2, 0.2])).astype(numpy.float32)).any()
    numpy.testing.assert_allclose(encode_bbox(src, bbox, STD), loc, rtol=1e-3, atol=1e-3)


def test_decode_clips_the_log_scales_after_the_deviation():
    src = numpy.float32([[0, 0, 16, 32], [10, 10, 26, 26]])
    # 0.2 * 25 = 5 > log(1000 / 16) = 4.135: clipped; 0.2 * 20 = 4: kept; negative: kept
    loc = numpy.float32([[0, 0, 25, 20], [0, 0, -30, 25]])
    bbox = decode_bbox(src, loc, STD)
    height, width = bbox[:, 2] - bbox[:, 0], bbox[:, 3] - bbox[:, 1]
    numpy.testing.assert_allclose(height, [16 * numpy.exp(EXP_CLIP), 16 * numpy.exp(-6)],
                                  rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(width, [32 * numpy.exp(4), 16 * numpy.exp(EXP_CLIP)],
                                  rtol=1e-5)
    assert EXP_CLIP == pytest.approx(numpy.log(1000 / 16))
    # the default deviations are 1: the clip applies to the offsets themselves
    unit = decode_bbox(src, numpy.float32([[0, 0, 4.2, 4]] * 2))
    numpy.testing.assert_allclose(unit[:, 2] - unit[:, 0], [16 * numpy.exp(EXP_CLIP)] * 2,
                                  rtol=1e-5)


def test_no_box_gives_no_offset():
    empty = numpy.zeros((0, 4), numpy.float32)
    assert encode_bbox(empty, empty, STD).shape == (0, 4)
    assert decode_bbox(empty, empty, STD).shape == (0, 4)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_coding_stays_on_the_device(device):
    rng = numpy.random.default_rng(2)
    src, dst = _boxes(rng, 20), _boxes(rng, 20)
    loc = encode_bbox(device.send(src), device.send(dst), STD)
    bbox = decode_bbox(device.send(src), loc, STD)
    assert backend.get_device_from_array(loc) == device
    assert backend.get_device_from_array(bbox) == device
    # A GPU's logarithm and contracted multiply-adds round the last bit their own way.
    tolerance = 1e-6 if is_gpu(device) else 0
    numpy.testing.assert_allclose(backend.to_cpu(loc), encode_bbox(src, dst, STD),
                                  rtol=tolerance, atol=tolerance)
    numpy.testing.assert_allclose(backend.to_cpu(bbox), decode_bbox(src, encode_bbox(
        src, dst, STD), STD), rtol=1e-6, atol=1e-4)


@pytest.mark.parametrize('function, names', [(encode_bbox, ('src_bbox', 'dst_bbox')),
                                             (decode_bbox, ('src_bbox', 'loc'))])
@pytest.mark.parametrize('moved', [0, 1])
def test_arrays_of_two_devices_are_refused(function, names, moved):
    device = devices()[1]
    arrays = [_boxes(numpy.random.default_rng(3), 2) for _ in names]
    arrays[moved] = device.send(arrays[moved])
    where = [device if i == moved else backend.CpuDevice() for i in range(2)]
    message = (f'{function.__name__}: all inputs must be on one device, but {names[0]} is on '
               f'{where[0]} and {names[1]} is on {where[1]}; move them with to_device first')
    with pytest.raises(ValueError) as error:
        function(*arrays, STD)
    assert str(error.value) == message
