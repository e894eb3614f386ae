"""What runs on NVIDIA GPUs alone, through CuPy: the one home of CuPy-only code.

Everything else reaches CuPy through the array module (``backend.get_array_module``), the same
code on NumPy and CuPy; what has no NumPy counterpart lives here.
"""
