"""Order samplers: what an iterator calls to get the order of the examples of each epoch."""

from __future__ import annotations

import numpy

from framework.serializers.serializer import Deserializer


class OrderSampler:
    """The base class of order samplers.

    An iterator calls the sampler before each epoch (and on reset) with the current order and
    position; the sampler returns the order of the next epoch, a 1-D integer array of the same
    length. A sampler with a state (a random generator) saves it in ``serialize`` so that a
    resumed run draws the orders the interrupted one would have drawn.
    """

    def __call__(self, current_order: numpy.ndarray, current_position: int) -> numpy.ndarray:
        """Returns the order of the next epoch.

        Args:
            current_order: 1-D array of indices, as long as the dataset.
            current_position: the position of the iterator.

        Returns:
            numpy.ndarray: 1-D array of indices, the order of the next epoch.
        """
        raise NotImplementedError

    def serialize(self, serializer) -> None:
        """Saves or restores the state of the sampler (nothing for a stateless one)."""


class ShuffleOrderSampler(OrderSampler):
    """Draws a random permutation for every epoch.

    Args:
        random_state (numpy.random.RandomState): the generator. When None, a private generator
            seeded from NumPy's global one, so that ``numpy.random.seed`` makes the orders
            reproducible (Chainer draws from the global generator itself, whose state a
            snapshot cannot restore without disturbing everything else that uses it).

    The state of the generator is saved by :meth:`serialize`.
    """

    def __init__(self, random_state: numpy.random.RandomState | None = None):
        if random_state is None:
            random_state = numpy.random.RandomState(numpy.random.randint(2 ** 31))
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))

    def serialize(self, serializer) -> None:
        name, key, pos, has_gauss, cached_gaussian = self._random.get_state()
        if isinstance(serializer, Deserializer):
            try:
                key = serializer('key', None)
            except KeyError:
                # A snapshot without the state (e.g. written by Chainer): keep the generator.
                return
            pos = serializer('pos', None)
            has_gauss = serializer('has_gauss', None)
            cached_gaussian = serializer('cached_gaussian', None)
            self._random.set_state((name, numpy.asarray(key, numpy.uint32), int(pos),
                                    int(has_gauss), float(cached_gaussian)))
        else:
            serializer('key', key)
            serializer('pos', pos)
            serializer('has_gauss', has_gauss)
            serializer('cached_gaussian', cached_gaussian)
