"""Outside agents as coders: `iwr run --agent cmd:'<template>'` (or a preset name) runs a command-line
coding agent once per task in its prepared workspace, in a sandbox (sandbox.py), within the budget's
wall-clock seconds. Its stdout, stderr and HOME (where agents keep their session files) stay in the
task's folder under `agent/`.

Outcomes: the page it left is judged. It ran out of time, or exited non-zero: `model_failure`. Its
command could not be started (not installed: exit 126 or 127) or the sandbox could not be made: the
harness's fault, `infra_failure`.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import time
from pathlib import Path

from iwr.agents.coder import CoderJob, CoderOutput
from iwr.agents.models import ModelConfig, model_name
from iwr.agents.toolbox import InfrastructureError
from iwr.evals.workspace.agent_presets import PRESETS, Preset
from iwr.evals.workspace.agent_usage import usage_from_output
from iwr.evals.workspace.prepare import prepare
from iwr.evals.workspace.public import public_copy
from iwr.evals.workspace.sandbox import MODEL_KEYS, Sandbox, SandboxUnavailable, own_executable, unsandboxed_env
from iwr.tasks.marker import state_dir

SANDBOXES = ("bwrap", "none")
NOT_STARTED = (126, 127)  # the shell's "not executable" and "not found"
GRACE_S = 3.0  # between SIGTERM and SIGKILL at the budget
PLACEHOLDER = re.compile(r"\{(prompt|workspace|instructions|mcp_config|task_id|model|api_base|home)\}")


def fill(template: str, values: dict[str, str]) -> str:
    """The template with each known {placeholder} replaced by its shell-quoted value; other braces stay."""
    return PLACEHOLDER.sub(lambda m: shlex.quote(values.get(m.group(1)) or ""), template)


def tail(path: Path, n: int = 600) -> str:
    try:
        return path.read_text(errors="replace")[-n:].strip()
    except OSError:
        return ""


class CommandCoder:
    """One command-line agent, by template (cmd:...) or preset."""

    needs_model = False
    iterates = False

    def __init__(self, name: str, template: str, preset: Preset | None = None, sandbox: str = "bwrap",
                 expose: list[Path] | None = None):
        if sandbox not in SANDBOXES:
            raise ValueError(f"--sandbox must be one of {', '.join(SANDBOXES)}, not {sandbox!r}")
        if not template.strip():
            raise ValueError("cmd: needs a command, e.g. cmd:'my-agent --prompt {prompt}'")
        self.name, self.template, self.preset, self.sandbox = name, template, preset, sandbox
        self.expose = [Path(p) for p in expose or []]

    async def make(self, job: CoderJob) -> CoderOutput:
        ws, agent = job.out.resolve(), job.out.resolve().parent / "agent"
        home, public = agent / "home", public_copy(job.task, agent / "task")
        home.mkdir(parents=True, exist_ok=True)
        prepare(job.task, ws, assets_suite=public)
        mcp = json.loads((ws / ".mcp.json").read_text())
        model = model_name(job.model)
        api_base = job.model.api_base if job.model else None
        extra_env = self.preset.configure(ws, home, mcp, api_base) if self.preset and self.preset.configure else {}
        template = self.preset.command(model) if self.preset else self.template
        command = fill(template, {"prompt": (ws / "INSTRUCTIONS.md").read_text(), "workspace": str(ws),
                                  "instructions": str(ws / "INSTRUCTIONS.md"), "mcp_config": str(ws / ".mcp.json"),
                                  "task_id": job.task.id, "model": model, "api_base": api_base, "home": str(home)})
        argv, env = self._argv(["/bin/sh", "-c", command], job, ws, home, public, own_executable(command))
        env.update(extra_env)
        (agent / "command.txt").write_text(command + "\n")
        return await self._run(argv, env, agent, ws, home, job.budget.seconds, job.model)

    def _argv(self, argv: list[str], job: CoderJob, ws: Path, home: Path, public: Path,
              executable: list[Path]) -> tuple[list[str], dict]:
        keys = self.preset.keys if self.preset else MODEL_KEYS
        if self.sandbox == "none":
            return argv, unsandboxed_env(home, keys)
        box = Sandbox(ws, home, expose=[public, *executable, *self.expose], keys=keys,
                      hide=[job.task.suite_root, state_dir(), *ws.parents[1:3]])  # the run and every run
        try:
            return box.argv(argv), box.env()
        except SandboxUnavailable as e:
            raise InfrastructureError(str(e)) from e

    async def _run(self, argv: list[str], env: dict, agent: Path, ws: Path, home: Path, budget_s: float,
                   model: ModelConfig | None) -> CoderOutput:
        out_path, err_path = agent / "stdout.log", agent / "stderr.log"
        t0 = time.monotonic()
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            try:
                proc = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.DEVNULL, stdout=out,
                                                            stderr=err, env=env, cwd=str(ws), start_new_session=True)
            except OSError as e:
                raise InfrastructureError(f"the agent could not be started: {e}") from e
            try:
                code = await asyncio.wait_for(proc.wait(), budget_s)
                timed_out = False
            except asyncio.TimeoutError:
                await _end_group(proc)
                code, timed_out = proc.returncode, True
            finally:
                if proc.returncode is None:  # cancelled (the run was stopped): nothing of it stays behind
                    await _end_group(proc)
        seconds = round(time.monotonic() - t0, 3)
        facts = {"command": self.name, "exit_code": code, "seconds": seconds, "sandbox": self.sandbox,
                 "stdout": str(out_path), "stderr": str(err_path)}
        trajectory = self._trajectory(ws, home) or str(out_path)
        usage = usage_from_output(out_path.read_text(errors="replace")) or usage_from_output(
            Path(trajectory).read_text(errors="replace"))  # an agent that reports usage only in its session file
        usage = priced(usage, model)
        if timed_out:
            return CoderOutput(status="model_failure", error=f"the agent ran out of time ({budget_s:g} s) and was "
                               "stopped", usage=usage, trajectory=trajectory, agent=facts)
        if code in NOT_STARTED:
            seen = "" if self.sandbox == "none" else (
                "; in its sandbox the agent sees the system folders, its workspace and its command's own executable: "
                "name with --expose DIR (repeatable) the folders its command also needs, such as its interpreter's "
                "or its install folder")
            raise InfrastructureError(f"the agent's command could not be run (exit {code}): {tail(err_path, 300)}{seen}")
        if code != 0:
            return CoderOutput(status="model_failure", error=f"the agent exited with code {code}: "
                               f"{tail(err_path, 300)}", usage=usage, trajectory=trajectory, agent=facts)
        return CoderOutput(usage=usage, trajectory=trajectory, agent=facts)

    def _trajectory(self, ws: Path, home: Path) -> str | None:
        """The newest session file the preset's agent keeps, if any."""
        found = [p for g in (self.preset.trajectories if self.preset else ()) for root in (home, ws) for p in root.glob(g)]
        return str(max(found, key=lambda p: p.stat().st_mtime)) if found else None


