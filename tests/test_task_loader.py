"""The loader and validator: official layout, and clear errors that name file and field."""
import json
import shutil
from pathlib import Path

import pytest

from iwr.tasks.loader import TaskFileError, load_suite
from iwr.tasks.validate import validate_suite


def _lines(suite: Path) -> list[dict]:
    return [json.loads(x) for x in (suite / "data.jsonl").read_text().splitlines() if x.strip()]


def _write(suite: Path, rows: list) -> None:
    (suite / "data.jsonl").write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))


def test_bundled_suite_loads_and_validates(suite_dir):
    suite = load_suite(suite_dir)
    assert suite.tasks, "the bundled suite has tasks"
    t = suite.tasks[0]
    assert t.video is not None and t.video.suffix == ".mp4"
    assert t.asset_sheets()
    assert t.checkpoint(0) is not None
    assert validate_suite(suite_dir) == []


def test_malformed_json_line_names_file_line_and_field(suite_copy):
    rows = _lines(suite_copy)
    _write(suite_copy, [rows[0], '{"id": 7, "classification": '])
    with pytest.raises(TaskFileError) as e:
        load_suite(suite_copy)
    p = e.value.problems[0]
    assert p.file.endswith("data.jsonl") and p.line == 2 and p.field == "(json)"
    assert "data.jsonl:2" in str(e.value) and "invalid JSON" in str(e.value)


def test_wrong_action_type_names_the_field_path(suite_copy):
    rows = _lines(suite_copy)
    rows[0]["action_sequence"][1]["type"] = "DoubleClick"
    _write(suite_copy, rows)
    with pytest.raises(TaskFileError) as e:
        load_suite(suite_copy)
    assert any(p.field == "action_sequence.1.type" for p in e.value.problems), str(e.value)


def test_missing_checkpoint_names_the_file_and_the_flagged_action(suite_copy):
    rows = _lines(suite_copy)
    step = next(i for i, a in enumerate(rows[0]["action_sequence"], 1) if a["visual_evaluation_flag"])
    cp = suite_copy / "data" / str(rows[0]["id"]) / "checkpoints" / f"step_{step}.png"
    cp.unlink()
    problems = validate_suite(suite_copy)
    assert len(problems) == 1
    assert problems[0].file == str(cp)
    assert problems[0].field == f"action_sequence.{step - 1}.visual_evaluation_flag"
    assert "missing" in problems[0].reason


@pytest.mark.parametrize("mutate, field", [
    (lambda r: r.pop("classification"), "classification"),
    (lambda r: r["classification"].update(interaction_complexity="L9"), "classification.interaction_complexity"),
    (lambda r: r["recording_details"].update(resolution="wide"), "recording_details.resolution"),
    (lambda r: r.update(id="seven"), "id"),
    (lambda r: r["action_sequence"][0]["parameters"].pop("description"), "action_sequence.0.parameters.description"),
    (lambda r: r["action_sequence"][0].update(visual_evaluation_flag="maybe"), "action_sequence.0.visual_evaluation_flag"),
    (lambda r: r["iwr"].update(unknown_key=1), "iwr.unknown_key"),
    (lambda r: r["action_sequence"][0]["iwr"]["checks"].append({"kind": "telepathy"}), "action_sequence.0.iwr.checks.1"),
])
def test_schema_errors_name_the_field(suite_copy, mutate, field):
    rows = _lines(suite_copy)
    mutate(rows[0])
    _write(suite_copy, rows)
    problems = validate_suite(suite_copy)
    assert problems, "a problem is reported"
    assert any(p.field.startswith(field) for p in problems), [str(p) for p in problems]
    assert all(p.file.endswith("data.jsonl") and p.line == 1 for p in problems)


def test_missing_video_and_task_folder_are_reported(suite_copy):
    rows = _lines(suite_copy)
    tid = rows[0]["id"]
    (suite_copy / "data" / str(tid) / "video.mp4").unlink()
    problems = validate_suite(suite_copy)
    assert [p.field for p in problems] == ["video"]
    shutil.rmtree(suite_copy / "data" / str(tid))
    problems = validate_suite(suite_copy)
    assert [p.field for p in problems] == ["id"] and f"data/{tid}" in problems[0].reason


def test_crop_path_leaving_the_task_folder_is_refused(suite_copy):
    rows = _lines(suite_copy)
    rows[0]["action_sequence"][0]["iwr"]["target"]["crop"] = "../../../../etc/passwd"
    _write(suite_copy, rows)
    problems = validate_suite(suite_copy)
    assert any(p.field == "action_sequence.0.iwr.target.crop" and "leaves" in p.reason for p in problems)


def test_official_record_without_extensions_is_accepted(tmp_path):
    rec = {"id": 3, "classification": {"interaction_complexity": "L2", "visual_complexity": "V1",
                                       "domain": "tools", "sub_domain": "calc"},
           "recording_details": {"resolution": "1920x1080", "environment": "web"},
           "source_website": "https://example.org", "extra_official_field": {"kept": True},
           "action_sequence": [{"type": "Click", "parameters": {"description": "Click '7'", "element_index": 4},
                                "visual_evaluation_flag": True, "logical_assertion": None}]}
    (tmp_path / "data.jsonl").write_text(json.dumps(rec) + "\n")
    suite = load_suite(tmp_path)
    t = suite.tasks[0]
    assert t.id == "3" and t.size == (1920, 1080) and t.record.iwr is None
    assert t.record.action_sequence[0].parameters.element_index == 4


def test_sheets_are_read_under_the_official_names_and_ours(suite_copy, tmp_path):
    """The recorder writes `stitched_image.png`, `stitched_image_1.png`, ... as the released data names
    them; older suites hold `stitched_image_1.png`, ... only; both are read, sorted by name."""
    from iwr.tasks.sheets import sheet_name, stitch

    assets = []
    for n in range(20):  # two sheets' worth
        p = tmp_path / f"{n + 1}.png"
        __import__("PIL.Image").Image.new("RGB", (30, 20), (n * 10, 0, 0)).save(p)
        assets.append(p)
    task = load_suite(suite_copy).tasks[0]
    sheets = task.folder / "stitched_assets"
    shutil.rmtree(sheets)
    written = stitch(assets, sheets)
    assert [p.name for p in written] == [sheet_name(0), sheet_name(1)] == ["stitched_image.png", "stitched_image_1.png"]
    assert [p.name for p in task.asset_sheets()] == ["stitched_image.png", "stitched_image_1.png"]
    (sheets / "stitched_image.png").rename(sheets / "stitched_image_2.png")  # the older naming, from 1
    assert [p.name for p in task.asset_sheets()] == ["stitched_image_1.png", "stitched_image_2.png"]
    assert validate_suite(suite_copy) == []
