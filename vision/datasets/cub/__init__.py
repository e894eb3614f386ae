"""Caltech-UCSD Birds-200-2011 (CUB-200-2011)."""
