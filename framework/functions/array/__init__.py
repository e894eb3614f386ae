"""Array manipulation functions."""

from framework.functions.array.broadcast import broadcast, broadcast_to
from framework.functions.array.cast import cast
from framework.functions.array.concat import concat
from framework.functions.array.copy import copy
from framework.functions.array.crop import crop
from framework.functions.array.depth2space import depth2space
from framework.functions.array.expand_dims import expand_dims
from framework.functions.array.flatten import flatten
from framework.functions.array.flip import flip
from framework.functions.array.fliplr import fliplr
from framework.functions.array.flipud import flipud
from framework.functions.array.get_item import get_item
from framework.functions.array.hstack import hstack
from framework.functions.array.im2col import im2col
from framework.functions.array.moveaxis import moveaxis
from framework.functions.array.pad import pad
from framework.functions.array.pad_sequence import pad_sequence
from framework.functions.array.permutate import permutate
from framework.functions.array.repeat import repeat
from framework.functions.array.reshape import reshape
from framework.functions.array.resize_images import resize_images
from framework.functions.array.rollaxis import rollaxis
from framework.functions.array.select_item import select_item
from framework.functions.array.separate import separate
from framework.functions.array.space2depth import space2depth
from framework.functions.array.split_axis import split_axis
from framework.functions.array.squeeze import squeeze
from framework.functions.array.stack import stack
from framework.functions.array.swapaxes import swapaxes
from framework.functions.array.tile import tile
from framework.functions.array.transpose import transpose
from framework.functions.array.vstack import vstack
from framework.functions.array.where import where

__all__ = [
    'broadcast', 'broadcast_to', 'cast', 'concat', 'copy', 'depth2space', 'expand_dims',
    'flatten', 'flip', 'fliplr', 'flipud', 'get_item', 'hstack', 'moveaxis', 'pad',
    'pad_sequence', 'permutate', 'repeat', 'reshape', 'rollaxis', 'select_item', 'separate',
    'space2depth', 'split_axis', 'squeeze', 'stack', 'swapaxes', 'tile', 'transpose', 'vstack',
    'where',
    'crop', 'resize_images', 'im2col',
]
