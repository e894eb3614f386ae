"""The names of the 1000 categories of ImageNet-1k (ILSVRC 2012), in the order of the class
indices of the classifiers trained on it (the sorted WordNet ids), as torchvision words them.
"""

from pathlib import Path

imagenet_label_names: tuple[str, ...] = tuple(
    (Path(__file__).with_name('imagenet_label_names.txt')).read_text(encoding='utf-8')
    .splitlines())
