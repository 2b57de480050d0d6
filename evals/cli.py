"""The `iwr` command line."""
from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from evals import logs  # noqa: E402
from evals.runs_cli import runs_app  # noqa: E402
from evals.selftest import selftest_app  # noqa: E402
from tasks.cli import suite_or_exit, task_or_exit, tasks_app  # noqa: E402

BUNDLED_SUITE = Path(__file__).resolve().parent.parent / "tasks" / "suite"
app = typer.Typer(help="iwr: reconstruct interactive web pages from interaction videos, and judge them.",
                  no_args_is_help=True, add_completion=False)
app.add_typer(tasks_app, name="tasks")
app.add_typer(runs_app, name="runs")
app.add_typer(selftest_app, name="selftest")
out = Console()


@app.command()
def run(
    agent: str = typer.Option("oracle", help="oracle | static | blank | single-shot | iterative; comma-separated to compare"),
    model: Optional[str] = typer.Option(None, help="litellm model name (e.g. openai/gpt-4o) or scripted:<file>"),
    api_base: Optional[str] = typer.Option(None, help="base URL of an OpenAI-compatible server"),
    tasks: Path = typer.Option(BUNDLED_SUITE, help="a data.jsonl or the folder holding it"),
    task: Optional[list[str]] = typer.Option(None, help="only these task ids (repeatable)"),
    run_id: Optional[str] = typer.Option(None, help="reuse an id to resume a run"),
    runs_dir: Path = typer.Option(Path("runs"), help="where runs are stored"),
    concurrency: int = typer.Option(2, help="tasks in flight at once (browser sessions and model calls)"),
    epochs: int = typer.Option(1, help="repeat generation N times per task to measure variance"),
    turns: str = typer.Option("8", help="iterative: turn budget; comma-separated (1,2,4,8) for one run each"),
    retry_failed: bool = typer.Option(False, "--retry-failed", help="rerun tasks that ended in an infrastructure failure"),
    no_cache: bool = typer.Option(False, "--no-cache", help="always call the model and judge afresh (default: identical "
                                  "requests are answered from RUNS_DIR/cache/responses.db, or $IWR_RESPONSE_CACHE, and "
                                  "unchanged artifacts from the judge cache in RUNS_DIR/cache/judge)"),
    executor: str = typer.Option("local", help="local | ray: run tasks in this process or spread them over Ray workers"),
    address: Optional[str] = typer.Option(None, help="with --executor ray: the cluster to join (default: a local instance)"),
    judge_profile: Optional[str] = typer.Option(None, help="paper | offline | hybrid (default: hybrid with a judge model, else offline)"),
    judge_model: Optional[str] = typer.Option(None, help="the judge's litellm model (default: $IWR_JUDGE_MODEL)"),
    judge_api_base: Optional[str] = typer.Option(None, help="base URL of the judge model's OpenAI-compatible server"),
    paper_compat: bool = typer.Option(False, "--paper-compat", help="reproduce the reference code's quirks"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
):
    """Generate a page for every task with AGENT and judge it.

    Examples:
      iwr run --agent oracle
      iwr run --agent oracle,static,blank
      iwr run --agent single-shot --model openai/gpt-4o --json
      iwr run --agent oracle --executor ray --concurrency 4   # a local Ray instance; --address HOST:PORT joins a cluster
      iwr run --agent single-shot,iterative --turns 1,2,4,8 --model openai/qwen --api-base http://127.0.0.1:8000/v1
    """
    from agents.models import ModelConfig
    from evals.run_view import execute, print_summary
    from evals.runner import RunConfig, default_run_id
    from graphs.iterative import Budget

    logs.configure()
    if executor not in ("local", "ray"):
        typer.echo(f"error: --executor must be local or ray, not {executor!r}", err=True)
        raise typer.Exit(2)
    suite = suite_or_exit(tasks)
    mcfg = ModelConfig(model=model, api_base=api_base or os.environ.get("OPENAI_API_BASE"),
                       cache_path=response_cache_path(runs_dir, no_cache or epochs > 1)) if model else None
    try:
        jcfg = judge_config(judge_profile, paper_compat, judge_model, judge_api_base, runs_dir / "cache")
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    agents = [a.strip() for a in agent.split(",") if a.strip()]
    budgets = [int(t) for t in turns.split(",")]
    combos = [(a, t) for a in agents for t in (budgets if a == "iterative" else [None])]
    base = run_id or default_run_id("-".join(agents))
    summaries, infra = [], False
    for a, t in combos:
        rid = base if len(combos) == 1 else f"{base}-{a}" + (f"-t{t}" if t else "")
        cfg = RunConfig(run_id=rid, agent=a, suite=suite, runs_dir=runs_dir, model=mcfg, task_ids=task, judge=jcfg,
                        concurrency=concurrency, epochs=epochs, retry_failed=retry_failed,
                        budget=Budget(turns=t) if t else Budget(), executor=executor, address=address,
                        cache_dir=None if no_cache else runs_dir / "cache" / "judge")
        try:
            results, summary = execute(cfg)
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2)
        infra = infra or any(r.status == "infra_failure" for r in results)
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
    from agents.response_cache import ENV

    return "off" if off else os.environ.get(ENV) or str(runs_dir / "cache" / "responses.db")


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def mcp(ctx: typer.Context, name: str = typer.Argument(..., help="browser | metrics | assets | workspace | bench")):
    """Start an MCP server on stdio (or --http PORT).

    Examples:
      iwr mcp browser
      iwr mcp metrics --http 8765
    """
    from mcp_servers.launcher import main

    main([name, *ctx.args])


