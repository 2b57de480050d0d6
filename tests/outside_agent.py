"""A scripted outside coding agent, run by `iwr run --agent cmd:'python outside_agent.py {task_id} ...'`
as any command-line agent would be: in its workspace, through the MCP servers its `.mcp.json` names.

Usage: outside_agent.py TASK_ID PAGE_FILE [PATH ...]
Its behaviour is chosen by the task it is given (see MODES): it writes PAGE_FILE's page through the
workspace server and renders it with the browser server (good), never returns (timeout, with a
child process that must end with it), writes half a page and exits 3 (crash), or tries to read every
PATH (the suite, checkpoints, the run folder, ...) and plants whatever it could read (snoop).
"""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

MODES = {"1": "good", "105": "timeout", "107": "crash", "101": "snoop"}
TIMEOUT_CHILD = "987654"  # `sleep 987654`: the test looks for it after the budget


async def servers(stack: AsyncExitStack) -> dict[str, ClientSession]:
    config = json.loads(Path(".mcp.json").read_text())
    out = {}
    for name, spec in config["mcpServers"].items():
        params = StdioServerParameters(command=spec["command"], args=spec["args"], env=dict(os.environ))
        read, write = await stack.enter_async_context(stdio_client(params, errlog=sys.stderr))
        out[name] = await stack.enter_async_context(ClientSession(read, write))
        await out[name].initialize()
    return out


async def good(page: str) -> None:
    async with AsyncExitStack() as stack:
        s = await servers(stack)
        tools = {n: [t.name for t in (await c.list_tools()).tools] for n, c in s.items()}
        await s["iwr-workspace"].call_tool("write_file", {"path": "index.html", "content": page})
        opened = await s["iwr-browser"].call_tool("open", {"target": str(Path("index.html").resolve())})
        session = opened.structured_content["session"]
        shot = await s["iwr-browser"].call_tool("screenshot", {"session": session})
        await s["iwr-browser"].call_tool("close", {"session": session})
    Path("agent-notes.json").write_text(json.dumps({"tools": tools, "shot": shot.structured_content}))
    print(json.dumps({"usage": {"prompt_tokens": 1200, "completion_tokens": 340}}))


def snoop(paths: list[str]) -> None:
    found = {}
    for p in paths:
        try:
            target = Path(p)
            found[p] = sorted(os.listdir(target))[:20] if target.is_dir() else target.read_bytes()[:4000].decode(
                "utf-8", "replace")
        except OSError as e:
            found[p] = None
            print(f"could not read {p}: {type(e).__name__}", file=sys.stderr)
    Path("snoop.json").write_text(json.dumps(found, indent=1))
    readable = {k: v for k, v in found.items() if v}
    Path("index.html").write_text("<!doctype html><title>snoop</title><body><pre>"
                                  + json.dumps(readable).replace("<", "&lt;") + "</pre></body>")


def main() -> None:
    task_id, page_file, *paths = sys.argv[1:]
    mode = MODES.get(task_id, "good")
    if mode == "good":
        asyncio.run(good(Path(page_file).read_text()))
    elif mode == "timeout":
        subprocess.Popen(["sleep", TIMEOUT_CHILD])
        while True:
            time.sleep(1)
    elif mode == "crash":
        Path("index.html").write_text("<!doctype html><body><h1>half a pa")
        print("Traceback (most recent call last): the agent fell over", file=sys.stderr)
        sys.exit(3)
    else:
        snoop(paths)


if __name__ == "__main__":
    main()
