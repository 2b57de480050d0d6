"""An action and the screenshot after it in one MCP call (the browser tools' `then`): one round trip
fewer for each judged action, a few ms on an idle machine and a few tens on a loaded one."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from iwr.agents.toolbox import ToolCallError

# The browser tool a judged action ends with, by action type. A Type at a point clicks (to focus) and
# may press (to select what the field holds) before it types: only the typing is followed by the shot.
LAST_TOOLS = {"Click": ("click", "select"), "Type": ("type",), "Press": ("press",)}


class ShotAfter:
    """`tools` as they are, except that the tool that ends an action of type `kind` also takes the
    screenshot `request` asks for (the screenshot tool's name, wait_ms and checks) once it succeeded.
    `taken()` gives that screenshot's answer, None when no call took it (a scroll, a click that raised
    and was counted as done all the same); ToolCallError when it failed, as the screenshot tool would."""

    def __init__(self, tools, kind: str, request: dict | None):
        self.tools, self.request = tools, request
        self.folded = LAST_TOOLS.get(kind, ()) if request else ()
        self._shot: dict | None = None
        self._error: str | None = None

    def __getattr__(self, name: str):
        return getattr(self.tools, name)

    async def call(self, server: str, tool: str, **arguments: Any) -> Any:
        if server != "browser" or tool not in self.folded:
            return await self.tools.call(server, tool, **arguments)
        out = await self.tools.call(server, tool, **arguments, then=self.request)
        self._shot, self._error = out.get("shot"), out.get("shot_error")
        return out

    def taken(self) -> dict | None:
        if self._error:
            raise ToolCallError(f"browser.screenshot: {self._error}")
        return self._shot


@contextmanager
def shooting_after(ctx, kind: str, request: dict | None):
    """The judge context's tools made a ShotAfter while an action is grounded and done (grounding
    reaches the browser through `ctx.tools`), and given back afterwards."""
    tools = ctx.tools
    ctx.tools = acting = ShotAfter(tools, kind, request)
    try:
        yield acting
    finally:
        ctx.tools = tools
