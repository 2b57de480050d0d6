"""The corpus of real public apps (tasks/real) stays complete, official and traceable; no browser.

These tests read only files in the repository: the app files themselves (site/, LICENSE, assets/) are
not committed. The tests that need them are marked `real_apps` (tests/test_real_materialise.py,
tests/test_real_variants.py; see the `real_corpus` fixture in conftest.py).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from PIL import Image

from iwr.evals.quality.real_corpus import (CorpusError, RealTask, Variant, inject, load_source, load_variants,
                                       materialise, real_tasks, variant_site)
from iwr.tasks.loader import load_suite
from iwr.tasks.sheets import CELL, COLS, LABEL
from iwr.tasks.validate import validate_suite

REAL = Path(__file__).resolve().parent.parent / "tasks" / "real"
APPS = sorted(p for p in (REAL / "apps").iterdir() if p.is_dir())
DOM_WORDS = re.compile(r"nth-child|#[A-Za-z][\w-]*|\.[a-z]+-[\w-]+|</?[a-z]+>|\bselector\b|\bclass=")  # css, ids, tags


def rows() -> list[dict]:
    return [json.loads(x) for x in (REAL / "data.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def originals() -> list[dict]:
    return json.loads((REAL / "originals.json").read_text(encoding="utf-8"))


def app_table() -> list[dict]:
    """The README's app table (its first table), one dict per row keyed by the header."""
    text = (REAL / "README.md").read_text(encoding="utf-8")
    lines = text[text.index("\n| app |") + 1:].split("\n\n")[0].splitlines()
    cells = [[c.strip() for c in x.strip("|").split("|")] for x in lines]
    header, body = cells[0], [c for c in cells[2:]]
    return [dict(zip(header, c)) for c in body]


def keys_anywhere(obj) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in keys_anywhere(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in keys_anywhere(v)}
    return set()