@app.command()
def record(
    sites: list[str] = typer.Argument(..., help="site folders (served on loopback) or one loopback URL"),
    script: Optional[Path] = typer.Option(None, help="action script (YAML); default: every SITE/tasks/*.yaml"),
    out_dir: Path = typer.Option(BUNDLED_SUITE, "--out", help="suite folder to write the tasks into"),
):
    """Record tasks from sites and action scripts: video, assets, sheets, checkpoints, hints.

    Examples:
      iwr record tasks/sites/reviews --script tasks/sites/reviews/tasks/review.yaml --out tasks/suite
      iwr record tasks/sites/* --out tasks/suite
      iwr record http://127.0.0.1:8000/ --script my_task.yaml --out my_suite
    """
    from tasks.recorder import RecordError, record_task

    logs.configure()
    jobs = [(site, script) for site in sites] if script else [
        (site, s) for site in sites for s in sorted((Path(site) / "tasks").glob("*.yaml"))]
    if not jobs:
        typer.echo("error: no scripts found (give --script or put them in SITE/tasks/*.yaml)", err=True)
        raise typer.Exit(2)
    failed = 0
    for site, s in jobs:
        try:
            tid = asyncio.run(record_task(s, out_dir, site))
            typer.echo(f"recorded task {tid} from {s}")
        except RecordError as e:
            failed += 1
            typer.echo(f"error: {s}: {e}", err=True)
    if failed:
        raise typer.Exit(1)


@app.command()
def prepare(
    task_id: str = typer.Argument(..., help="task id"),
    out_dir: Path = typer.Option(..., "--out", help="workspace folder to create"),
    tasks: Path = typer.Option(BUNDLED_SUITE, help="a data.jsonl or the folder holding it"),
):
    """Make a workspace for an outside agent: instruction, frames, sheets, assets, .mcp.json.

    Example:
      iwr prepare 1 --out /tmp/ws && cd /tmp/ws && claude   # then: iwr judge /tmp/ws
    """
    from evals.prepare import prepare as prepare_ws

    task = task_or_exit(tasks, task_id)
    info = prepare_ws(task, out_dir)
    typer.echo(f"prepared task {task_id} in {info['folder']}: {info['frames']} frames, {info['sheets']} sheet(s), "
               f"{info['actions']} actions; MCP config in .mcp.json, .cursor/mcp.json, .vscode/mcp.json")


