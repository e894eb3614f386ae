"""Helpers shared by the framework's modules."""
