"""Pretrained weights by name: the manifest, the lookup, the fetching, the conversion, the
loading, one module each.

Every pretrained weight is a row of ``weights_manifest.json`` (:mod:`vision.weights.manifest`):

- ``model``, ``name``: the registered model (:func:`vision.models.get_model`) and the weight's
  name (``'imagenet'``); ``model_kwargs``: the constructor arguments the weight needs (e.g.
  ``{"arch": "he"}``), which also tell apart weights of one name;
- ``source``: where its files come from (:mod:`vision.weights.fetch`): a URL, files inside a
  wheel of the Python Package Index, each with its sha256 (:mod:`vision.weights.pypi`), or a
  file of the repository;
- ``sha256`` or the publisher's ``sha256_prefix`` of a URL's or the repository's file (both
  null when the publisher gives no hash: the file is then checked by its format and trusted on
  first use, :mod:`vision.weights.pins`; null for a package, whose files carry their own);
- ``converter``: how the files become this project's parameters (:mod:`vision.weights.convert`);
- ``n_class``, ``categories`` (``'imagenet'``, ``'imagenet_with_background'``, ``'shapes'``,
  ``'shapes_with_background'``, ``'face'``, ``'voc'``, ``'voc_with_background'``, ``'coco'``,
  ``'camvid'``, ``'cityscapes'``, ``'ade20k'``; both null for the weights of an extractor,
  which fix no classes, as a detector's ``'imagenet'``) and the ``preprocessing`` the weight
  expects (:mod:`vision.weights.preprocessing`);
- ``licence`` and the published ``scores``, each with its protocol and reference.

A model constructor resolves its ``pretrained_model`` argument with
:func:`prepare_pretrained_model` (:mod:`vision.weights.load`): a weight's name (fetched,
verified, converted once into ``$VISION_HOME/converted``), or the path of a local file,
recognised by its content (an NPZ in Chainer's layout, possibly under a prefix such as
``predictor/``, or a PyTorch checkpoint). A model that reads its checkpoints itself gets their
paths from :func:`fetch_weight_files` (:mod:`vision.weights.lookup`).

A download enters the cache only once verified (:mod:`vision.weights.integrity`); a cached file
that turns out damaged raises :class:`CorruptWeightError`, which names the file and the command
that fetches it again: ``vision download ... --force`` (:func:`forget_weight`,
:mod:`vision.weights.forget`).
"""

from vision.weights.convert import Converter, convert_checkpoint, get_converter, register_converter
from vision.weights.fetch import describe_source
from vision.weights.forget import forget_weight
from vision.weights.integrity import CorruptWeightError
from vision.weights.load import Pretrained, file_kind, prepare_pretrained_model
from vision.weights.lookup import fetch_weight_files, get_weight, list_weights
from vision.weights.manifest import WeightSpec, label_names, load_manifest, manifest_path
from vision.weights.pins import WeightChangedWarning
from vision.weights.preprocessing import IMAGENET_TORCHVISION, Preprocessing
from vision.weights.pypi import PackageDownloadError

__all__ = [
    'Converter', 'CorruptWeightError', 'IMAGENET_TORCHVISION', 'PackageDownloadError',
    'Preprocessing', 'Pretrained', 'WeightChangedWarning', 'WeightSpec', 'convert_checkpoint',
    'describe_source', 'fetch_weight_files', 'file_kind', 'forget_weight', 'get_converter',
    'get_weight', 'label_names', 'list_weights', 'load_manifest', 'manifest_path',
    'prepare_pretrained_model', 'register_converter',
]