@app.command()
def judge(
    folder: Path = typer.Argument(..., help="a workspace made by `iwr prepare` holding index.html"),
    profile: Optional[str] = typer.Option(None, help="paper | offline | hybrid (default: hybrid with a judge model, else offline)"),
    paper_compat: bool = typer.Option(False, "--paper-compat", help="reproduce the reference code's quirks"),
    judge_model: Optional[str] = typer.Option(None, help="the judge's litellm model (default: $IWR_JUDGE_MODEL)"),
    judge_api_base: Optional[str] = typer.Option(None, help="base URL of the judge model's OpenAI-compatible server"),
    explore_model: Optional[str] = typer.Option(None, help="also let this model explore the page with browser-use "
                                                "(needs scripts/setup_explore.sh); reported under probes.explore"),
    explore_api_base: Optional[str] = typer.Option(None, help="base URL of the explore model's OpenAI-compatible server"),
    as_json: bool = typer.Option(False, "--json", help="print the result with every action and checkpoint"),
):
    """Judge the page an agent left in a prepared workspace (or a run's task folder).

    Examples:
      iwr judge /tmp/ws --json
      iwr judge /tmp/ws --profile paper --judge-model openai/gpt-4o
      iwr judge /tmp/ws --explore-model openai/qwen --explore-api-base http://127.0.0.1:8000/v1
    """
    from evals.runner import judge_folder

    logs.configure()
    try:
        config = judge_config(profile, paper_compat, judge_model, judge_api_base, folder / ".iwr-judge")
        if explore_model:
            from agents.models import ModelConfig

            config.explore_model = ModelConfig(model=explore_model, api_base=explore_api_base, timeout_s=120.0)
        result = asyncio.run(judge_folder(folder, config))
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    if as_json:
        typer.echo(json.dumps({**result.summary(), "profile": result.profile, "backends": result.backends,
                               **{k: result.judge.get(k) for k in ("actions", "checkpoints", "probes", "flags",
                                                                    "paper_compat", "judge_model", "llm_usage")}}))
    else:
        out.print(f"task {result.task_id}: {result.status}  IFS {result.ifs * 100:.1f}  VFS {result.vfs * 100:.1f}  "
                  f"Final {result.final * 100:.1f}" + (f"  ({result.error})" if result.error else ""))
    if result.status == "infra_failure":
        raise typer.Exit(1)


@app.command()
def calibrate(
    tasks: Path = typer.Option(BUNDLED_SUITE, help="a data.jsonl or the folder holding it"),
    max_tasks: Optional[int] = typer.Option(None, help="calibrate on the first N tasks with a reference site"),
    work: Optional[Path] = typer.Option(None, help="folder for mutants and screenshots (default: a temp folder)"),
    no_cache: bool = typer.Option(False, "--no-cache", help="judge everything afresh (default: reuse judgements and "
                                  "metric values from runs/cache/judge)"),
    as_json: bool = typer.Option(False, "--json", help="print the calibration as JSON"),
):
    """Judge every reference site and injected defects of it; report detection per defect kind.

    Example:
      iwr calibrate --json
    """
    from evals.calibrate import calibrate as run_calibration

    logs.configure()
    suite = suite_or_exit(tasks)
    cache = None if no_cache else Path("runs") / "cache" / "judge"
    res = asyncio.run(run_calibration(suite, work, max_tasks, cache_dir=cache))
    if as_json:
        typer.echo(json.dumps({k: v for k, v in res.items() if k != "rows"}))
        return
    t = Table(title=f"calibration: {res['mutants']} mutants, {res['detection_rate'] * 100:.1f} % detected, "
                    f"reference Final min {res['oracle_final_min'] * 100:.1f}")
    for c in ("defect kind", "mutants", "detected"):
        t.add_column(c)
    for k, v in res["by_kind"].items():
        t.add_row(k, str(v["mutants"]), str(v["detected"]))
    out.print(t)


