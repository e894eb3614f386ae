"""The model zoo: classification, detection and segmentation models behind one API."""
