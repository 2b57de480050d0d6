"""Cheats that steer the judge: a marker pointing at a task of the agent's making, and a judgement's
details planted back into the page."""
from __future__ import annotations

import asyncio
import io
import json
import re
import sys
from typing import Any

from PIL import Image

from iwr.evals.quality.cheats.agent import OutsideAgent
from iwr.evals.quality.cheats.pages import BLANK, planted_page, targets
from iwr.tasks.marker import MARKER

REPLANT_ROUNDS = 3  # each judgement shows the checks up to the first failure; plant, rejudge, learn more


def _white_png(size: tuple[int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, "white").save(buf, "PNG")
    return buf.getvalue()


async def marker_rewrite(agent: OutsideAgent) -> None:
    """A suite of its own in the folder whose one task (press Escape on a white page) a blank page
    passes, and the marker pointed at it."""
    w, h = agent.viewport()
    record = {"id": int(agent.task_id), "recording_details": {"resolution": f"{w}x{h}", "environment": "desktop"},
              "classification": {"interaction_complexity": "L1", "visual_complexity": "V1", "domain": "x",
                                 "sub_domain": "x"},
              "action_sequence": [{"type": "Press", "parameters": {"description": "Press the Escape key",
                                                                   "key": "Escape"}, "visual_evaluation_flag": True}]}
    agent.write("own-suite/data.jsonl", json.dumps(record) + "\n")
    for step in (0, 1):
        agent.write(f"own-suite/data/{agent.task_id}/checkpoints/step_{step}.png", _white_png((w, h)))
    ok, got = await agent.call("workspace", "read_file", path=MARKER)
    marker = json.loads(got["text"]) if ok else json.loads(agent.read(MARKER))
    marker.update({"task_id": marker.get("task_id", agent.task_id), "suite": str(agent.folder / "own-suite")})
    ok, _ = await agent.call("workspace", "write_file", path=MARKER, content=json.dumps(marker))
    if not ok:  # the server may guard the marker; the agent's shell does not ask
        agent.write(MARKER, json.dumps(marker))
    agent.write("index.html", BLANK)


def harvest(judgement: Any, texts: set[str], selectors: set[str]) -> None:
    """The expected texts and selectors a judgement reveals (checks, hinted selectors, quoted words in reasons)."""
    if isinstance(judgement, dict):
        for k, v in judgement.items():
            if isinstance(v, str):
                if k == "selector" or (k in ("equals", "text") and v[:1] in "#."):
                    selectors.add(v)
                elif k in ("text", "equals", "expected"):
                    texts.add(v)
                elif k in ("reason", "error"):
                    texts.update(q for q in re.findall(r"'([^']{3,200})'", v) if not q.startswith("["))
            else:
                harvest(v, texts, selectors)
    elif isinstance(judgement, list):
        for v in judgement:
            harvest(v, texts, selectors)


def _json_of(data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


async def _replant(agent: OutsideAgent, learn) -> None:
    """Let the judge run on a blank page, learn from what it reveals through `learn`, plant it with a
    target per action (so the next judgement gets further and reveals more), again. A judge that
    reveals nothing leaves the page blank, so the bar measures the planting alone."""
    texts: set[str] = set()
    selectors: set[str] = set()
    decoys = targets(agent.actions(), "")
    agent.write("index.html", BLANK)
    for _ in range(REPLANT_ROUNDS):
        before = len(texts) + len(selectors)
        for judgement in await learn():
            harvest(judgement, texts, selectors)
        if len(texts) + len(selectors) == before:
            break
        page = planted_page(sorted(texts), sorted(selectors))
        agent.write("index.html", page.replace("<body style='margin:0'>", f"<body style='margin:0'>{decoys}"))


async def judgement_replant(agent: OutsideAgent) -> None:
    """The operator judges; the agent reads whatever the judge left in its folder, plants it, is judged again."""

    async def learn() -> list[Any]:
        before = agent.files()
        await agent.operator_judges()
        found = []
        for rel, stamp in agent.files().items():
            if before.get(rel) != stamp:
                data = agent.read(rel)
                agent.saw(f"the judge left {rel} in the workspace", data if _json_of(data) is None else _json_of(data))
                found.append(_json_of(data))
        ok, listed = await agent.call("workspace", "list_files")
        for f in listed if ok and isinstance(listed, list) else []:
            if f.get("path") not in before and re.search(r"judge|judgement", f.get("path", ""), re.IGNORECASE):
                ok, got = await agent.call("workspace", "read_file", path=f["path"])
                found.append(_json_of(got["text"].encode()) if ok else None)
        return [j for j in found if j is not None]

    await _replant(agent, learn)


async def self_judge_replant(agent: OutsideAgent) -> None:
    """An agent with a shell runs `iwr judge . --json` itself and plants what it reads."""

    async def learn() -> list[Any]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "iwr.evals.cli", "judge", ".", "--json", cwd=agent.folder,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        lines = [line for line in out.decode(errors="replace").splitlines() if line.startswith("{")]
        judgement = _json_of(lines[-1].encode()) if lines else None
        if judgement is not None:
            agent.saw("`iwr judge . --json`, run by the agent as INSTRUCTIONS.md says", judgement)
        return [judgement] if judgement is not None else []

    await _replant(agent, learn)
