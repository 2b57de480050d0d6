"""`materialise` brings tasks/real's app files out of the fetch mirror at the pinned commits, and again.

Marked `real_apps`: it needs the mirror (`evals.quality.real_corpus.MIRROR`); the tests run by default where it is, and
`-m real_apps` selects them (without the mirror they then fail, naming `iwr tasks materialise-real`).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from iwr.evals.quality.real_corpus import MIRROR, CorpusError, load_source, materialise, real_tasks

pytestmark = pytest.mark.real_apps

REAL = Path(__file__).resolve().parent.parent / "tasks" / "real"


@pytest.fixture
def committed(tmp_path: Path) -> Path:
    """A copy of the corpus files materialise reads, none of the files it makes."""
    if not MIRROR.is_dir():
        pytest.fail(f"no fetch mirror at {MIRROR}: these tests check `iwr tasks materialise-real`, which needs it",
                    pytrace=False)
    root = tmp_path / "real"
    for f in ["originals.json", *(p.relative_to(REAL) for p in REAL.glob("apps/*/*.json")),
              *(p.relative_to(REAL) for p in REAL.glob("data/*/assets.json"))]:
        (root / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REAL / f, root / f)
    return root


def test_materialise_makes_every_app_and_asset_then_leaves_them(committed):
    made = materialise(committed, MIRROR)
    apps = sorted(p for p in (committed / "apps").iterdir())
    assert len(made) == len(apps) + len(list(committed.glob("data/*/assets.json")))
    assert all("written" in line for line in made), made
    for app in apps:
        src = load_source(app)
        assert sorted(p.relative_to(app / "site").as_posix() for p in (app / "site").rglob("*") if p.is_file()) \
            == sorted(src.files), app.name
        assert (app / "LICENSE").stat().st_size > 100, app.name
        for change in src.changes:
            assert change.drop_lines_containing not in (app / "site" / change.file).read_text(), app.name
    assert len(real_tasks(committed)) == len(json.loads((committed / "originals.json").read_text()))
    for mapping_file in committed.glob("data/*/assets.json"):
        task = next(t for t in real_tasks(committed) if t.task_id == mapping_file.parent.name)
        for name, rel in json.loads(mapping_file.read_text()).items():
            assert (mapping_file.parent / "assets" / name).read_bytes() == (task.site / rel).read_bytes()
    for t in real_tasks(committed):
        assert (committed / "data" / t.task_id / "assets").is_dir(), t.task_id

    again = materialise(committed, MIRROR)
    assert all(line.endswith("already up to date") for line in again), again


def test_materialise_puts_back_what_was_changed_and_removes_strays(committed):
    materialise(committed, MIRROR)
    site = committed / "apps" / "quiz" / "site"
    (site / "script.js").write_text("broken")
    (site / "extra.js").write_text("stray")
    (committed / "apps" / "quiz" / "LICENSE").unlink()
    made = {line.split(":")[0]: line for line in materialise(committed, MIRROR)}
    assert made["quiz"].endswith("3 written or removed") and made["tabs"].endswith("already up to date")
    assert not (site / "extra.js").exists() and "quizData" in (site / "script.js").read_text()


def test_the_same_files_as_the_tests_use(committed, real_corpus):
    """What materialise makes from scratch is what the repository's gitignored folders hold."""
    materialise(committed, MIRROR)
    for f in sorted(p for p in committed.rglob("*") if p.is_file()):
        rel = f.relative_to(committed)
        assert (real_corpus / rel).read_bytes() == f.read_bytes(), rel


def test_a_commit_missing_from_the_snapshot_is_named(committed):
    src = committed / "apps" / "calendar" / "source.json"
    src.write_text(src.read_text().replace(load_source(committed / "apps" / "calendar").commit, "0" * 40))
    with pytest.raises(CorpusError, match=r"calendar/source\.json: commit 0{40} is not in the snapshot at /"):
        materialise(committed, MIRROR, forge=None)


def test_the_command_materialises_and_writes_variant_sites(committed, tmp_path):
    from typer.testing import CliRunner

    from iwr.evals.cli.app import app

    runner = CliRunner()
    done = runner.invoke(app, ["tasks", "materialise-real", "--tasks", str(committed), "--variants",
                               str(tmp_path / "variants"), "--json"])
    assert done.exit_code == 0, done.output
    lines = json.loads(done.output)
    assert any(x.startswith("2048: site/ (17 files)") for x in lines)
    assert f"variant: {tmp_path / 'variants' / '2048-merge-score-half'}" in lines
    assert "GameManager.prototype.move" in (tmp_path / "variants" / "2048-merge-score-half" / "index.html").read_text()
    gone = runner.invoke(app, ["tasks", "materialise-real", "--tasks", str(committed), "--mirror", str(tmp_path / "x"),
                               "--no-fetch"])
    assert gone.exit_code == 2 and f"no fetch mirror at {tmp_path / 'x'}" in gone.output
    # fetching (the tests' forge is a closed loopback port): the error names the commit, the forge, the way out
    gone = runner.invoke(app, ["tasks", "materialise-real", "--tasks", str(committed), "--mirror", str(tmp_path / "x")])
    assert gone.exit_code == 2 and "cannot fetch 478b6ec346e3 of http://127.0.0.1:9/gabrielecirulli/2048.git" in gone.output
    assert "IWR_FORGE" in gone.output
