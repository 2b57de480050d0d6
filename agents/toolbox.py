"""MCP client side: one session per server for the whole run of a task, and typed tool calls."""
from __future__ import annotations

import json
import os
import sys
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any, TextIO

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from iwr.mcp_servers.common import INFRA_PREFIX


class ToolCallError(RuntimeError):
    """A tool answered with an error the caller can act on (element missing, bad argument)."""


class InfrastructureError(RuntimeError):
    """A server or the browser failed; the task must be recorded as an infrastructure failure."""


def stdio_server(name: str, *args: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    """Parameters to start `iwr mcp NAME ARGS` as a subprocess with this Python."""
    full_env = {**os.environ, **(env or {})}
    return StdioServerParameters(command=sys.executable, args=["-m", "iwr.mcp_servers", name, *args], env=full_env)


def _payload(result: Any) -> Any:
    if result.structured_content is not None:
        sc = result.structured_content
        # Tools returning a list or scalar are wrapped by the SDK as {"result": ...}.
        return sc["result"] if isinstance(sc, dict) and set(sc) == {"result"} else sc
    texts = [c.text for c in result.content if getattr(c, "type", "") == "text"]
    if len(texts) == 1:
        try:
            return json.loads(texts[0])
        except json.JSONDecodeError:
            return texts[0]
    return result.content


@dataclass
class Toolbox:
    """Open MCP clients by server name; `call` returns the tool's data or raises a typed error."""

    servers: dict[str, Any]
    errlog: TextIO | None = None
    timeout_s: float = 120.0
    calls: int = 0
    _clients: dict[str, Client] = field(default_factory=dict)
    _stack: AsyncExitStack | None = None

    async def __aenter__(self) -> "Toolbox":
        self._stack = AsyncExitStack()
        await self._stack.__aenter__()
        try:
            for name, target in self.servers.items():
                if isinstance(target, StdioServerParameters) and self.errlog is not None:
                    from mcp.client.stdio import stdio_client

                    target = stdio_client(target, errlog=self.errlog)
                client = Client(target, read_timeout_seconds=self.timeout_s)
                self._clients[name] = await self._stack.enter_async_context(client)
        except BaseException:
            await self._stack.__aexit__(*sys.exc_info())
            raise
        return self

    async def __aexit__(self, *exc) -> None:
        try:
            if self._stack is not None:
                await self._stack.__aexit__(*exc)
        except BaseExceptionGroup as group:
            # The MCP clients' task groups wrap what the block raised (ModelUnavailable, say) in an
            # ExceptionGroup that no caller's except clause matches: let the original go on instead.
            if exc[1] is None or group.split(lambda e: e is exc[1])[1] is not None:
                raise
        finally:
            self._clients.clear()

    def has(self, server: str) -> bool:
        return server in self._clients

    async def call(self, server: str, tool: str, **arguments: Any) -> Any:
        """Call `tool` on `server` and return its data; ToolCallError or InfrastructureError on failure."""
        return _payload(await self.call_raw(server, tool, **arguments))

    async def call_raw(self, server: str, tool: str, **arguments: Any) -> Any:
        """Like `call`, but return the MCP result itself (for image content)."""
        client = self._clients.get(server)
        if client is None:
            raise InfrastructureError(f"no MCP session for server {server!r}")
        self.calls += 1
        args = {k: v for k, v in arguments.items() if v is not None}
        try:
            result = await client.call_tool(tool, args)
        except Exception as e:  # transport died, timeout, protocol error
            raise InfrastructureError(f"{server}.{tool}: {type(e).__name__}: {e}") from e
        if result.is_error:
            text = " ".join(getattr(c, "text", "") for c in result.content).strip()
            text = text.removeprefix(f"Error executing tool {tool}: ")
            if text.startswith(INFRA_PREFIX):
                raise InfrastructureError(f"{server}.{tool}: {text[len(INFRA_PREFIX):]}")
            raise ToolCallError(f"{server}.{tool}: {text}")
        return result

    async def list_tools(self, server: str) -> list[Any]:
        return (await self._clients[server].list_tools()).tools

