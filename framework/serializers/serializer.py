"""The serialization protocol (Chainer's).

An object that can be saved and loaded defines ``serialize(serializer)`` and, for each value it
owns, calls ``value = serializer(key, value)``, and ``child.serialize(serializer[name])`` for
each child object. A :class:`Serializer` records the value and returns it unchanged; a
:class:`Deserializer` returns the value read (an array it was given is filled in place).
The same ``serialize`` method thus both saves and loads.
"""

from __future__ import annotations


class AbstractSerializer:
    """The base of serializers and deserializers.

    A serializer stands for one node of a hierarchy of values, addressed by ``/``-separated
    paths such as ``'conv1/W'``.
    """

    def __getitem__(self, key: str) -> AbstractSerializer:
        """The child serializer for the sub-hierarchy named ``key``."""
        raise NotImplementedError

    def __call__(self, key: str, value):
        """Serializes or deserializes the value named ``key`` at this node.

        Args:
            key: the name of the value within this node.
            value: the current value: an array (filled in place by a deserializer), a scalar,
                or None (a deserializer then returns what it read).

        Returns:
            The value: unchanged when serializing, the value read when deserializing.
        """
        raise NotImplementedError


class Serializer(AbstractSerializer):
    """The base of serializers (they write)."""

    def save(self, obj) -> None:
        """Saves ``obj`` (anything with a ``serialize`` method) through this serializer."""
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """The base of deserializers (they read)."""

    def load(self, obj) -> None:
        """Loads ``obj`` (anything with a ``serialize`` method) through this deserializer."""
        obj.serialize(self)
