"""Judging one artifact for a run: the judge call with its limits and cache, the probes, the scores."""
