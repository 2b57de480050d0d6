"""An app whose page sits in a subfolder and loads '../../lib/app.js' (a widget library's demo pages): the
recorder serves the site's top folder, and the judge copies and serves it whole when given the root, so
the page works in both as in the app's own repository."""
from pathlib import Path

import pytest
import yaml

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.evals.judging.cache import judgement_key
from iwr.evals.judging.judged_copy import RefusedArtifact, judged_copy
from iwr.evals.recording.recorder import record_task, verify_script
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import load_suite

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Counter demo</title>
<script src="../../lib/app.js"></script></head><body style="font-family: sans-serif">
<div id="app"></div></body></html>"""
LIB = """addEventListener('DOMContentLoaded', () => {
  let n = 0;
  const out = document.createElement('p'), add = document.createElement('button');
  out.textContent = 'Count: 0'; add.textContent = 'Add one'; add.id = 'add';
  add.onclick = () => { n += 1; out.textContent = 'Count: ' + n; };
  document.getElementById('app').append(add, out);
});"""


def deep_site(root: Path) -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "demos" / "counter").mkdir(parents=True)
    (root / "lib" / "app.js").write_text(LIB)
    (root / "demos" / "counter" / "page.html").write_text(PAGE)
    return root


def script(path: Path) -> Path:
    path.write_text(yaml.safe_dump({
        "id": 900, "source_website": "https://example.org/demos/counter/", "page": "demos/counter/page.html",
        "resolution": "800x600", "classification": {"interaction_complexity": "L1", "visual_complexity": "V1",
                                                     "domain": "demo", "sub_domain": "counter"},
        "actions": [{"type": "Click", "description": "Click 'Add one'", "target": "#add", "visual": True,
                     "assertion": "The count reads 1", "checks": [{"text_visible": "Count: 1"}]}]}, sort_keys=False))
    return path


def test_the_judge_s_copy_of_a_site_holds_what_is_above_the_page(tmp_path):
    site = deep_site(tmp_path / "site")
    page = judged_copy(site / "demos" / "counter" / "page.html", tmp_path / "copy", root=site)
    assert page == tmp_path / "copy" / "demos" / "counter" / "page.html" and (tmp_path / "copy" / "lib" / "app.js").is_file()
    with pytest.raises(RefusedArtifact, match="not inside"):
        judged_copy(site / "demos" / "counter" / "page.html", tmp_path / "copy2", root=tmp_path / "elsewhere")
    # the cache key covers the library above the page only when the judge serves it
    task = {"id": 900, "action_sequence": []}
    entry = site / "demos" / "counter" / "page.html"
    with_root, alone = (judgement_key(task, tmp_path, entry, JudgeConfig(), r) for r in (site, None))
    (site / "lib" / "app.js").write_text(LIB.replace("Add one", "Add 1"))
    assert judgement_key(task, tmp_path, entry, JudgeConfig(), site) != with_root
    assert judgement_key(task, tmp_path, entry, JudgeConfig(), None) == alone


@pytest.mark.slow
async def test_a_page_in_a_subfolder_is_recorded_and_judged_with_its_site(tmp_path):
    site = deep_site(tmp_path / "site")
    yml = script(tmp_path / "counter.yaml")
    assert await verify_script(yml, site) == []
    await record_task(yml, tmp_path / "suite", site, official=True)
    task = load_suite(tmp_path / "suite").get("900")
    entry = site / "demos" / "counter" / "page.html"
    base = {"task_id": "900", "agent": "x", "profile": "offline"}
    async with Toolbox(judge_servers(tmp_path / "run", tmp_path / "suite", [site])) as tools:
        served = await judge_artifact(task, entry, tools, JudgeConfig(probes=False, hints=False), base, root=site)
        alone = await judge_artifact(task, entry, tools, JudgeConfig(probes=False, hints=False), base)
    assert [a["status"] for a in served.judge["actions"]] == ["passed"] and served.ifs == 1.0
    # served from its own folder the page finds no library: nothing to click
    assert [a["status"] for a in alone.judge["actions"]] == ["failed"]
