"""Evaluation functions (accuracies); they have no gradient."""

__all__ = []
