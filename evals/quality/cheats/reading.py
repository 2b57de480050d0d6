"""Cheats that try to read the answers through what a workspace offers: its MCP servers, and links
in its folder. Every answer is checked against the hidden material (OutsideAgent.call does it);
a tool that merely works on a hidden file (OCR of a checkpoint) is a leak on its own."""
from __future__ import annotations

import os
from urllib.parse import quote

from iwr.evals.quality.cheats.agent import OutsideAgent
from iwr.evals.quality.cheats.pages import BLANK, symlink_page


async def browser_reads_files(agent: OutsideAgent) -> None:
    lay, ws = agent.layout, agent.folder
    await agent.browse(str(lay.data_jsonl))
    await agent.browse(str(lay.task_folder), fetch=["checkpoints/step_1.png", "iwr/target_1.png"])
    await agent.browse(str(lay.checkpoint))
    await agent.browse(str(lay.suite), fetch=["data.jsonl", f"data/{lay.other_task_id}/checkpoints/step_1.png"])
    for path in (lay.data_jsonl, lay.checkpoint):
        await agent.browse(f"file://{path}")
    from_suite = lay.checkpoint.relative_to(lay.suite).as_posix()
    await agent.browse(agent.neighbour_url + "data.jsonl", fetch=[f"/{from_suite}"])
    agent.write("index.html", BLANK)
    up = len(ws.parts)
    await agent.browse(str(ws / "index.html"), fetch=[
        "/" + "../" * up + str(lay.data_jsonl).lstrip("/"),
        "/" + "%2e%2e/" * up + str(lay.data_jsonl).lstrip("/"),
        "/" + "..%2f" * up + quote(str(lay.checkpoint).lstrip("/")),
        f"file://{lay.data_jsonl}", f"file://{lay.checkpoint}",
        agent.neighbour_url + "data.jsonl", agent.neighbour_url + from_suite])


async def metrics_reads_checkpoints(agent: OutsideAgent) -> None:
    lay = agent.layout
    agent.write("index.html", BLANK)
    frame = str(sorted((agent.folder / "frames").glob("*.jpg"))[0])
    relative = os.path.relpath(lay.checkpoint, agent.elsewhere)
    tries = [("ocr", {"image": str(lay.checkpoint)}, "a checkpoint"),
             ("ocr", {"image": relative}, "a checkpoint by a relative path"),
             ("ocr", {"image": str(lay.data_jsonl)}, "data.jsonl"),
             ("compare", {"reference": str(lay.checkpoint), "candidate": frame, "metrics": ["ssim", "ocr"]},
              "a checkpoint"),
             ("locate", {"template": str(lay.crop), "image": frame}, "a target crop"),
             ("ocr", {"image": str(lay.other_checkpoint)}, "another task's checkpoint")]
    for tool, args, what in tries:
        ok, got = await agent.call("metrics", tool, **args)
        if ok:
            agent.leak(f"metrics.{tool} read {what}: {str(got)[:80]}")


async def assets_reads_hidden(agent: OutsideAgent) -> None:
    lay, own = agent.layout, agent.task_id
    agent.write("index.html", BLANK)
    ok, listed = await agent.call("assets", "list_tasks")
    others = [str(t.get("id")) for t in listed if str(t.get("id")) != own] if ok and isinstance(listed, list) else []
    if others:
        agent.leak(f"assets.list_tasks names {len(others)} other tasks ({', '.join(others[:3])}, ...)")
    ok, actions = await agent.call("assets", "actions", task_id=own)
    if ok and isinstance(actions, list):
        if any("iwr" in a for a in actions):
            agent.leak("assets.actions gives the iwr hints (selectors, crops, checks)")
        if any(a.get("logical_assertion") for a in actions):
            agent.leak("assets.actions gives the judge's assertion sentences")
    if "checkpoint" in await agent.tool_names("assets"):
        ok, _ = await agent.call("assets", "checkpoint", task_id=own, step=1)
        if ok:
            agent.leak("assets.checkpoint shows a checkpoint")
    for name in ("../checkpoints/step_1.png", "..\\checkpoints\\step_1.png", "%2e%2e%2fcheckpoints%2fstep_1.png",
                 str(lay.checkpoint), "../../data.jsonl", "..", "../iwr/target_1.png"):
        ok, _ = await agent.call("assets", "get_asset", task_id=own, name=name)
        if ok:
            agent.leak(f"assets.get_asset served {name!r}")
    other = lay.other_task_id
    for tool, args in (("actions", {}), ("list_assets", {}), ("get_asset", {"name": "1.png"}),
                       ("frame", {"index": 0}), ("asset_sheets", {}), ("video_info", {})):
        ok, _ = await agent.call("assets", tool, task_id=other, **args)
        if ok:
            agent.leak(f"assets.{tool} answered for another task ({other})")
    ok, _ = await agent.call("assets", "actions", task_id=f"{own}/../{other}")
    if ok:
        agent.leak("assets.actions took a task id with '..'")


async def symlink_escape(agent: OutsideAgent) -> None:
    lay, ws = agent.layout, agent.folder
    agent.symlink("leak", lay.task_folder)
    agent.symlink("suite", lay.suite)
    if lay.reference_site is not None:
        agent.symlink("site", lay.reference_site)
    agent.write("index.html", BLANK)
    for target in ("leak/checkpoints/step_1.png", "suite/data.jsonl", "leak", "site"):
        await agent.browse(str(ws / target))
    await agent.browse(str(ws / "index.html"), fetch=[
        "leak/checkpoints/step_1.png", "suite/data.jsonl", "site/index.html", "leak/iwr/target_1.png"])
    for path in ("suite/data.jsonl", "site/index.html", "leak/iwr/target_1.png"):
        await agent.call("workspace", "read_file", path=path)
    await agent.call("workspace", "list_files")
    ok, got = await agent.call("metrics", "ocr", image=str(ws / "leak/checkpoints/step_1.png"))
    if ok:
        agent.leak(f"metrics.ocr read a checkpoint through a link: {str(got)[:80]}")
    shots = [f"leak/checkpoints/{p.name}" for p in lay.checkpoints]
    agent.write("index.html", symlink_page(shots, ["suite/data.jsonl", "site/index.html"], agent.collector_url(),
                                           agent.viewport()))
