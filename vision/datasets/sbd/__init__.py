"""The Semantic Boundaries Dataset: instance segmentation of VOC images."""
