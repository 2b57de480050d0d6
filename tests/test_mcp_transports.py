"""Every server over stdio with a real client, and streamable HTTP on 127.0.0.1."""
import asyncio
import os
import socket
import subprocess
import sys
import time

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from iwr.agents.toolbox import Toolbox, stdio_server

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name, tool, args", [
    ("metrics", "list_metrics", {}), ("assets", "list_tasks", {}), ("workspace", "list_files", {}),
    ("bench", "list_tasks", {}), ("browser", "open", {"target": "about:blank"}),
])
async def test_stdio_server_lists_and_calls(name, tool, args, tmp_path):
    extra = ["--root", str(tmp_path)] if name in ("workspace", "bench") else []
    params = StdioServerParameters(command=sys.executable, args=["-m", "iwr.mcp_servers", name, *extra])
    async with Client(params) as c:
        tools = [t.name for t in (await c.list_tools()).tools]
        assert tool in tools and len(tools) >= 3
        for t in (await c.list_tools()).tools:
            assert t.description and t.annotations is not None, t.name
        r = await c.call_tool(tool, args)
        assert not r.is_error, r.content


async def test_metrics_over_stdio_while_the_model_loads_keeps_stdout_clean(suite_dir):
    # The deep model loads in the lifespan; any print on stdout would corrupt the first responses.
    cp = next((suite_dir / "data").glob("*/checkpoints/step_0.png"))
    params = StdioServerParameters(command=sys.executable, args=["-m", "iwr.mcp_servers", "metrics", "--allow", str(suite_dir)])
    async with Client(params) as c:
        r = await c.call_tool("compare", {"reference": str(cp), "candidate": str(cp), "metrics": ["feature", "ocr"]})
        assert not r.is_error and '"feature"' in r.content[0].text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_streamable_http_on_loopback(tmp_path):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "iwr.mcp_servers", "workspace", "--root", str(tmp_path), "--http", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp") as c:
            await c.call_tool("write_file", {"path": "a.txt", "content": "over http"})
            r = await c.call_tool("read_file", {"path": "a.txt"})
            assert "over http" in r.content[0].text
        assert (tmp_path / "a.txt").read_text() == "over http"
    finally:
        proc.terminate()
        proc.wait(10)


def _servers_of(tag: str) -> list[str]:
    """The pids of server processes started with `tag` among their arguments."""
    out = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            if tag.encode() in open(f"/proc/{pid}/cmdline", "rb").read():
                out.append(pid)
        except OSError:
            pass
    return out


async def _gone(tag: str, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while _servers_of(tag) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return not _servers_of(tag)


async def test_servers_start_together_and_one_that_fails_takes_the_others_down(tmp_path):
    """The toolbox starts its servers side by side; one that cannot start is raised, and the ones that
    did start are closed (no process left), also when the opener is cancelled while they start."""
    tag = str(tmp_path / "shots")
    servers = {"browser": stdio_server("browser", "--shots", tag),
               "broken": StdioServerParameters(command=sys.executable, args=["-c", "import sys; sys.exit(3)"])}
    with pytest.raises(BaseException) as raised:
        async with Toolbox(servers, timeout_s=20):
            pytest.fail("a toolbox with a server that exits at once opened")
    assert not isinstance(raised.value, pytest.fail.Exception)
    assert await _gone(tag), "the browser server outlived the toolbox that failed to open"

    # The second server starts while the first has not answered yet (it never will): side by side.
    mute = StdioServerParameters(command=sys.executable, args=["-c", "import time; time.sleep(60)", tag])
    opening = asyncio.ensure_future(Toolbox({"mute": mute, "browser": stdio_server("browser", "--shots", tag)}).__aenter__())
    deadline = time.monotonic() + 20
    while len(_servers_of(tag)) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert len(_servers_of(tag)) == 2, "the browser server waited for the one before it"
    opening.cancel()
    with pytest.raises(asyncio.CancelledError):
        await opening
    assert await _gone(tag), "a server started for a cancelled opener was left running"

    async with Toolbox({"browser": stdio_server("browser", "--shots", tag), "metrics": stdio_server("metrics")}) as tools:
        assert tools.has("browser") and tools.has("metrics")
        assert (await tools.call("browser", "open", target="about:blank"))["session"]
    assert await _gone(tag)
