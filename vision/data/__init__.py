"""Data shipped with the package, and sample photos made from matplotlib's (NumPy only)."""
