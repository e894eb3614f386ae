"""Noise injection functions (dropout)."""

__all__ = []