def priced(usage: dict, model: ModelConfig | None) -> dict:
    """The usage with its cost said for what it is: the run's own prices (--price-in/--price-out) over
    the tokens the agent reported; else the agent's own figure (at its list prices, whatever model
    actually answered); else unknown (None)."""
    if not usage:
        return usage
    if model is not None and model.priced():
        cost = model.cost(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0))
        return {**usage, "cost_usd": cost, "cost_source": "the run's --price-in/--price-out"}
    if usage.get("cost_usd") is not None:
        return {**usage, "cost_source": "reported by the agent"}
    return {**usage, "cost_usd": None, "cost_source": "unknown: no price for the agent's model"}


async def _end_group(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM to the agent's process group, SIGKILL after the grace period (a sandbox's PID namespace
    ends with it, taking every process inside along)."""
    for sig, wait in ((signal.SIGTERM, GRACE_S), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            await asyncio.wait_for(proc.wait(), wait)
            return
        except asyncio.TimeoutError:
            continue


def command_coder(name: str, sandbox: str = "bwrap", expose: list[Path] | None = None) -> CommandCoder | None:
    """The coder for `cmd:<template>` or a preset's name; None for any other name."""
    if name.startswith("cmd:"):
        return CommandCoder(name, name[4:], sandbox=sandbox, expose=expose)
    if name in PRESETS:
        return CommandCoder(name, PRESETS[name].template, PRESETS[name], sandbox=sandbox, expose=expose)
    return None
