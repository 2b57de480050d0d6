"""An outside coding agent's powers over one prepared workspace, and nothing more.

It has: the MCP servers its `.mcp.json` lists, each started exactly as that file gives it (command,
args, the MCP client's default environment, another working folder); shell powers confined to the
workspace folder (files and symbolic links inside it); loopback HTTP servers of its own; and
knowledge of this repository's layout (`Layout`), so it may guess where hidden files are. Whatever
it reads is checked against `Hidden`; what was hidden lands in `leaked`.
"""
from __future__ import annotations

import json
import re
import threading
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from mcp.client.stdio import StdioServerParameters

from iwr.agents.toolbox import InfrastructureError, Toolbox, ToolCallError
from iwr.evals.quality.cheats.hidden import Hidden

# Runs in a page: fetch a URL, and hand back its status, a digest of its bytes and its start as text.
FETCH = """(async () => { try {
  const r = await fetch(%s); const b = await r.arrayBuffer();
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', b));
  let hex = ''; for (const x of d) hex += x.toString(16).padStart(2, '0');
  return {status: r.status, sha256: hex, head: new TextDecoder().decode(b.slice(0, 6000))};
} catch (e) { return {error: String(e)}; } })()"""


def _answer(raw: Any) -> Any:
    """A tool result as data: its structured content, else its one JSON text, else its content list."""
    data = raw.structured_content
    if isinstance(data, dict) and set(data) == {"result"}:
        return data["result"]
    if data is not None:
        return data
    texts = [c.text for c in raw.content if getattr(c, "type", "") == "text"]
    if len(texts) == 1 and len(raw.content) == 1:
        try:
            return json.loads(texts[0])
        except ValueError:
            return texts[0]
    return raw.content


@dataclass
class Layout:
    """Where things are in this checkout: what an agent that knows the repository may guess."""

    suite: Path
    task_folder: Path
    checkpoints: list[Path]  # step_*.png, in step order
    crop: Path
    reference_site: Path | None
    reference_page: str
    other_task_id: str
    other_checkpoint: Path

    @property
    def data_jsonl(self) -> Path:
        return self.suite / "data.jsonl"

    @property
    def checkpoint(self) -> Path:
        """One checkpoint after an action (step_0 is the page before any)."""
        return self.checkpoints[min(1, len(self.checkpoints) - 1)]


class _Handler(SimpleHTTPRequestHandler):
    """Static files and a collecting endpoint that any page may reach (CORS open)."""

    received: list[str]

    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_POST(self):
        size = min(int(self.headers.get("Content-Length") or 0), 2_000_000)
        if len(self.received) < 500:
            self.received.append(self.rfile.read(size).decode("utf-8", "replace"))
        self.send_response(204)
        self.end_headers()

    def do_OPTIONS(self):
        self.send_response(204)
        self.send_header("Access-Control-Allow-Methods", "GET, POST")
        self.send_header("Access-Control-Allow-Headers", "*")
        self.end_headers()

    def log_message(self, format, *args):
        pass


