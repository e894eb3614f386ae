"""Cityscapes, which must be downloaded by hand (the site needs a login)."""
