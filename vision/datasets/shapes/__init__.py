"""Synthetic datasets of coloured shapes, with exact annotations, made on the fly."""
