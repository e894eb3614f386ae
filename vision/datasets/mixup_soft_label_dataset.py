"""mixup: convex combinations of two labelled images, with soft labels."""

from __future__ import annotations

import numbers

import numpy

from framework.datasets import DatasetMixin


class MixUpSoftLabelDataset(DatasetMixin):
    """A dataset of images mixed pairwise, for mixup training [#]_.

    Each example of the base dataset, ``(img_0, label_0, img_1, label_1)``, becomes
    ``(r * img_0 + (1 - r) * img_1, soft_label)`` where ``r`` is drawn from
    :math:`B(\\alpha, \\alpha)` at every call and ``soft_label`` holds ``r`` at ``label_0`` and
    ``1 - r`` at ``label_1`` (their sum, 1, if the labels are equal)::

        >>> base = SiameseDataset(mnist, mnist)
        >>> dataset = MixUpSoftLabelDataset(base, 10)
        >>> img, label = dataset[0]
        >>> label.shape, label.dtype
        ((10,), dtype('float32'))

    .. [#] Hongyi Zhang, Moustapha Cisse, Yann N. Dauphin, David Lopez-Paz. `mixup: Beyond
        Empirical Risk Minimization <https://arxiv.org/abs/1710.09412>`_. ICLR 2018.

    Args:
        dataset: The base dataset, whose examples are ``(img_0, label_0, img_1, label_1)``
            with images of one shape, typically a :class:`SiameseDataset`.
        n_class (int): The number of classes.
        alpha (float): The parameter of the Beta distribution, positive. The default 1.0 is
            the uniform distribution on :math:`[0, 1]`.

    This dataset returns the following data.

    ========= =========== =========== ==========================
    name      shape       dtype       format
    ========= =========== =========== ==========================
    ``img``   as the base as the base as the base
    ``label`` (#class,)   float32     [0, 1], sums to 1
    ========= =========== =========== ==========================

    """

    def __init__(self, dataset, n_class: int, alpha: float = 1.0) -> None:
        if isinstance(n_class, bool) or not isinstance(n_class, numbers.Integral) \
                or n_class <= 0:
            raise ValueError(f'MixUpSoftLabelDataset: n_class must be a positive int, but got '
                             f'{n_class!r}')
        if not alpha > 0:
            raise ValueError(f'MixUpSoftLabelDataset: alpha must be positive, but got {alpha}')
        self._dataset = dataset
        self._n_class = int(n_class)
        self._alpha = alpha

    def __len__(self) -> int:
        return len(self._dataset)

    def get_example(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        img_0, label_0, img_1, label_1 = self._dataset[i]
        ratio = numpy.random.beta(self._alpha, self._alpha)
        img = ratio * img_0 + (1 - ratio) * img_1
        label = numpy.zeros(self._n_class, dtype=numpy.float32)
        label[label_0] += ratio
        label[label_1] += 1 - ratio
        return img, label
