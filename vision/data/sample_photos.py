"""Photos for demos, tests and benchmarks, made from the sample photo that matplotlib ships.

matplotlib (a dependency) ships one photo with a face, ``grace_hopper.jpg`` (512x600).
Everything here is made from it deterministically with NumPy alone (no resampling of
Pillow's or anyone's, so the pixels do not change with a library's version): the face
detector's parity fixtures (``tests/data/mtcnn/``) and ``bench/mtcnn.py`` use the same
images. Images are in the project's layout: ``float32`` ``(C, H, W)``, RGB, 0-255, whole
numbers.

- :func:`grace_hopper`: the photo itself.
- :func:`grace_hopper_gray_small`: grayscale (ITU-R 601 luma, as Pillow's ``convert('L')``)
  and shrunk to 160 px wide, ``(1, 188, 160)``.
- :func:`group_photo`: a 1920x1080 "group photo": nine copies of her head, faces from about
  60 px to 400 px wide (two mirrored), on a gradient background; :data:`GROUP_PHOTO_LAYOUT`
  says where.
- :func:`noise_photo`: uniform noise, 640x480, in which there is no face.

This module imports nothing of the project, so a peer's environment (NumPy, Pillow and
matplotlib) can load it by its path.
"""

from __future__ import annotations

import numpy

#: the crop of grace_hopper.jpg pasted into the group photo: rows, columns (her head and
#: shoulders; the face is about 180 px wide in it)
HEAD_CROP = (slice(40, 440), slice(95, 435))

#: (top, left, width of the pasted head crop in px, mirrored) of each copy in
#: :func:`group_photo`; the face (the box facenet-pytorch finds) is about 0.53 of the crop's
#: width: about 400, 260, 180 (mirrored), 160 (mirrored), 120, 90, 70, 60 and 60 px
GROUP_PHOTO_LAYOUT = (
    (100, 30, 748, False),
    (40, 820, 486, False),
    (640, 830, 336, True),
    (640, 1250, 300, True),
    (60, 1360, 224, False),
    (80, 1640, 168, False),
    (400, 1380, 131, False),
    (420, 1600, 112, False),
    (700, 1650, 112, False),
)


def sample_photo_path(name: str = 'grace_hopper.jpg') -> str:
    """The path of one of matplotlib's sample files."""
    import matplotlib.cbook

    return str(matplotlib.cbook.get_sample_data(name, asfileobj=False))


def _read_rgb(path: str) -> numpy.ndarray:
    from PIL import Image

    with Image.open(path) as image:
        return numpy.asarray(image.convert('RGB'), dtype=numpy.float32).transpose(2, 0, 1)


def grace_hopper() -> numpy.ndarray:
    """``grace_hopper.jpg``: ``(3, 600, 512)`` float32 RGB."""
    return _read_rgb(sample_photo_path('grace_hopper.jpg'))


def _weights(n_in: int, n_out: int) -> numpy.ndarray:
    """(n_out, n_in) weights of a triangle filter widened by the shrink factor (no aliasing)."""
    scale = n_out / n_in
    support = max(1.0, 1.0 / scale)
    centres = (numpy.arange(n_out) + 0.5) / scale
    taps = numpy.arange(n_in) + 0.5
    w = numpy.maximum(0.0, 1.0 - numpy.abs(taps[None, :] - centres[:, None]) / support)
    return w / w.sum(axis=1, keepdims=True)


def resize(img: numpy.ndarray, size: tuple[int, int]) -> numpy.ndarray:
    """``img`` ``(C, H, W)`` resized to ``size`` ``(H, W)`` (triangle filter), whole numbers."""
    rows = _weights(img.shape[1], size[0])
    cols = _weights(img.shape[2], size[1])
    out = numpy.matmul(numpy.matmul(rows, img.astype(numpy.float64)), cols.T)
    return numpy.clip(numpy.rint(out), 0, 255).astype(numpy.float32)


def grace_hopper_gray_small(width: int = 160) -> numpy.ndarray:
    """grace_hopper.jpg in grayscale, ``width`` px wide: ``(1, H, W)`` float32."""
    img = grace_hopper().astype(numpy.float64)
    luma = numpy.rint((img[0] * 299 + img[1] * 587 + img[2] * 114) / 1000)[None]
    height = int(round(img.shape[1] * width / img.shape[2]))
    return resize(luma, (height, width))


def group_photo() -> numpy.ndarray:
    """A 1920x1080 photo of nine faces at several scales: ``(3, 1080, 1920)`` float32."""
    h, w = 1080, 1920
    y = numpy.linspace(0.0, 1.0, h)[:, None]
    x = numpy.linspace(0.0, 1.0, w)[None, :]
    canvas = numpy.stack([150 + 60 * y + 0 * x, 170 + 30 * x + 0 * y, 200 - 50 * y + 20 * x])
    canvas = numpy.rint(canvas).astype(numpy.float32)
    head = grace_hopper()[:, HEAD_CROP[0], HEAD_CROP[1]]
    for top, left, width, mirrored in GROUP_PHOTO_LAYOUT:
        height = int(round(head.shape[1] * width / head.shape[2]))
        copy = resize(head, (height, width))
        if mirrored:
            copy = copy[:, :, ::-1]
        canvas[:, top:top + height, left:left + width] = copy
    return canvas


def noise_photo() -> numpy.ndarray:
    """Uniform noise (seed 0), ``(3, 480, 640)`` float32: a photo with no face."""
    rng = numpy.random.RandomState(0)
    return rng.randint(0, 256, (3, 480, 640)).astype(numpy.float32)


#: name -> function, the photos the MTCNN fixtures and benchmark use
PHOTOS = {
    'grace_hopper': grace_hopper,
    'grace_hopper_gray_small': grace_hopper_gray_small,
    'group_photo': group_photo,
    'noise': noise_photo,
}
