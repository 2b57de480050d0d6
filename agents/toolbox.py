"""MCP client side: one session per server for the whole run of a task, and typed tool calls."""
from __future__ import annotations

import asyncio
import json
import os
import sys
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
    _keepers: list[tuple[asyncio.Task, asyncio.Future]] = field(default_factory=list)  # (task, its client once started)
    _stop: asyncio.Event | None = None

    # The servers start side by side: each client lives in a task of its own (a client's task group
    # must be left by the task that entered it), so a run waits for the slowest server to be ready,
    # not for the sum of them (half a second and more per command that judges).
    async def __aenter__(self) -> "Toolbox":
        self._stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        started = {name: loop.create_future() for name in self.servers}
        self._keepers = [(asyncio.create_task(self._keep(target, started[name]), name=f"mcp-{name}"), started[name])
                         for name, target in self.servers.items()]
        try:
            ready = await asyncio.gather(*started.values(), return_exceptions=True)
        except BaseException:  # cancelled while the servers started
            await self._close()
            raise
        failed = next((r for r in ready if isinstance(r, BaseException)), None)
        if failed is not None:
            await self._close()
            raise failed
        self._clients.update(zip(started, ready))
        return self

    async def _keep(self, target: Any, started: asyncio.Future) -> None:
        """Hold the client of one server open until the toolbox closes."""
        try:
            if isinstance(target, StdioServerParameters) and self.errlog is not None:
                from mcp.client.stdio import stdio_client

                target = stdio_client(target, errlog=self.errlog)
            async with Client(target, read_timeout_seconds=self.timeout_s) as client:
                if started.done():  # its opener gave up meanwhile
                    return
                started.set_result(client)
                await self._stop.wait()
        except BaseException as e:  # noqa: BLE001 - one that never started is its opener's to raise
            if started.done():
                raise
            if isinstance(e, asyncio.CancelledError):
                started.cancel()
            else:
                started.set_exception(e)

    async def _close(self) -> list[BaseException]:
        """Close every client at once; what their tasks raised while open or closing."""
        if self._stop is not None:
            self._stop.set()
        for keeper, started in self._keepers:
            if not started.done() or started.cancelled():  # still starting: it would wait for its server's answer
                keeper.cancel()
        tasks = [keeper for keeper, _ in self._keepers]
        ended = await asyncio.gather(*tasks, return_exceptions=True) if tasks else []
        self._keepers, self._clients = [], {}
        return [e for e in ended if isinstance(e, BaseException) and not isinstance(e, asyncio.CancelledError)]

    async def __aexit__(self, *exc) -> None:
        # What the block raised goes on as it is; a client that failed on its own is raised when nothing else was.
        errors = await self._close()
        if exc[1] is None and errors:
            raise errors[0]

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

