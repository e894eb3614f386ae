"""EmbedID: a learnable embedding of integer ids."""

from __future__ import annotations

from framework import initializers
from framework.functions.connection.embed_id import embed_id
from framework.links.link import Link
from framework.parameter import Parameter
from framework.variable import as_array


class EmbedID(Link):
    """An embedding: the rows of ``W`` picked by integer ids (see
    :func:`~framework.functions.embed_id`).

    Args:
        in_size (int): the number of ids (the vocabulary size).
        out_size (int): the size of an embedding.
        initialW: the initializer of ``W``; None for ``Normal(1.0)``, as Chainer's.
        ignore_label (int or None): the id embedded as zeros (and not trained).

    Attributes:
        W (~framework.Parameter): the embeddings, of shape ``(in_size, out_size)``.
    """

    ignore_label = None

    def __init__(self, in_size: int, out_size: int, initialW=None, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = Parameter(initialW, (in_size, out_size))

    @classmethod
    def from_params(cls, W, ignore_label=None) -> EmbedID:
        """An EmbedID whose embeddings are a copy of ``W``."""
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=as_array(W), ignore_label=ignore_label)

    def forward(self, x):
        """Embeds the ids ``x`` (a signed integer array): the output has shape
        ``x.shape + (out_size,)``."""
        return embed_id(x, self.W, ignore_label=self.ignore_label)
