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
    template: str  # {model_opt} marks where the agent's model flag goes when the run names a model
    model_flag: str
    how: str  # how the MCP servers reach the agent (README)
    configure: Callable[[Path, Path, dict, str | None], dict] | None = None  # (workspace, home, mcp, api_base) -> env
    trajectories: tuple[str, ...] = ()  # globs under HOME or the workspace of the session files it keeps
    keys: tuple[str, ...] = ()  # the operator's variables it gets besides the system's: names or NAME_* families (sandbox.passed_env)

    def command(self, model: str | None) -> str:
        return self.template.replace("{model_opt}", f"{self.model_flag} {{model}}" if model else "").replace("  ", " ")


def _toml_string(s: str) -> str:
    return json.dumps(s)  # a JSON string is a valid TOML basic string


def codex_config(workspace: Path, home: Path, mcp: dict, api_base: str | None) -> dict:
    """$CODEX_HOME/config.toml: no approvals and no sandbox of its own (ours holds it), no update checks,
    analytics or plug-in sync; one [mcp_servers.NAME] table per server, each required, so that the
    first turn waits for the tools; a local provider for --api-base (Codex speaks the Responses API)."""
    lines = ['approval_policy = "never"', 'sandbox_mode = "danger-full-access"', "check_for_update_on_startup = false"]
    if api_base:
        lines.append('model_provider = "iwr-local"')
    lines += ["", "[analytics]", "enabled = false", "", "[feedback]", "enabled = false", "",
              "[features]", "plugins = false", ""]
    if api_base:
        lines += ["[model_providers.iwr-local]", 'name = "iwr local"', f"base_url = {_toml_string(api_base)}",
                  'wire_api = "responses"', "request_max_retries = 1", "stream_max_retries = 1", ""]
    for name, spec in mcp["mcpServers"].items():
        lines += [f"[mcp_servers.{name}]", f"command = {_toml_string(spec['command'])}",
                  "args = [" + ", ".join(_toml_string(a) for a in spec["args"]) + "]", "startup_timeout_sec = 60",
                  "tool_timeout_sec = 300", 'default_tools_approval_mode = "approve"', "required = true", ""]
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    (home / ".codex" / "config.toml").write_text("\n".join(lines))
    return {"CODEX_HOME": str(home / ".codex")}


def gemini_config(workspace: Path, home: Path, mcp: dict, api_base: str | None) -> dict:
    """$GEMINI_CLI_HOME/.gemini/settings.json: the servers of .mcp.json, trusted; no update checks,
    usage statistics, telemetry or folder-trust prompt."""
    servers = {n: {**spec, "trust": True, "timeout": 300_000} for n, spec in mcp["mcpServers"].items()}
    settings = {"general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                "security": {"folderTrust": {"enabled": False}}, "mcpServers": servers}
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(settings, indent=2))
    env = {"GEMINI_CLI_HOME": str(home)}
    return {**env, "GOOGLE_GEMINI_BASE_URL": api_base} if api_base else env


def claude_env(workspace: Path, home: Path, mcp: dict, api_base: str | None) -> dict:
    """Claude Code keeps its state in $CLAUDE_CONFIG_DIR and, told so, makes no call but the model's."""
    env = {"CLAUDE_CONFIG_DIR": str(home / ".claude"), "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
           "DISABLE_ERROR_REPORTING": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    return {**env, "ANTHROPIC_BASE_URL": api_base} if api_base else env


def fast_agent_config(workspace: Path, home: Path, mcp: dict, api_base: str | None) -> dict:
    """$HOME/fastagent.config.yaml: the servers of .mcp.json, a generic OpenAI-compatible provider for
    --api-base, no OpenTelemetry, logs to a file."""
    servers = {n: {"transport": "stdio", "command": spec["command"], "args": spec["args"]}
               for n, spec in mcp["mcpServers"].items()}
    cfg = {"otel": {"enabled": False}, "mcp": {"servers": servers},
           "logger": {"type": "file", "path": str(home / "fast-agent-log.jsonl"), "level": "info",
                      "progress_display": False, "show_chat": False}}
    if api_base:
        cfg["generic"] = {"api_key": "local", "base_url": api_base}
    (home / "fastagent.config.yaml").write_text(json.dumps(cfg, indent=2))  # JSON is YAML
    return {}


# Claude Code refuses --dangerously-skip-permissions as root: the tools it may use are named instead.
CLAUDE_TOOLS = "mcp__iwr-workspace,mcp__iwr-browser,mcp__iwr-assets,mcp__iwr-metrics,Read,Write,Edit,Glob,Grep,Bash"

PRESETS = {p.name: p for p in [
    Preset("claude-code", "claude -p {model_opt} --output-format json --mcp-config {mcp_config} --strict-mcp-config "
           f"--allowedTools {CLAUDE_TOOLS} -- {{prompt}}", "--model",
           "reads the workspace's .mcp.json (--mcp-config); npm install -g @anthropic-ai/claude-code",
           claude_env, (".claude/projects/*/*.jsonl",),
           ("ANTHROPIC_*", "CLAUDE_CODE_*", "ENABLE_TOOL_SEARCH", "MAX_THINKING_TOKENS", "MCP_TIMEOUT", "MCP_TOOL_TIMEOUT")),
    Preset("codex", "codex exec --json --skip-git-repo-check {model_opt} {prompt}", "--model",
           "[mcp_servers.*] tables in $CODEX_HOME/config.toml, written from .mcp.json; "
           "npm install -g @openai/codex", codex_config, (".codex/sessions/*/*/*/*.jsonl",),
           ("OPENAI_*", "CODEX_*")),
    Preset("fast-agent", "fast-agent --no-update-check go -c {home}/fastagent.config.yaml --home {home}/fast-agent "
           "--servers iwr-workspace,iwr-browser,iwr-assets,iwr-metrics --trajectory-output {home}/trajectory.json "
           "{model_opt} -m {prompt}", "--model",
           "mcp.servers in $HOME/fastagent.config.yaml, written from .mcp.json; a Python agent from PyPI "
           "(fast-agent-mcp, Python 3.12+: uv tool install fast-agent-mcp); with --api-base, name models "
           "generic.<model>", fast_agent_config, ("trajectory.json",),
           ("OPENAI_*", "ANTHROPIC_*", "GOOGLE_*", "OPENROUTER_*", "GENERIC_*", "FAST_AGENT_*")),
    Preset("gemini", "gemini --yolo --output-format json {model_opt} -p {prompt}", "--model",
           "mcpServers in $GEMINI_CLI_HOME/.gemini/settings.json, written from .mcp.json; "
           "npm install -g @google/gemini-cli", gemini_config, (".gemini/tmp/*/chats/*.json*",),
           ("GEMINI_*", "GOOGLE_*")),
]}
