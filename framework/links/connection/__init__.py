"""Connection links: fully-connected, convolutional and embedding layers, and ChainerCV's
convolution blocks."""
