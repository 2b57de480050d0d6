"""Every IWR_* variable is read in one place (iwr/settings.py) and listed in one README table."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from iwr.settings import Settings, env_name, settings, table
from tests.conftest import tracked_files

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"IWR_[A-Z0-9_]+")
# Imports nothing of iwr (it runs in inspect_ai's environment): reads IWR_BIN itself.
OWN_READER = {"evals/workspace/inspect_task.py": {"IWR_BIN"}}


def _files() -> list[tuple[str, Path]]:
    return [(rel, ROOT / rel) for rel in tracked_files(ROOT)]


def _code_files() -> list[tuple[str, Path]]:
    return [(rel, p) for rel, p in _files() if p.suffix == ".py" and rel.split("/")[0] not in ("tests", "scripts")
            and rel != "iwr/settings.py"]


def _env_names_in_code(path: Path) -> set[str]:
    """IWR_* names a module writes as a string of its own (an environment key), not inside prose."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and NAME.fullmatch(node.value):
            found.add(node.value)
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant) \
                and isinstance(node.values[0].value, str) and NAME.match(node.values[0].value):
            found.add(NAME.match(node.values[0].value).group(0))
    return found


def test_no_module_but_settings_names_an_iwr_variable():
    files = _code_files()
    assert len(files) > 100  # the scan sees the project
    stray = {rel: names - OWN_READER.get(rel, set()) for rel, p in files if (names := _env_names_in_code(p))}
    assert {k: v for k, v in stray.items() if v} == {}


def test_the_scan_finds_a_variable_read_directly(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('import os\nENV = "IWR_SOMETHING"\nx = os.environ.get("IWR_OTHER")\ny = f"IWR_MARK={1}"\n'
                   'help = "set $IWR_PROSE to change it"\n')
    assert _env_names_in_code(bad) == {"IWR_SOMETHING", "IWR_OTHER", "IWR_MARK"}


def test_every_variable_named_anywhere_is_a_setting():
    """A variable the README, a script or the code mentions is one of the settings (test-only markers aside)."""
    known = {env_name(f) for f in Settings.model_fields}
    mentioned = set()
    for rel, p in _files():
        if rel.startswith("tests/") or p.suffix not in (".py", ".md", ".sh", ".toml", ".cfg") and p.name != "Makefile":
            continue
        mentioned |= {m for m in NAME.findall(p.read_text(encoding="utf-8", errors="replace")) if not m.endswith("_")}
    assert mentioned - known == set()
    assert len(mentioned & known) >= 15


def test_the_readme_table_is_the_settings_table():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert table() in readme
    for name in Settings.model_fields:
        assert f"| `{env_name(name)}` |" in table()


def test_read_afresh_empty_is_unset_and_defaults(monkeypatch, tmp_path):
    monkeypatch.delenv("IWR_FORGE", raising=False)
    monkeypatch.setenv("IWR_STATE_DIR", "")
    s = settings()
    assert s.forge == "https://github.com"
    assert s.state_dir == Path.home() / ".local" / "state" / "iwr"
    monkeypatch.setenv("IWR_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("IWR_PLUGINS", " a.b , ,c ")
    s = settings()
    assert s.state_dir == tmp_path / "state" and s.plugin_names() == ["a.b", "c"]
    with pytest.raises(KeyError):
        env_name("no_such_setting")


def test_the_readers_follow_the_environment(monkeypatch, tmp_path):
    """The modules that used to read the environment themselves now see the settings, as they stand."""
    from iwr.agents.response_cache import cache_path
    from iwr.mcp_servers.browser.launch import chromium_path
    from iwr.mcp_servers.metrics.store import default_root
    from iwr.tasks.marker import state_dir
    from iwr.tasks.plugins import add_plugins, named_plugins

    monkeypatch.setenv("IWR_CHROMIUM", "/opt/some/chromium")
    monkeypatch.setenv("IWR_STATE_DIR", str(tmp_path / "st"))
    monkeypatch.setenv("IWR_METRIC_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("IWR_RESPONSE_CACHE", "off")
    monkeypatch.setenv("IWR_PLUGINS", "first.mod")
    assert chromium_path() == "/opt/some/chromium"
    assert state_dir() == (tmp_path / "st").resolve()
    assert default_root() == tmp_path / "store"
    assert cache_path(None) is None
    add_plugins(["second.mod"])
    assert named_plugins()[-2:] == ["first.mod", "second.mod"]
    monkeypatch.setenv("IWR_RESPONSE_CACHE", str(tmp_path / "r.db"))
    monkeypatch.delenv("IWR_METRIC_STORE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_path(None) == tmp_path / "r.db"
    assert default_root() == tmp_path / "xdg" / "iwr" / "metrics"
