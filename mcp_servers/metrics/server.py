"""The metrics MCP server: compare two screenshots with named, versioned metrics."""
from __future__ import annotations

import asyncio
import contextlib
import tempfile
import threading
from concurrent.futures import Future
from pathlib import Path

import anyio
from mcp.server.mcpserver import Context, MCPServer

from iwr.mcp_servers.common import READ_ONLY, mapped_errors
from iwr.mcp_servers.metrics.values import MetricUnavailable

errors = mapped_errors((ValueError, FileNotFoundError, PermissionError), (MetricUnavailable, RuntimeError, OSError))


def confined(path: str, roots: list[Path]) -> Path:
    """The resolved path if it lies inside one of the allowed roots; PermissionError otherwise."""
    p = Path(path).expanduser().resolve()
    if not any(p == r or r in p.parents for r in roots):
        raise PermissionError(f"{path} is outside the folders this server may read ({', '.join(map(str, roots))})")
    if not p.is_file():
        raise FileNotFoundError(f"no such image: {path}")
    return p


class Loading:
    """The metrics' modules (torch, OpenCV, Tesseract) and models, imported and loaded on a thread of
    their own from the server's start: the server answers the client at once, so the judge's other
    servers and its first page start meanwhile, and the first request waits for what is left."""

    def __init__(self, store: Path | None, preload: bool) -> None:
        self._done: Future = Future()
        # Running from the start: a request cancelled while it waits (asyncio.wrap_future passes its
        # cancellation on to this future) must not cancel the loading every later request needs.
        self._done.set_running_or_notify_cancel()
        threading.Thread(target=self._load, args=(store, preload), name="metrics-load", daemon=True).start()

    def _load(self, store: Path | None, preload: bool) -> None:
        try:
            from iwr.mcp_servers.metrics import locate  # noqa: F401  (imported here, not on the first request)
            from iwr.mcp_servers.metrics.compare import MetricModels

            models = MetricModels(store=store)
            if preload:
                models.feature_model()
            self._done.set_result(models)
        except BaseException as e:  # reported by every request that needs the models
            self._done.set_exception(e)

    async def models(self):
        return await asyncio.wrap_future(self._done)


def build_server(allowed_roots: list[Path] | None = None, preload: bool = True, store: Path | None = None) -> MCPServer:
    """A metrics server reading images only under `allowed_roots` (default: cwd and the temp folder),
    keeping per-reference results in `store` when given (mcp_servers/metrics/store.py)."""
    roots = [Path(r).resolve() for r in (allowed_roots or [Path.cwd(), Path(tempfile.gettempdir())])]
    read: dict[tuple, str] = {}  # the OCR of images read lately, by path and version

    @contextlib.asynccontextmanager
    async def lifespan(_server):
        yield Loading(store, preload)  # with preload, the deep model is loaded before the first request needs it

    mcp = MCPServer("iwr-metrics", instructions="Compare a reference screenshot with a candidate one.",
                    lifespan=lifespan)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def compare(reference: str, candidate: str, ctx: Context, metrics: list[str] | None = None,
                      floor: bool = False, ocr_engine: str = "tesseract") -> dict:
        """Similarity of candidate to reference for each metric (ocr, ssim, feature, structural, ...), with backends;
        with floor, similarities are chance-corrected so that a blank page scores 0 (raw values in the detail).
        ocr_engine: tesseract, easyocr, rapidocr, or auto (EasyOCR where it is installed, else Tesseract)."""
        names = metrics or ["ocr", "feature", "ssim", "structural"]
        ref, cand = confined(reference, roots), confined(candidate, roots)
        models = await ctx.request_context.lifespan_context.models()
        from iwr.mcp_servers.metrics.compare import compare as compare_images

        values = await anyio.to_thread.run_sync(
            lambda: compare_images(ref, cand, names, models, floor=floor, ocr_engine=ocr_engine))
        return {k: v.model_dump() for k, v in values.items()}

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def ocr(image: str, ctx: Context, max_chars: int = 4000, box: list[int] | None = None,
                  words: bool = False) -> dict:
        """Text read from an image by OCR (Tesseract), cut to max_chars; with box [x, y, width, height],
        from that part of the image only; with words, each word and its box too (in the part's pixels)."""
        await ctx.request_context.lifespan_context.models()
        from iwr.mcp_servers.metrics.images import load_rgb
        from iwr.mcp_servers.metrics.ocr import ocr_text, tesseract_boxes

        path = confined(image, roots)
        if box is not None and (len(box) != 4 or box[2] <= 0 or box[3] <= 0):
            raise ValueError(f"box is [x, y, width, height] with a positive size, not {box}")
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, tuple(box or ()), words)  # each checkpoint once per mutant
        if key not in read:
            def read_part():
                img = load_rgb(path)
                img = img.crop((box[0], box[1], box[0] + box[2], box[1] + box[3])) if box else img
                lo, hi = img.convert("L").getextrema()
                if hi - lo <= 8:  # a blank part has no words (Tesseract complains of it)
                    return ("", []) if words else ""
                return (ocr_text(img), tesseract_boxes(img)) if words else ocr_text(img)

            read[key] = await anyio.to_thread.run_sync(read_part)
            while len(read) > 256:
                read.pop(next(iter(read)))
        text, boxes = read[key] if words else (read[key], None)
        return {"text": text[:max_chars], "truncated": len(text) > max_chars, **({"words": boxes} if words else {})}

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def locate(template: str, image: str, ctx: Context) -> dict:
        """Where a small picture (e.g. a recorded target's crop) best matches on a screenshot: x, y, width, height, score."""
        tpl, img = confined(template, roots), confined(image, roots)
        await ctx.request_context.lifespan_context.models()
        from iwr.mcp_servers.metrics.locate import locate as locate_template

        return await anyio.to_thread.run_sync(lambda: locate_template(tpl, img))

    @mcp.tool(annotations=READ_ONLY)
    async def list_metrics(ctx: Context) -> list[str]:
        """Names of the metrics `compare` accepts."""
        await ctx.request_context.lifespan_context.models()
        from iwr.mcp_servers.metrics.compare import METRICS

        return list(METRICS)

    return mcp
