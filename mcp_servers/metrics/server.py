"""The metrics MCP server: compare two screenshots with named, versioned metrics."""
from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import anyio
from mcp.server.mcpserver import Context, MCPServer

from mcp_servers.common import READ_ONLY, mapped_errors
from mcp_servers.metrics.compare import METRICS, MetricModels, MetricUnavailable, compare as compare_images
from mcp_servers.metrics.locate import locate as locate_template
from mcp_servers.metrics.ocr import ocr_text

errors = mapped_errors((ValueError, FileNotFoundError, PermissionError), (MetricUnavailable, RuntimeError, OSError))


def confined(path: str, roots: list[Path]) -> Path:
    """The resolved path if it lies inside one of the allowed roots; PermissionError otherwise."""
    p = Path(path).expanduser().resolve()
    if not any(p == r or r in p.parents for r in roots):
        raise PermissionError(f"{path} is outside the folders this server may read ({', '.join(map(str, roots))})")
    if not p.is_file():
        raise FileNotFoundError(f"no such image: {path}")
    return p


def build_server(allowed_roots: list[Path] | None = None, preload: bool = True, store: Path | None = None) -> MCPServer:
    """A metrics server reading images only under `allowed_roots` (default: cwd and the temp folder),
    keeping per-reference results in `store` when given (mcp_servers/metrics/store.py)."""
    roots = [Path(r).resolve() for r in (allowed_roots or [Path.cwd(), Path(tempfile.gettempdir())])]

    @contextlib.asynccontextmanager
    async def lifespan(_server):
        models = MetricModels(store=store)
        if preload:  # load the deep model once, before the first request, not during it
            await anyio.to_thread.run_sync(models.feature_model)
        yield models

    mcp = MCPServer("iwr-metrics", instructions="Compare a reference screenshot with a candidate one.",
                    lifespan=lifespan)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def compare(reference: str, candidate: str, ctx: Context, metrics: list[str] | None = None,
                      floor: bool = False) -> dict:
        """Similarity of candidate to reference for each metric (ocr, ssim, feature, structural, ...), with backends;
        with floor, similarities are chance-corrected so that a blank page scores 0 (raw values in the detail)."""
        names = metrics or ["ocr", "feature", "ssim", "structural"]
        ref, cand = confined(reference, roots), confined(candidate, roots)
        models = ctx.request_context.lifespan_context
        values = await anyio.to_thread.run_sync(lambda: compare_images(ref, cand, names, models, floor=floor))
        return {k: v.model_dump() for k, v in values.items()}

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def ocr(image: str, ctx: Context, max_chars: int = 4000) -> dict:
        """Text read from an image by OCR (Tesseract), cut to max_chars."""
        text = await anyio.to_thread.run_sync(lambda: ocr_text(confined(image, roots)))
        return {"text": text[:max_chars], "truncated": len(text) > max_chars}

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def locate(template: str, image: str) -> dict:
        """Where a small picture (e.g. a recorded target's crop) best matches on a screenshot: x, y, width, height, score."""
        tpl, img = confined(template, roots), confined(image, roots)
        return await anyio.to_thread.run_sync(lambda: locate_template(tpl, img))

    @mcp.tool(annotations=READ_ONLY)
    async def list_metrics() -> list[str]:
        """Names of the metrics `compare` accepts."""
        return list(METRICS)

    return mcp
