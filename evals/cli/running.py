"""`iwr run`: a coder (or several, or several turn budgets) on a suite, judged; a table or JSON after."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from iwr.evals.cli.judging import judge_config
from iwr.evals.cli.tasks import suite_or_exit
from iwr.evals.run import logs
from iwr.evals.workspace.agent_presets import PRESETS
from iwr.settings import settings
from iwr.tasks.defaults import BUNDLED_SUITE, RUNS_DIR, judge_cache, response_cache

out = Console()
# The coders of evals/run/coders.py, named here so that `iwr --help` does not import them (a test keeps both lists equal).
BUILT_IN = ("oracle", "static", "blank", "single-shot", "iterative")


def run(
    agent: str = typer.Option("oracle", help=" | ".join([*BUILT_IN, *PRESETS]) + " | cmd:'<command>' (an outside "
                              "agent, see README); comma-separated to compare"),
    model: Optional[str] = typer.Option(None, help="litellm model name (e.g. openai/gpt-4o) or scripted:<file>"),
    api_base: Optional[str] = typer.Option(None, help="base URL of an OpenAI-compatible server"),
    price_in: Optional[float] = typer.Option(None, help="US dollars per million prompt tokens of --model, or of an outside agent's own model (instead of "
                                             "litellm's price map; a model it does not know costs 'unknown')"),
    price_out: Optional[float] = typer.Option(None, help="US dollars per million completion tokens, as --price-in"),
    tasks: Path = typer.Option(BUNDLED_SUITE, help="a data.jsonl or the folder holding it"),
    task: Optional[list[str]] = typer.Option(None, help="only these task ids (repeatable)"),
    run_id: Optional[str] = typer.Option(None, help="reuse an id to resume a run"),
    runs_dir: Path = typer.Option(RUNS_DIR, help="where runs are stored"),
    concurrency: int = typer.Option(2, help="tasks in flight at once (browser sessions and model calls)"),
    epochs: int = typer.Option(1, help="repeat generation N times per task to measure variance"),
    turns: str = typer.Option("8", help="iterative: turn budget; comma-separated (1,2,4,8) for one run each"),
    feedback: str = typer.Option("scores", help="iterative: what its replay tool tells the coder: none | scores (how "
                                 "many actions replayed) | actions (pass or fail per action, its words only)"),
    retry_failed: bool = typer.Option(False, "--retry-failed", help="rerun tasks that ended in an infrastructure failure"),
    no_cache: bool = typer.Option(False, "--no-cache", help="always call the model and judge afresh (default: identical "
                                  "requests are answered from RUNS_DIR/cache/responses.db, or $IWR_RESPONSE_CACHE, and "
                                  "unchanged artifacts from the judge cache in RUNS_DIR/cache/judge)"),
    executor: str = typer.Option("local", help="local | ray: run tasks in this process or spread them over Ray workers"),
    address: Optional[str] = typer.Option(None, help="with --executor ray: the cluster to join (default: a local instance)"),
    judge_profile: Optional[str] = typer.Option(None, help="paper | offline | hybrid (default: hybrid with a judge model, else offline)"),
    judge_model: Optional[str] = typer.Option(None, help="the judge's litellm model (default: $IWR_JUDGE_MODEL)"),
    judge_api_base: Optional[str] = typer.Option(None, help="base URL of the judge model's OpenAI-compatible server"),
    ocr_engine: Optional[str] = typer.Option(None, help="what reads the ocr metric's text: tesseract | easyocr | rapidocr | "
                                             "auto, EasyOCR where it is installed else Tesseract (default: the profile's; "
                                             "paper: auto)"),
    paper_compat: bool = typer.Option(False, "--paper-compat", help="reproduce the reference code's quirks"),
    hints: str = typer.Option("on", help="on: the judge may use our recorder's per-action hints where the task has them "
                              "(the original's selectors and classes never count against a page: graphs/hinted.py); "
                              "off: the words alone, as on official data"),
    seconds: float = typer.Option(1800, help="wall-clock budget per task for a coder (an outside agent is stopped then)"),
    max_tokens: int = typer.Option(400_000, help="iterative: prompt plus completion tokens per task; the loop stops "
                                   "at the first budget reached and records which (stop_reason)"),
    max_dollars: float = typer.Option(5.0, help="iterative: model cost per task in US dollars, as litellm prices it"),
    sandbox: str = typer.Option("bwrap", help="where an outside agent runs: bwrap (sees only its workspace) | none"),
    expose: Optional[list[Path]] = typer.Option(None, help="a folder an outside agent may also read, e.g. where it is "
                                                "installed (repeatable)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
):
    """Generate a page for every task with AGENT and judge it.

    Examples:
      iwr run --agent oracle
      iwr run --agent oracle,static,blank
      iwr run --agent oracle --hints off     # the words alone, as the official data set has them
      iwr run --agent single-shot --model openai/gpt-4o --json
      iwr run --agent oracle --executor ray --concurrency 4   # a local Ray instance; --address HOST:PORT joins a cluster
      iwr run --agent single-shot,iterative --turns 1,2,4,8 --model openai/qwen --api-base http://127.0.0.1:8000/v1
      iwr run --agent claude-code --seconds 900
      iwr run --agent cmd:'my-agent --prompt {prompt} --mcp {mcp_config}' --expose /opt/my-agent
    """
    from iwr.agents.coder import Budget
    from iwr.agents.models import ModelConfig
    from iwr.evals.cli.run_view import execute, print_summary
    from iwr.evals.run.coders import coder_named
    from iwr.evals.run.config import RunConfig, default_run_id
    from iwr.evals.run.runner import EXECUTORS

    logs.configure()
    if executor not in EXECUTORS:
        typer.echo(f"error: --executor must be one of {', '.join(EXECUTORS)}, not {executor!r}", err=True)
        raise typer.Exit(2)
    suite = suite_or_exit(tasks)
    mcfg = ModelConfig(model=model or "", api_base=api_base or os.environ.get("OPENAI_API_BASE"),
                       cache_path=response_cache_path(runs_dir, no_cache or epochs > 1), price_in=price_in,
                       price_out=price_out) if model or price_in is not None or price_out is not None else None
    try:
        if hints not in ("on", "off"):
            raise ValueError(f"--hints is on or off, not {hints!r}")
        jcfg = judge_config(judge_profile, paper_compat, judge_model, judge_api_base, response_cache(runs_dir),
                            hints=hints == "on", ocr_engine=ocr_engine)
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    agents = [agent.strip()] if agent.strip().startswith("cmd:") else [a.strip() for a in agent.split(",") if a.strip()]
    budgets = [int(t) for t in turns.split(",")]
    try:
        combos = [(a, t) for a in agents for t in (budgets if coder_named(a, sandbox).iterates else [None])]
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    if mcfg is not None and not model and any(coder_named(a, sandbox).needs_model for a, _ in combos):
        typer.echo("error: --price-in/--price-out without --model price an outside agent's own model; "
                   f"{agent} needs --model", err=True)
        raise typer.Exit(2)
    base = run_id or default_run_id("-".join(a.split(":")[0] for a in agents))
    summaries, infra = [], False
    for a, t in combos:
        rid = base if len(combos) == 1 else f"{base}-{a}" + (f"-t{t}" if t else "")
        cfg = RunConfig(run_id=rid, agent=a, suite=suite, runs_dir=runs_dir, model=mcfg, task_ids=task, judge=jcfg,
                        concurrency=concurrency, epochs=epochs, retry_failed=retry_failed, feedback=feedback,
                        budget=Budget(**({"turns": t} if t else {}), seconds=seconds, tokens=max_tokens, dollars=max_dollars),
                        executor=executor,
                        address=address, sandbox=sandbox, expose=list(expose or []),
                        cache_dir=None if no_cache else judge_cache(runs_dir))
        try:
            results, summary = execute(cfg)
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2)
        infra = infra or any(r.status in ("infra_failure", "invalid_task") for r in results)
        summaries.append(summary)
        if not as_json:
            print_summary(out, cfg, results, summary)
    if as_json:
        typer.echo(json.dumps(summaries[0] if len(summaries) == 1 else {"runs": summaries}))
    elif len(summaries) > 1:
        t = Table(title="comparison (means over counted tasks, x100)")
        for c in ("run", "agent", "counted", "IFS", "VFS", "Final"):
            t.add_column(c)
        for sm in summaries:
            m = sm["mean"]
            vals = [f"{m[k] * 100:.1f}" if m[k] is not None else "-" for k in ("ifs", "vfs", "final")]
            t.add_row(sm["run_id"], sm["agent"], str(m["counted"]), *vals)
        out.print(t)
    if infra:
        raise typer.Exit(1)


def response_cache_path(runs_dir: Path, off: bool) -> str:
    """Where `iwr run` caches model replies; repeated epochs measure variance, so they are never cached."""
    return "off" if off else settings().response_cache or str(response_cache(runs_dir))
