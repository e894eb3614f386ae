"""Updaters (``from framework.training import updaters``)."""

from framework.training.updaters.standard_updater import StandardUpdater

__all__ = ['StandardUpdater']
