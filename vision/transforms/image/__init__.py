"""Transforms of images (C, H, W); the public names are exported by :mod:`vision.transforms`."""
