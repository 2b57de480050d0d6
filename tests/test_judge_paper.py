"""The paper profile end to end with the scripted model: LLM grounding with the boxed-screenshot
fallback, Type text extraction, assertions, the rubric, API errors, and the paper-compat quirks."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from iwr.agents.models import ModelConfig, request_text, scripted
from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import load_suite
from tests.conftest import one_task_suite

RUBRIC = {"layout": 9, "elements": 14, "content": 38, "style": 13, "overall": 18}  # 92 / 100
# Element refs of task 1's reference page in its initial state (DOM order of the visible controls).
TITLE, STAR_9, BODY, SUBMIT = 4, 15, 18, 19


def ground(index: int, text: str | None = None, visual: bool = False) -> dict:
    answer = {"index": index, **({"text": text} if text else {})}
    return {"expect": "outlined by a box" if visual else "ACCESSIBILITY TREE", "content": json.dumps(answer)}


def verdict(yes: bool) -> dict:
    return {"expect": "first image is the page before", "content": json.dumps({"answer": "Yes" if yes else "No", "reason": "seen"})}


def rubric() -> dict:
    return {"expect": "Score the generated page", "content": "```json\n" + json.dumps(RUBRIC) + "\n```"}


def full_pass() -> list:
    """Every model call of a perfect replay of task 1, in order (the rubric comes after the replay)."""
    return [ground(SUBMIT), verdict(True),
            ground(TITLE, "Haunting and calm"), verdict(True),
            ground(STAR_9), verdict(True),
            ground(BODY, "The last scene stayed with me."),
            ground(SUBMIT), verdict(True)] + [rubric()] * 6


@pytest.fixture
def suite(tmp_path: Path):
    return load_suite(one_task_suite(tmp_path / "s"))


@pytest.fixture
def judge_with(suite, tmp_path: Path, tiny_dino: Path, monkeypatch):
    """Judge a page of task 1 with a scripted judge model; returns (result, what the model saw)."""
    monkeypatch.setenv("IWR_DINOV2_PATH", str(tiny_dino))
    task = suite.get("1")
    counter = iter(range(100))

    async def run(replies: list, page: Path | None = None, profile: str = "paper", compat: bool = False):
        script = tmp_path / f"judge_script_{next(counter)}.json"
        script.write_text(json.dumps(replies))
        config = JudgeConfig.for_profile(profile, ModelConfig(model=f"scripted:{script}"), paper_compat=compat,
                                         probes=False)
        entry = page or task.reference_site() / "index.html"
        async with Toolbox(judge_servers(tmp_path / "run", suite.root, [entry.parent])) as tools:
            result = await judge_artifact(task, entry, tools, config, {"task_id": "1", "agent": "t", "profile": profile})
        model = scripted(f"scripted:{script}")
        return result, [request_text(m) for m in model.seen]

    return run


def variant(tmp_path: Path, suite, name: str, edit) -> Path:
    """A copy of task 1's reference page with `edit(html)` applied."""
    src = suite.get("1").reference_site()
    dst = tmp_path / name
    dst.mkdir()
    for f in src.iterdir():
        if f.is_file():
            (dst / f.name).write_bytes(f.read_bytes())
        elif f.is_dir():
            import shutil
            shutil.copytree(f, dst / f.name)
    html = (dst / "index.html").read_text()
    (dst / "index.html").write_text(edit(html))
    return dst / "index.html"


async def test_paper_profile_replays_and_rates_with_the_model(judge_with):
    r, seen = await judge_with(full_pass())
    assert r.status == "scored", r.error
    assert r.ifs == 1.0 and r.hvs == pytest.approx(0.92)
    assert r.backends["mllm"].endswith("rubric-100") and "dino" in r.backends and "ocr" in r.backends
    assert r.lvs == pytest.approx((sum(c["metrics"]["ocr"] for c in r.judge["checkpoints"]) / 6
                                   + sum(c["metrics"]["dino"] for c in r.judge["checkpoints"]) / 6) / 2, abs=1e-5)
    acts = r.judge["actions"]
    assert [a["grounding"]["strategy"] for a in acts[:5]] == ["llm.tree"] * 5
    assert acts[1]["grounding"]["typed"] == "Haunting and calm" and acts[5]["grounding"]["strategy"] == "scroll"
    assert all(a["assertion"]["method"] == "llm" for a in acts if "assertion" in a)
    assert len(seen) == 15 and r.judge["llm_usage"]["calls"] == 15
    assert all(c["rubric"] == RUBRIC for c in r.judge["checkpoints"])


async def test_vision_fallback_boxes_the_elements(judge_with):
    replies = full_pass()
    replies[0:1] = [ground(-1), ground(SUBMIT, visual=True)]
    r, seen = await judge_with(replies)
    first = r.judge["actions"][0]
    assert r.ifs == 1.0 and first["grounding"]["strategy"] == "llm.screenshot"
    boxed = first["grounding"]["tried"][1]["screenshot"]
    assert Path(boxed).is_file() and boxed.endswith("_boxed.png")
    assert seen[1].count("[image]") == 1 and "[19] button \"Post review\"" in seen[1]


