"""What every MCP server here shares: error mapping, tool annotations, running on stdio or HTTP."""
from __future__ import annotations

import functools
import logging
import sys
from typing import Any, Awaitable, Callable, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

INFRA_PREFIX = "infrastructure fault: "

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
ACTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def mapped_errors(user_errors: tuple[type[Exception], ...], infra_errors: tuple[type[Exception], ...]) -> Callable[[F], F]:
    """Turn caller mistakes into plain tool errors and infrastructure faults into marked tool errors."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        async def inner(*args, **kwargs):
            try:
                return await fn(*args, **kwargs)
            except ToolError:
                raise
            except user_errors as e:
                raise ToolError(str(e)) from e
            except infra_errors as e:
                raise ToolError(INFRA_PREFIX + str(e)) from e

        return inner  # type: ignore[return-value]

    return wrap


def quiet_stdout_logging() -> None:
    """Send all logging to stderr: on a stdio server anything on stdout breaks the protocol."""
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.WARNING)


def serve(server, http_port: int | None = None) -> None:
    """Run a server on stdio, or on streamable HTTP at 127.0.0.1:PORT."""
    quiet_stdout_logging()
    if http_port:
        server.run("streamable-http", host="127.0.0.1", port=http_port)
    else:
        server.run("stdio")
