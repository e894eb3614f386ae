"""The model zoo: classification, detection and segmentation models behind one API.

Importing :mod:`vision` imports what it offers, so that every model family has registered its
models (:func:`vision.models.get_model`) and its converters of pretrained weights
(:mod:`vision.weights`) before anything looks them up.
"""

from vision import (
    datasets,
    evaluations,
    extensions,
    models,
    transforms,
    utils,
    visualizations,
    weights,
)

__all__ = ['datasets', 'evaluations', 'extensions', 'models', 'transforms', 'utils',
           'visualizations', 'weights']
