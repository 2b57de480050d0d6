"""The recorder: a complete task from a site and a script, reproducible, with clear errors."""
import json

import pytest
import yaml

from tasks.frames import video_duration
from evals.recording.recorder import RecordError, record_task
from tasks.loader import load_suite
from tasks.validate import validate_suite

pytestmark = pytest.mark.slow


@pytest.fixture
def site(suite_dir):
    return suite_dir.parent / "sites" / "reviews"


async def test_recording_twice_gives_identical_checkpoints(site, tmp_path):
    script = site / "tasks" / "review.yaml"
    a, b = tmp_path / "a", tmp_path / "b"
    tid = await record_task(script, a, site)
    assert await record_task(script, b, site) == tid
    assert validate_suite(a) == []
    cps = sorted((a / "data" / str(tid) / "checkpoints").glob("step_*.png"))
    rec = json.loads((a / "data.jsonl").read_text().splitlines()[0])
    flagged = [i for i, x in enumerate(rec["action_sequence"], 1) if x["visual_evaluation_flag"]]
    assert [p.name for p in cps] == sorted(f"step_{j}.png" for j in range(len(flagged) + 1))  # by position
    assert load_suite(a).get(str(tid)).checkpoints().convention == "position"
    for p in cps:
        assert p.read_bytes() == (b / "data" / str(tid) / "checkpoints" / p.name).read_bytes(), p.name
    assert video_duration(a / "data" / str(tid) / "video.mp4") > 5
    assert sorted(x.name for x in (a / "data" / str(tid) / "assets").iterdir()) == ["1.png"]
    hint = rec["action_sequence"][0]["iwr"]["target"]
    assert hint["selector"] == "#submit" and hint["name"] == "Post review" and len(hint["bbox"]) == 4


async def test_missing_target_and_false_assertion_stop_the_recording(site, tmp_path):
    base = yaml.safe_load((site / "tasks" / "review.yaml").read_text())
    broken = dict(base, actions=[dict(base["actions"][0], target="#no-such-button")])
    (tmp_path / "t1.yaml").write_text(yaml.safe_dump(broken))
    with pytest.raises(RecordError, match="no-such-button"):
        await record_task(tmp_path / "t1.yaml", tmp_path / "suite", site)
    wrong = dict(base, actions=[dict(base["actions"][0], checks=[{"text_visible": "Thanks for your review"}])])
    (tmp_path / "t2.yaml").write_text(yaml.safe_dump(wrong))
    with pytest.raises(RecordError, match="does not hold"):
        await record_task(tmp_path / "t2.yaml", tmp_path / "suite", site)
    assert not (tmp_path / "suite" / "data" / str(base["id"])).exists()


async def test_bad_script_is_a_clear_error(site, tmp_path):
    (tmp_path / "s.yaml").write_text("id: 5\nsource_website: x\nclassification: {interaction_complexity: L1}\nactions: []\n")
    with pytest.raises(RecordError) as e:
        await record_task(tmp_path / "s.yaml", tmp_path / "suite", site)
    assert "s.yaml" in str(e.value) and "classification" in str(e.value)
