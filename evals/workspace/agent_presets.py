"""Named command templates for the coding agents people use, each with the configuration through which
the iwr MCP servers reach it. `iwr run --agent claude-code` is `cmd:` with the template below.

Placeholders (each replaced by its shell-quoted value): {prompt} (the whole INSTRUCTIONS.md),
{workspace}, {instructions} (its path), {mcp_config} (the workspace's .mcp.json), {task_id}, {model}
and {api_base} (from --model and --api-base), {home} (the agent's own HOME).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Preset:
    name: str
    template: str
    model_flag: str  # added, with {model}, when the run names a model
    how: str  # how the MCP servers reach the agent (README)
    configure: Callable[[Path, Path, dict, str | None], dict] | None = None  # (workspace, home, mcp, api_base) -> env
    trajectories: tuple[str, ...] = ()  # globs under HOME or the workspace of the session files it keeps

    def command(self, model: str | None) -> str:
        return self.template + (f" {self.model_flag} {{model}}" if model else "")


def _toml_string(s: str) -> str:
    return json.dumps(s)  # a JSON string is a valid TOML basic string


def codex_config(workspace: Path, home: Path, mcp: dict, api_base: str | None) -> dict:
    """~/.codex/config.toml: one [mcp_servers.NAME] table per server; a local provider for --api-base."""
    lines = []
    if api_base:
        lines += ['model_provider = "iwr-local"', "", "[model_providers.iwr-local]", 'name = "iwr local"',
                  f"base_url = {_toml_string(api_base)}", 'wire_api = "chat"', 'env_key = "OPENAI_API_KEY"', ""]
    for name, spec in mcp["mcpServers"].items():
        lines += [f"[mcp_servers.{name}]", f"command = {_toml_string(spec['command'])}",
                  "args = [" + ", ".join(_toml_string(a) for a in spec["args"]) + "]", "startup_timeout_sec = 60",
                  "tool_timeout_sec = 300", ""]
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    (home / ".codex" / "config.toml").write_text("\n".join(lines))
    return {"CODEX_HOME": str(home / ".codex")}


def gemini_config(workspace: Path, home: Path, mcp: dict, api_base: str | None) -> dict:
    """The workspace's .gemini/settings.json carries the same mcpServers block as .mcp.json."""
    (workspace / ".gemini").mkdir(exist_ok=True)
    (workspace / ".gemini" / "settings.json").write_text(json.dumps({"mcpServers": mcp["mcpServers"]}, indent=2))
    return {"GOOGLE_GEMINI_BASE_URL": api_base} if api_base else {}


def claude_env(workspace: Path, home: Path, mcp: dict, api_base: str | None) -> dict:
    return {"ANTHROPIC_BASE_URL": api_base} if api_base else {}


PRESETS = {p.name: p for p in [
    Preset("claude-code", "claude -p {prompt} --output-format json --mcp-config {mcp_config} --strict-mcp-config "
           "--dangerously-skip-permissions", "--model",
           "reads the workspace's .mcp.json (--mcp-config); npm install -g @anthropic-ai/claude-code",
           claude_env, (".claude/projects/*/*.jsonl",)),
    Preset("codex", "codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox {prompt}",
           "--model", "[mcp_servers.*] tables in $HOME/.codex/config.toml, written from .mcp.json; "
           "npm install -g @openai/codex", codex_config, (".codex/sessions/*/*/*/*.jsonl",)),
    Preset("gemini", "gemini -p {prompt} --output-format json --yolo", "--model",
           "mcpServers in the workspace's .gemini/settings.json, written from .mcp.json; "
           "npm install -g @google/gemini-cli", gemini_config, (".gemini/tmp/*/*.json",)),
]}
