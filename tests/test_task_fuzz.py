"""Property-based corruption of task files: whatever data.jsonl holds and whatever the task folder
contains, the loader raises only TaskFileError and `iwr tasks validate` prints a problem list
(exit 1) or ok (exit 0), never a traceback."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from iwr.evals.cli.tasks import tasks_app
from iwr.tasks.loader import Problem, TaskFileError, load_suite
from iwr.tasks.validate import validate_suite
from tests.conftest import one_task_suite

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
runner = CliRunner()

scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10**18, max_value=10**400)
           | st.integers(min_value=-10**400, max_value=-10**18) | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=30) | st.sampled_from(["", "00x00", "٣٠٠x٢٠٠", "1280x800", "L1", "V9", "Click", "Drag",
                                                      "../../etc/passwd", "\ud800", "a\x00b", "step_0.png"]))
json_values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4)
                           | st.dictionaries(st.text(max_size=12), kids, max_size=4), max_leaves=12)


def check_outcomes(suite: Path) -> None:
    """The library and the command line either accept the suite or list its problems."""
    try:
        loaded = load_suite(suite)
    except TaskFileError as e:
        loaded = None
        assert e.problems and all(isinstance(p, Problem) for p in e.problems)
    problems = validate_suite(suite)
    for p in problems:
        assert isinstance(p, Problem) and p.file and p.field and p.reason and str(p)
    if loaded is None:
        assert problems, "the loader refused a suite the validator accepts"
    out = runner.invoke(tasks_app, ["validate", str(suite)])
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)
    assert out.exit_code == (1 if problems else 0), out.output
    assert "Traceback" not in out.output
    if loaded is not None and loaded.tasks:
        shown = runner.invoke(tasks_app, ["show", loaded.tasks[0].id, "--tasks", str(suite)])
        assert shown.exception is None or isinstance(shown.exception, SystemExit), repr(shown.exception)
        assert shown.exit_code in (0, 2), shown.output


@st.composite
def mutated_record(draw, record: dict):
    """The record with one value somewhere inside replaced, removed, or joined by a new key."""
    rec = json.loads(json.dumps(record))
    parent, key = None, None
    node = rec
    while isinstance(node, (dict, list)) and node and draw(st.booleans()):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, draw(st.sampled_from(keys))
        node = parent[key]
    how = draw(st.sampled_from(["replace", "delete", "add"]))
    if parent is None:
        return draw(json_values) if how == "replace" else rec
    if how == "replace":
        parent[key] = draw(json_values)
    elif how == "delete":
        parent.pop(key)
    elif isinstance(parent, dict):
        parent[draw(st.text(max_size=12))] = draw(json_values)
    else:
        parent.insert(key, draw(json_values))
    return rec


@st.composite
def data_jsonl(draw, record: dict) -> bytes:
    """A data.jsonl: mutated records, each line perhaps truncated, plus garbage lines."""
    lines = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["record", "record", "truncated", "bytes", "text", "blank"]))
        if kind in ("record", "truncated"):
            line = json.dumps(draw(mutated_record(record)), ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
            if kind == "truncated":
                line = line[: draw(st.integers(0, max(0, len(line) - 1)))]
        elif kind == "bytes":
            line = draw(st.binary(max_size=200))
        elif kind == "text":
            line = draw(st.text(max_size=200)).encode("utf-8", "surrogatepass")
        else:
            line = b"   "
        lines.append(line)
    return b"\n".join(lines) + draw(st.sampled_from([b"\n", b"", b"\r\n"]))


@given(st.data())
@FUZZ
def test_corrupted_data_jsonl_never_crashes(fuzz_suite, data):
    suite, record = fuzz_suite
    (suite / "data.jsonl").write_bytes(data.draw(data_jsonl(record)))
    check_outcomes(suite)


def _entries(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


odd_names = (st.sampled_from(["step_-1.png", "step_01.png", "step_².png", "step_٣.png", "step_x.png", "step_.png",
                              "step_99999999999999999999.png", ".png", "video.webm", "video.mp4", "é ü.png", "a.PNG"])
             | st.text(st.characters(blacklist_characters="/\x00", blacklist_categories=["Cs"]), min_size=1, max_size=20))


@st.composite
def folder_damage(draw, pristine: Path) -> list[tuple]:
    """A few operations on a task folder: delete, garble, truncate, add, swap files and folders, link."""
    entries = _entries(pristine)
    ops = []
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "garble", "truncate", "flip", "add", "dir_for_file", "file_for_dir", "link"]))
        target = draw(st.sampled_from(entries))
        if op == "add":
            folder = draw(st.sampled_from(["", "checkpoints", "stitched_assets", "assets", "iwr"]))
            target = os.path.join(folder, draw(odd_names))
        ops.append((op, target, draw(st.binary(max_size=300)), draw(st.integers(0, 10_000))))
    return ops


def damage(task: Path, ops: list[tuple]) -> None:
    for op, rel, blob, cut in ops:
        p = task / rel
        if op == "delete" and (p.exists() or p.is_symlink()):
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
        elif op == "garble" and p.is_file():
            p.write_bytes(blob)
        elif op == "truncate" and p.is_file():
            p.write_bytes(p.read_bytes()[:cut])
        elif op == "flip" and p.is_file():  # bytes changed in place: headers survive, checksums and frames do not
            b = bytearray(p.read_bytes())
            b[cut % max(1, len(b)): cut % max(1, len(b)) + len(blob[:16])] = blob[:16]
            p.write_bytes(bytes(b))
        elif op == "add" and p.parent.is_dir() and not p.exists():
            p.write_bytes(blob)
        elif op == "dir_for_file" and p.is_file():
            p.unlink()
            p.mkdir()
        elif op == "file_for_dir" and p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
            p.write_bytes(blob)
        elif op == "link" and (p.exists() or p.is_symlink()):
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
            p.symlink_to(p.name if cut % 2 else "/nonexistent/elsewhere")  # a loop onto itself, or dangling


@given(st.data())
@FUZZ
def test_damaged_task_folders_never_crash(fuzz_suite, data):
    suite, _ = fuzz_suite
    pristine = suite.parent / "pristine"
    task = suite / "data" / "1"
    if task.exists():
        shutil.rmtree(task)
    shutil.copytree(pristine, task)
    damage(task, data.draw(folder_damage(pristine)))
    check_outcomes(suite)


@pytest.mark.parametrize("task_id", [10**300], ids=["300 digits"])
def test_an_id_that_cannot_name_a_folder_is_a_problem(fuzz_suite, task_id):
    """A 300-digit id once made `data/<id>` too long a name and the validator raised OSError."""
    suite, record = fuzz_suite
    (suite / "data.jsonl").write_text(json.dumps({**record, "id": task_id}) + "\n")
    problems = validate_suite(suite)
    assert any(p.field == "id" for p in problems), problems
    check_outcomes(suite)


@given(st.text(min_size=1, max_size=40))
@example("line\u2028separator\x85and\x1cfile separator")
@settings(max_examples=50, deadline=None)
def test_any_unicode_in_a_valid_record_loads(fuzz_suite, text):
    """Line separators other than \n (U+2028, U+0085, \x1c...) are legal inside JSON strings."""
    suite, record = fuzz_suite
    rec = json.loads(json.dumps(record))
    rec["action_sequence"][0]["parameters"]["description"] = text
    rec["source_website"] = text
    (suite / "data.jsonl").write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8", errors="surrogatepass")
    loaded = load_suite(suite)
    assert loaded.tasks[0].record.action_sequence[0].parameters.description == text


@given(st.data())
@settings(max_examples=50, deadline=None)
def test_damaged_folders_with_a_byte_garbage_line(fuzz_suite, data):
    """Both at once: a broken folder and a broken data.jsonl."""
    suite, record = fuzz_suite
    task = suite / "data" / "1"
    if task.exists():
        shutil.rmtree(task)
    shutil.copytree(suite.parent / "pristine", task)
    damage(task, data.draw(folder_damage(suite.parent / "pristine")))
    (suite / "data.jsonl").write_bytes(data.draw(data_jsonl(record)))
    check_outcomes(suite)


def test_the_pristine_copy_is_valid(fuzz_suite):
    suite, record = fuzz_suite
    (suite / "data.jsonl").write_text(json.dumps(record) + "\n")
    task = suite / "data" / "1"
    if task.exists():
        shutil.rmtree(task)
    shutil.copytree(suite.parent / "pristine", task)
    assert validate_suite(suite) == []



@pytest.fixture(scope="module")
def fuzz_suite(tmp_path_factory):
    """One writable task suite reused by every example (each example rewrites what it corrupts)."""
    root = tmp_path_factory.mktemp("fuzz")
    suite = one_task_suite(root)
    shutil.copytree(suite / "data" / "1", root / "tasks" / "pristine")
    record = json.loads((suite / "data.jsonl").read_text())
    return suite, record


def _bomb(path: Path) -> None:
    from PIL import Image

    Image.new("1", (30000, 30000)).save(path)


# Crashes the fuzzing found, kept as fixed examples: (record change, folder change).
FOUND = {
    "zero resolution": ({"resolution": "00x00"}, None),
    "unicode digit checkpoint name": (None, lambda t: shutil.copy(t / "checkpoints/step_0.png", t / "checkpoints/step_².png")),
    "non-UTF-8 file name": (None, lambda t: (t / "stitched_assets").joinpath(os.fsdecode(b"\xff.png")).write_bytes(b"x")),
    "PNG with a bad checksum": (None, lambda t: damage(t, [("flip", "checkpoints/step_0.png", b"x" * 10, 100)])),
    "decompression bomb": (None, lambda t: _bomb(t / "checkpoints/step_0.png")),
    "garbage video": (None, lambda t: (t / "video.mp4").write_bytes(b"garbage")),
    "truncated video": (None, lambda t: damage(t, [("truncate", "video.mp4", b"", 5000)])),
    "symbolic link loop on a crop's folder": (None, lambda t: damage(t, [("link", "iwr", b"", 1)])),
}


@pytest.mark.parametrize("name", list(FOUND))
def test_crashes_found_by_fuzzing_are_problems_now(fuzz_suite, name):
    suite, record = fuzz_suite
    rec = json.loads(json.dumps(record))
    change, mutate = FOUND[name]
    if change:
        rec["recording_details"].update(change)
    (suite / "data.jsonl").write_text(json.dumps(rec) + "\n")
    task = suite / "data" / "1"
    if task.exists():
        shutil.rmtree(task)
    shutil.copytree(suite.parent / "pristine", task)
    if mutate:
        mutate(task)
    if name != "unicode digit checkpoint name":  # not a step file at all: ignored, not a problem
        assert validate_suite(suite), name
    check_outcomes(suite)
