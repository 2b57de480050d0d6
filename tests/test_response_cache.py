"""The response cache: a rerun of identical requests makes no model call and gives identical results;
failures and scripted models never touch it."""
import json
from pathlib import Path

import pytest

from iwr.agents.models import ModelConfig, ModelUnavailable, complete
from iwr.agents.response_cache import ResponseCache, cache_path, request_key
from iwr.evals.cli.running import response_cache_path
from iwr.evals.run.config import RunConfig
from iwr.evals.run.runner import run
from iwr.tasks.loader import load_suite

GOOD_PAGE = (Path(__file__).resolve().parent.parent / "tasks" / "sites" / "reviews" / "index.html").read_text()
HELLO = [{"role": "user", "content": "hello"}]


def test_key_is_canonical_and_covers_what_shapes_the_answer():
    base = dict(model="openai/m", api_base="http://x/v1", messages=[{"role": "user", "content": "hi"}],
                tools=None, temperature=0.0, max_tokens=100)
    same = {**base, "messages": [{"content": "hi", "role": "user"}]}  # key order does not matter
    assert request_key(**base) == request_key(**same) and len(request_key(**base)) == 64
    assert request_key(**base) == request_key(**{**base, "tools": []})
    for change in ({"model": "openai/n"}, {"api_base": None}, {"temperature": 0.5}, {"max_tokens": 99},
                   {"messages": [{"role": "user", "content": "hi!"}]}, {"tools": [{"type": "function"}]}):
        assert request_key(**{**base, **change}) != request_key(**base), change


def test_path_resolution(monkeypatch, tmp_path):
    monkeypatch.delenv("IWR_RESPONSE_CACHE", raising=False)
    assert cache_path(None) is None and cache_path("off") is None
    assert cache_path(str(tmp_path / "c.db")) == tmp_path / "c.db"
    monkeypatch.setenv("IWR_RESPONSE_CACHE", str(tmp_path / "env.db"))
    assert cache_path(None) == tmp_path / "env.db"
    assert cache_path("off") is None  # --no-cache wins over the environment
    assert response_cache_path(tmp_path, off=False) == str(tmp_path / "env.db")
    monkeypatch.delenv("IWR_RESPONSE_CACHE")
    assert response_cache_path(tmp_path, off=False) == str(tmp_path / "cache" / "responses.db")
    assert response_cache_path(tmp_path, off=True) == "off"


async def test_failures_and_empty_answers_are_not_cached(fake_openai, tmp_path):
    db = tmp_path / "responses.db"
    cfg = ModelConfig(model="openai/fake", api_base=fake_openai.base_url, retries=0, cache_path=str(db))
    fake_openai.replies = [{"status": 500}, "", "```html\n<p>ok</p>\n```"]
    with pytest.raises(ModelUnavailable):
        await complete(HELLO, cfg)
    assert (await complete(HELLO, cfg)).text == ""
    first = await complete(HELLO, cfg)
    again = await complete(HELLO, cfg)
    assert len(fake_openai.requests) == 3 and ResponseCache(db).count() == 1
    assert not first.cached and again.cached and again.text == first.text
    assert again.cost_usd == 0.0 and again.latency_s == 0.0 and again.prompt_tokens == first.prompt_tokens


async def test_scripted_models_bypass_the_cache(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<p>x</p>")
    db = tmp_path / "responses.db"
    reply = await complete(HELLO, ModelConfig(model=f"scripted:{page}", cache_path=str(db)))
    assert not reply.cached and not db.exists()


@pytest.mark.slow
async def test_second_identical_run_makes_no_request_and_gives_identical_results(fake_openai, tmp_path, suite_copy):
    fake_openai.replies = ["```html\n" + GOOD_PAGE.replace("assets/poster.png", "__PLACEHOLDER_ASSETS_BASE_DIR__/1.png")
                           + "\n```"]
    model = ModelConfig(model="openai/fake-vl", api_base=fake_openai.base_url, retries=0,
                        cache_path=str(tmp_path / "cache" / "responses.db"))

    async def once(run_id: str):
        cfg = RunConfig(run_id=run_id, agent="single-shot", suite=load_suite(suite_copy), runs_dir=tmp_path, model=model)
        return (await run(cfg))[0]

    first = await once("first")
    assert len(fake_openai.requests) == 1 and first.status == "scored" and not first.coder["usage"]["cached"]
    second = await once("second")
    assert len(fake_openai.requests) == 1, "the rerun called the model"
    assert second.coder["usage"]["cached"] and second.coder["usage"]["cost_usd"] == 0.0
    keys = ("status", "ifs", "lvs", "hvs", "vfs", "final")
    assert [getattr(second, k) for k in keys] == [getattr(first, k) for k in keys]
    pages = [(tmp_path / r / "1" / "artifact" / "index.html").read_text() for r in ("first", "second")]
    assert pages[0] == pages[1]
    summary = json.loads((tmp_path / "second" / "summary.json").read_text())
    assert summary["tasks"][0]["final"] == first.final
