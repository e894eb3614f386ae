"""ChainerCV's ``use_preset`` of detectors: named pairs of ``nms_thresh`` and
``score_thresh``."""

from __future__ import annotations


class ThresholdPresets:
    """Adds :meth:`use_preset` to a detector whose class lists its :attr:`presets`."""

    #: preset name (``'visualize'``, ``'evaluate'``) -> ``(nms_thresh, score_thresh)``
    presets: dict[str, tuple[float, float]] = {}

    def use_preset(self, preset: str) -> None:
        """Sets ``nms_thresh`` and ``score_thresh`` to those of a preset of :attr:`presets`:
        ``'visualize'`` (few, confident detections) or ``'evaluate'`` (many, for mAP).

        Raises:
            ValueError: ``preset`` is not one of :attr:`presets`.
        """
        if preset not in self.presets:
            raise ValueError(f'{type(self).__name__}.use_preset: preset must be '
                             f"{' or '.join(map(repr, self.presets))}, but got {preset!r}")
        self.nms_thresh, self.score_thresh = self.presets[preset]
