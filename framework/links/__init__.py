"""Links (``import framework.links as L``): components that own parameters.

``Link``, ``Chain``, ``ChainList`` and ``Sequential`` structure models; the layers (Linear,
Convolution2D, BatchNormalization, ...) are links with Chainer's names and arguments, and the
blocks of ChainerCV (Conv2DBNActiv, SEBlock, PickableSequentialChain, ...) are here too.
"""

from framework.links.activation.maxout import Maxout
from framework.links.activation.prelu import PReLU
from framework.links.connection.bias import Bias
from framework.links.connection.conv_2d_activ import Conv2DActiv
from framework.links.connection.conv_2d_bn_activ import Conv2DBNActiv
from framework.links.connection.convolution_2d import Convolution2D
from framework.links.connection.convolution_nd import Convolution1D, Convolution3D, ConvolutionND
from framework.links.connection.deconvolution_2d import Deconvolution2D
from framework.links.connection.deconvolution_nd import (
    Deconvolution1D,
    Deconvolution3D,
    DeconvolutionND,
)
from framework.links.connection.depthwise_convolution_2d import DepthwiseConvolution2D
from framework.links.connection.dilated_convolution_2d import DilatedConvolution2D
from framework.links.connection.embed_id import EmbedID
from framework.links.connection.linear import Linear
from framework.links.connection.scale import Scale
from framework.links.connection.seblock import SEBlock
from framework.links.connection.separable_conv_2d_bn_activ import SeparableConv2DBNActiv
from framework.links.link import Chain, ChainList, Link
from framework.links.model.classifier import Classifier
from framework.links.model.pickable_sequential_chain import PickableSequentialChain
from framework.links.normalization.batch_normalization import BatchNormalization
from framework.links.normalization.group_normalization import GroupNormalization
from framework.links.normalization.layer_normalization import LayerNormalization
from framework.links.sequential import Sequential

__all__ = [
    'BatchNormalization', 'Bias', 'Chain', 'ChainList', 'Classifier', 'Conv2DActiv',
    'Conv2DBNActiv', 'Convolution1D', 'Convolution2D', 'Convolution3D', 'ConvolutionND',
    'Deconvolution1D', 'Deconvolution2D', 'Deconvolution3D', 'DeconvolutionND',
    'DepthwiseConvolution2D',
    'DilatedConvolution2D', 'EmbedID', 'GroupNormalization', 'LayerNormalization', 'Linear',
    'Link', 'Maxout', 'PReLU', 'PickableSequentialChain', 'Scale', 'SEBlock',
    'SeparableConv2DBNActiv', 'Sequential',
]
