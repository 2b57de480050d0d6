"""The workspace MCP server: write, read, list, edit and delete files in one folder, and render a page."""
from __future__ import annotations

import contextlib
from pathlib import Path

from mcp.server.mcpserver import Context, Image, MCPServer

from iwr.mcp_servers.browser import actions
from iwr.mcp_servers.browser.hub import BrowserFault, BrowserHub, SessionError
from iwr.mcp_servers.common import ACTS, DESTRUCTIVE, READ_ONLY, mapped_errors
from iwr.mcp_servers.imaging import model_view
from iwr.mcp_servers.workspace.core import Workspace, WorkspaceError

errors = mapped_errors((WorkspaceError, SessionError, actions.ActionFailed), (BrowserFault, OSError))


class _Renderer:
    """Starts Chromium on the first render only, so file-only sessions never pay for it."""

    def __init__(self) -> None:
        self.hub: BrowserHub | None = None

    async def get(self) -> BrowserHub:
        if self.hub is None:
            self.hub = await BrowserHub().start()
        return self.hub

    async def close(self) -> None:
        if self.hub is not None:
            await self.hub.stop()


def build_server(root: Path) -> MCPServer:
    """A workspace server confined to `root`."""
    ws = Workspace(root)

    @contextlib.asynccontextmanager
    async def lifespan(_server):
        renderer = _Renderer()
        try:
            yield renderer
        finally:
            await renderer.close()

    mcp = MCPServer("iwr-workspace", instructions=f"Files of one web page project, confined to {ws.root}.",
                    lifespan=lifespan)

    @mcp.tool(annotations=ACTS)
    @errors
    async def write_file(path: str, content: str) -> dict:
        """Create or overwrite a text file (path relative to the workspace, e.g. index.html)."""
        return ws.write(path, content)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def read_file(path: str, start: int = 0, max_chars: int = 20000) -> dict:
        """Read a text file from character `start`; long files come in parts (see next_start)."""
        return ws.read(path, start, max_chars)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def list_files() -> list[dict]:
        """Every file in the workspace with its size."""
        return ws.list()

    @mcp.tool(annotations=ACTS)
    @errors
    async def edit_file(path: str, old: str, new: str) -> dict:
        """Replace the single occurrence of `old` with `new` in a file."""
        return ws.edit(path, old, new)

    @mcp.tool(annotations=DESTRUCTIVE)
    @errors
    async def delete_file(path: str) -> dict:
        """Delete a file."""
        return ws.delete(path)

    @mcp.tool(annotations=READ_ONLY, structured_output=False)
    @errors
    async def render(ctx: Context, path: str = "index.html", width: int = 1280, height: int = 800,
                     full_page: bool = False) -> list:
        """Open a page of the workspace in Chromium; returns a screenshot plus console errors and blocked requests."""
        target = ws.resolve(path, must_exist=True)
        hub = await ctx.request_context.lifespan_context.get()
        s = await hub.open(str(target), width=width, height=height, serve_root=ws.root)
        try:
            await actions.settle(s)  # as the judge does after loading: network idle and DOM quiet, no fixed sleep
            shot = await actions.screenshot(s, "render", full_page)
            _, _, jpeg = model_view(shot)
            report = {"console_errors": [m["text"] for m in s.console if m["type"] == "error"][:20],
                      "page_errors": s.page_errors[:20], "blocked_requests": s.blocked[:20]}
        finally:
            await hub.close(s.id)
        return [str(report), Image(data=jpeg, format="jpeg")]

    return mcp