class LoopbackServer:
    """A threaded HTTP server on 127.0.0.1: `root`'s files, and every POST body kept in `received`."""

    def __init__(self, root: Path):
        self.received: list[str] = []
        handler = type("Handler", (_Handler,), {"received": self.received})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class OutsideAgent:
    """One hostile agent in one workspace; use as an async context manager."""

    def __init__(self, folder: Path, hidden: Hidden, layout: Layout, task_id: str, logs: Path, elsewhere: Path,
                 neighbour_url: str, operator_judges: Callable[[], Awaitable[None]]):
        self.folder, self.hidden, self.layout, self.task_id = folder, hidden, layout, task_id
        self.neighbour_url = neighbour_url  # a loopback server someone else runs on this machine
        self.operator_judges = operator_judges  # `iwr judge` run by the operator, mid-way (replant)
        self.leaked: list[str] = []
        self.tried = 0
        self._logs, self.elsewhere = logs, elsewhere
        self._mcp: dict[str, Toolbox] = {}
        self._stack = AsyncExitStack()
        self._own: list[LoopbackServer] = []
        self.collector: LoopbackServer | None = None

    async def __aenter__(self) -> OutsideAgent:
        self._errlog = open(self._logs, "a")
        await self._stack.__aenter__()
        return self

    async def __aexit__(self, *exc) -> None:
        try:
            await self.leave()
        finally:
            for s in self._own:
                s.close()
            self._errlog.close()

    async def leave(self) -> None:
        """The agent is done: its MCP servers end (its own loopback servers keep running, as a daemon would)."""
        self._mcp.clear()
        await self._stack.__aexit__(None, None, None)
        self._stack = AsyncExitStack()
        await self._stack.__aenter__()

    # --- the MCP servers of .mcp.json ----------------------------------------------------------

    async def _server(self, name: str) -> Toolbox:
        if name not in self._mcp:
            spec = json.loads((self.folder / ".mcp.json").read_text())["mcpServers"][f"iwr-{name}"]
            params = StdioServerParameters(command=spec["command"], args=spec["args"], env=spec.get("env"),
                                           cwd=str(self.elsewhere))
            self._mcp[name] = await self._stack.enter_async_context(
                Toolbox({name: params}, errlog=self._errlog, timeout_s=90))
        return self._mcp[name]

    async def call(self, server: str, tool: str, how: str = "", **arguments: Any) -> tuple[bool, Any]:
        """(True, answer) or (False, the error's text); either is checked for hidden material, since an
        error message can carry what it refused. `how` names the attempt in a leak."""
        self.tried += 1
        tb = await self._server(server)
        shown = how or ", ".join(f"{k}={str(v)[:60]!r}" for k, v in arguments.items())
        try:
            raw = await tb.call_raw(server, tool, **arguments)
        except (ToolCallError, InfrastructureError) as e:
            self.saw(f"{server}.{tool}({shown}) refused", str(e))
            return False, str(e)
        data = _answer(raw)
        self.saw(f"{server}.{tool}({shown})", data)
        return True, data

    async def tool_names(self, server: str) -> list[str]:
        return [t.name for t in await (await self._server(server)).list_tools(server)]

    # --- what it learnt -------------------------------------------------------------------------

    def saw(self, how: str, payload: Any) -> list[str]:
        """Check what a read returned against the hidden material; every hit is a leak."""
        found = self.hidden.seen(payload)
        if found:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            self.leaked.append(f"{how}: {found[0]}{more}")
        return found

    def leak(self, how: str) -> None:
        self.leaked.append(how)

    def review_collected(self) -> None:
        """What its own pages sent to its collector while being judged."""
        if self.collector is not None:
            for body in self.collector.received:
                self.saw("its page, while judged, sent home", body)

    # --- shell powers, inside the folder only ---------------------------------------------------

    def _inside(self, rel: str) -> Path:
        p = self.folder / rel
        if not p.resolve().is_relative_to(self.folder.resolve()):
            raise PermissionError(f"{rel} leads outside the workspace")
        return p

    def write(self, rel: str, content: str | bytes) -> None:
        p = self._inside(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        (p.write_bytes if isinstance(content, bytes) else p.write_text)(content)

    def symlink(self, rel: str, target: Path) -> None:
        """A link inside the folder (pointing anywhere: making one needs no access to its target)."""
        (self.folder / rel).symlink_to(target)

    def files(self) -> dict[str, tuple[int, float]]:
        """Every file under the folder (links not followed), with size and modification time."""
        out = {}
        for p in self.folder.rglob("*"):
            if p.is_file() and not p.is_symlink() and p.resolve().is_relative_to(self.folder.resolve()):
                st = p.stat()
                out[p.relative_to(self.folder).as_posix()] = (st.st_size, st.st_mtime)
        return out

    def read(self, rel: str) -> bytes:
        return self._inside(rel).read_bytes()

    def actions(self) -> list[dict]:
        return json.loads((self.folder / "actions.json").read_text())

    def viewport(self) -> tuple[int, int]:
        """The page size INSTRUCTIONS.md asks for."""
        m = re.search(r"(\d{3,4})x(\d{3,4})", (self.folder / "INSTRUCTIONS.md").read_text())
        return (int(m.group(1)), int(m.group(2))) if m else (1280, 800)

    def serve(self, root: Path) -> str:
        """Start a loopback server of its own over `root`; its URL."""
        server = LoopbackServer(root)
        self._own.append(server)
        return server.url

    def collector_url(self) -> str:
        if self.collector is None:
            self.collector = LoopbackServer(self.folder)
            self._own.append(self.collector)
        return self.collector.url + "c"

    # --- the browser, as a tool to read with ----------------------------------------------------

    async def browse(self, target: str, fetch: list[str] = ()) -> bool:
        """Open `target` in the browser server, read the page and each URL fetched from it; True if it opened."""
        ok, opened = await self.call("browser", "open", target=target)
        if not ok:
            return False
        sid = opened["session"]
        for url in ["location.href", *(json.dumps(u) for u in fetch)]:
            await self.call("browser", "evaluate", how=f"on {target}: fetch({url})", session=sid,
                            expression=FETCH % url, max_chars=12000)
        await self.call("browser", "state", how=f"text of {target}", session=sid, max_text=20000)
        await self.call("browser", "close", session=sid)
        return True
