"""`iwr judge`, `iwr calibrate`, `iwr bench`: the judge on one workspace, on injected defects, against the clock."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from iwr.evals.cli.progress import progress_bar
from iwr.evals.cli.tasks import suite_or_exit
from iwr.evals.run import logs
from iwr.settings import settings
from iwr.tasks.defaults import AGREEMENT_CORPUS as AGREEMENT, BUNDLED_SUITE, judge_cache

out = Console()


def judge(
    folder: Path = typer.Argument(..., help="a workspace made by `iwr prepare` holding index.html"),
    profile: Optional[str] = typer.Option(None, help="paper | offline | hybrid (default: hybrid with a judge model, else offline)"),
    paper_compat: bool = typer.Option(False, "--paper-compat", help="reproduce the reference code's quirks"),
    judge_model: Optional[str] = typer.Option(None, help="the judge's litellm model (default: $IWR_JUDGE_MODEL)"),
    judge_api_base: Optional[str] = typer.Option(None, help="base URL of the judge model's OpenAI-compatible server"),
    ocr_engine: Optional[str] = typer.Option(None, help="what reads the ocr metric's text: tesseract | easyocr | rapidocr | "
                                             "auto, EasyOCR where it is installed else Tesseract (default: the profile's; "
                                             "paper: auto)"),
    explore_model: Optional[str] = typer.Option(None, help="also let this model explore the page with browser-use "
                                                "(needs scripts/setup_explore.sh); reported under probes.explore"),
    explore_api_base: Optional[str] = typer.Option(None, help="base URL of the explore model's OpenAI-compatible server"),
    task_id: Optional[str] = typer.Option(None, "--task", help="judge FOLDER as this task (the marker is then not read)"),
    tasks: Path = typer.Option(BUNDLED_SUITE, help="with --task: the suite it is in"),
    hints: str = typer.Option("on", help="on: the judge may use our recorder's per-action hints where the task has "
                              "them; off: it judges from the words alone, as on official data"),
    as_json: bool = typer.Option(False, "--json", help="print the result with every action and checkpoint"),
):
    """Judge the page an agent left in a prepared workspace; the judgement is written outside it
    (under $IWR_STATE_DIR, default ~/.local/state/iwr), never into the folder.

    Examples:
      iwr judge /tmp/ws --json
      iwr judge /tmp/ws --profile paper --judge-model openai/gpt-4o
      iwr judge /tmp/ws --explore-model openai/qwen --explore-api-base http://127.0.0.1:8000/v1
      iwr judge /tmp/ws --hints off --json
    """
    from iwr.evals.workspace.outside import judge_folder, judgement_path
    from iwr.tasks.marker import named_workspace, read_marker

    if hints not in ("on", "off"):
        typer.echo(f"error: --hints is on or off, not {hints!r}", err=True)
        raise typer.Exit(2)
    logs.configure()
    try:
        ws = named_workspace(folder, suite_or_exit(tasks).get(task_id)) if task_id else read_marker(folder)
        config = judge_config(profile, paper_compat, judge_model, judge_api_base, ws.judgements / "responses.db",
                              hints=hints == "on", ocr_engine=ocr_engine)
        if explore_model:
            from iwr.agents.models import ModelConfig

            config.explore_model = ModelConfig(model=explore_model, api_base=explore_api_base, timeout_s=120.0)
        result = asyncio.run(judge_folder(ws, config))
    except (ValueError, KeyError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    if as_json:  # each action's pass or fail only: the checks, errors and checkpoints stay in the judgement file
        acts = [{k: a.get(k) for k in ("index", "type", "description", "status")} for a in result.judge.get("actions", [])]
        typer.echo(json.dumps({**result.summary(), "profile": result.profile, "backends": result.backends,
                               "actions": acts, "judgement": str(judgement_path(ws)),
                               **{k: result.judge.get(k) for k in ("flags", "paper_compat", "judge_model", "llm_usage")}}))
    else:
        out.print(f"task {result.task_id}: {result.status}  IFS {result.ifs * 100:.1f}  VFS {result.vfs * 100:.1f}  "
                  f"Final {result.final * 100:.1f}" + (f"  ({result.error})" if result.error else ""))
        out.print(f"judgement: {judgement_path(ws)}")
    if result.status in ("infra_failure", "invalid_task"):
        raise typer.Exit(1)


def calibrate(
    tasks: Path = typer.Option(BUNDLED_SUITE, help="a data.jsonl or the folder holding it"),
    max_tasks: Optional[int] = typer.Option(None, help="calibrate on the first N tasks with a reference site"),
    work: Optional[Path] = typer.Option(None, help="folder for mutants and screenshots (default: a temp folder)"),
    no_cache: bool = typer.Option(False, "--no-cache", help="judge everything afresh (default: reuse judgements and "
                                  "metric values from runs/cache/judge)"),
    hints: str = typer.Option("on", help="on: the judge may use our recorder's per-action hints; off: it reads "
                              "only the words (as on official data) and the hints measure it"),
    real: Optional[Path] = typer.Option(None, help="corpus of real apps to judge, originals and broken variants "
                                        "(default with --hints off: tasks/real)"),
    equivalents: Optional[bool] = typer.Option(None, "--equivalents/--no-equivalents", help="also judge a rebuilt, "
                                               "restyled copy of each reference (default: with --hints off)"),
    metric_drift: bool = typer.Option(False, "--metric-drift", help="rescore every judged page with the metrics as "
                                      "first written; report the largest LVS/HVS difference"),
    agreement: Optional[bool] = typer.Option(None, "--agreement/--no-agreement", help="--agreement: only set the judge "
                                             "beside the graders of the agreement corpus (tasks/agreement), hints on "
                                             "and off; by default a whole calibration (no --max-tasks) includes that "
                                             "corpus under its own hints setting"),
    corpus: Path = typer.Option(AGREEMENT, help="the agreement corpus"),
    only: list[str] = typer.Option([], "--only", help="with --agreement: judge only the pages of this corpus "
                                   "(suite, real, blind, blind2, ...), task id or page id; repeatable"),
    as_json: bool = typer.Option(False, "--json", help="print the calibration as JSON"),
):
    """Judge every reference site and injected defects of it; report detection per defect kind.

    Examples:
      iwr calibrate --json
      iwr calibrate --hints off --json     (adds grounding/assertion agreement, false negatives, tasks/real)
      iwr calibrate --agreement            (the judge against people's labels, hints on and off)
      iwr calibrate --agreement --only blind2 --json
    """
    from iwr.evals.quality.agreement import judge_agreement
    from iwr.evals.quality.calibrate import calibrate as run_calibration
    from iwr.evals.quality.real_corpus import REAL_SUITE

    if hints not in ("on", "off"):
        typer.echo(f"error: --hints is on or off, not {hints!r}", err=True)
        raise typer.Exit(2)
    off = hints == "off"
    logs.configure()
    cache = None if no_cache else judge_cache()
    if agreement:
        with progress_bar("agreement: judgements") as bar:
            res = asyncio.run(judge_agreement(corpus, work, (True, False), cache_dir=cache, progress=bar,
                                               only=tuple(only)))
        show_agreement(out, res, as_json)
        return
    suite = suite_or_exit(tasks)
    real = real or (REAL_SUITE if off and (REAL_SUITE / "originals.json").is_file() else None)
    with progress_bar("calibrate: judgements") as bar:
        res = asyncio.run(run_calibration(suite, work, max_tasks, cache_dir=cache, hints=not off, real=real,
                                          equivalents=off if equivalents is None else equivalents, drift=metric_drift,
                                          progress=bar))
        if agreement is None and max_tasks is None:  # the whole calibration: the judge against people too
            res["agreement"] = asyncio.run(judge_agreement(corpus, work, (not off,), cache_dir=cache, progress=bar))
    if as_json:
        typer.echo(json.dumps({k: without_rows(v) if k == "agreement" else v for k, v in res.items() if k != "rows"}))
        return
    t = Table(title=f"calibration: {res['mutants']} mutants, {res['detection_rate'] * 100:.1f} % detected, "
                    f"reference Final min {res['oracle_final_min'] * 100:.1f}")
    for c in ("defect kind", "mutants", "detected"):
        t.add_column(c)
    for k, v in res["by_kind"].items():
        t.add_row(k, str(v["mutants"]), str(v["detected"]))
    out.print(t)
    keys = ("grounding_agreement", "assertion_agreement", "assertion_agreement_all", "unverifiable_share",
            "oracle_ifs_mean", "oracle_ifs_min", "blank_vfs_max", "false_negative_rate", "real_orig_final_min",
            "real_variants_below", "real_unavailable", "max_metric_drift", "drift_pages", "drift_worst")
    for k in keys:
        if res.get(k) is not None:
            out.print(f"{k}: {res[k]}")
    if res.get("agreement"):
        show_agreement(out, res["agreement"], False)


def without_rows(res: dict) -> dict:
    """The agreement figures without their per-page rows (kept for reports, too long for a terminal)."""
    return {k: ({kk: vv for kk, vv in v.items() if kk != "rows"} if isinstance(v, dict) else v) for k, v in res.items()}


def show_agreement(console: Console, res: dict, as_json: bool) -> None:
    """The agreement figures: JSON, or a table per hints setting (overall, per corpus, per kind of page)."""
    if as_json:
        typer.echo(json.dumps(without_rows(res)))
        return
    if "agreement_unavailable" in res:
        console.print(f"agreement: {res['agreement_unavailable']}")
        return
    cols = ("per_action_agreement", "false_fail_rate", "false_pass_rate", "first_failure_exact", "kendall_tau")
    for setting in ("hints_on", "hints_off"):
        if setting not in res:
            continue
        r = res[setting]
        t = Table(title=f"agreement with the graders, {setting.replace('_', ' ')}: {r['pages']} pages, "
                        f"{r['actions_compared']} actions compared")
        for c in ("pages", *cols):
            t.add_column(c)
        rows = [("all", r)] + [(f"corpus {k}", v) for k, v in r["by_corpus"].items()] + \
               [(f"page {k}", v) for k, v in r["by_mode"].items()]
        for name, v in rows:
            t.add_row(name, *[str(v.get(c)) for c in cols])
        console.print(t)
        for d in r["disagreements"][:40]:
            console.print(f"  {d['page']} (task {d['task']}) action {d['index']}: judge {d['judge']}, grader {d['grader']}"
                          f" ({d['grader_reason']}) / judge: {d['judge_reason']}")


def bench(
    tasks: Path = typer.Option(BUNDLED_SUITE, help="a data.jsonl or the folder holding it"),
    max_tasks: int = typer.Option(4, help="bench on N tasks spread over the suite (0: every task with a reference site)"),
    rounds: int = typer.Option(6, help="repetitions of the MCP-against-in-process measurement"),
    repeats: int = typer.Option(3, help="replays per task for the judge and the floor; the median run counts"),
    work: Optional[Path] = typer.Option(None, help="folder for screenshots and logs (default: a temp folder)"),
    suite_tasks: int = typer.Option(0, help="run the oracle on N suite tasks for suite_vs_floor (0: the whole suite)"),
    candidate_tasks: int = typer.Option(2, help="score mutants and equivalents of N bench tasks"),
    checkpoints: int = typer.Option(0, help="score at most N checkpoints of each such candidate (0: all; a quick bench)"),
    as_json: bool = typer.Option(False, "--json", help="print the figures as JSON"),
):
    """Measure the judge against the floor, fixed sleeps, MCP overhead, the cache, concurrency, scoring
    on non-reference pages and the oracle on the suite (each figure: evals/quality/bench.py).

    Example:
      iwr bench --json
    """
    from iwr.evals.quality.bench import bench as run_bench

    logs.configure()
    suite = suite_or_exit(tasks)
    try:
        with progress_bar("bench: phases") as bar:
            res = asyncio.run(run_bench(suite, max_tasks, work, rounds, repeats=repeats, suite_tasks=suite_tasks,
                                        candidate_tasks=candidate_tasks, checkpoints=checkpoints,
                                        progress=bar))
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


def judge_config(profile: str | None, paper_compat: bool, judge_model: str | None, judge_api_base: str | None,
                 responses_db: Path, hints: bool = True, ocr_engine: str | None = None):
    """The judge's configuration from command-line options; the model's answers are cached in RESPONSES_DB
    (or $IWR_RESPONSE_CACHE). With `hints` off the judge reads only the words of each action."""
    from iwr.agents.models import ModelConfig
    from iwr.graphs.judge import JudgeConfig
    from iwr.mcp_servers.metrics.ocr import OCR_ENGINES

    if ocr_engine is not None and ocr_engine not in OCR_ENGINES:
        raise ValueError(f"--ocr-engine is one of {', '.join(OCR_ENGINES)}, not {ocr_engine!r}")
    env = settings()
    name = judge_model or env.judge_model
    model = ModelConfig(model=name, api_base=judge_api_base or env.judge_api_base, timeout_s=120.0,
                        max_tokens=1024, cache_path=env.response_cache or str(responses_db)
                        ) if name else None
    return JudgeConfig.for_profile(profile or ("hybrid" if model else "offline"), model, paper_compat=paper_compat,
                                   hints=hints, ocr_engine=ocr_engine)
