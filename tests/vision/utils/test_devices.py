"""The box and mask helpers on every device: they compute where their inputs live, and refuse
inputs of two devices."""

import numpy
import pytest

from framework import backend
from framework.testing import devices
from vision.utils import (
    batched_non_maximum_suppression,
    bbox_iou,
    mask_iou,
    non_maximum_suppression,
)

_BBOX = numpy.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 10, 9]],
                    numpy.float32)
_SCORE = numpy.array([0.5, 0.9, 0.3, 0.8], numpy.float32)
_LABEL = numpy.array([0, 0, 1, 1], numpy.int32)


def _on(device, *arrays):
    return tuple(device.send(a) for a in arrays)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_bbox_iou_stays_on_the_device(device):
    a, b = _on(device, _BBOX, _BBOX[:2])
    iou = bbox_iou(a, b)
    assert backend.get_device_from_array(iou) == device
    numpy.testing.assert_allclose(backend.to_cpu(iou), bbox_iou(_BBOX, _BBOX[:2]))


@pytest.mark.parametrize('device', devices(), ids=str)
def test_mask_iou_stays_on_the_device(device):
    mask = numpy.zeros((3, 4, 5), bool)
    mask[0, :2] = mask[1, 1:3] = mask[2, :, :1] = True
    a, b = _on(device, mask, mask[:2])
    iou = mask_iou(a, b)
    assert backend.get_device_from_array(iou) == device
    numpy.testing.assert_allclose(backend.to_cpu(iou), mask_iou(mask, mask[:2]))


@pytest.mark.parametrize('device', devices(), ids=str)
def test_suppression_returns_indices_on_the_device_of_the_boxes(device):
    bbox, score, label = _on(device, _BBOX, _SCORE, _LABEL)
    for got, want in [
            (non_maximum_suppression(bbox, 0.5, score), [1, 2]),
            (non_maximum_suppression(bbox, 0.5), [0, 2]),
            (batched_non_maximum_suppression(bbox, score, label, 0.5, limit=3), [1, 3, 2])]:
        assert backend.get_device_from_array(got) == device
        assert backend.to_cpu(got).tolist() == want


def test_inputs_of_two_devices_are_refused():
    device = devices()[1]
    for call in (lambda: bbox_iou(device.send(_BBOX), _BBOX),
                 lambda: non_maximum_suppression(device.send(_BBOX), 0.5, _SCORE),
                 lambda: mask_iou(numpy.ones((1, 2, 2), bool),
                                  device.send(numpy.ones((1, 2, 2), bool)))):
        with pytest.raises(ValueError, match='all inputs must be on one device'):
            call()


@pytest.mark.parametrize('on_device', ['bbox_a', 'bbox_b'])
def test_bbox_iou_names_itself_and_both_arguments_when_their_devices_differ(on_device):
    device = devices()[1]
    boxes = {'bbox_a': _BBOX, 'bbox_b': _BBOX[:2]}
    boxes[on_device] = device.send(boxes[on_device])
    where = {name: device if name == on_device else backend.CpuDevice() for name in boxes}
    message = (f"bbox_iou: all inputs must be on one device, but bbox_a is on {where['bbox_a']} "
               f"and bbox_b is on {where['bbox_b']}; move them with to_device first")
    with pytest.raises(ValueError) as error:
        bbox_iou(**boxes)
    assert str(error.value) == message
