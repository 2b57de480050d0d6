"""The exploratory probe: an LLM agent (browser-use) explores the candidate page and reports what works.

The goal comes from the task: the site's kind and every action and assertion of the video. The
agent runs in its own process with `.venv-explore/bin/python` (scripts/setup_explore.sh), because
browser-use pins package versions that conflict with ours; the page is served on a loopback port
from here. Reported apart from IFS and VFS; a missing venv, a crash or a timeout is a status in the
report, never an exception.
"""
from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from iwr.agents.models import ModelConfig
from iwr.mcp_servers.browser.launch import chromium_path
from iwr.settings import settings
from iwr.tasks.defaults import PROJECT_ROOT

WORKER = Path(__file__).with_name("explore_worker.py")
MAX_STEPS = 8
TIMEOUT_S = 300.0
GRACE_S = 30.0  # the worker's own limit fires first and still writes its report; this catches a hung worker


def explore_python() -> Path:
    """The interpreter of the explore venv: $IWR_EXPLORE_PYTHON, else .venv-explore/bin/python."""
    return settings().explore_python or PROJECT_ROOT / ".venv-explore" / "bin" / "python"


def exploration_goal(record: dict) -> str:
    """What the agent is asked: try each action the video showed and say whether it works."""
    site = (record.get("classification") or {}).get("sub_domain") or "web"
    lines = []
    for n, action in enumerate(record.get("action_sequence") or [], 1):
        line = f"{n}. {action['parameters'].get('description') or action['type']}"
        if action.get("logical_assertion"):
            line += f" (expected: {action['logical_assertion']})"
        lines.append(line)
    return (f"This page is a reconstruction of a {site} site. Explore only this page; do not open other sites.\n"
            "Check whether these features work, trying each one yourself:\n" + "\n".join(lines) + "\n"
            "When you have tried them, finish with done, whose text is only a JSON list with one object per "
            'feature: [{"feature": "<short name>", "works": true or false, "evidence": "<what you saw>"}].')


def serve_folder(folder: Path) -> ThreadingHTTPServer:
    """Serve `folder` on a free loopback port (in a daemon thread) until shut down."""
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def worker_request(model: ModelConfig, url: str, goal: str, size: tuple[int, int], work: Path,
                   max_steps: int, timeout_s: float) -> dict:
    """The worker's input (see evals/judging/explore_worker.py)."""
    return {"url": url, "goal": goal, "model": model.model.removeprefix("openai/"), "api_base": model.api_base,
            "api_key": model.api_key or os.environ.get("OPENAI_API_KEY") or "no-key",
            "max_steps": max_steps, "viewport": list(size), "timeout_s": timeout_s,
            "llm_timeout_s": min(model.timeout_s, timeout_s), "chromium": chromium_path(), "work_dir": str(work)}


async def explore_probe(record: dict, entry: Path, model: ModelConfig, size: tuple[int, int] = (1280, 800),
                        max_steps: int = MAX_STEPS, timeout_s: float = TIMEOUT_S) -> dict:
    """Run the exploring agent on the page `entry`; its report, or {"status": "unavailable" | "error", ...}."""
    try:
        return await _explore(record, entry, model, size, max_steps, timeout_s)
    except Exception as e:  # the judge never fails because of this probe
        return {"status": "error", "reason": f"{type(e).__name__}: {e}"}


async def _explore(record: dict, entry: Path, model: ModelConfig, size: tuple[int, int], max_steps: int,
                   timeout_s: float) -> dict:
    python = explore_python()
    if not python.is_file():
        return {"status": "unavailable", "reason": "run scripts/setup_explore.sh"}
    if model.model.startswith("scripted:"):
        return {"status": "unavailable", "reason": "the exploratory probe needs an OpenAI-compatible model"}
    goal = exploration_goal(record)
    server = serve_folder(entry.parent)
    try:
        with tempfile.TemporaryDirectory(prefix="iwr-explore-") as tmp:
            work = Path(tmp)
            url = f"http://127.0.0.1:{server.server_address[1]}/{entry.name}"
            req = worker_request(model, url, goal, size, work, max_steps, timeout_s)
            (work / "request.json").write_text(json.dumps(req))
            report = await _run_worker(python, work, timeout_s + GRACE_S)
    finally:
        server.shutdown()
        server.server_close()
    return {**report, "goal": goal}


async def _run_worker(python: Path, work: Path, limit_s: float) -> dict:
    log = work / "worker.log"
    with open(log, "wb") as out:
        # Its own session, so a timeout ends the worker and the Chromium it started together.
        proc = await asyncio.create_subprocess_exec(
            str(python), str(WORKER), str(work / "request.json"), str(work / "report.json"),
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
        try:
            await asyncio.wait_for(proc.wait(), limit_s)
        except asyncio.TimeoutError:
            return {"status": "error", "reason": f"the explore worker did not finish within {limit_s:g} s",
                    "log_tail": _tail(log)}
        finally:
            _end_group(proc.pid)  # also a Chromium the worker left behind
            if proc.returncode is None:
                await proc.wait()
    try:
        return json.loads((work / "report.json").read_text())
    except (OSError, json.JSONDecodeError) as e:
        return {"status": "error", "reason": f"the explore worker exited with {proc.returncode} and no report ({e})",
                "log_tail": _tail(log)}


def _end_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _tail(path: Path, chars: int = 2000) -> str:
    try:
        return path.read_text(errors="replace")[-chars:]
    except OSError:
        return ""