def sheet_cells(task_dir: Path) -> int:
    """How many asset thumbnails the task's stitched sheets hold (each cell has a grey frame; an empty
    sheet has none), read from the pixels so that no font matters."""
    n = 0
    for sheet in sorted((task_dir / "stitched_assets").glob("stitched_image*.png")):
        with Image.open(sheet) as im:
            im = im.convert("RGB")
            for row in range(im.height // (CELL + LABEL)):
                for col in range(COLS):
                    n += im.getpixel((col * CELL + 2, row * (CELL + LABEL) + CELL // 2)) == (200, 200, 200)
    return n


def test_sizes_of_the_corpus():
    table = app_table()
    assert len(rows()) >= 12
    assert len({r["app"] for r in table}) >= 8 and len({r["kind"] for r in table}) >= 5
    assert {r["app"] for r in table} == {p.name for p in APPS}
    assert {o["app"] for o in originals()} == {r["app"] for r in table}
    for r in rows():
        assert 4 <= len(r["action_sequence"]) <= 10, r["id"]
        assert sum(a["visual_evaluation_flag"] for a in r["action_sequence"]) >= 2, r["id"]


def test_official_layout_only():
    assert "iwr" not in keys_anywhere(rows())
    for r in rows():
        d = REAL / "data" / str(r["id"])
        assert not (d / "iwr").exists() and (d / "video.mp4").is_file(), r["id"]
        sheets = sorted(p.name for p in (d / "stitched_assets").iterdir())
        assert sheets == ["stitched_image.png"] + [f"stitched_image_{n}.png" for n in range(1, len(sheets))], sheets
    assert validate_suite(REAL) == []


def test_checkpoints_are_numbered_by_position_and_all_present():
    suite = load_suite(REAL)
    for r in rows():
        flagged = sum(a["visual_evaluation_flag"] for a in r["action_sequence"])
        names = {p.name for p in (REAL / "data" / str(r["id"]) / "checkpoints").iterdir()}
        assert names == {f"step_{k}.png" for k in range(flagged + 1)}, r["id"]
        plan = suite.get(str(r["id"])).checkpoints()
        assert plan.complete and not plan.strays, r["id"]


def test_every_app_names_its_source_commit_and_licence():
    table = {r["app"]: r for r in app_table()}
    for app in APPS:
        src = load_source(app)  # a CorpusError names the file and field
        row = table[app.name]
        assert src.commit == row["pinned commit"] and src.licence == row["licence"], app.name
        assert f"https://github.com/{src.repo}" == row["source"].split()[0], app.name
        text = (app / "SOURCE.md").read_text(encoding="utf-8")
        assert src.commit in text and src.repo in text and src.licence in text, app.name
        assert f"`{src.licence_file}`" in text, f"{app.name}: SOURCE.md does not name the licence file"
        listed = re.findall(r"^- `([^`]+)`$", text.split("## Files taken")[1].split("##")[0], re.M)
        assert listed == src.files, f"{app.name}: SOURCE.md and source.json list different files"
        for change in src.changes:
            assert change.file in src.files and change.drop_lines_containing in text, (app.name, change)
        assert not [p for p in app.rglob("*.py")], "app files must not be taken for project modules"


def test_every_task_lists_variants_its_app_injects():
    data_ids = {r["id"] for r in rows()}
    orig = originals()
    assert data_ids == {o["task"] for o in orig} and len(orig) == len(data_ids)
    table = {r["app"]: r for r in app_table()}
    readme = (REAL / "README.md").read_text(encoding="utf-8")
    for app in APPS:
        variants = load_variants(app)
        assert variants, app.name
        assert set(table[app.name]["broken variants"].split(", ")) == set(variants), app.name
        described = set(re.findall(rf"^\| {re.escape(app.name)} \| ([\w-]+) \| (?:head|body) \|", readme, re.M))
        assert described == set(variants), f"{app.name}: README's variant table"
        used = {v for o in orig if o["app"] == app.name for v in o["broken"]}
        assert used == set(variants), f"{app.name}: variants no task detects: {set(variants) - used}"
    for o in orig:
        app = REAL / "apps" / o["app"]
        assert o["page"] in load_source(app).files, o
        script = yaml.safe_load((app / "scripts" / f"{o['task']}.yaml").read_text(encoding="utf-8"))
        assert script["id"] == o["task"] and script["page"] == o["page"], o
        assert o["broken"], f"task {o['task']} has no broken variant"
        assert set(o["broken"]) <= set(load_variants(app)), o


def test_every_task_with_assets_says_where_they_come_from():
    """A task whose sheets show assets has data/<id>/assets.json naming, for each anonymised asset, the app
    file it was copied from; a task whose sheet is empty has none."""
    for o in originals():
        d = REAL / "data" / str(o["task"])
        shown = sheet_cells(d)
        if not shown:
            assert not (d / "assets.json").exists(), o["task"]
            continue
        mapping = json.loads((d / "assets.json").read_text(encoding="utf-8"))
        assert len(mapping) == shown, o["task"]
        stems = sorted((Path(n).stem for n in mapping), key=lambda s: (len(s), s))
        assert stems == [str(k) for k in range(1, len(mapping) + 1)], f"{o['task']}: names as the recorder gives them"
        assert set(mapping.values()) <= set(load_source(REAL / "apps" / o["app"]).files), o["task"]


def test_injected_scripts_are_small_and_use_no_app_source():
    """Our defects are a few lines each, and they name nothing from the app's files but its globals."""
    for app in APPS:
        for name, v in load_variants(app).items():
            for js in (v.inject_head, v.inject_body):
                if js is not None:
                    assert len(js.splitlines()) <= 30, (app.name, name)
                    assert not re.search(r"(^|[\s;{}])//|/\*", js, re.M), f"{app.name}/{name}: a comment would show"


@pytest.mark.parametrize("row", rows(), ids=lambda r: str(r["id"]))
def test_descriptions_read_like_an_annotators(row):
    """Nothing in the natural language points at the DOM (selectors, ids, classes)."""
    for a in row["action_sequence"]:
        for text in (a["parameters"]["description"], a["logical_assertion"] or ""):
            assert not DOM_WORDS.search(text), text


# --- the code, on a made-up app (no mirror needed) --------------------------------------------

def made_up_corpus(root: Path) -> RealTask:
    app = root / "apps" / "demo"
    (app / "site").mkdir(parents=True)
    page = "<html><HEAD lang=x><title>t</title></HEAD>\n<body><p>hi</p>\n</body></html>"
    (app / "site" / "index.html").write_text(page)
    (app / "site" / "app.js").write_text("var x = 1;\n")
    (app / "variants.json").write_text(json.dumps({
        "first": {"note": "n", "inject_head": "window.a = 1;"},
        "last": {"note": "n", "inject_body": "window.b = 2;"},
        "both": {"note": "n", "inject_head": "window.a = 1;", "inject_body": "window.b = 2;"}}))
    (root / "originals.json").write_text(json.dumps([{"task": 1, "app": "demo", "page": "index.html",
                                                      "broken": ["first", "last", "both"]}]))
    return real_tasks(root)[0]


def test_variant_site_injects_our_script_first_in_head_or_last_in_body(tmp_path):
    task = made_up_corpus(tmp_path / "corpus")
    out = tmp_path / "out"
    head = (variant_site(task, "first", out) / "index.html").read_text()
    assert head.startswith("<html><HEAD lang=x>\n<script>\nwindow.a = 1;\n</script><title>")
    body = variant_site(task, "last", out)
    assert body == out / "demo-last" and (body / "app.js").read_text() == "var x = 1;\n"
    assert (body / "index.html").read_text().endswith("<p>hi</p>\n<script>\nwindow.b = 2;\n</script>\n</body></html>")
    both = (variant_site(task, "both", out) / "index.html").read_text()
    assert both.index("window.a") < both.index("<title>") < both.index("<p>hi") < both.index("window.b")
    assert (task.site / "index.html").read_text().count("<script>") == 0, "the original is left alone"
    stamp = (body / "index.html").stat().st_mtime_ns
    assert variant_site(task, "last", out) == body and (body / "index.html").stat().st_mtime_ns == stamp
    with pytest.raises(CorpusError, match="no variant 'nope'"):
        variant_site(task, "nope", out)


def test_a_bad_variant_is_refused_with_its_file(tmp_path):
    task = made_up_corpus(tmp_path)
    (task.app / "variants.json").write_text(json.dumps({"x": {"note": "n"}}))
    with pytest.raises(CorpusError, match=r"variants\.json: variant 'x': .*inject_head or inject_body"):
        variant_site(task, "x", tmp_path / "out")
    (task.app / "variants.json").write_text(json.dumps({"x": {"note": "n", "inject_body": "a('</script>')"}}))
    with pytest.raises(CorpusError, match="may not contain"):
        variant_site(task, "x", tmp_path / "out")
    assert inject("<p>no body</p>", Variant(note="n", inject_body="1")) == "<p>no body</p><script>\n1\n</script>\n"
    with pytest.raises(CorpusError, match="no <head>"):
        inject("<p>no head</p>", Variant(note="n", inject_head="1"))


def test_without_the_app_files_the_corpus_says_how_to_get_them(tmp_path):
    """On a fresh clone site/ is absent: real_tasks names the command; materialise names the missing mirror."""
    root = tmp_path / "real"
    for app in APPS:
        (root / "apps" / app.name).mkdir(parents=True)
        for f in ("source.json", "variants.json"):
            (root / "apps" / app.name / f).write_bytes((app / f).read_bytes())
    (root / "originals.json").write_bytes((REAL / "originals.json").read_bytes())
    with pytest.raises(CorpusError, match=r"run `iwr tasks materialise-real`"):
        real_tasks(root)
    with pytest.raises(CorpusError, match=f"no fetch mirror at {tmp_path / 'nowhere'}"):
        materialise(root, tmp_path / "nowhere", forge=None)
    (tmp_path / "empty-mirror").mkdir()
    with pytest.raises(CorpusError, match=r"no snapshot of .* in the fetch mirror: .*empty-mirror/[\w.-]+\+[\w.-]+ is"):
        materialise(root, tmp_path / "empty-mirror", forge=None)
