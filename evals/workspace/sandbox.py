"""The sandbox an outside agent runs in: Debian's bubblewrap (`bwrap`), as root or not.

Why bubblewrap: it is one small package, needs no daemon (no Docker engine runs here), and builds the
agent's view of the file system from nothing, so what the agent can read is a list we write rather
than everything minus what we remember to hide. The agent sees:
- the system read-only (/usr, /etc, /opt and the /bin, /lib links), and the Python that runs the
  iwr MCP servers (the interpreter, the venv, the code packages; none of the project's data:
  tasks/suite, tasks/sites, tasks/real, tests/, runs/ and .git are empty folders inside);
- its workspace and its own HOME read-write, a private /tmp, its command's own executable (found
  on PATH) read-only, and any folder the operator exposes read-only (an agent installed outside /usr, say);
- nothing else: no other task's folder, no suite, no run folder, no register of workspaces.
Of the operator's environment it gets only the variables listed below (passed_env).
Its processes get their own PID namespace (all of them end with the sandbox) and session. The
network is shared: agents reach their model APIs; the judge never trusts anything the agent serves.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE = ("iwr", "agents", "graphs", "mcp_servers", "evals", "tasks", "pyproject.toml", "setup.py")
SYSTEM = ("/usr", "/etc", "/opt", "/var/cache/fontconfig")
LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What an agent's environment takes from the operator's (README, "Keys and variables"); nothing else
# reaches it. The system's basics; the network's settings (a proxy, a company's certificates); what
# the iwr MCP servers it starts need to find Chromium and the models; and the model keys of its
# preset (agent_presets.py), or for a cmd: agent those of MODEL_KEYS.
SYSTEM_VARS = ("PATH", "LANG", "LANGUAGE", "TERM", "TZ", "NO_COLOR")
SYSTEM_PREFIXES = ("LC_",)
NETWORK_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy",
                "all_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS")
SERVER_VARS = ("PLAYWRIGHT_BROWSERS_PATH", "HF_HOME", "HF_HUB_CACHE", "HF_ENDPOINT", "HF_HUB_OFFLINE")
MODEL_KEYS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GEMINI_API_KEY",
              "GOOGLE_API_KEY", "OPENROUTER_API_KEY")


def passed_env(keys: tuple[str, ...] = MODEL_KEYS, base: dict[str, str] | None = None) -> dict[str, str]:
    """The operator's variables an agent gets: the lists above and `keys` (a name, or a family such as
    CLAUDE_CODE_*: the agent's own settings)."""
    wanted = {*SYSTEM_VARS, *NETWORK_VARS, *SERVER_VARS, *(k for k in keys if not k.endswith("*"))}
    families = (*SYSTEM_PREFIXES, *(k[:-1] for k in keys if k.endswith("*")))
    return {k: v for k, v in (base if base is not None else os.environ).items() if k in wanted or k.startswith(families)}


class SandboxUnavailable(RuntimeError):
    """bubblewrap is not installed, or cannot make namespaces on this machine."""


@dataclass
class Sandbox:
    """Where an agent works and what else it may read."""

    workspace: Path
    home: Path
    expose: list[Path] = field(default_factory=list)  # read-only extras
    hide: list[Path] = field(default_factory=list)  # emptied wherever they fall inside what is shown (a suite in /opt)
    keys: tuple[str, ...] = MODEL_KEYS  # the model keys it gets from the operator's environment

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
        """The agent's environment: what it takes from the operator's (passed_env), its own HOME and /tmp."""
        env = passed_env(self.keys, base)
        home = str(Path(self.home).resolve())
        env.update(HOME=home, TMPDIR="/tmp", XDG_CONFIG_HOME=f"{home}/.config", XDG_CACHE_HOME=f"{home}/.cache",
                   XDG_DATA_HOME=f"{home}/.local/share", XDG_STATE_HOME=f"{home}/.local/state", PWD=str(self.workspace))
        return env


def unsandboxed_env(home: Path, keys: tuple[str, ...] = MODEL_KEYS, base: dict[str, str] | None = None) -> dict[str, str]:
    """With --sandbox none: what the agent takes from the operator's environment, its own HOME and temp folder."""
    env = passed_env(keys, base)
    tmp = Path(home) / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), TMPDIR=str(tmp))
    return env


def own_executable(command: str, path: str | None = None) -> list[Path]:
    """What the sandbox shows of a command's first word, found as the shell would (on `path`, the
    operator's PATH): the file, the file a link leads to, and what that file needs to run where it is
    plainly part of an install: the virtual environment of a Python console script, the package of a
    Node script. Nothing for a word that is not found (the shell's exit 127 then says so)."""
    try:
        word = shlex.split(command)[0]
    except (ValueError, IndexError):
        return []
    found = Path(word).expanduser().absolute() if "/" in word else shutil.which(word, path=path)
    if not found or not Path(found).is_file():
        return []
    written, real = Path(found), Path(found).resolve()
    out = [written, real]
    if real.parent.name == "bin" and (real.parent.parent / "pyvenv.cfg").is_file():
        out.append(real.parent.parent)
    package = next((d for d in real.parents if d.parent.name == "node_modules" or d.parent.parent.name == "node_modules"
                    and d.parent.name.startswith("@")), None)
    if package is not None and (package / "package.json").is_file():
        out.append(package)
    return list(dict.fromkeys(out))
