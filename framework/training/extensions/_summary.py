"""What the extensions that average observations (LogReport, PlotReport) share."""

from __future__ import annotations

from collections.abc import Iterable

from framework import backend, reporter


def observed(observation: dict, keys: Iterable[str] | None) -> dict:
    """The entries of ``observation`` named by ``keys`` (all of them when None)."""
    if keys is None:
        return observation
    return {k: observation[k] for k in keys if k in observation}


def host_means(summary: reporter.DictSummary) -> dict[str, float]:
    """The means of ``summary`` as Python floats (copied to the host)."""
    return {name: float(backend.to_cpu(value))
            for name, value in summary.compute_mean().items()}
