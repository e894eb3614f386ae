"""Activation functions."""

__all__ = []
