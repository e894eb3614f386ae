"""Transforms of bounding boxes (R, 4) that follow their image's transforms; the public names
are exported by :mod:`vision.transforms`."""
