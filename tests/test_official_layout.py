"""A data set laid out like the official one (no extensions, natural language only) runs as is."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iwr.tasks.frames import sample_frames, video_duration
from iwr.tasks.loader import load_suite
from iwr.tasks.validate import validate_suite

pytestmark = pytest.mark.slow


def official_copy(suite_dir: Path, dst: Path, limit: int = 3) -> Path:
    """Strip our `iwr` extension from every line and folder and number checkpoints by position, as in the
    released data."""
    rows = [json.loads(x) for x in (suite_dir / "data.jsonl").read_text().splitlines() if x.strip()][:limit]
    dst.mkdir(parents=True)
    with (dst / "data.jsonl").open("w") as f:
        for r in rows:
            r.pop("iwr", None)
            for a in r["action_sequence"]:
                a.pop("iwr", None)
            f.write(json.dumps(r) + "\n")
            shutil.copytree(suite_dir / "data" / str(r["id"]), dst / "data" / str(r["id"]),
                            ignore=shutil.ignore_patterns("iwr", "checkpoints"))
            (dst / "data" / str(r["id"]) / "checkpoints").mkdir()
            judged = [0] + [k for k, a in enumerate(r["action_sequence"], 1) if a["visual_evaluation_flag"]]
            for j, k in enumerate(judged):
                shutil.copy(suite_dir / "data" / str(r["id"]) / "checkpoints" / f"step_{k}.png",
                            dst / "data" / str(r["id"]) / "checkpoints" / f"step_{j}.png")
    return dst


def to_webm(mp4: Path, webm: Path) -> None:
    """Convert with the system ffmpeg, as a user holding .webm recordings would have them."""
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(mp4), "-c:v", "libvpx-vp9", "-deadline", "realtime",
                    "-cpu-used", "8", "-b:v", "300k", str(webm)], check=True, timeout=300)


def test_official_layout_loads_validates_and_runs_blank(suite_dir, tmp_path):
    data = official_copy(suite_dir, tmp_path / "IWR-Bench")
    lines = [json.loads(x) for x in (data / "data.jsonl").read_text().splitlines()]
    assert all("iwr" not in r and all("iwr" not in a for a in r["action_sequence"]) for r in lines)
    suite = load_suite(data)
    assert all(t.record.iwr is None and t.reference_site() is None for t in suite.tasks)
    assert {t.checkpoints().convention for t in suite.tasks} == {"position"}
    assert validate_suite(data) == []
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    out = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "blank", "--tasks", str(data),
                          "--run-id", "official-blank", "--runs-dir", str(tmp_path / "runs"), "--json"],
                         capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout)
    assert {t["status"] for t in res["tasks"]} == {"scored"} and res["mean"]["ifs"] == 0.0
    assert res["mean"]["vfs"] <= 0.05  # chance-corrected: an empty page starts at 0
    first = json.loads((tmp_path / "runs" / "official-blank" / res["tasks"][0]["task_id"] / "result.json").read_text())
    shots = first["judge"]["checkpoints"]
    assert [c["step"] for c in shots] == [0] and shots[0]["raw"]["structural"] > 0.1  # scored, raw value kept
    assert shots[0]["reference"].endswith("step_0.png")
    oracle = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "oracle", "--tasks", str(data),
                             "--run-id", "official-oracle", "--runs-dir", str(tmp_path / "runs"), "--json"],
                            capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert {t["status"] for t in json.loads(oracle.stdout)["tasks"]} == {"skipped"}


def test_webm_video_is_read_like_mp4(suite_dir, tmp_path):
    data = official_copy(suite_dir, tmp_path / "webm-set")
    tdir = next((data / "data").iterdir())
    to_webm(tdir / "video.mp4", tdir / "video.webm")
    (tdir / "video.mp4").unlink()
    suite = load_suite(data)
    t = suite.get(tdir.name)
    assert t.video.suffix == ".webm" and validate_suite(data) == []
    assert abs(video_duration(t.video) - video_duration(suite_dir / "data" / tdir.name / "video.mp4")) < 0.5
    assert len(sample_frames(t.video)) >= 4
