"""Visual reports: trainer extensions that save drawings of a model's predictions."""

from vision.extensions.vis_report.detection_vis_report import DetectionVisReport

__all__ = ['DetectionVisReport']
