"""Darknet's own ``.weights`` files, read into the YOLO models as ChainerCV's
``examples/yolo/darknet2npz.py`` converts them.

A file is a header, ``major``, ``minor``, ``revision`` (int32) and ``seen`` (int64 when
``major * 10 + minor >= 2``, int32 before), then every parameter as float32, layer after layer
in the order of the network's configuration: a convolution with batch normalization stores its
shift (``beta``), scale (``gamma``), running mean and variance, then its filters; one without
stores its bias, then its filters. The offsets of Darknet's boxes are ``(x, y, w, h)``, which
the loading turns into ChainerCV's ``(y, x, h, w)``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

import numpy

from framework.links import ChainList, Conv2DBNActiv, Convolution2D

_WHO = 'vision.models.detection.yolo'
# Darknet's versions count in the hundreds at most: a larger one is no Darknet header.
_MAX_VERSION = 1000


def darknet_header_size(path: str | os.PathLike) -> int | None:
    """The bytes of the header of a Darknet ``.weights`` file, recognised by its content: a
    header of plausible versions followed by a whole number of float32 values.

    Returns:
        int or None: 16 or 20; None when the file is no Darknet weights file.
    """
    with open(path, 'rb') as f:
        head = f.read(12)
    if len(head) < 12:
        return None
    major, minor, revision = (int(v) for v in numpy.frombuffer(head, '<i4'))
    if not (0 <= major < _MAX_VERSION and 0 <= minor < _MAX_VERSION and revision >= 0):
        return None
    header = 20 if major * 10 + minor >= 2 else 16
    body = os.path.getsize(path) - header
    return header if body > 0 and body % 4 == 0 else None


def stored_links(links: Iterable) -> list:
    """The convolutions of links in the order Darknet stores them: each
    :class:`~framework.links.Conv2DBNActiv` and :class:`~framework.links.Convolution2D`,
    those inside a :class:`~framework.links.ChainList` in its order."""
    out = []
    for link in links:
        if isinstance(link, (Conv2DBNActiv, Convolution2D)):
            out.append(link)
        elif isinstance(link, ChainList):
            out.extend(stored_links(link))
        else:
            raise TypeError(f'{_WHO}: Darknet stores no {type(link).__name__}')
    return out


def stored_count(links: Iterable) -> int:
    """The float32 values Darknet stores for the links (see :func:`stored_links`)."""
    count = 0
    for link in stored_links(links):
        if isinstance(link, Conv2DBNActiv):
            count += link.conv.W.size + 4 * link.bn.avg_mean.size
        else:
            count += link.W.size + link.b.size
    return count


class DarknetWeights:
    """A Darknet ``.weights`` file, read when it is loaded.

    Args:
        path (str): the file (see :func:`darknet_header_size`).

    Attributes:
        path (str): as given.
        n_floats (int): the float32 values after the header.
    """

    def __init__(self, path: str):
        header = darknet_header_size(path)
        if header is None:
            raise ValueError(f'{_WHO}: {path} is no Darknet weights file')
        self.path = path
        self._header = header
        self.n_floats = (os.path.getsize(path) - header) // 4

    def n_fg_class(self, model: str, body_count: int, head_channels: Sequence[int],
                   n_anchors: int, n_fg_class: int | None) -> int:
        """The number of foreground classes that makes the file's length the model's.

        The model stores ``body_count`` values outside its heads, and each head, a 1x1
        convolution from ``c`` channels to ``n_anchors * (5 + n_fg_class)``, stores
        ``(c + 1) * n_anchors * (5 + n_fg_class)``.

        Args:
            model (str): the model, named by the errors (with its width).
            body_count (int): the values outside the heads.
            head_channels (sequence of int): the input channels of each head.
            n_anchors (int): the anchors of a head.
            n_fg_class (int or None): the number given, checked; None to find it.

        Returns:
            int: the number of foreground classes.

        Raises:
            ValueError: the file's length is not the model's for ``n_fg_class`` (or for any,
                when it is None); the message gives the float counts expected and actual.
        """
        per_class = sum(c + 1 for c in head_channels) * n_anchors
        fixed = body_count + 5 * per_class
        if n_fg_class is not None:
            expected = fixed + per_class * n_fg_class
            if expected != self.n_floats:
                raise ValueError(f'{_WHO}: the Darknet weights file {self.path} holds '
                                 f'{self.n_floats} float32 values, but {model} with '
                                 f'n_fg_class={n_fg_class} has {expected}')
            return n_fg_class
        n, rest = divmod(self.n_floats - fixed, per_class)
        if rest or n < 1:
            raise ValueError(f'{_WHO}: the Darknet weights file {self.path} holds '
                             f'{self.n_floats} float32 values, but {model} has {fixed} + '
                             f'{per_class} * n_fg_class (e.g. {fixed + 20 * per_class} for '
                             f'20 classes): the file is of another model or width')
        return n

    def load(self, links: Iterable, heads: Iterable[Convolution2D], n_fg_class: int) -> None:
        """Fills the links from the file, in Darknet's order, and turns the heads' offsets
        from Darknet's ``(x, y, w, h)`` to ``(y, x, h, w)``.

        Args:
            links (iterable of Link): the model's links in Darknet's order (see
                :func:`stored_links`).
            heads (iterable of Convolution2D): the 1x1 convolutions that give the outputs.
            n_fg_class (int): the foreground classes of the heads.

        Raises:
            ValueError: the file does not hold as many values as the links take.
        """
        links = stored_links(links)
        expected = stored_count(links)
        if expected != self.n_floats:
            raise ValueError(f'{_WHO}: the Darknet weights file {self.path} holds '
                             f'{self.n_floats} float32 values, but the model has {expected}')
        values = numpy.fromfile(self.path, '<f4', offset=self._header)
        offset = 0

        def take(array):
            nonlocal offset
            array[...] = values[offset:offset + array.size].reshape(array.shape)
            offset += array.size

        for link in links:
            if isinstance(link, Conv2DBNActiv):
                for array in (link.bn.beta.array, link.bn.gamma.array, link.bn.avg_mean,
                              link.bn.avg_var, link.conv.W.array):
                    take(array)
            else:
                take(link.b.array)
                take(link.W.array)
        for head in heads:
            for array in (head.W.array, head.b.array):
                by_anchor = array.reshape((-1, 5 + n_fg_class) + array.shape[1:])
                by_anchor[:, [1, 0, 3, 2]] = by_anchor[:, :4].copy()
