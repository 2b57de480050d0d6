"""An example plug-in, as code outside the package writes one: a coder and a metric, added to the
tables on import. Load it with `iwr --plugin tests.plugins.example_plugin ...` or $IWR_PLUGINS."""
from __future__ import annotations

import html

import numpy as np

from iwr.agents.coder import CoderJob, CoderOutput
from iwr import register_coder, register_metric
from iwr.mcp_servers.metrics.values import MetricValue


class TitleOnly:
    """Writes a page holding only the task's action descriptions as text: no behaviour at all."""

    name = "title-only"
    needs_model = False
    iterates = False

    async def make(self, job: CoderJob) -> CoderOutput:
        job.out.mkdir(parents=True, exist_ok=True)
        words = "".join(f"<p>{html.escape(a.parameters.description)}</p>" for a in job.task.record.action_sequence)
        (job.out / "index.html").write_text(f"<!doctype html><title>t</title><body>{words}</body>")
        return CoderOutput(usage={"turns": 0})


def grey_mean(pair) -> MetricValue:
    """1 minus the mean absolute grey-level difference (0..1)."""
    ref, cand = (a.astype(np.float32) for a in pair.grays)
    return MetricValue(name="grey_mean", value=round(1.0 - float(np.abs(ref - cand).mean()) / 255.0, 6),
                       backend="example-plugin", version="1")


register_coder(TitleOnly())
register_metric("grey_mean", grey_mean, doc="example plug-in metric: mean grey-level agreement")
