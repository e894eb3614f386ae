"""CamVid, as distributed with the SegNet tutorial."""
