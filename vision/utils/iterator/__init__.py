"""Iterating over datasets: applying a model batch by batch, progress, unzip."""

from vision.utils.iterator.apply_to_iterator import apply_to_iterator
from vision.utils.iterator.progress_hook import ProgressHook
from vision.utils.iterator.unzip import unzip

__all__ = ['ProgressHook', 'apply_to_iterator', 'unzip']
