"""Normalization links: batch, group and layer normalization."""
