"""Connection functions: linear maps and convolutions."""

from framework.functions.connection.convolution_2d import convolution_2d
from framework.functions.connection.convolution_nd import (
    convolution_1d,
    convolution_3d,
    convolution_nd,
)
from framework.functions.connection.deconvolution_2d import deconvolution_2d
from framework.functions.connection.deconvolution_nd import (
    deconvolution_1d,
    deconvolution_3d,
    deconvolution_nd,
)
from framework.functions.connection.depthwise_convolution_2d import depthwise_convolution_2d
from framework.functions.connection.dilated_convolution_2d import dilated_convolution_2d
from framework.functions.connection.embed_id import embed_id
from framework.functions.connection.linear import linear

__all__ = [
    'convolution_1d', 'convolution_2d', 'convolution_3d', 'convolution_nd', 'deconvolution_1d',
    'deconvolution_2d', 'deconvolution_3d', 'deconvolution_nd', 'depthwise_convolution_2d',
    'dilated_convolution_2d', 'embed_id', 'linear',
]
