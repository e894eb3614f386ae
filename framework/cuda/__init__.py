"""What runs on NVIDIA GPUs alone, through CuPy: the one home of CuPy-only code.

Everything else reaches CuPy through the array module (``backend.get_array_module``), the same
code on NumPy and CuPy; what has no NumPy counterpart lives here.
"""

from framework import backend


def is_cupy(xp) -> bool:
    """Whether the array module ``xp`` is CuPy itself (not NumPy, not the emulated device's
    module, which takes the array code's path)."""
    return xp is backend._cupy()
