"""No path of a development machine is written into the repository (code, help, docs, config): a
user's machine has none of them, so each would be a default that silently points nowhere. The paths
looked for are derived from where this checkout sits, never written here."""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

from tests.conftest import tracked_files

ROOT = Path(__file__).resolve().parent.parent
BINARY = {".png", ".jpg", ".mp4", ".webm", ".woff"}


def machine_places() -> list[str]:
    """This checkout, the user's home and, unless it is a shared scratch folder, the folder holding the
    checkout with the folders beside it (a work tree's tool folders, referred to as ../NAME/)."""
    places = [f"{ROOT}/", f"{Path.home()}/"]
    parent = ROOT.parent
    if parent not in (Path("/"), Path(tempfile.gettempdir()).resolve()):
        places += [f"{parent}/", *(f"../{p.name}/" for p in parent.iterdir() if p.is_dir() and p != ROOT)]
    return [p for p in places if p != "//"]


def machine_paths(texts: dict[str, str], places: list[str]) -> list[str]:
    pattern = re.compile("|".join(re.escape(p) for p in places))
    return [f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
            for rel, text in texts.items() for m in pattern.finditer(text)]


def test_no_development_machine_path_is_written_anywhere():
    texts = {}
    for rel in tracked_files(ROOT):
        if Path(rel).suffix not in BINARY:
            try:
                texts[rel] = (ROOT / rel).read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
    assert "README.md" in texts and len(texts) > 100
    assert machine_paths(texts, machine_places()) == []


def test_the_scan_finds_such_paths():
    places = machine_places()
    texts = {f"{i}.md": f"see {p}cache\n" for i, p in enumerate(places)}
    texts["ok.md"] = "iwr prepare 1 --out /tmp/ws\n"
    assert sorted(f.split(":")[0] for f in machine_paths(texts, places)) == sorted(f"{i}.md" for i in range(len(places)))
