"""Result and error types shared by every metric module."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class MetricUnavailable(Exception):
    """A metric cannot run here (missing package, model files or configuration)."""


class MetricValue(BaseModel):
    """One metric result and what produced it."""

    name: str
    value: float | None  # None: the metric has no say here (chance_corrected: a blank page scores as high)
    backend: str
    version: str
    detail: dict[str, Any] = Field(default_factory=dict)
