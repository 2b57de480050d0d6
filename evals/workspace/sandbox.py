"""The sandbox an outside agent runs in: Debian's bubblewrap (`bwrap`), as root or not.

Why bubblewrap: it is one small package, needs no daemon (no Docker engine runs here), and builds the
agent's view of the file system from nothing, so what the agent can read is a list we write rather
than everything minus what we remember to hide. The agent sees:
- the system read-only (/usr, /etc, /opt and the /bin, /lib links), and the Python that runs the
  iwr MCP servers (the interpreter, the venv, the code packages; none of the project's data:
  tasks/suite, tasks/sites, tasks/real, tests/, runs/ and .git are empty folders inside);
- its workspace and its own HOME read-write, a private /tmp, and any folder the operator exposes
  read-only (an agent installed outside /usr, say);
- nothing else: no other task's folder, no suite, no run folder, no register of workspaces.
Its processes get their own PID namespace (all of them end with the sandbox) and session. The
network is shared: agents reach their model APIs; the judge never trusts anything the agent serves.
"""
from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE = ("iwr", "agents", "graphs", "mcp_servers", "evals", "tasks", "pyproject.toml", "setup.py")
SYSTEM = ("/usr", "/etc", "/opt", "/var/cache/fontconfig")
LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
KEPT_ENV_PREFIXES = ("IWR_",)  # the operator's iwr settings stay outside


class SandboxUnavailable(RuntimeError):
    """bubblewrap is not installed, or cannot make namespaces on this machine."""


@dataclass
class Sandbox:
    """Where an agent works and what else it may read."""

    workspace: Path
    home: Path
    expose: list[Path] = field(default_factory=list)  # read-only extras
    hide: list[Path] = field(default_factory=list)  # emptied wherever they fall inside what is shown (a suite in /opt)

    def argv(self, command: list[str]) -> list[str]:
        """`command` wrapped in bwrap with this sandbox's view."""
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            raise SandboxUnavailable("bubblewrap is not installed (Debian: apt-get install bubblewrap); "
                                     "or run with --sandbox none, where the agent reads all its user can")
        args = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        for link in LINKS:
            if os.path.islink(link):
                args += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                args += ["--ro-bind", link, link]
        for path in (*SYSTEM, sys.base_prefix, sys.prefix):
            if os.path.exists(path):
                args += ["--ro-bind", str(path), str(path)]
        for name in CODE:
            if (ROOT / name).exists():
                args += ["--ro-bind", str(ROOT / name), str(ROOT / name)]
        for data in sorted(p for p in (ROOT / "tasks").iterdir() if p.is_dir() and p.name != "__pycache__"):
            args += ["--tmpfs", str(data)]  # the suite, its sites and the real corpus
        shown = [*SYSTEM, sys.base_prefix, sys.prefix, *(str(ROOT / n) for n in CODE)]
        for extra in self.expose:
            args += ["--ro-bind", str(Path(extra).resolve()), str(Path(extra).resolve())]
            shown.append(str(Path(extra).resolve()))
        for hidden in (Path(h).resolve() for h in self.hide):
            if hidden.is_dir() and any(hidden == Path(s) or Path(s) in hidden.parents for s in shown):
                args += ["--tmpfs", str(hidden)]
        for rw in (self.workspace, self.home):
            Path(rw).mkdir(parents=True, exist_ok=True)
            args += ["--bind", str(Path(rw).resolve()), str(Path(rw).resolve())]
        args += ["--chdir", str(Path(self.workspace).resolve())]
        return args + ["--", *command]

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """The agent's environment: the operator's, less iwr's own settings, with its own HOME and /tmp."""
        env = {k: v for k, v in (base if base is not None else os.environ).items()
               if not k.startswith(KEPT_ENV_PREFIXES) and not k.startswith("XDG_")}
        home = str(Path(self.home).resolve())
        env.update(HOME=home, TMPDIR="/tmp", XDG_CONFIG_HOME=f"{home}/.config", XDG_CACHE_HOME=f"{home}/.cache",
                   XDG_DATA_HOME=f"{home}/.local/share", XDG_STATE_HOME=f"{home}/.local/state", PWD=str(self.workspace))
        return env


def unsandboxed_env(home: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """With --sandbox none: the operator's environment with the agent's own HOME and temp folder."""
    env = {k: v for k, v in (base if base is not None else os.environ).items() if not k.startswith(KEPT_ENV_PREFIXES)}
    tmp = Path(home) / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), TMPDIR=str(tmp))
    return env
