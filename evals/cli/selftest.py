"""`iwr selftest ...`: the judge against pages written to break it, and agents written to cheat it."""
from __future__ import annotations

import asyncio
import json
import sys
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from iwr.evals.quality.selftest import CASE_TIMEOUT_S, run_hostile

selftest_app = typer.Typer(help="Check the harness against pages written to break it and agents written to cheat it.",
                           no_args_is_help=True)


def print_table(console: Console, res: dict) -> None:
    t = Table(title=f"hostile pages: {res['passed']} passed, {res['failed']} failed")
    for c in ("case", "status", "IFS", "Final", "seconds", "leaks", "escaped", "blocked", "fenced", "ok"):
        t.add_column(c, justify="left" if c in ("case", "status") else "right")
    for r in res["cases"]:
        t.add_row(r["case"], r["status"], f"{r['ifs'] * 100:.0f}", f"{r['final'] * 100:.1f}", f"{r['seconds']:.1f}",
                  str(r["leaks"]), str(r["escaped"]), str(r["blocked"]), str(r.get("fenced", 0)),
                  "[green]ok[/]" if r["ok"] else "[red]FAIL[/]")
    console.print(t)
    for r in res["cases"]:
        if not r["ok"]:
            console.print(f"[red]{r['case']}[/]: {r.get('error') or ''} {r.get('leaked') or ''} {r.get('escaped_urls') or ''}")


@selftest_app.command()
def hostile(
    as_json: bool = typer.Option(False, "--json", help="print the results as JSON"),
    profile: str = typer.Option("offline", help="judge profile"),
    case: Optional[list[str]] = typer.Option(None, help="only these cases (repeatable)"),
    timeout: float = typer.Option(CASE_TIMEOUT_S, help="time limit for judging one case, in seconds"),
):
    """Judge every page of the hostile corpus; fail on a wrong verdict, a leak or an escaped request.

    Examples:
      iwr selftest hostile
      iwr selftest hostile --json --case loop_at_load --case memory_bomb
    """
    from iwr.evals.run import logs

    logs.configure()
    console = Console(width=None if sys.stdout.isatty() else 120)
    try:
        res = asyncio.run(run_hostile(case, profile, timeout,
                                      on_row=None if as_json else lambda r: console.log(f"{r['case']}: {r['status']}")))
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    if as_json:
        keys = ("case", "status", "ifs", "final", "seconds", "leaks", "escaped", "blocked", "fenced", "ok")
        typer.echo(json.dumps({"cases": [{k: r[k] for k in keys} for r in res["cases"]],
                               "passed": res["passed"], "failed": res["failed"]}))
    else:
        print_table(console, res)
    if res["failed"]:
        raise typer.Exit(1)


def print_cheats_table(console: Console, res: dict) -> None:
    t = Table(title=f"cheats: {res['cases']} cases judged {res['judged']} times (hints on and off): {res['held']} "
                    f"held, {res['leaks']} leaked (bar: the blank page's Final + 0.05 under the same hints)")
    for c in ("case", "kind", "task", "hints", "status", "Final", "bar", "leaked", "seconds", "held"):
        t.add_column(c, justify="left" if c in ("case", "kind", "hints", "status") else "right")
    for r in res["rows"]:
        bar = "-" if r["bar"] is None else f"{r['bar'] * 100:.1f}"
        t.add_row(r["case"], r["kind"], r["task"], r["hints"], str(r["status"]), f"{r['final'] * 100:.1f}", bar,
                  str(len(r["leaked"])), f"{r['seconds']:.1f}", "[green]held[/]" if r["held"] else "[red]LEAK[/]")
    console.print(t)
    for r in res["rows"]:
        for reason in r["reasons"]:
            console.print(f"[red]{r['case']}[/] (hints {r['hints']}): {reason}")


@selftest_app.command()
def cheats(
    as_json: bool = typer.Option(False, "--json", help="print one JSON object: cases, judged, held, leaks, "
                                 "blank_final, seconds, rows (a row per case and hints setting)"),
    case: Optional[list[str]] = typer.Option(None, help="only these cases (repeatable)"),
    run_all: bool = typer.Option(False, "--all", help="every case (the default; wins over --case)"),
    lanes: int = typer.Option(1, min=1, max=8, help="cases run at once, each with its own servers and judges "
                              "(2 on a 2-core machine takes about two thirds of the time)"),
):
    """Run the cheat corpus: each strategy as an outside agent in a prepared workspace, its page judged by
    `iwr judge` twice, with hints on and with --hints off (a row each); a row leaks when the agent read
    hidden material, the page beat the blank page (under the same hints) by more than 0.05, or left the
    mean. Exit code 1 when any row leaks.

    Examples:
      iwr selftest cheats
      iwr selftest cheats --json --case marker_rewrite --case prototype_override
      iwr selftest cheats --lanes 2
    """
    from iwr.evals.quality.cheats.corpus import run_cheats
    from iwr.evals.run import logs

    logs.configure()
    console = Console(width=None if sys.stdout.isatty() else 140)
    progress = None if as_json else (
        lambda r: console.log(f"{r['case']} (hints {r['hints']}): {'held' if r['held'] else 'LEAK'}"))
    try:
        res = asyncio.run(run_cheats(None if run_all or not case else list(case), on_row=progress, lanes=lanes))
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    if as_json:
        typer.echo(json.dumps(res))
    else:
        print_cheats_table(console, res)
    if res["leaks"]:
        raise typer.Exit(1)
