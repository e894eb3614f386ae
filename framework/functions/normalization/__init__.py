"""Normalization functions."""

from framework.functions.normalization.batch_normalization import (
    batch_normalization,
    fixed_batch_normalization,
)
from framework.functions.normalization.group_normalization import group_normalization
from framework.functions.normalization.l2_normalization import normalize
from framework.functions.normalization.layer_normalization import layer_normalization
from framework.functions.normalization.local_response_normalization import (
    local_response_normalization,
)

__all__ = [
    'batch_normalization', 'fixed_batch_normalization', 'group_normalization',
    'layer_normalization', 'local_response_normalization', 'normalize',
]
