"""AlexNet's colour augmentation along the principal components of the pixel colours."""

from __future__ import annotations

import numpy

from vision.transforms import _random
from vision.transforms._checks import check_array, check_image, check_rng

# The eigenvalues and eigenvectors (columns) of the covariance of ImageNet's RGB pixels, on a
# [0, 1] scale, as published with facebook/fb.resnet.torch.
_IMAGENET_EIGEN_VALUE = numpy.array((0.2175, 0.0188, 0.0045))
_IMAGENET_EIGEN_VECTOR = numpy.array((
    (-0.5675, -0.5808, -0.5836),
    (0.7192, -0.0045, -0.6948),
    (0.4009, -0.814, 0.4203)))


def pca_lighting(img: numpy.ndarray, sigma: float,
                 eigen_value: numpy.ndarray | None = None,
                 eigen_vector: numpy.ndarray | None = None, *,
                 rng: numpy.random.Generator | None = None) -> numpy.ndarray:
    """Adds a random colour shift along the principal components of the colours (AlexNet [#]_).

    The shift :math:`V (\\lambda \\odot \\alpha)`, with :math:`\\alpha \\sim N(0, \\sigma^2 I)`,
    eigenvalues :math:`\\lambda` and eigenvectors (columns of) :math:`V`, is added to every
    pixel.

    .. [#] Alex Krizhevsky, Ilya Sutskever, Geoffrey E. Hinton. ImageNet Classification with
       Deep Convolutional Neural Networks. NIPS 2012.

    Args:
        img (~numpy.ndarray): A floating-point image of shape :math:`(C, H, W)`, RGB for the
            default eigenvectors.
        sigma (float): The standard deviation of :math:`\\alpha`; the paper uses 10% of the
            intensity range (25.5 for :math:`[0, 255]`). If it is at most 0, ``img`` itself is
            returned and nothing is drawn.
        eigen_value (~numpy.ndarray): The eigenvalues, :math:`(K,)`. The default is
            ImageNet's (:math:`K = 3`).
        eigen_vector (~numpy.ndarray): The eigenvectors as columns, :math:`(C, K)`. The
            default is ImageNet's.
        rng (numpy.random.Generator): The source of :math:`\\alpha` (``rng.normal(0, sigma,
            size=K)``). If :obj:`None` (default), NumPy's global state is used
            (``numpy.random.normal``), as in ChainerCV.

    Returns:
        ~numpy.ndarray: A new image, :math:`(C, H, W)`, of the dtype of ``img``.
    """
    C, _, _ = check_image('pca_lighting', img, 'f')
    check_rng('pca_lighting', rng)
    if sigma <= 0:
        return img
    eigen_value = _IMAGENET_EIGEN_VALUE if eigen_value is None else numpy.asarray(eigen_value)
    eigen_vector = (_IMAGENET_EIGEN_VECTOR if eigen_vector is None
                    else numpy.asarray(eigen_vector))
    check_array('pca_lighting', 'eigen_value', eigen_value, 1, '(K,)', 'fiu')
    check_array('pca_lighting', 'eigen_vector', eigen_vector, 2, '(C, K)', 'fiu')
    if eigen_vector.shape != (C, len(eigen_value)):
        raise ValueError(f'pca_lighting: eigen_vector must have shape (C, K) = '
                         f'{(C, len(eigen_value))} for an image of {C} channels and '
                         f'{len(eigen_value)} eigenvalues, but got shape {eigen_vector.shape}')

    alpha = _random.numpy_source(rng).normal(0, sigma, size=len(eigen_value))
    out = img.copy()
    out += eigen_vector.dot(eigen_value * alpha).reshape(-1, 1, 1)
    return out
