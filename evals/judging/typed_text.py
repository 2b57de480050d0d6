"""Probes beyond the trajectory: does the page react to input, or replay what the video showed?

The typed-text probe replays the task with every typed text changed (letters rotated, digits
shifted, so the new text has the same shape and passes the same input validation) and every later
mention of that text (descriptions, assertions, checks, target hints) changed with it. A page that
really handles input passes the changed replay as far as the original one; a page that hard-codes
the recorded text fails where the text should reappear. Reported apart from IFS and VFS.
"""
from __future__ import annotations

import copy
import string

from agents.toolbox import Toolbox
from graphs.judge import JudgeConfig, judge

ROT = str.maketrans(string.ascii_lowercase + string.ascii_uppercase + string.digits,
                    string.ascii_lowercase[13:] + string.ascii_lowercase[:13]
                    + string.ascii_uppercase[13:] + string.ascii_uppercase[:13] + string.digits[5:] + string.digits[:5])
KEEP = {"selector", "crop", "bbox", "key", "direction", "scroll_page"}


def varied(text: str) -> str:
    """The probe's replacement for a typed text: same length, character classes and punctuation."""
    return text.translate(ROT)


def probe_worthy(text: str) -> bool:
    # Short texts and numbers reappear as parts of other values ("2" in "Cart (2)"), and pages
    # compute with numbers, so changing them would test arithmetic, not echoing.
    return len(text.strip()) >= 4 and any(c.isalpha() for c in text)


def probed_task(record: dict) -> tuple[dict, list[dict]]:
    """The task with its typed texts changed from the step they are typed on; and the changes."""
    task = copy.deepcopy(record)
    changes: list[dict] = []
    for action in task["action_sequence"]:
        params = action["parameters"]
        if action["type"] == "Type" and probe_worthy(params.get("text") or ""):
            changes.append({"from": params["text"], "to": varied(params["text"])})
        for c in changes:
            _replace_in(action, c["from"], c["to"])
    return task, changes


def _replace_in(node, old: str, new: str):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in KEEP:
                continue
            if isinstance(v, str):
                node[k] = v.replace(old, new)
            else:
                _replace_in(v, old, new)
    elif isinstance(node, list):
        for n, v in enumerate(node):
            if isinstance(v, str):
                node[n] = v.replace(old, new)
            else:
                _replace_in(v, old, new)


async def typed_text_probe(tools: Toolbox, record: dict, task_folder: str, artifact: str, reached: int) -> dict:
    """Replay with changed typed texts (offline, no scoring); passed when it gets as far as the
    original replay (`reached` successful actions)."""
    task, changes = probed_task(record)
    if not changes:
        return {"status": "not_applicable", "reason": "no typed text of four or more characters with a letter"}
    j = await judge(tools, task, task_folder, artifact, JudgeConfig(visual=False))
    failed = next((a for a in j["actions"] if a["status"] == "failed"), None)
    passed = j["successful_actions"] >= reached
    return {"status": "passed" if passed else "failed", "changes": changes,
            "successful_actions": j["successful_actions"], "original_successful_actions": reached,
            "first_failure": None if failed is None else {"index": failed["index"], "error": failed.get("error")}}
