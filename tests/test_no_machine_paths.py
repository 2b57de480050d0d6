"""No path of a development machine is written into the repository (code, help, docs, config): a
user's machine has none of them, so each would be a default that silently points nowhere."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Home folders, root's home, this kind of machine's work tree and its tool folders, and wherever this
# checkout happens to sit.
MACHINE = re.compile("|".join([r"/home/[a-z_][\w.-]*/", r"/root/", r"/Users/\w", r"/work/", r"\.mirror/",
                               r"\.\./shared/", r"\.library/", re.escape(str(ROOT) + "/")]))


def tracked_text() -> dict[str, str]:
    names = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    out = {}
    for rel in filter(None, names):
        path = ROOT / rel
        if path.is_file() and path.suffix not in {".png", ".jpg", ".mp4", ".webm", ".woff"}:
            try:
                out[rel] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
    return out


def machine_paths(texts: dict[str, str]) -> list[str]:
    return [f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
            for rel, text in texts.items() if rel != "tests/test_no_machine_paths.py"
            for m in MACHINE.finditer(text)]


def test_no_development_machine_path_is_written_anywhere():
    texts = tracked_text()
    assert "README.md" in texts and len(texts) > 100
    assert machine_paths(texts) == []


def test_the_scan_finds_such_paths():
    found = machine_paths({"a.py": 'MIRROR = "/work/.mirror/x"\n', "b.md": "see /home/dev/cache\n",
                           "c.toml": f"x = '{ROOT}/tasks'\n", "d.md": "iwr prepare 1 --out /tmp/ws\n"})
    assert [f.split(":")[0] for f in found] == ["a.py", "a.py", "b.md", "c.toml"]
