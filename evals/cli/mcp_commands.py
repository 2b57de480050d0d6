"""`iwr mcp NAME`: one command per server with its own options, so `iwr mcp browser --help` lists
them. Each passes its options on to mcp_servers/launcher.py, the one parser of `python -m
iwr.mcp_servers NAME` (what .mcp.json files start); tests/test_cli_docs.py keeps the two alike."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from iwr.tasks.defaults import BUNDLED_SUITE

mcp_app = typer.Typer(help="Start an iwr MCP server on stdio (or --http PORT).", no_args_is_help=True)

HTTP = typer.Option(None, "--http", metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT instead of stdio")
TASKS = typer.Option(BUNDLED_SUITE, help="the suite (default: the bundled one)")


def _launch(name: str, **options) -> None:
    from iwr.mcp_servers.launcher import main

    argv = [name]
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        for v in value if isinstance(value, list) else [value]:
            if v is True:
                argv.append(flag)
            elif v not in (None, False):
                argv += [flag, str(v)]
    main(argv)


@mcp_app.command()
def browser(http: Optional[int] = HTTP,
            shots: Optional[Path] = typer.Option(None, help="folder for screenshots (default: a temp folder)"),
            serve_only: Optional[Path] = typer.Option(None, help="open only files inside this folder (a coder's "
                                                      "workspace); no URLs")):
    """Chromium for judges and coders: open, act, screenshot, observe (e.g. `iwr mcp browser`)."""
    _launch("browser", http=http, shots=shots, serve_only=serve_only)


@mcp_app.command()
def metrics(http: Optional[int] = HTTP,
            allow: Optional[list[Path]] = typer.Option(None, help="a folder images may be read from (repeatable; "
                                                      "default: cwd and temp)"),
            store: Optional[Path] = typer.Option(None, help="keep references' OCR texts, embeddings and floors in "
                                                 "this folder across runs (the judge's; a coder's server keeps none)"),
            keep_references: bool = typer.Option(False, "--keep-references", help="--store $IWR_METRIC_STORE, else "
                                                 "~/.cache/iwr/metrics")):
    """The visual metrics: compare two images, locate a template, OCR (e.g. `iwr mcp metrics --http 8765`)."""
    _launch("metrics", http=http, allow=list(allow or []), store=store, keep_references=keep_references)


@mcp_app.command()
def assets(http: Optional[int] = HTTP, tasks: Path = TASKS,
           task: Optional[str] = typer.Option(None, help="show only this task (a coder's view)"),
           judge: bool = typer.Option(False, "--judge", help="judge mode (adds checkpoints and reference hints)")):
    """A suite's tasks: actions, frames, assets and sheets (e.g. `iwr mcp assets --task 1`)."""
    _launch("assets", http=http, tasks=tasks, task=task, judge=judge)


@mcp_app.command()
def workspace(http: Optional[int] = HTTP,
              root: Optional[Path] = typer.Option(None, help="the folder (default: the current one)")):
    """A coder's files: read, write, edit, list, render (e.g. `iwr mcp workspace --root my-task`)."""
    _launch("workspace", http=http, root=root)


@mcp_app.command()
def bench(http: Optional[int] = HTTP, tasks: Path = TASKS,
          root: Optional[Path] = typer.Option(None, help="where submissions go (default: ./bench)"),
          feedback: str = typer.Option("scores", help="what evaluate tells the client: none | scores | actions "
                                       "(never expected texts)")):
    """The benchmark for any MCP client: list tasks, submit a page, be judged (e.g. `iwr mcp bench`)."""
    _launch("bench", http=http, tasks=tasks, root=root, feedback=feedback)
