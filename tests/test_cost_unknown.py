"""A model with no known price costs "unknown" (null), never $0.00: in each call, the run's summary, the
export and the report; --price-in/--price-out set a price; an outside agent's own figure says so."""
from __future__ import annotations

import asyncio
import csv
import io
import json
import subprocess
import sys

import pytest

from iwr.agents.coder import Budget
from iwr.agents.models import ModelConfig, complete, plus_cost
from iwr.evals.workspace.command_coder import priced
from iwr.graphs.iterative import budget_left

LOCAL = "openai/a-local-model-nobody-prices"  # 120 prompt + 40 completion tokens per call (tests/fake_openai.py)


def test_a_call_to_an_unpriced_model_costs_unknown_and_a_price_sets_it(fake_openai):
    hi = [{"role": "user", "content": "hi"}]
    unknown = asyncio.run(complete(hi, ModelConfig(model=LOCAL, api_base=fake_openai.base_url, retries=0)))
    assert unknown.cost_usd is None and unknown.prompt_tokens == 120
    listed = asyncio.run(complete(hi, ModelConfig(model="openai/gpt-4o-mini", api_base=fake_openai.base_url, retries=0)))
    assert listed.cost_usd is not None and listed.cost_usd > 0
    own = ModelConfig(model=LOCAL, api_base=fake_openai.base_url, retries=0, price_in=1.5, price_out=6.0)
    assert asyncio.run(complete(hi, own)).cost_usd == pytest.approx((120 * 1.5 + 40 * 6.0) / 1e6)


def test_unknown_stays_unknown_in_sums_and_never_reaches_a_dollar_limit():
    assert plus_cost(0.5, 0.25) == 0.75 and plus_cost(0.5, None) is None and plus_cost(None, 1.0) is None
    assert budget_left({"turn": 1, "tokens": 10, "cost": None}, Budget(dollars=0.0)) is None
    assert budget_left({"turn": 1, "tokens": 10, "cost": 0.2}, Budget(dollars=0.1)) == "dollars"


def test_an_outside_agent_s_cost_says_where_it_comes_from():
    tokens = {"prompt_tokens": 1000, "completion_tokens": 200, "source": "codex turn.completed"}
    assert priced(tokens, None)["cost_usd"] is None
    assert priced({**tokens, "cost_usd": 0.03}, None)["cost_source"] == "reported by the agent"
    mine = priced({**tokens, "cost_usd": 0.03}, ModelConfig(model="m", price_in=2.0, price_out=8.0))
    assert mine["cost_usd"] == pytest.approx((1000 * 2 + 200 * 8) / 1e6) and "--price-in" in mine["cost_source"]
    assert priced({}, None) == {}


def _cli(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "iwr.evals.cli", *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd)


@pytest.mark.slow
def test_summary_export_and_report_say_unknown(fake_openai, tmp_path):
    runs = str(tmp_path / "runs")
    common = ["--agent", "single-shot", "--task", "1", "--model", LOCAL, "--api-base", fake_openai.base_url,
              "--runs-dir", runs, "--no-cache", "--json"]
    p = _cli("run", *common, "--run-id", "unpriced", cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    summary = json.loads((tmp_path / "runs" / "unpriced" / "summary.json").read_text())
    assert summary["cost_usd"] is None and summary["cost_unknown"] == 1
    rows = list(csv.DictReader(io.StringIO(_cli("runs", "export", "unpriced", "--format", "csv", "--runs-dir", runs,
                                                 cwd=tmp_path).stdout)))
    assert rows[0]["cost_usd"] == "unknown"
    p = _cli("run", *common, "--run-id", "priced", "--price-in", "1", "--price-out", "2", cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    priced_summary = json.loads((tmp_path / "runs" / "priced" / "summary.json").read_text())
    assert priced_summary["cost_usd"] == pytest.approx((120 * 1 + 40 * 2) / 1e6) and priced_summary["cost_unknown"] == 0
    rep = _cli("report", "unpriced", "priced", "--runs-dir", runs, "--out", str(tmp_path / "rep"), cwd=tmp_path)
    assert rep.returncode == 0, rep.stderr[-2000:]
    board = (tmp_path / "rep" / "index.html").read_text().split("<h2>Leaderboard</h2>")[1].split("</table>")[0]
    assert "unknown" in board and "$0.000200" in board
    assert "| unknown |" in (tmp_path / "rep" / "tables.md").read_text()


@pytest.mark.slow
def test_prices_without_a_model_price_an_outside_agent_s_own_model(tmp_path):
    agent = tmp_path / "agent.sh"
    agent.write_text("#!/bin/sh\nprintf '<!doctype html><h1>Hi</h1>' > index.html\n"
                     "echo '{\"usage\": {\"prompt_tokens\": 1000, \"completion_tokens\": 200}}'\n")
    agent.chmod(0o755)
    runs = str(tmp_path / "runs")
    p = _cli("run", "--agent", f"cmd:{agent}", "--sandbox", "none", "--task", "1", "--runs-dir", runs, "--run-id", "own",
             "--price-in", "2", "--price-out", "8", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    summary = json.loads((tmp_path / "runs" / "own" / "summary.json").read_text())
    assert summary["cost_usd"] == pytest.approx((1000 * 2 + 200 * 8) / 1e6) and summary["cost_unknown"] == 0
    result = json.loads((tmp_path / "runs" / "own" / "1" / "result.json").read_text())
    assert result["model"] is None and "--price-in" in result["coder"]["usage"]["cost_source"]
    p = _cli("run", "--agent", "single-shot", "--task", "1", "--runs-dir", runs, "--price-in", "2", cwd=tmp_path)
    assert p.returncode == 2 and "single-shot needs --model" in p.stderr
