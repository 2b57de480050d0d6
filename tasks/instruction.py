"""The instruction a coder is given for a task, as the IWR-Bench generation protocol words it."""
from __future__ import annotations

from importlib import resources

PLACEHOLDER = "__PLACEHOLDER_ASSETS_BASE_DIR__"  # where the page's asset paths start; replaced after generation


def instruction(width: int, height: int) -> str:
    """The paper's generation prompt for a page of width x height."""
    text = resources.files("iwr.tasks").joinpath("instruction.md").read_text(encoding="utf-8")
    return text.format(placeholder=PLACEHOLDER, width=width, height=height)
