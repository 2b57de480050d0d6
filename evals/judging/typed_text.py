"""The typed-text probe: does the page react to what is typed, or replay what the video showed?

It replays the task with every typed text changed (letters rotated, digits shifted, so the new
text has the same shape and passes the same input validation) and every later mention of it
changed with it, so that the replay can still find what it clicks. It then looks for the one
thing only a pre-baked page does: showing a recorded text that was never typed. So the replay
drops the task's own expectations (a changed search query honestly lists other results, a changed
city honestly finds no flights) and checks instead, after each text is typed, that the original
text is absent from the page, unless the page showed it before anything was typed (page data).

- failed: the page showed a recorded text the probe never typed (the first such action is named);
- passed: the changed replay got as far as the original one without that;
- inconclusive: the changed replay stopped earlier for another reason (what it typed changed what
  the page offers next), with no sign of replayed text;
- not_applicable: nothing typed is worth changing.
Reported apart from IFS and VFS.
"""
from __future__ import annotations

import copy
import string
from urllib.parse import quote, quote_plus

from iwr.agents.toolbox import Toolbox
from iwr.graphs.grounding import type_text_of
from iwr.graphs.judge import JudgeConfig, judge

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


def probed_task(record: dict, page_data: set[str] = frozenset()) -> tuple[dict, list[dict]]:
    """The task with its typed texts changed from the step they are typed on, its expectations
    replaced by "the original text is absent" (except texts in `page_data`); and the changes."""
    task = copy.deepcopy(record)
    changes: list[dict] = []
    for action in task["action_sequence"]:
        params = action["parameters"]
        text = type_text_of(params.get("description", ""), params.get("text")) if action["type"] == "Type" else None
        if text and probe_worthy(text):
            if all(c["from"] != text for c in changes):
                changes.append({"from": text, "to": varied(text)})
            params["text"] = text  # also when the text was only quoted in the description
        for c in changes:
            for old, new in ((c["from"], c["to"]), (quote(c["from"]), quote(c["to"])),
                             (quote_plus(c["from"]), quote_plus(c["to"]))):
                _replace_in(action, old, new)
        action.pop("logical_assertion", None)
        ext = action.setdefault("iwr", {})
        ext["checks"] = [{"kind": "text_absent", "text": c["from"]} for c in changes if c["from"] not in page_data]
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


async def shown_on(tools: Toolbox, session: str, texts: list[str]) -> set[str]:
    """Which of `texts` an open page shows (its own data, when nothing has been typed yet)."""
    seen = await tools.call("browser", "check", session=session, checks=[{"kind": "text_absent", "text": t} for t in texts])
    return {t for t, r in zip(texts, seen) if not r["ok"]}


async def typed_text_probe(tools: Toolbox, record: dict, task_folder: str, artifact: str, reached: int,
                           reuse: str | None = None) -> dict:
    """Replay with changed typed texts (offline, no scoring) and look for recorded text never typed; in the
    page of session `reuse` when given (the judged replay's, loaded again as new: graphs/judge.py)."""
    _, changes = probed_task(record)
    if not changes:
        return {"status": "not_applicable", "reason": "no typed text of four or more characters with a letter"}
    page_data: set[str] = set()

    async def checks_by_what_the_page_shows(session: str) -> dict:
        # On the probe's own page, once open: no second page is opened just to look.
        page_data.update(await shown_on(tools, session, [c["from"] for c in changes]))
        return probed_task(record, page_data)[0]

    j = await judge(tools, probed_task(record)[0], task_folder, artifact, JudgeConfig(visual=False, screenshots=False),
                    on_open=checks_by_what_the_page_shows, reuse=reuse)
    failed = next((a for a in j["actions"] if a["status"] == "failed"), None)
    replayed = failed is not None and "text_absent" in (failed.get("error") or "")
    status = "failed" if replayed else "passed" if j["successful_actions"] >= reached else "inconclusive"
    return {"status": status, "changes": changes, "page_data": sorted(page_data),
            "successful_actions": j["successful_actions"], "original_successful_actions": reached,
            "first_failure": None if failed is None else {"index": failed["index"], "error": failed.get("error")}}
