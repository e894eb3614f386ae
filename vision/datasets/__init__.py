"""Dataset loaders in the formats their publishers distribute, with ChainerCV's names.

Each loader reads the files as published; ``data_dir='auto'`` downloads them into
``$VISION_HOME/datasets`` first (see :mod:`vision.utils.download`). The loaders are sliceable
(:class:`framework.datasets.GetterDataset`): ``dataset.slice[:, 'label']`` reads the
annotations without decoding a single image.
"""

from vision.datasets.ade20k.ade20k_semantic_segmentation_dataset import (
    ADE20KSemanticSegmentationDataset as ADE20KSemanticSegmentationDataset,
)
from vision.datasets.ade20k.ade20k_test_image_dataset import (
    ADE20KTestImageDataset as ADE20KTestImageDataset,
)
from vision.datasets.ade20k.ade20k_utils import (
    ade20k_semantic_segmentation_label_colors as ade20k_semantic_segmentation_label_colors,
)
from vision.datasets.ade20k.ade20k_utils import (
    ade20k_semantic_segmentation_label_names as ade20k_semantic_segmentation_label_names,
)
from vision.datasets.camvid.camvid_dataset import CamVidDataset as CamVidDataset
from vision.datasets.camvid.camvid_dataset import (
    camvid_ignore_label_color as camvid_ignore_label_color,
)
from vision.datasets.camvid.camvid_dataset import camvid_label_colors as camvid_label_colors
from vision.datasets.camvid.camvid_dataset import camvid_label_names as camvid_label_names
from vision.datasets.cityscapes.cityscapes_semantic_segmentation_dataset import (
    CityscapesSemanticSegmentationDataset as CityscapesSemanticSegmentationDataset,
)
from vision.datasets.cityscapes.cityscapes_test_image_dataset import (
    CityscapesTestImageDataset as CityscapesTestImageDataset,
)
from vision.datasets.cityscapes.cityscapes_utils import (
    cityscapes_semantic_segmentation_label_colors as cityscapes_semantic_segmentation_label_colors,
)
from vision.datasets.cityscapes.cityscapes_utils import (
    cityscapes_semantic_segmentation_label_names as cityscapes_semantic_segmentation_label_names,
)
from vision.datasets.coco.coco_bbox_dataset import COCOBboxDataset as COCOBboxDataset
from vision.datasets.coco.coco_instance_segmentation_dataset import (
    COCOInstanceSegmentationDataset as COCOInstanceSegmentationDataset,
)
from vision.datasets.coco.coco_semantic_segmentation_dataset import (
    COCOSemanticSegmentationDataset as COCOSemanticSegmentationDataset,
)
from vision.datasets.coco.coco_utils import coco_bbox_label_names as coco_bbox_label_names
from vision.datasets.coco.coco_utils import (
    coco_instance_segmentation_label_names as coco_instance_segmentation_label_names,
)
from vision.datasets.coco.coco_utils import coco_keypoint_names as coco_keypoint_names
from vision.datasets.coco.coco_utils import (
    coco_semantic_segmentation_label_colors as coco_semantic_segmentation_label_colors,
)
from vision.datasets.coco.coco_utils import (
    coco_semantic_segmentation_label_names as coco_semantic_segmentation_label_names,
)
from vision.datasets.cub.cub_keypoint_dataset import CUBKeypointDataset as CUBKeypointDataset
from vision.datasets.cub.cub_label_dataset import CUBLabelDataset as CUBLabelDataset
from vision.datasets.cub.cub_utils import cub_label_names as cub_label_names
from vision.datasets.directory_parsing_label_dataset import (
    DirectoryParsingLabelDataset as DirectoryParsingLabelDataset,
)
from vision.datasets.directory_parsing_label_dataset import (
    directory_parsing_label_names as directory_parsing_label_names,
)
from vision.datasets.imagenet.imagenet_utils import (
    imagenet_label_names as imagenet_label_names,
)
from vision.datasets.mixup_soft_label_dataset import (
    MixUpSoftLabelDataset as MixUpSoftLabelDataset,
)
from vision.datasets.online_products.online_products_dataset import (
    OnlineProductsDataset as OnlineProductsDataset,
)
from vision.datasets.online_products.online_products_dataset import (
    online_products_super_label_names as online_products_super_label_names,
)
from vision.datasets.sbd.sbd_instance_segmentation_dataset import (
    SBDInstanceSegmentationDataset as SBDInstanceSegmentationDataset,
)
from vision.datasets.sbd.sbd_utils import (
    sbd_instance_segmentation_label_names as sbd_instance_segmentation_label_names,
)
from vision.datasets.shapes.shapes_bbox_dataset import ShapesBboxDataset as ShapesBboxDataset
from vision.datasets.shapes.shapes_instance_segmentation_dataset import (
    ShapesInstanceSegmentationDataset as ShapesInstanceSegmentationDataset,
)
from vision.datasets.shapes.shapes_label_dataset import ShapesLabelDataset as ShapesLabelDataset
from vision.datasets.shapes.shapes_semantic_segmentation_dataset import (
    ShapesSemanticSegmentationDataset as ShapesSemanticSegmentationDataset,
)
from vision.datasets.shapes.shapes_utils import shapes_label_names as shapes_label_names
from vision.datasets.shapes.shapes_utils import (
    shapes_semantic_segmentation_label_names as shapes_semantic_segmentation_label_names,
)
from vision.datasets.siamese_dataset import SiameseDataset as SiameseDataset
from vision.datasets.voc.voc_bbox_dataset import VOCBboxDataset as VOCBboxDataset
from vision.datasets.voc.voc_instance_segmentation_dataset import (
    VOCInstanceSegmentationDataset as VOCInstanceSegmentationDataset,
)
from vision.datasets.voc.voc_semantic_segmentation_dataset import (
    VOCSemanticSegmentationDataset as VOCSemanticSegmentationDataset,
)
from vision.datasets.voc.voc_utils import voc_bbox_label_names as voc_bbox_label_names
from vision.datasets.voc.voc_utils import (
    voc_instance_segmentation_label_names as voc_instance_segmentation_label_names,
)
from vision.datasets.voc.voc_utils import (
    voc_semantic_segmentation_ignore_label_color as voc_semantic_segmentation_ignore_label_color,
)
from vision.datasets.voc.voc_utils import (
    voc_semantic_segmentation_label_colors as voc_semantic_segmentation_label_colors,
)
from vision.datasets.voc.voc_utils import (
    voc_semantic_segmentation_label_names as voc_semantic_segmentation_label_names,
)
