"""Evaluation functions (accuracies); they have no gradient."""

from framework.functions.evaluation.accuracy import accuracy
from framework.functions.evaluation.binary_accuracy import binary_accuracy

__all__ = ['accuracy', 'binary_accuracy']
