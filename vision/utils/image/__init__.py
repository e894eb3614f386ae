"""Reading, writing and tiling images."""

from vision.utils.image._open import ImageFileError
from vision.utils.image.as_image import as_image, as_rgb_or_gray
from vision.utils.image.read_image import TransparencyError, read_image
from vision.utils.image.read_label import read_label
from vision.utils.image.tile_images import tile_images
from vision.utils.image.write_image import write_image

__all__ = ['ImageFileError', 'TransparencyError', 'as_image', 'as_rgb_or_gray', 'read_image',
           'read_label', 'tile_images', 'write_image']
