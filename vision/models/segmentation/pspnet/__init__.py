"""PSPNet, ChainerCV's ``chainercv.experimental.links.model.pspnet``: :class:`PSPNetResNet50`,
:class:`PSPNetResNet101`, their parts and :class:`PSPNetTrainChain`."""

from vision.models.segmentation.pspnet.dilated_resnet import DilatedResNet
from vision.models.segmentation.pspnet.pspnet import PSPNet
from vision.models.segmentation.pspnet.pspnet_resnet import PSPNetResNet50, PSPNetResNet101
from vision.models.segmentation.pspnet.pspnet_train_chain import PSPNetTrainChain
from vision.models.segmentation.pspnet.pyramid_pooling_module import PyramidPoolingModule
from vision.models.segmentation.pspnet.sliding_windows import sliding_windows

__all__ = ['DilatedResNet', 'PSPNet', 'PSPNetResNet101', 'PSPNetResNet50', 'PSPNetTrainChain',
           'PyramidPoolingModule', 'sliding_windows']
