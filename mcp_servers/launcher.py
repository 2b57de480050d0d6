"""Start a server by name on stdio or streamable HTTP; the one entry point for `iwr mcp`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from iwr.mcp_servers.common import serve
from iwr.tasks.defaults import BUNDLED_SUITE
from iwr.tasks.plugins import load_plugins

SERVERS = ("browser", "metrics", "assets", "workspace", "bench")


def build(name: str, args: argparse.Namespace):
    """Import lazily: starting one server must not load the others' heavy libraries."""
    if name == "browser":
        from iwr.mcp_servers.browser.server import build_server

        return build_server(shots_dir=args.shots, serve_only=args.serve_only)
    if name == "metrics":
        from iwr.mcp_servers.metrics.server import build_server

        from iwr.mcp_servers.metrics.store import default_root

        return build_server(allowed_roots=args.allow, store=args.store or (default_root() if args.keep_references else None))
    if name == "assets":
        from iwr.mcp_servers.assets.server import build_server

        return build_server(args.tasks, judge_mode=args.judge, only=args.task)
    if name == "workspace":
        from iwr.mcp_servers.workspace.server import build_server

        return build_server(args.root or Path.cwd())
    if name == "bench":
        from iwr.mcp_servers.bench.server import build_server

        return build_server(args.tasks, args.root or Path.cwd() / "bench", feedback=args.feedback)
    raise SystemExit(f"unknown server {name!r}; choose one of {', '.join(SERVERS)}")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="iwr mcp", description="Start an iwr MCP server (stdio by default).")
    p.add_argument("name", choices=SERVERS)
    p.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT instead of stdio")
    p.add_argument("--shots", type=Path, help="browser: folder for screenshots (default: a temp folder)")
    p.add_argument("--serve-only", type=Path, help="browser: open only files inside this folder (a coder's "
                   "workspace); no URLs")
    p.add_argument("--task", help="assets: show only this task (a coder's view)")
    p.add_argument("--feedback", choices=("none", "scores", "actions"), default="scores",
                   help="bench: what evaluate tells the client (scores by default; never expected texts)")
    p.add_argument("--allow", type=Path, action="append", default=[],
                   help="metrics: a folder images may be read from (repeatable; default: cwd and temp)")
    p.add_argument("--store", type=Path, help="metrics: keep references' OCR texts, embeddings and floors in this "
                   "folder across runs (the judge's; a coder's server keeps none)")
    p.add_argument("--keep-references", action="store_true", help="metrics: --store $IWR_METRIC_STORE, else "
                   "~/.cache/iwr/metrics")
    p.add_argument("--tasks", type=Path, default=BUNDLED_SUITE, help="assets, bench: the suite (default: the bundled one)")
    p.add_argument("--judge", action="store_true", help="assets: judge mode (adds checkpoints and reference hints)")
    p.add_argument("--root", type=Path, help="workspace, bench: the workspace's folder (default: cwd); where the bench's "
                   "submissions go (default: ./bench)")
    return p


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    load_plugins()  # a plug-in's metric must be in this server's table too
    serve(build(args.name, args), args.http)
