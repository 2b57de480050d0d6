"""The exploratory probe's worker: a browser-use agent explores a page and reports what works.

Run with `.venv-explore/bin/python evals/explore_worker.py REQUEST.json REPORT.json` (evals/explore.py
does). It imports only browser-use and the standard library: browser-use pins its own package
versions, so it lives in its own venv where our packages are not installed.

REQUEST.json: {"url", "goal", "model", "api_base", "api_key", "max_steps", "viewport": [w, h],
"timeout_s", "llm_timeout_s", "chromium", "work_dir", "use_vision"}.
REPORT.json: {"status", "steps", "findings": [{"feature", "works", "evidence"}], "final_answer",
"errors", "seconds"}.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

OFFLINE_ENV = {
    "ANONYMIZED_TELEMETRY": "false",
    "BROWSER_USE_CLOUD_SYNC": "false",
    "BROWSER_USE_VERSION_CHECK": "false",
    "BROWSER_USE_CLOUD_HINTS": "false",
    "BROWSER_USE_DISABLE_EXTENSIONS": "1",  # the default extensions are downloaded on first use
    "BROWSER_USE_SETUP_LOGGING": "false",  # its handlers would print to stdout
}
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--disable-quic",
    # Everything that is not loopback goes to a proxy that answers nothing (loopback bypasses
    # proxies), so neither the page nor Chromium itself reaches the network.
    "--proxy-server=http://127.0.0.1:9",
]
# Actions that leave the page or touch files: the probe explores one page and nothing else.
EXCLUDED_ACTIONS = ["search", "extract", "upload_file", "save_as_pdf", "write_file", "replace_file", "read_file"]


def parse_findings(text: str | None) -> list[dict]:
    """The findings in the agent's final answer: the first JSON list of objects in it (a fenced
    block or bare), each normalised to {"feature", "works", "evidence"}; [] when there is none."""
    if not text:
        return []
    candidates = re.findall(r"```(?:json)?\s*(.*?)```", text, re.S) + [text]
    for chunk in candidates:
        start = chunk.find("[")
        while start != -1:
            try:
                data, _ = json.JSONDecoder().raw_decode(chunk[start:])
            except json.JSONDecodeError:
                start = chunk.find("[", start + 1)
                continue
            if isinstance(data, list) and data and all(isinstance(d, dict) for d in data):
                return [{"feature": str(d.get("feature", "")), "works": bool(d.get("works")),
                         "evidence": str(d.get("evidence", ""))} for d in data]
            start = chunk.find("[", start + 1)
    return []


async def explore(req: dict) -> dict:
    """Run the agent on the page within the step and time limits; the report of what it found."""
    from browser_use import Agent, BrowserProfile, Tools
    from browser_use.llm.openai.chat import ChatOpenAI

    work = Path(req["work_dir"])
    width, height = req.get("viewport") or (1280, 800)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(req["url"]))
    llm = ChatOpenAI(model=req["model"], base_url=req.get("api_base"), api_key=req.get("api_key") or "no-key",
                     temperature=0.0, frequency_penalty=None, max_retries=1, timeout=req.get("llm_timeout_s", 120))
    size = {"width": width, "height": height}
    profile = BrowserProfile(
        executable_path=req["chromium"], headless=True, args=CHROMIUM_ARGS, chromium_sandbox=False,
        viewport=size, window_size=size, enable_default_extensions=False, keep_alive=False,
        # Chromium starts on its new-tab page; browser-use closes a tab it may not visit and then
        # loses its focus target, so that page stays allowed beside the served origin.
        allowed_domains=[origin, "chrome://new-tab-page*"],
        user_data_dir=str(work / "profile"), downloads_path=str(work / "downloads"), highlight_elements=False)
    agent = Agent(
        task=req["goal"], llm=llm, browser_profile=profile, tools=Tools(exclude_actions=EXCLUDED_ACTIONS),
        initial_actions=[{"navigate": {"url": req["url"]}}], directly_open_url=False,
        use_vision=req.get("use_vision", True), use_judge=False, calculate_cost=False,
        max_actions_per_step=3, max_failures=2, enable_signal_handler=False,
        file_system_path=str(work / "files"), llm_timeout=int(req.get("llm_timeout_s", 120)))
    try:
        history = await agent.run(max_steps=int(req.get("max_steps", 8)))
    finally:
        await agent.close()
    answer = history.final_result()
    return {"status": "ok" if history.is_done() else "incomplete", "steps": history.number_of_steps(),
            "findings": parse_findings(answer), "final_answer": answer,
            "errors": [e for e in history.errors() if e], "actions": history.action_names()}


def main(request_path: str, report_path: str) -> int:
    started = time.monotonic()
    req = json.loads(Path(request_path).read_text())
    for k, v in OFFLINE_ENV.items():
        os.environ.setdefault(k, v)
    # Its config, cache and temporary files go beside the report, never into the user's home or /tmp.
    work = Path(req["work_dir"])
    os.environ.setdefault("BROWSER_USE_CONFIG_DIR", str(work / "config"))
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    (work / "tmp").mkdir(parents=True, exist_ok=True)
    os.environ["TMPDIR"] = str(work / "tmp")
    try:
        report = asyncio.run(asyncio.wait_for(explore(req), float(req.get("timeout_s", 300))))
    except asyncio.TimeoutError:
        report = {"status": "error", "steps": 0, "findings": [], "final_answer": None,
                  "errors": [f"exploration timed out after {req.get('timeout_s', 300)} s"]}
    except Exception as e:  # reported to the judge, which never fails because of this probe
        report = {"status": "error", "steps": 0, "findings": [], "final_answer": None,
                  "errors": [f"{type(e).__name__}: {e}"[:2000]]}
    report["seconds"] = round(time.monotonic() - started, 3)
    Path(report_path).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
