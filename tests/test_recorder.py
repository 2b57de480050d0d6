"""The recorder: a complete task from a site and a script, reproducible, with clear errors."""
import json

import pytest
import yaml

from iwr.tasks.frames import video_duration
from iwr.evals.recording.recorder import RecordError, record_task
from iwr.tasks.loader import load_suite
from iwr.tasks.validate import validate_suite

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


APP_HTML = """<!doctype html><html><head><meta charset="utf-8"><title>Order</title></head>
<body style="font-family: sans-serif">
<h1>Order a shirt</h1>
<label>Size <select id="size"><option>Small</option><option>Medium</option><option>Large</option></select></label>
<label>Name <input id="name" value="Guest"></label>
<button id="go">Place order</button>
<p id="out"></p>
<script>
document.getElementById('go').addEventListener('click', () => {
  const size = document.getElementById('size').value;
  document.getElementById('out').textContent =
    `${document.getElementById('name').value} ordered a ${SIZE_WORD(size)} shirt`;
});
function SIZE_WORD(s) { return s.toLowerCase(); }
</script></body></html>"""

APP_SCRIPT = {
    "id": 901, "source_website": "https://shirts.example.test/order", "resolution": "800x600", "page": "app.html",
    "classification": {"interaction_complexity": "L2", "visual_complexity": "V1", "domain": "e-commerce"},
    "actions": [
        {"type": "Select", "description": "Choose 'Large' in the 'Size' dropdown", "target": "#size",
         "option": "Large", "visual": True, "assertion": "The 'Large' option is selected",
         "checks": [{"value": "#size", "equals": "Large"}]},
        {"type": "Type", "description": "Replace 'Guest' with 'Ada' in the 'Name' field", "target": "#name",
         "text": "Ada", "clear": True, "assertion": "The field reads 'Ada'"},
        {"type": "Click", "description": "Click the 'Place order' button", "target": "#go", "visual": True,
         "assertion": "The page says 'Ada ordered a large shirt'",
         "checks": [{"text_visible": "Ada ordered a large shirt"}]},
    ],
}


@pytest.fixture
def app_site(tmp_path):
    site = tmp_path / "shirts"
    site.mkdir()
    (site / "app.html").write_text(APP_HTML)
    (tmp_path / "order.yaml").write_text(yaml.safe_dump(APP_SCRIPT, sort_keys=False))
    return site, tmp_path / "order.yaml"


def test_assertion_needs_checks_unless_official(app_site):
    from iwr.tasks.script import ScriptError, load_script

    _, script = app_site
    with pytest.raises(ScriptError, match="needs structured checks"):
        load_script(script)
    loaded = load_script(script, official=True)
    assert [a.type for a in loaded.actions] == ["Select", "Type", "Click"] and loaded.actions[1].clear
    bad = dict(APP_SCRIPT, actions=[{"type": "Select", "description": "x", "target": "#size"}])
    script.write_text(yaml.safe_dump(bad))
    with pytest.raises(ScriptError, match="needs an option"):
        load_script(script, official=True)


async def test_official_recording_of_a_select_a_clearing_type_and_an_entry_page_not_named_index(app_site, tmp_path):
    site, script = app_site
    tid = await record_task(script, tmp_path / "official", site, official=True)
    d = tmp_path / "official" / "data" / str(tid)
    raw = (tmp_path / "official" / "data.jsonl").read_text()
    rec = json.loads(raw)
    assert '"iwr"' not in raw and not (d / "iwr").exists()
    assert [a["type"] for a in rec["action_sequence"]] == ["Click", "Type", "Click"]
    assert rec["action_sequence"][0]["parameters"]["description"] == "Choose 'Large' in the 'Size' dropdown"
    assert rec["action_sequence"][1]["logical_assertion"] == "The field reads 'Ada'"
    assert sorted(p.name for p in (d / "checkpoints").iterdir()) == ["step_0.png", "step_1.png", "step_2.png"]
    assert sorted(p.name for p in (d / "stitched_assets").iterdir()) == ["stitched_image.png"]
    assert validate_suite(tmp_path / "official") == []
    # ours: the reference names the entry page, and the select and the clearing are kept for the judge
    tid = await record_task(_with_checks(script, tmp_path), tmp_path / "ours", site)
    task = load_suite(tmp_path / "ours").get(str(tid))
    assert task.record.iwr.reference.page == "app.html" and task.reference_site() == site.resolve()
    first, second = task.record.action_sequence[:2]
    assert first.type == "Click" and first.iwr.select == "Large" and first.iwr.target.selector == "#size"
    assert second.iwr.clear and second.parameters.text == "Ada"
    assert validate_suite(tmp_path / "ours") == []


def _with_checks(script, tmp_path):
    data = yaml.safe_load(script.read_text())
    data["actions"][1]["checks"] = [{"value": "#name", "equals": "Ada"}]
    out = tmp_path / "order-checked.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return out


async def test_dry_run_finds_the_defect_of_a_broken_variant(app_site, tmp_path):
    from iwr.evals.recording.recorder import verify_script

    site, script = app_site
    assert await verify_script(script, site) == []
    variant = tmp_path / "broken" / "wrong-size"
    variant.mkdir(parents=True)
    (variant / "app.html").write_text(APP_HTML.replace("return s.toLowerCase();", "return 'small';"))
    failures = await verify_script(script, site, overlay=variant)
    assert len(failures) == 1 and "action 3" in failures[0] and "large shirt" in failures[0]
    assert (site / "app.html").read_text() == APP_HTML  # the site itself is untouched
