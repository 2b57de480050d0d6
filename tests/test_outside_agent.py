"""An outside agent over MCP stdio: `iwr prepare` writes a workspace and its `.mcp.json`; the test starts
the servers listed there from another folder, as an MCP client would, reads the task through them,
writes and renders a page, then `iwr judge` scores what it left."""
import asyncio
import json
import os
import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.iterative_script import BROKEN, GOOD

pytestmark = pytest.mark.slow
IWR = Path(sys.executable).parent / "iwr"


def iwr(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(IWR), *args], cwd=cwd, capture_output=True, text=True, timeout=600)


async def judge(ws: Path, cwd: Path) -> dict:
    p = await asyncio.to_thread(iwr, "judge", str(ws), "--json", cwd=cwd)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


async def connect(config: dict, cwd: Path, stack: AsyncExitStack, errlog) -> dict[str, ClientSession]:
    """A session per server, started exactly from its config entry (default client environment, another cwd)."""
    sessions = {}
    for name, spec in config["mcpServers"].items():
        params = StdioServerParameters(command=spec["command"], args=spec["args"], cwd=str(cwd))
        read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
        sessions[name] = await stack.enter_async_context(ClientSession(read, write, read_timeout_seconds=120))
        await sessions[name].initialize()
    return sessions


async def call(server: ClientSession, tool: str, **args):
    r = await server.call_tool(tool, args)
    assert not r.is_error, (tool, [getattr(c, "text", "") for c in r.content])
    return r


def data(result):
    sc = result.structured_content
    if sc is not None:
        return sc["result"] if set(sc) == {"result"} else sc
    return json.loads(result.content[0].text)


def kinds(result) -> list[str]:
    return [c.type for c in result.content]


async def test_prepare_then_an_outside_agent_over_stdio_then_judge(tmp_path):
    ws, elsewhere = tmp_path / "ws", tmp_path / "elsewhere"
    elsewhere.mkdir()
    p = iwr("prepare", "1", "--out", str(ws), cwd=elsewhere)
    assert p.returncode == 0, p.stderr
    for name in ("INSTRUCTIONS.md", "actions.json", "assets/1.png", "iwr-task.json", ".mcp.json"):
        assert (ws / name).is_file(), name
    assert list((ws / "frames").glob("*.jpg")) and list((ws / "sheets").iterdir())
    assert not list(ws.rglob("step_*.png"))  # the judge's checkpoints stay out of the workspace
    config = json.loads((ws / ".mcp.json").read_text())
    assert set(config["mcpServers"]) == {"iwr-workspace", "iwr-browser", "iwr-assets", "iwr-metrics"}
    assert all(Path(s["command"]).is_absolute() for s in config["mcpServers"].values())
    assert json.loads((ws / ".cursor" / "mcp.json").read_text()) == config
    vscode = json.loads((ws / ".vscode" / "mcp.json").read_text())["servers"]
    assert {k: {"command": v["command"], "args": v["args"]} for k, v in vscode.items()} == config["mcpServers"]
    assert {v["type"] for v in vscode.values()} == {"stdio"}

    async with AsyncExitStack() as stack:
        errlog = stack.enter_context(open(tmp_path / "servers.log", "w"))
        s = await connect(config, elsewhere, stack, errlog)
        assets, workspace, browser, metrics = (s[f"iwr-{n}"] for n in ("assets", "workspace", "browser", "metrics"))

        # read the task as the agent would: asset sheet, assets, a frame, the actions in words
        assert "image" in kinds(await call(assets, "asset_sheets", task_id="1"))
        assert "1.png" in {a["name"] for a in data(await call(assets, "list_assets", task_id="1"))}
        assert kinds(await call(assets, "frame", task_id="1", index=0)) == ["text", "image"]
        assert len(data(await call(assets, "actions", task_id="1"))) == len(json.loads((ws / "actions.json").read_text()))

        # write the page through the workspace server and look at it
        await call(workspace, "write_file", path="index.html", content=GOOD)
        assert (ws / "index.html").read_text() == GOOD
        assert {"index.html", "assets/1.png"} <= {f["path"] for f in data(await call(workspace, "list_files"))}
        rendered = await call(workspace, "render", path="index.html", width=1280, height=800)
        assert kinds(rendered) == ["text", "image"] and "'console_errors': []" in rendered.content[0].text
        assert "'blocked_requests': []" in rendered.content[0].text

        # open it in the browser server, click the button the video clicks, compare with a frame
        opened = data(await call(browser, "open", target=str(ws / "index.html"), width=1280, height=800))
        await call(browser, "click", session=opened["session"], selector="#submit")
        shot = data(await call(browser, "screenshot", session=opened["session"]))
        await call(browser, "close", session=opened["session"])
        assert Path(shot["path"]).is_file() and Path(shot["path"]).resolve().is_relative_to(ws.resolve())
        frame = sorted((ws / "frames").glob("*.jpg"))[0]
        v = data(await call(metrics, "compare", reference=str(frame), candidate=shot["path"], metrics=["ssim"]))
        assert 0 < v["ssim"]["value"] <= 1

        good = await judge(ws, elsewhere)
        assert good["status"] == "scored" and good["task_id"] == "1"
        assert good["ifs"] == 1.0 and good["final"] > 0.8, good
        assert all(a["status"] == "passed" for a in good["actions"])

        # a broken handler, written the same way, scores lower
        await call(workspace, "write_file", path="index.html", content=BROKEN)
        broken = await judge(ws, elsewhere)
    assert broken["status"] == "scored" and broken["ifs"] < good["ifs"] and broken["final"] < good["final"] - 0.2
    # the judgement is kept outside the workspace, and the marker names no path
    assert not (ws / "judgement.json").exists() and not list(ws.glob(".iwr-judge*"))
    marker = json.loads((ws / "iwr-task.json").read_text())
    assert set(marker) == {"task_id", "key"}
    kept = Path(os.environ["IWR_STATE_DIR"]) / "judgements" / marker["key"] / "judgement.json"
    assert json.loads(kept.read_text())["final"] == broken["final"]
