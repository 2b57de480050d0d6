"""The content-addressed cache: keys follow content, an unchanged artifact is judged once, and
metric values are reused for screenshots seen before."""
import pathlib
import shutil

import pytest

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.cache import JUDGE_CODE, ROOT, Cache, cache_of, cached_judgement, judgement_key, tree_digest, \
    versions, with_cache
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import load_suite


def test_values_and_files_round_trip(tmp_path):
    cache = Cache(tmp_path / "c")
    assert cache.get("judgement", "ab" * 32) is None
    cache.put("judgement", "ab" * 32, {"x": [1, 2]})
    assert cache.get("judgement", "ab" * 32) == {"x": [1, 2]}
    f = tmp_path / "shot.png"
    f.write_bytes(b"pixels")
    stored = cache.put_file(f)
    assert open(stored, "rb").read() == b"pixels" and cache.put_file(f) == stored  # by content, once
    assert not list((tmp_path / "c").rglob(".tmp-*"))  # writes are atomic renames


async def test_a_judgement_whose_action_ran_out_of_time_is_not_kept(tmp_path):
    """A failure that may come from a loaded machine (an action past its time bound) is judged again next
    time; any other verdict, passed or failed, is read back."""
    cache, runs = Cache(tmp_path / "c"), []

    def judged(error):
        async def run():
            runs.append(error)
            return {"actions": [{"index": 1, "status": "failed" if error else "passed", "error": error}]}
        return run
    for error in ("the page stopped responding: screenshot did not finish within 22 s", "checking timed out: x"):
        for _ in range(2):
            await cached_judgement(cache, error[:4].encode().hex() * 16, judged(error))
    for error in (None, "assertion failed: text_visible 'Done' observed 'your session timed out'"):
        for _ in range(2):
            await cached_judgement(cache, str(error)[:4].encode().hex() * 16, judged(error))
    assert [r is None or "assertion" in r for r in runs] == [False] * 4 + [True] * 2


def test_keys_follow_content_config_and_versions(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>a</p>")
    task = {"id": 1, "action_sequence": []}
    key = judgement_key(task, tmp_path, site / "index.html", JudgeConfig())
    assert key == judgement_key(task, tmp_path, site / "index.html", JudgeConfig())
    assert key != judgement_key(task, tmp_path, site / "index.html", JudgeConfig(lvs_metrics=["ocr"]))
    assert key != judgement_key({**task, "id": 2}, tmp_path, site / "index.html", JudgeConfig())
    before = tree_digest(site)
    (site / "style.css").write_text("p{}")  # a file the page may load counts, not only the entry
    assert tree_digest(site) != before
    assert key != judgement_key(task, tmp_path, site / "index.html", JudgeConfig())
    assert {"code", "playwright"} <= set(versions())


def test_the_code_fingerprint_covers_every_part_the_judge_runs():
    missing = [part for part in JUDGE_CODE if not (ROOT / part).exists()]
    assert missing == []  # a moved module would otherwise drop out of the key unnoticed
    import iwr.evals.judging.artifact
    import iwr.graphs.judge

    for module in (iwr.graphs.judge, iwr.evals.judging.artifact):
        rel = pathlib.Path(module.__file__).resolve().relative_to(ROOT).as_posix()
        assert any(rel == part or rel.startswith(part + "/") for part in JUDGE_CODE), rel


def outcome(r) -> tuple:
    """What a judgement decided, without timings and file paths."""
    return (r.status, r.ifs, r.lvs, r.hvs, r.vfs, r.final, [a["status"] for a in r.judge["actions"]],
            [c["metrics"] for c in r.judge["checkpoints"]])


@pytest.mark.slow
async def test_unchanged_artifact_is_judged_once_and_a_changed_one_again(suite_copy, tmp_path):
    suite = load_suite(suite_copy)
    task = suite.get("1")
    site = tmp_path / "artifact"
    shutil.copytree(task.reference_site(), site)
    base = {"task_id": task.id, "agent": "cached", "profile": "offline"}
    async with Toolbox(judge_servers(tmp_path, suite.root, [tmp_path])) as raw:
        tools = with_cache(raw, tmp_path / "cache")
        first = await judge_artifact(task, site / "index.html", tools, JudgeConfig(), base)
        calls = raw.calls
        again = await judge_artifact(task, site / "index.html", tools, JudgeConfig(), base)
        assert raw.calls == calls  # nothing reached a server
        assert cache_of(tools).hits >= 1
        assert outcome(again) == outcome(first)
        for c in again.judge["checkpoints"]:  # the cached copy keeps its own screenshots
            assert str(tmp_path / "cache") in c["candidate"]

        (site / "index.html").write_text((site / "index.html").read_text().replace("</body>", "<!-- x --></body>"))
        changed = await judge_artifact(task, site / "index.html", tools, JudgeConfig(), base)
        assert raw.calls > calls  # judged again
        compares = changed.judge["checkpoints"]
        assert outcome(changed) == outcome(first) and compares
        # Same pixels as before: every checkpoint's metric values came from the cache.
        assert cache_of(tools).hits >= 1 + len(compares)
