"""`iwr tasks ...`: validate, list and show suites, download the official one, materialise tasks/real."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from iwr.tasks.defaults import BUNDLED_SUITE
from iwr.tasks.hub import DEFAULT_REVISION, OFFICIAL_REPO

tasks_app = typer.Typer(help="Validate and inspect task suites.", no_args_is_help=True)


def suite_or_exit(path: Path):
    """Load a suite, or print every problem and exit with status 2."""
    from iwr.tasks.loader import TaskFileError, load_suite

    try:
        return load_suite(path)
    except TaskFileError as e:
        typer.echo(f"error: cannot load tasks:\n{e}", err=True)
        raise typer.Exit(2)


def task_or_exit(path: Path, task_id: str):
    """One task of a suite, or a clear error and exit status 2."""
    try:
        return suite_or_exit(path).get(task_id)
    except KeyError as e:
        typer.echo(f"error: {e.args[0]}", err=True)
        raise typer.Exit(2)


@tasks_app.command()
def validate(path: Path = typer.Argument(BUNDLED_SUITE, help="a data.jsonl or the folder holding it")):
    """Check a suite (schema, files, checkpoints); print every problem; exit 1 if any. Warn (without
    failing) about each assertion whose words alone decide nothing: a judge must read it from the recording.

    Example:
      iwr tasks validate tasks/suite
    """
    from iwr.tasks.validate import validate_suite

    problems = validate_suite(path)
    for p in problems:
        typer.echo(str(p))
    if problems:
        typer.echo(f"{len(problems)} problem(s)", err=True)
        raise typer.Exit(1)
    for w in undecidable_sentences(suite_or_exit(path)):
        typer.echo(w, err=True)
    typer.echo("ok")


def undecidable_sentences(suite) -> list[str]:
    """A warning for each logical assertion with nothing the words alone decide (and no checks)."""
    from iwr.graphs.sentence_names import task_names
    from iwr.graphs.visible_change import unverifiable

    out = []
    for t in suite.tasks:
        actions = [a.model_dump(exclude_none=True) for a in t.record.action_sequence]
        names = task_names(actions)  # the page's texts are not known here: a warning may be decided on the page
        out += [f"warning: task {t.id} action {i}: the words alone cannot decide {a['logical_assertion']!r} unless "
                f"the page shows a name it writes unquoted (quote the text a person would look for, or say what and how many)"
                for i, a in enumerate(actions, 1) if unverifiable(a, names)]
    return out


@tasks_app.command()
def download(revision: str = typer.Option(DEFAULT_REVISION, help="a branch, tag or commit of the data set (a commit pins it)"),
             out: Optional[Path] = typer.Option(None, help="a folder to put the files in (default: one per commit "
                                                "beside the Hub cache, $HF_HOME/iwr/)"),
             repo: str = typer.Option(OFFICIAL_REPO, help="the data set's id on the Hub"),
             as_json: bool = typer.Option(False, "--json", help="print {folder, commit, endpoint, problems} as JSON")):
    """Fetch the official IWR-Bench data set from the Hugging Face Hub ($HF_ENDPOINT, $HF_TOKEN), check
    its layout as `iwr tasks validate` does, and print the folder to pass to --tasks. A stopped download
    resumes. Exit 2 if it cannot be fetched, 1 if its files have problems.

    Examples:
      iwr tasks download
      iwr tasks download --revision <commit> --out ~/data/iwr-bench
      iwr run --agent oracle --tasks "$(iwr tasks download)"
    """
    from iwr.tasks.hub import HubError
    from iwr.tasks.hub import download as fetch
    from iwr.tasks.validate import validate_suite

    try:
        got = fetch(revision, out, repo)
    except HubError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    problems = [str(p) for p in validate_suite(got.folder)]
    if as_json:
        typer.echo(json.dumps({"folder": str(got.folder), "commit": got.commit, "endpoint": got.endpoint,
                               "problems": problems}))
    else:
        for p in problems:
            typer.echo(p, err=True)
        typer.echo(f"{repo}@{got.commit} from {got.endpoint}: {len(problems)} problem(s); --revision {got.commit} "
                   "pins it", err=True)
        typer.echo(str(got.folder))
    if problems:
        raise typer.Exit(1)


@tasks_app.command("list")
def list_(path: Path = typer.Option(BUNDLED_SUITE, "--tasks", help="a data.jsonl or the folder holding it"),
          as_json: bool = typer.Option(False, "--json", help="print a JSON list")):
    """List the tasks of a suite with their levels and counts.

    Example:
      iwr tasks list --json
    """
    suite = suite_or_exit(path)
    rows = [{"id": t.record.id, "classification": t.record.classification.model_dump(),
             "actions": len(t.record.action_sequence),
             "assertions": sum(1 for a in t.record.action_sequence if a.logical_assertion),
             "resolution": t.record.recording_details.resolution, "source_website": t.record.source_website,
             "checkpoints_by": (plan := t.checkpoints()).convention, "checkpoints_complete": plan.complete}
            for t in suite.tasks]
    if as_json:
        typer.echo(json.dumps(rows))
        return
    table = Table(title=str(suite.root))
    for c in ("id", "domain", "levels", "actions", "assertions", "resolution", "checkpoints by"):
        table.add_column(c)
    for r in rows:
        c = r["classification"]
        table.add_row(str(r["id"]), c["domain"], f"{c['interaction_complexity']}/{c['visual_complexity']}",
                      str(r["actions"]), str(r["assertions"]), r["resolution"],
                      r["checkpoints_by"] + ("" if r["checkpoints_complete"] else " (files missing)"))
    Console().print(table)


@tasks_app.command()
def show(task_id: str = typer.Argument(..., help="task id"),
         path: Path = typer.Option(BUNDLED_SUITE, "--tasks", help="a data.jsonl or the folder holding it"),
         as_json: bool = typer.Option(False, "--json", help="print the task record as JSON")):
    """Show one task: classification, video length and every action with its assertion.

    Example:
      iwr tasks show 1
    """
    from iwr.tasks.frames import video_duration

    task = task_or_exit(path, task_id)
    rec = task.record
    if as_json:
        typer.echo(rec.model_dump_json(exclude_none=True))  # the record as in data.jsonl, nothing added
        return
    c = rec.classification
    try:
        seconds = f"{video_duration(task.video):.1f} s" if task.video else "no video"
    except Exception as e:  # noqa: BLE001 - FFmpeg reports broken files with many error types
        seconds = f"unreadable ({type(e).__name__}; see iwr tasks validate)"
    console = Console()
    plan = task.checkpoints()
    state = "complete" if plan.complete else f"{len(plan.missing)} missing (see iwr tasks validate)"
    console.print(f"task {rec.id}: {c.domain} / {c.sub_domain}, {c.interaction_complexity} {c.visual_complexity}, "
                  f"{rec.recording_details.resolution}, video {seconds}, {len(task.asset_sheets())} asset sheet(s), "
                  f"checkpoints numbered by {plan.convention} ({state})")
    table = Table()
    for col in ("#", "type", "description", "checkpoint", "assertion"):
        table.add_column(col)
    for i, a in enumerate(rec.action_sequence, 1):
        shot = plan.files[i].name if i in plan.files else ""
        table.add_row(str(i), a.type, a.parameters.description, shot, a.logical_assertion or "")
    console.print(table)


@tasks_app.command("materialise-real")
def materialise_real(
    root: Optional[Path] = typer.Option(None, "--tasks", help="the corpus of real apps (default: tasks/real)"),
    mirror: Optional[Path] = typer.Option(None, help="where the apps' repositories are kept as <owner>+<name>/: snapshots, "
                                          "or the pinned commits fetched (default: $IWR_FETCH_MIRROR, else ~/.cache/iwr/mirror)"),
    fetch: bool = typer.Option(True, "--fetch/--no-fetch", help="fetch a pinned commit missing from the mirror from its "
                               "forge ($IWR_FORGE, default https://github.com): a shallow fetch of that commit"),
    variants: Optional[Path] = typer.Option(None, help="also write every broken variant's site into this folder"),
    as_json: bool = typer.Option(False, "--json", help="print what was made as a JSON list"),
):
    """Bring the real apps' files (site/, LICENSE) and the tasks' assets/ out of the apps' public
    repositories at the commits pinned in apps/<app>/source.json (fetched into the mirror once, or taken
    from snapshots there); files already right are left alone. Exit 2 if it cannot.

    Examples:
      iwr tasks materialise-real
      iwr tasks materialise-real --variants /tmp/real-variants
      iwr record /tmp/real-variants/2048-merge-score-half --script tasks/real/apps/2048/scripts/201.yaml --dry-run
    """
    from iwr.evals.quality.forge import FORGE
    from iwr.evals.quality.real_corpus import MIRROR, REAL_SUITE, CorpusError, materialise, real_tasks, variant_site

    root = root or REAL_SUITE
    try:
        lines = materialise(root, mirror or MIRROR, FORGE if fetch else None)
        if variants is not None:
            made = {variant_site(t, v, variants) for t in real_tasks(root) for v in t.broken}
            lines += [f"variant: {p}" for p in sorted(made)]
    except CorpusError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    typer.echo(json.dumps(lines) if as_json else "\n".join(lines))
