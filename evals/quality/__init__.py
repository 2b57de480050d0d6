"""Checks on the judge itself: calibration with injected defects, the hostile corpus, the speed bench."""
