"""Drawing images, boxes, masks, label maps and keypoints: matplotlib, or Pillow for scripts.

matplotlib is imported when a ``vis_*`` function is first called, with the Agg backend when
there is no display and no backend was chosen; :func:`draw_bbox` needs only Pillow.
"""

from vision.visualizations.colormap import voc_colormap
from vision.visualizations.draw_bbox import draw_bbox
from vision.visualizations.vis_bbox import vis_bbox
from vision.visualizations.vis_image import vis_image
from vision.visualizations.vis_instance_segmentation import vis_instance_segmentation
from vision.visualizations.vis_point import vis_point
from vision.visualizations.vis_semantic_segmentation import vis_semantic_segmentation

__all__ = ['draw_bbox', 'vis_bbox', 'vis_image', 'vis_instance_segmentation', 'vis_point',
           'vis_semantic_segmentation', 'voc_colormap']
