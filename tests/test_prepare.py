"""`iwr prepare` describes only what it put in the workspace, and never the judge's side."""
import shutil

from iwr.evals.workspace.prepare import prepare
from iwr.tasks.loader import load_suite


def test_the_instructions_name_only_the_folders_that_were_made(suite_copy, tmp_path):
    full = prepare(load_suite(suite_copy).get("1"), tmp_path / "full")
    text = (tmp_path / "full" / "INSTRUCTIONS.md").read_text()
    assert full["frames"] > 0 and full["sheets"] > 0
    for name in ("`frames/`", "`sheets/`", "`assets/`", "`actions.json`", "assets/<name>", "1280x800"):
        assert name in text, name
    assert not (tmp_path / "full" / "checkpoints").exists() and "checkpoint" not in text.lower()

    task_dir = suite_copy / "data" / "1"
    shutil.rmtree(task_dir / "assets")
    shutil.rmtree(task_dir / "stitched_assets")
    (task_dir / "video.mp4").unlink()
    bare = prepare(load_suite(suite_copy).get("1"), tmp_path / "bare")
    text = (tmp_path / "bare" / "INSTRUCTIONS.md").read_text()
    assert bare["frames"] == 0 and bare["sheets"] == 0
    assert "`actions.json`" in text and "{" not in text
    for gone in ("frames/", "sheets/", "assets/"):
        assert gone not in text, gone
        assert not (tmp_path / "bare" / gone.rstrip("/")).exists(), gone
