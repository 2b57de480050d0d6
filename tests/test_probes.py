"""The typed-text probe: a page that handles input passes it; one that hard-codes the video's text fails."""
from __future__ import annotations

from pathlib import Path

import pytest

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.typed_text import probed_task, varied
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import load_suite
from tests.conftest import one_task_suite
from tests.test_judge_paper import variant


def test_probe_changes_typed_texts_and_expects_the_originals_gone(suite_dir):
    record = load_suite(suite_dir).get("1").record.model_dump(mode="json", exclude_none=True)
    task, changes = probed_task(record)
    assert [c["from"] for c in changes] == ["Haunting and calm", "The last scene stayed with me."]
    assert varied("Haunting and calm") == "Unhagvat naq pnyz" and varied("a@b.co 42") == "n@o.pb 97"
    typed = task["action_sequence"][1]
    assert typed["parameters"]["text"] == "Unhagvat naq pnyz" and "Unhagvat naq pnyz" in typed["parameters"]["description"]
    post = task["action_sequence"][4]
    assert post["iwr"]["checks"] == [{"kind": "text_absent", "text": "Haunting and calm"},
                                     {"kind": "text_absent", "text": "The last scene stayed with me."}]
    assert "logical_assertion" not in post and post["iwr"]["target"]["selector"] == "#submit"
    assert task["action_sequence"][0]["iwr"]["checks"] == []  # nothing typed yet, nothing to miss
    assert record["action_sequence"][1]["parameters"]["text"] == "Haunting and calm"  # the task is untouched
    data, _ = probed_task(record, page_data={"Haunting and calm"})  # shown before typing: the page's own
    assert data["action_sequence"][4]["iwr"]["checks"] == [{"kind": "text_absent", "text": "The last scene stayed with me."}]


def test_a_text_quoted_only_in_the_description_and_its_url_form_are_changed():
    record = {"id": 1, "action_sequence": [
        {"type": "Type", "parameters": {"description": "Type 'blue shoes' into the search box"}},
        {"type": "Click", "parameters": {"description": "Click the 'blue shoes' suggestion"},
         "iwr": {"target": {"selector": "#s", "name": "blue shoes"}}},
        {"type": "Click", "parameters": {"description": "Open q=blue+shoes and blue%20shoes results"}}]}
    task, changes = probed_task(record)
    assert changes == [{"from": "blue shoes", "to": "oyhr fubrf"}]
    assert task["action_sequence"][0]["parameters"]["text"] == "oyhr fubrf"
    assert task["action_sequence"][1]["iwr"]["target"] == {"selector": "#s", "name": "oyhr fubrf"}
    assert task["action_sequence"][2]["parameters"]["description"] == "Open q=oyhr+fubrf and oyhr%20fubrf results"


@pytest.fixture
def suite(tmp_path: Path):
    return load_suite(one_task_suite(tmp_path / "s"))


async def test_reference_passes_and_hard_coded_page_fails(suite, tmp_path):
    task = suite.get("1")
    honest = task.reference_site() / "index.html"
    faker = variant(tmp_path, suite, "hard-coded", lambda h: h.replace(
        "b.textContent = title;", "b.textContent = 'Haunting and calm';"))
    # An honest page whose own data holds a recorded text: shown before anything is typed, it is no sign.
    suggesting = variant(tmp_path, suite, "suggesting", lambda h: h.replace(
        "<body>", "<body><p>Suggested title: Haunting and calm</p>", 1))
    base = {"task_id": "1", "agent": "t", "profile": "offline"}
    async with Toolbox(judge_servers(tmp_path / "run", suite.root, [faker.parent, suggesting.parent])) as tools:
        good = await judge_artifact(task, honest, tools, JudgeConfig(visual=False), base)
        bad = await judge_artifact(task, faker, tools, JudgeConfig(visual=False), base)
        own = await judge_artifact(task, suggesting, tools, JudgeConfig(visual=False), base)
    assert good.ifs == 1.0 and good.judge["probes"]["typed_text"]["status"] == "passed"
    assert good.judge["probes"]["typed_text"]["page_data"] == []
    assert own.judge["probes"]["typed_text"]["status"] == "passed"
    assert own.judge["probes"]["typed_text"]["page_data"] == ["Haunting and calm"]
    # The replay of the video cannot tell them apart; the probe can.
    assert bad.ifs == 1.0 and bad.judge["probes"]["typed_text"]["status"] == "failed"
    failure = bad.judge["probes"]["typed_text"]["first_failure"]
    assert failure["index"] == 5 and "text_absent 'Haunting and calm'" in failure["error"]


# An honest page that keeps the reviews it was given (in the tab's and the origin's storage, and in a
# cookie) and lists them when it loads again.
KEEPS = """<script>
  addEventListener('DOMContentLoaded', () => {
    const kept = [localStorage.getItem('kept'), sessionStorage.getItem('kept'), decodeURIComponent((document.cookie.split('kept=')[1] || ''))];
    const note = document.createElement('p'); note.textContent = 'Earlier: ' + kept.filter(Boolean).join(', ');
    document.body.prepend(note);
    document.addEventListener('click', (e) => {  // before the page's own handler empties the form
      const t = document.getElementById('title').value.trim();
      if (!e.target.closest('#submit') || !t) return;
      localStorage.setItem('kept', t); sessionStorage.setItem('kept', t); document.cookie = 'kept=' + encodeURIComponent(t);
    }, true);
  });
</script></head>"""


async def test_the_probe_replays_in_the_judged_tab_as_a_new_page(suite, tmp_path):
    """The probe loads the judged page again in its own tab (a new session's context and renderer cost
    several times more) and finds nothing the judged replay left there: a page that lists what it kept
    would otherwise show the recorded title before anything is typed."""
    task = suite.get("1")
    keeper = variant(tmp_path, suite, "keeper", lambda h: h.replace("</head>", KEEPS, 1))
    base = {"task_id": "1", "agent": "t", "profile": "offline"}
    async with Toolbox(judge_servers(tmp_path / "run", suite.root, [keeper.parent])) as tools:
        called, call = [], tools.call

        async def counted(server, tool, **kw):
            called.append(tool)
            return await call(server, tool, **kw)

        tools.call = counted
        r = await judge_artifact(task, keeper, tools, JudgeConfig(visual=False), base)
        assert (called.count("open"), called.count("reopen")) == (1, 1)
        assert called[-1] == "close" and called.count("close") == 2  # the probe's, and the page's owner's (a no-op)
    probe = r.judge["probes"]["typed_text"]
    assert r.ifs == 1.0 and probe["status"] == "passed" and probe["page_data"] == [], probe
