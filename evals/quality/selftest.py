"""`iwr selftest hostile`: judge every hostile page with the real judge and check the harness held.

Each case gets its own browser server with its own TMPDIR (so its Chromium profile and temp folders
can be counted afterwards) and an outside proxy that is a loopback sink: Chromium sends there
whatever gets past the browser's request routing, so the sink counts escapes independently of the
code that is supposed to block them.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import signal
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


from iwr.evals.quality.hostile_corpus import HostileCase, build_corpus
from iwr.settings import env_name
from iwr.tasks.defaults import BUNDLED_SUITE, JUDGE_TIMEOUT_S

CASE_TIMEOUT_S = JUDGE_TIMEOUT_S
# Chromium's own background traffic (updates, sign-in, time); the pages in the corpus use other hosts.
BROWSER_OWN_HOSTS = ("google.com", "googleapis.com", "gstatic.com", "gvt1.com", "googleusercontent.com")

class OutsideSink:
    """A loopback HTTP proxy that answers nothing and records every request Chromium sends it."""

    def __init__(self) -> None:
        hits = self.hits = []

        class Handler(BaseHTTPRequestHandler):
            def _refuse(self):
                hits.append(self.path if self.command != "CONNECT" else f"connect://{self.path}")
                self.send_response(403)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST = do_PUT = do_HEAD = do_OPTIONS = do_CONNECT = _refuse

            def log_message(self, *args):  # keep the terminal clean
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def take(self, blocked_hosts: set[str]) -> dict[str, list[str]]:
        """What reached the sink since the last call: `escaped` (a request the routing missed), `fenced`
        (a bare connection to a host whose requests the routing blocked: Chromium's speculative
        preconnect, which the proxy fence stops) and `own` (Chromium's own background calls)."""
        hits, self.hits[:] = list(self.hits), []
        out: dict[str, list[str]] = {"escaped": [], "fenced": [], "own": []}
        for h in hits:
            host = urlsplit(h).hostname or ""
            kind = "own" if host.endswith(BROWSER_OWN_HOSTS) else \
                "fenced" if h.startswith("connect://") and host in blocked_hosts else "escaped"
            out[kind].append(h)
        return out

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class CaseTools:
    """The judge's tool box for one case: its own browser server, the shared metrics server, and a
    tally of the outside requests the browser reported blocked per session."""

    def __init__(self, browser, metrics):
        self.browser, self.metrics = browser, metrics
        self.blocked: dict[str, int] = {}
        self.blocked_hosts: set[str] = set()

    @property
    def calls(self) -> int:
        return self.browser.calls + self.metrics.calls

    def has(self, server: str) -> bool:
        return server in ("browser", "metrics")

    async def call(self, server: str, tool: str, **arguments: Any) -> Any:
        if server == "browser" and tool == "close":  # last look at what the routing blocked, by host
            try:
                seen = await self.browser.call("browser", "console", session=arguments["session"])
                self.blocked_hosts |= {urlsplit(u).hostname or "" for u in seen["blocked_requests"]}
            except Exception:  # the close below reports the real trouble
                pass
        out = await (self.browser if server == "browser" else self.metrics).call(server, tool, **arguments)
        if server == "browser" and isinstance(out, dict) and "blocked_requests" in out:
            sid = arguments.get("session", "?")
            self.blocked[sid] = max(self.blocked.get(sid, 0), int(out["blocked_requests"]))
        return out

    async def call_raw(self, server: str, tool: str, **arguments: Any) -> Any:
        return await (self.browser if server == "browser" else self.metrics).call_raw(server, tool, **arguments)


def _processes_marked(marker: str) -> list[int]:
    """Pids of processes started with our case marker in their environment (Chromium and its children)."""
    found, needle = [], f"{env_name('selftest_case')}={marker}".encode()
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and int(d.name) != os.getpid():
            try:
                if needle in (d / "environ").read_bytes().split(b"\0") and _state(d) != "Z":
                    found.append(int(d.name))
            except OSError:
                pass
    return found


def _state(d: Path) -> str:
    try:
        return (d / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


async def leaks_after(tmp: Path, grace_s: float = 8.0) -> list[str]:
    """What a finished case left behind: live processes and entries in its TMPDIR. Leftover processes
    are killed (they are ours) so that one leak does not slow every later case."""
    end = time.monotonic() + grace_s
    while (pids := _processes_marked(str(tmp))) and time.monotonic() < end:
        await asyncio.sleep(0.2)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    left = sorted(p.name for p in tmp.iterdir()) if tmp.is_dir() else []
    return [f"process {p}" for p in pids] + [f"temp {n}" for n in left]


def _verdict_ok(case: HostileCase, row: dict, limit_s: float) -> bool:
    return (row["status"] in case.expect and row["ifs"] <= case.ifs_max + 1e-9 and not row["leaks"]
            and not row["escaped"] and row["blocked"] >= case.min_blocked and row["seconds"] <= limit_s + 30)


async def _judge_group(group: list[HostileCase], task_of, metrics, sink: OutsideSink, work: Path, config,
                       timeout_s: float) -> list[dict]:
    """Judge cases that share one browser server (an isolation pair, or a single case)."""
    from iwr.agents.toolbox import Toolbox, stdio_server
    from iwr.evals.records.results import TaskResult
    from iwr.evals.judging.artifact import judge_artifact

    tmp = work / f"t-{group[0].name[:12]}"  # short: Chromium's socket paths live below it
    tmp.mkdir()
    env = {"TMPDIR": str(tmp), env_name("selftest_case"): str(tmp), env_name("outside_proxy"): sink.url}
    rows = []
    with open(work / f"{group[0].name}.servers.log", "w") as errlog:
        server = stdio_server("browser", "--shots", str(work / group[0].name / "shots"), env=env)
        async with Toolbox({"browser": server}, errlog=errlog) as browser:
            for case in group:
                tools, t0 = CaseTools(browser, metrics), time.monotonic()
                base = {"task_id": case.task, "agent": f"hostile:{case.name}", "profile": config.profile}
                try:
                    r = await judge_artifact(task_of(case.task), case.page, tools, config, base, timeout_s=timeout_s)
                except Exception as e:  # exactly what this command is for: the harness itself gave way
                    r = TaskResult(**base, status="skipped", error=f"harness crash: {type(e).__name__}: {e}")
                seen = sink.take(tools.blocked_hosts)
                rows.append({"case": case.name, "status": r.status, "ifs": r.ifs, "final": r.final,
                             "seconds": round(time.monotonic() - t0, 1), "escaped": len(seen["escaped"]),
                             "blocked": sum(tools.blocked.values()), "fenced": len(seen["fenced"]),
                             "error": r.error, "escaped_urls": seen["escaped"][:5],
                             "browser_own_requests": len(seen["own"])})
    leaks = await leaks_after(tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    for row in rows:
        row["leaks"] = len(leaks)
        row["leaked"] = leaks[:5]
    return rows


async def run_hostile(only: list[str] | None = None, profile: str = "offline", timeout_s: float = CASE_TIMEOUT_S,
                      on_row=None) -> dict:
    """Judge the corpus (or `only` these cases); returns {"cases": [...], "passed": N, "failed": N}."""
    from iwr.agents.toolbox import Toolbox
    from iwr.evals.judging.artifact import judge_servers
    from iwr.graphs.judge import JudgeConfig
    from iwr.tasks.loader import load_suite

    suite = load_suite(BUNDLED_SUITE)
    config = JudgeConfig(profile=profile)
    work = Path(tempfile.mkdtemp(prefix="iwr-hostile-"))
    sink = OutsideSink()
    rows: list[dict] = []
    try:
        cases = build_corpus(work, only)
        by_name = {c.name: c for c in cases}
        groups: list[list[HostileCase]] = []
        for c in cases:
            (groups[-1].append(c) if c.after and groups and groups[-1][-1].name == c.after else groups.append([c]))
        metrics_server = {"metrics": judge_servers(work, suite.root)["metrics"]}
        with open(work / "metrics.log", "w") as errlog:
            async with Toolbox(metrics_server, errlog=errlog) as metrics:
                for group in groups:
                    budget = timeout_s * len(group) + 60  # the case limit is the judge's; this one catches the rest
                    try:
                        got = await asyncio.wait_for(
                            _judge_group(group, suite.get, metrics, sink, work, config, timeout_s), budget)
                    except asyncio.TimeoutError:
                        got = [{"case": c.name, "status": "harness_hang", "ifs": 0.0, "final": 0.0, "seconds": budget,
                                "escaped": 0, "blocked": 0, "fenced": 0, "leaks": 0,
                                "error": "the case did not end"} for c in group]
                    for row in got:
                        row["ok"] = _verdict_ok(by_name[row["case"]], row, timeout_s)
                        rows.append(row)
                        if on_row:
                            on_row(row)
    finally:
        sink.close()
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(r["ok"] for r in rows)
    return {"cases": rows, "passed": passed, "failed": len(rows) - passed}
