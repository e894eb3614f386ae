"""Transforms of points (R, K, 2) that follow their image's transforms; the public names are
exported by :mod:`vision.transforms`."""
