"""ImageNet-1k (ILSVRC 2012): its category names."""