@app.command()
def bench(
    tasks: Path = typer.Option(BUNDLED_SUITE, help="a data.jsonl or the folder holding it"),
    max_tasks: int = typer.Option(4, help="bench on N tasks spread over the suite (0: every task with a reference site)"),
    rounds: int = typer.Option(6, help="repetitions of the MCP-against-in-process measurement"),
    repeats: int = typer.Option(3, help="replays per task for the judge and the floor; the median run counts"),
    work: Optional[Path] = typer.Option(None, help="folder for screenshots and logs (default: a temp folder)"),
    as_json: bool = typer.Option(False, "--json", help="print the figures as JSON"),
):
    """Measure the judge against the floor, fixed sleeps, MCP overhead, the cache and concurrency.

    Example:
      iwr bench --json
    """
    from evals.bench import bench as run_bench

    logs.configure()
    suite = suite_or_exit(tasks)
    try:
        res = asyncio.run(run_bench(suite, max_tasks, work, rounds, repeats=repeats))
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    if as_json:
        typer.echo(json.dumps(res))
        return
    t = Table(title=f"iwr bench: {len(res['tasks'])} tasks, {res['actions']['replayed']} actions, "
                    f"{res['checkpoints']} checkpoints, {res['seconds']['bench']} s")
    t.add_column("figure")
    t.add_column("value")
    for k, v in res.items():
        if k not in ("tasks", "seconds", "actions", "checkpoints"):
            t.add_row(k, ", ".join(f"{a}: {b}" for a, b in v.items()) if isinstance(v, dict) else str(v))
    out.print(t)


@app.command()
def report(
    run: str = typer.Argument(..., help="run id (under --runs-dir) or a run folder"),
    compare: Optional[list[str]] = typer.Option(None, help="more runs to put beside it (repeatable)"),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="report folder (default: runs/<run>/report)"),
    runs_dir: Path = typer.Option(Path("runs"), help="where runs are stored"),
):
    """Write a static HTML report (leaderboard, plots, a page per task) that opens from disk.

    Examples:
      iwr report oracle-bundled --compare blank-bundled
      iwr report runs/my-run --out /tmp/report
    """
    from evals.report import build_report

    folders = []
    for r in [run, *(compare or [])]:
        f = Path(r) if Path(r).is_dir() else runs_dir / r
        if not (f / "summary.json").is_file():
            typer.echo(f"error: {f} is not a finished run (no summary.json)", err=True)
            raise typer.Exit(2)
        folders.append(f)
    index = build_report(folders, out_dir or folders[0] / "report")
    typer.echo(str(index))



def judge_config(profile: str | None, paper_compat: bool, judge_model: str | None, judge_api_base: str | None,
                 cache_dir: Path):
    """The judge's configuration from command-line options; the model's answers are cached in CACHE_DIR."""
    from agents.models import ModelConfig
    from graphs.judge import JudgeConfig

    name = judge_model or os.environ.get("IWR_JUDGE_MODEL")
    model = ModelConfig(model=name, api_base=judge_api_base or os.environ.get("IWR_JUDGE_API_BASE"), timeout_s=120.0,
                        max_tokens=1024, cache_path=os.environ.get("IWR_RESPONSE_CACHE") or str(cache_dir / "responses.db")
                        ) if name else None
    profile = profile or ("hybrid" if model else "offline")
    if profile not in ("paper", "offline", "hybrid"):
        raise ValueError(f"unknown judge profile {profile!r}: choose paper, offline or hybrid")
    return JudgeConfig.for_profile(profile, model if profile != "offline" else None, paper_compat=paper_compat)


if __name__ == "__main__":
    app()
