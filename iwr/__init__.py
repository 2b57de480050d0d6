"""iwr: reconstruct interactive web pages from interaction videos, and judge the reconstructions.

The public API (typed arguments and results; each has an `a`-prefixed coroutine twin):

    from iwr import run, judge, load_tasks, calibrate, register_coder, register_metric, register_profile

The project's layers ship inside this one namespace, `iwr.tasks`, `iwr.mcp_servers`, `iwr.agents`,
`iwr.graphs` and `iwr.evals` (the checkout keeps them as top-level folders; the build maps them
here), so that they never clash with other projects' top-level `agents` or `evals` packages.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

# A checkout used without installing it (PYTHONPATH=<checkout>, or a copy of one): its layers are the
# folders beside this one. An installed wheel has them inside this folder, and no setup.py beside it.
_checkout = Path(__file__).resolve().parent.parent
if (_checkout / "setup.py").is_file() and (_checkout / "evals" / "__init__.py").is_file():
    __path__.append(str(_checkout))

__all__ = ["RunOutcome", "acalibrate", "ajudge", "arun", "calibrate", "judge", "load_tasks", "register_coder",
           "register_metric", "register_profile", "run"]

if TYPE_CHECKING:
    from iwr.evals.api import (RunOutcome, acalibrate, ajudge, arun, calibrate, judge, load_tasks,
                               register_coder, register_metric, register_profile, run)


def __getattr__(name: str):
    # Loaded on first use: every `iwr.<layer>` import runs this file, and the MCP servers and the
    # judge's subprocesses must not pay for the whole API.
    if name in __all__:
        from iwr.evals import api

        return getattr(api, name)
    raise AttributeError(f"module 'iwr' has no attribute {name!r}")
