"""Thirty-plus malformed variants of task files: each gives a clear error naming file and field,
through the library and through `iwr tasks validate`, never a traceback."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iwr.tasks.validate import validate_suite
from tests.conftest import one_task_suite


def _rows(s: Path) -> list[dict]:
    return [json.loads(x) for x in (s / "data.jsonl").read_text().splitlines() if x.strip()]


def _set_rows(s: Path, rows) -> None:
    (s / "data.jsonl").write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))


def edit(fn):
    def apply(s: Path):
        rows = _rows(s)
        fn(rows[0])
        _set_rows(s, rows)
    return apply


def raw(text):
    return lambda s: (s / "data.jsonl").write_text(text)


def task_dir(s: Path) -> Path:
    return s / "data" / str(_rows(s)[0]["id"])


def first_flagged(s: Path) -> int:
    return next(i for i, a in enumerate(_rows(s)[0]["action_sequence"], 1) if a["visual_evaluation_flag"])


CASES = {
    "not json": (raw("{this is not json\n"), "(json)"),
    "json array line": (raw("[1, 2, 3]\n"), "(line)"),
    "json string line": (raw('"hello"\n'), "(line)"),
    "empty file": (raw(""), "(file)"),
    "binary garbage": (lambda s: (s / "data.jsonl").write_bytes(b"\xff\xfe\x00garbage"), "(file)"),
    "missing data.jsonl": (lambda s: (s / "data.jsonl").unlink(), "(file)"),
    "missing id": (edit(lambda r: r.pop("id")), "id"),
    "id is text": (edit(lambda r: r.update(id="seven")), "id"),
    "id is a list": (edit(lambda r: r.update(id=[1])), "id"),
    "missing classification": (edit(lambda r: r.pop("classification")), "classification"),
    "classification not an object": (edit(lambda r: r.update(classification="L1")), "classification"),
    "bad interaction level": (edit(lambda r: r["classification"].update(interaction_complexity="L5")), "classification.interaction_complexity"),
    "bad visual level": (edit(lambda r: r["classification"].update(visual_complexity=3)), "classification.visual_complexity"),
    "missing domain": (edit(lambda r: r["classification"].pop("domain")), "classification.domain"),
    "bad resolution": (edit(lambda r: r["recording_details"].update(resolution="big")), "recording_details.resolution"),
    "resolution number": (edit(lambda r: r["recording_details"].update(resolution=1080)), "recording_details.resolution"),
    "missing actions": (edit(lambda r: r.pop("action_sequence")), "action_sequence"),
    "actions not a list": (edit(lambda r: r.update(action_sequence={"type": "Click"})), "action_sequence"),
    "unknown action type": (edit(lambda r: r["action_sequence"][0].update(type="Drag")), "action_sequence.0.type"),
    "missing parameters": (edit(lambda r: r["action_sequence"][0].pop("parameters")), "action_sequence.0.parameters"),
    "missing description": (edit(lambda r: r["action_sequence"][0]["parameters"].pop("description")), "action_sequence.0.parameters.description"),
    "description is a number": (edit(lambda r: r["action_sequence"][0]["parameters"].update(description=5)), "action_sequence.0.parameters.description"),
    "element_index text": (edit(lambda r: r["action_sequence"][0]["parameters"].update(element_index="x")), "action_sequence.0.parameters.element_index"),
    "visual flag text": (edit(lambda r: r["action_sequence"][0].update(visual_evaluation_flag="sometimes")), "action_sequence.0.visual_evaluation_flag"),
    "assertion is a list": (edit(lambda r: r["action_sequence"][0].update(logical_assertion=["x"])), "action_sequence.0.logical_assertion"),
    "unknown extension key": (edit(lambda r: r["iwr"].update(colour="blue")), "iwr.colour"),
    "unknown check kind": (edit(lambda r: r["action_sequence"][0]["iwr"]["checks"].append({"kind": "vibes"})), "action_sequence.0.iwr.checks"),
    "check without text": (edit(lambda r: r["action_sequence"][0]["iwr"]["checks"].append({"kind": "text_visible"})), "action_sequence.0.iwr.checks"),
    "negative wait": (edit(lambda r: r["action_sequence"][0]["iwr"].update(wait_ms=-5)), "action_sequence.0.iwr.wait_ms"),
    "bbox wrong length": (edit(lambda r: r["action_sequence"][0]["iwr"]["target"].update(bbox=[1, 2])), "action_sequence.0.iwr.target.bbox"),
    "crop escapes the task": (edit(lambda r: r["action_sequence"][0]["iwr"]["target"].update(crop="../../../../etc/hosts")), "action_sequence.0.iwr.target.crop"),
    "crop file missing": (edit(lambda r: r["action_sequence"][0]["iwr"]["target"].update(crop="iwr/nothing.png")), "action_sequence.0.iwr.target.crop"),
    "reference page missing": (edit(lambda r: r["iwr"]["reference"].update(page="gone.html")), "iwr.reference.page"),
    "duplicate id": (lambda s: _set_rows(s, _rows(s) * 2), "id"),
    "task folder missing": (lambda s: shutil.rmtree(task_dir(s)), "id"),
    "video missing": (lambda s: (task_dir(s) / "video.mp4").unlink(), "video"),
    "no asset sheets": (lambda s: shutil.rmtree(task_dir(s) / "stitched_assets"), "stitched_assets"),
    "asset sheet not an image": (lambda s: min((task_dir(s) / "stitched_assets").glob("stitched_image*")).write_text("no"), "stitched_assets"),
    "initial checkpoint missing": (lambda s: (task_dir(s) / "checkpoints" / "step_0.png").unlink(), "checkpoints"),
    "flagged checkpoint missing": (lambda s: (task_dir(s) / "checkpoints" / f"step_{first_flagged(s)}.png").unlink(),
                                   "action_sequence.{k}.visual_evaluation_flag"),
    "checkpoint not an image": (lambda s: (task_dir(s) / "checkpoints" / "step_0.png").write_bytes(b"\x89PNG broken"), "checkpoints"),
    "checkpoint wrong size": (lambda s: __import__("PIL.Image").Image.new("RGB", (100, 70)).save(task_dir(s) / "checkpoints" / "step_0.png"), "checkpoints"),
    "checkpoint beyond last action": (lambda s: shutil.copy(task_dir(s) / "checkpoints" / "step_0.png", task_dir(s) / "checkpoints" / "step_99.png"), "checkpoints"),
}


@pytest.fixture(scope="module")
def corrupted(tmp_path_factory, suite_dir) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("corrupt")
    out = {}
    for n, (name, (mutate, _)) in enumerate(CASES.items()):
        s = one_task_suite(base / f"case{n}")
        mutate(s)
        out[name] = s
    return out


def test_at_least_thirty_variants():
    assert len(CASES) >= 30


@pytest.mark.parametrize("name", list(CASES))
def test_library_names_file_and_field(corrupted, name):
    s = corrupted[name]
    field = CASES[name][1]
    if "{k}" in field:
        field = field.format(k=first_flagged(s) - 1)
    problems = validate_suite(s)
    assert problems, f"{name}: no problem reported"
    assert any(p.field.startswith(field) for p in problems), f"{name}: {[str(p) for p in problems]}"
    for p in problems:
        assert p.file and str(s) in p.file and p.field and p.reason


def test_cli_reports_every_variant_without_a_traceback(corrupted):
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    for name, s in corrupted.items():
        out = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "tasks", "validate", str(s)],
                             capture_output=True, text=True, env=env, timeout=60)
        assert out.returncode == 1, (name, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr + out.stdout, (name, out.stderr)
        assert str(s) in out.stdout, (name, out.stdout)


def test_validate_warns_about_a_sentence_the_words_cannot_decide(tmp_path):
    """A valid suite passes; an assertion with nothing to decide in its words (and no checks) is named
    in a warning, while a worded one with a quoted text is not."""
    s = one_task_suite(tmp_path)
    rows = _rows(s)
    for a in rows[0]["action_sequence"]:
        a.pop("iwr", None)
    rows[0]["action_sequence"][0]["logical_assertion"] = "The big picture changes to the next one"
    rows[0]["action_sequence"][1]["logical_assertion"] = "The list shows 'Buy milk'"
    _set_rows(s, rows)
    out = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "tasks", "validate", str(s)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out
    warned = [w for w in out.stderr.splitlines() if w.startswith("warning:")]
    assert any("action 1:" in w and "The big picture" in w for w in warned), out.stderr
    assert not any("action 2:" in w for w in warned), out.stderr
