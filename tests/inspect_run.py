"""Run the iwr inspect Task (evals/workspace/inspect_task.py) on task 1 with inspect's mock model,
scripted to write the page through the workspace server, render it, and submit; then read the log
back as inspect's viewer would. Run with .venv-inspect's Python: inspect_run.py LOG_DIR PAGE_FILE."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import ChatMessageTool, ModelOutput, ModelUsage, get_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "evals" / "workspace"))
from inspect_task import iwr  # noqa: E402

PAGE = Path(sys.argv[2]).read_text()


def said(out: ModelOutput) -> ModelOutput:
    out.usage = ModelUsage(input_tokens=100, output_tokens=20, total_tokens=120)  # else inspect counts with tiktoken
    return out


def script(messages, tools, tool_choice, config) -> ModelOutput:
    done = [m.function for m in messages if isinstance(m, ChatMessageTool)]
    names = sorted(t.name for t in tools)
    for tool, args in (("list_assets", {"task_id": "1"}), ("write_file", {"path": "index.html", "content": PAGE}),
                       ("render", {"path": "index.html", "width": 1280, "height": 800})):
        if tool not in done:
            assert tool in names, (tool, names)
            return said(ModelOutput.for_tool_call("mockllm/model", tool, args))
    return said(ModelOutput.for_tool_call("mockllm/model", "submit", {"answer": "index.html is finished"}))


logs = inspect_eval(iwr(task_ids="1"), model=get_model("mockllm/model", custom_outputs=script),
                    log_dir=sys.argv[1], display="none", max_samples=1)
log = read_eval_log(list_eval_logs(sys.argv[1])[0].name)
sample = log.samples[0]
score = sample.scores["iwr_judge"]
tools_offered = sorted({c.function for m in sample.messages if getattr(m, "tool_calls", None) for c in m.tool_calls})
print(json.dumps({"status": log.status, "value": score.value, "metadata": score.metadata, "tools_called": tools_offered,
                  "metrics": {k: v.value for s in log.results.scores for k, v in s.metrics.items()},
                  "location": logs[0].location}))
