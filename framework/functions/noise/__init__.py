"""Noise injection functions (dropout)."""

from framework.functions.noise.dropout import dropout

__all__ = ['dropout']