async def test_failed_grounding_stops_the_replay(judge_with):
    r, seen = await judge_with([ground(-1), ground(-1, visual=True), rubric()])
    assert r.status == "scored" and r.ifs == 0.0 and r.judge["successful_actions"] == 0
    assert "element not found" in r.judge["actions"][0]["error"]
    assert [a["status"] for a in r.judge["actions"][1:]] == ["not_reached"] * 6
    assert len(r.judge["checkpoints"]) == 1 and len(seen) == 3  # only the initial page is rated


async def test_a_no_ends_the_success_count(judge_with):
    r, _ = await judge_with([ground(SUBMIT), verdict(True), ground(TITLE, "Haunting and calm"), verdict(False),
                             rubric(), rubric()])
    assert r.judge["successful_actions"] == 1 and r.ifs == pytest.approx(1 / 7)
    assert r.judge["actions"][1]["status"] == "failed" and "assertion failed" in r.judge["actions"][1]["error"]


async def test_an_api_error_is_an_infrastructure_failure_never_a_pass(judge_with):
    r, _ = await judge_with([ground(SUBMIT), {"error": "HTTP 503 from the judge's server"}])
    assert r.status == "infra_failure" and "503" in r.error and r.ifs == 0.0


async def test_garbage_twice_on_an_assertion_is_an_infrastructure_failure(judge_with):
    r, seen = await judge_with([ground(SUBMIT), "I think so", "maybe?"])
    assert r.status == "infra_failure" and "no usable Yes/No" in r.error
    assert "Answer with only the JSON object" in seen[2]


# --paper-compat: each quirk of iwr-bench.md section 5, one by one.

async def test_compat_counts_an_assertion_api_error_as_a_pass(judge_with):
    replies = full_pass()
    replies[1] = {"error": "HTTP 500"}
    r, _ = await judge_with(replies, compat=True)
    assert r.status == "scored" and r.ifs == 1.0
    assert "API error counted as a pass" in r.judge["actions"][0]["assertion"]["reason"]


async def test_compat_drops_a_task_without_a_page(suite, tmp_path):
    task = suite.get("1")
    async with Toolbox(judge_servers(tmp_path / "run", suite.root)) as tools:
        base = {"task_id": "1", "agent": "t", "profile": "offline"}
        ours = await judge_artifact(task, tmp_path / "none" / "index.html", tools, JudgeConfig(), base)
        ref = await judge_artifact(task, tmp_path / "none" / "index.html", tools, JudgeConfig(paper_compat=True), base)
    assert ours.status == "model_failure" and ref.status == "skipped"  # counted as 0, versus dropped


async def ours_and_compat(suite, tmp_path: Path):
    """Task 1's reference judged offline with our defaults, then with --paper-compat."""
    task = suite.get("1")
    entry = task.reference_site() / "index.html"
    base = {"task_id": "1", "agent": "t", "profile": "offline"}
    async with Toolbox(judge_servers(tmp_path / "run", suite.root)) as tools:
        ours = await judge_artifact(task, entry, tools, JudgeConfig(probes=False), base)
        ref = await judge_artifact(task, entry, tools, JudgeConfig(paper_compat=True, probes=False), base)
    return ours, ref


async def test_compat_scrolls_down_half_a_viewport_whatever_the_action_says(suite, tmp_path):
    ours, ref = await ours_and_compat(suite, tmp_path)

    def moved(r):
        d = r.judge["actions"][5]["did"]
        return d["scroll_y_after"] - d["scroll_y_before"]
    assert moved(ours) == pytest.approx(0.375 * 800) and moved(ref) == pytest.approx(0.5 * 800)


async def test_compat_counts_a_click_that_raised_as_done(suite, tmp_path, judge_with):
    # The button shows the error on load and is then disabled: the click raises "disabled" (the
    # reference's Playwright click times out), which is not "element does not exist".
    page = variant(tmp_path, suite, "disabled", lambda h: h.replace(
        "</body>", "<script>const b = document.getElementById('submit'); b.click(); b.disabled = true;</script></body>"))
    ours, _ = await judge_with([], page=page, profile="offline")
    ref, _ = await judge_with([], page=page, profile="offline", compat=True)
    assert ours.judge["successful_actions"] == 0 and "disabled" in ours.judge["actions"][0]["error"]
    assert ref.judge["actions"][0]["status"] == "passed"


async def test_compat_pairs_screenshots_with_checkpoints_by_list_position(tmp_path):
    root = one_task_suite(tmp_path / "s")
    cps = root / "data" / "1" / "checkpoints"
    # A checkpoint of an unflagged step shifts every later pairing by list position. (Files that fit
    # numbering by position, step_0..step_5 here, would be read that way by our judge too.)
    (cps / "step_2.png").write_bytes((cps / "step_1.png").read_bytes())
    ours, ref = await ours_and_compat(load_suite(root), tmp_path)
    names = lambda r: [Path(c["reference"]).name for c in r.judge["checkpoints"]]  # noqa: E731
    assert names(ours) == [f"step_{k}.png" for k in (0, 1, 3, 5, 6, 7)] and ours.judge["checkpoints_by"] == "action"
    assert names(ref) == [f"step_{k}.png" for k in (0, 1, 2, 3, 5, 6)]
    assert ours.final > ref.final  # mispaired checkpoints look less alike
