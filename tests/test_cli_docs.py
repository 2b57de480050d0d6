"""The CLI's help and the README name the same things: every coder and preset `--agent` takes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from iwr.evals.cli.app import app
from iwr.evals.run.coders import CODERS
from iwr.evals.workspace.agent_presets import PRESETS

README = Path(__file__).resolve().parents[1] / "README.md"


def _option_help(command: str, option: str) -> str:
    cmd = typer.main.get_command(app).commands[command]
    return next(p.help for p in cmd.params if p.name == option)


def test_agent_help_lists_every_coder_and_preset():
    names = set(re.findall(r"[\w-]+", _option_help("run", "agent").split("cmd:")[0]))
    assert set(CODERS) | set(PRESETS) <= names, sorted(set(CODERS) | set(PRESETS) - names)


def test_readme_commands_name_every_coder_and_preset():
    named = {n for alts in re.findall(r"--agent ([\w|-]+)", README.read_text()) for n in alts.split("|")}
    missing = sorted((set(CODERS) | set(PRESETS)) - named)
    assert not missing, f"README's `iwr run --agent a|b|...` lines never name {missing}"


def _launcher_scopes() -> dict[str, set[str]]:
    """Per server, the options of `python -m iwr.mcp_servers NAME` (each help says which servers use it)."""
    from iwr.mcp_servers.launcher import SERVERS, parser

    out: dict[str, set[str]] = {s: set() for s in SERVERS}
    for a in parser()._actions:
        if not a.option_strings or a.dest == "help":
            continue
        m = re.match(r"^([a-z, ]+):", a.help or "")
        for server in [x.strip() for x in m.group(1).split(",")] if m else SERVERS:
            out[server].add(a.option_strings[0])
    return out


def test_mcp_commands_the_launcher_and_the_readme_name_the_same_options():
    group = typer.main.get_command(app).commands["mcp"]
    table = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \|[^|]*\| (.*) \|$", README.read_text(), re.M)}
    for server, wanted in _launcher_scopes().items():
        typer_opts = {o for p in group.commands[server].params for o in p.opts if o != "--help"}
        assert typer_opts == wanted, (server, typer_opts ^ wanted)
        readme = set(re.findall(r"--[\w-]+", table[server])) | {"--http"}
        assert readme == wanted, (server, readme ^ wanted)


def test_mcp_command_options_reach_the_launcher(monkeypatch):
    import iwr.mcp_servers.launcher as launcher
    from typer.testing import CliRunner

    got: list[list[str]] = []
    monkeypatch.setattr(launcher, "main", got.append)
    r = CliRunner().invoke(app, ["mcp", "metrics", "--allow", "/a", "--allow", "/b", "--keep-references", "--http", "9"])
    assert r.exit_code == 0, r.output
    args = launcher.parser().parse_args(got[0])
    assert (args.name, args.allow, args.keep_references, args.http) == ("metrics", [Path("/a"), Path("/b")], True, 9)


def _commands_block() -> dict[str, set[str]]:
    """Per command of the README's "Commands" block, the options its lines (and their continuation
    lines) name, comments left out."""
    block = README.read_text().split("\n## Commands\n", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    named: dict[str, set[str]] = {}
    current = None
    for line in block.splitlines():
        m = re.match(r"iwr (?:--plugin MODULE )?([\w-]+)", line)
        if m:
            current = m.group(1)
        elif not line.startswith(" "):
            current = None
        if current:
            named.setdefault(current, set()).update(re.findall(r"(?<![\w-])--[a-z][\w-]*", re.split(r"\s{2,}#", line)[0]))
    return named


@pytest.mark.parametrize("command", ["run", "report", "judge", "prepare", "calibrate", "bench", "doctor"])
def test_the_readme_commands_block_names_every_option_and_no_other(command):
    cmd = typer.main.get_command(app).commands[command]
    options = {o for p in cmd.params for o in [*p.opts, *getattr(p, "secondary_opts", [])]
               if o.startswith("--") and o != "--help"}
    named = _commands_block()[command] - {"--plugin"}
    assert named == options, f"README lacks {sorted(options - named)}; --help lacks {sorted(named - options)}"
