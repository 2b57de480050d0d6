"""Before any coder starts (and spends money): can the judge score this run? Every metric that needs
weights is computed once on a small pair (which fetches DINOv2, and EasyOCR's files where the profile
reads with EasyOCR, into the Hub cache where they are not there yet), and the judge's model is
reachable: its server answers, or its provider's key is set. All problems are reported at once."""
from __future__ import annotations

import asyncio
from pathlib import Path

from iwr.graphs.judge import JudgeConfig
from iwr.graphs.profiles import LLM_METRIC, profile_named

REACH_TIMEOUT_S = 10.0


def _metric_problems(names: list[str], ocr_engine: str) -> list[str]:
    from iwr.mcp_servers.metrics.ocr import resolve_engine

    offline = profile_named("offline")
    ocr_weights = "ocr" in names and resolve_engine(ocr_engine) == "easyocr"
    if set(names) <= {*offline.lvs_metrics, offline.hvs_metric} and not ocr_weights:
        return []  # the offline metrics need no weights: no need to load torch in this process
    from PIL import Image, ImageDraw

    from iwr.mcp_servers.metrics.compare import METRICS, MetricModels, MetricUnavailable, compare

    setup = [n for n in names if n in METRICS and METRICS.get(n).needs_setup] + ["ocr"] * ocr_weights
    if not setup:
        return []
    img = Image.new("RGB", (96, 64), "white")
    ImageDraw.Draw(img).rectangle([8, 8, 60, 40], fill=(200, 40, 40))
    models, out = MetricModels(fast=False), []
    for name in setup:
        try:
            compare(img, img.copy(), [name], models, ocr_engine=ocr_engine)
        except MetricUnavailable as e:
            out.append(f"metric {name!r}: {e}")
    return out


def _model_problem(cfg: JudgeConfig) -> str | None:
    m = cfg.model
    if m is None:
        return f"the {cfg.profile} profile needs a judge model (--judge-model or $IWR_JUDGE_MODEL)"
    if m.model.startswith("scripted:"):
        path = Path(m.model.split(":", 1)[1])
        return None if path.is_file() else f"the scripted judge model's file {path} does not exist"
    if m.api_base:
        import httpx

        try:  # any HTTP answer will do: the server is there (OpenAI-compatible ones list models here)
            httpx.get(m.api_base.rstrip("/") + "/models", timeout=REACH_TIMEOUT_S)
        except httpx.HTTPError as e:
            return f"the judge model's server {m.api_base} does not answer ({type(e).__name__}: {e})"
        return None
    import litellm

    try:
        env = litellm.validate_environment(model=m.model)
    except Exception as e:  # noqa: BLE001 - litellm raises on model names it cannot place
        return f"litellm cannot place the judge model {m.model!r}: {e}"
    missing = env.get("missing_keys") or []
    return f"the judge model {m.model} needs {', '.join(missing)} in the environment" if missing else None


async def judge_problems(cfg: JudgeConfig) -> list[str]:
    """What keeps the judge from scoring with `cfg`; empty when it can."""
    metrics = sorted((set(cfg.lvs_metrics or []) | {cfg.hvs_metric or ""}) - {LLM_METRIC, ""})
    out = await asyncio.to_thread(_metric_problems, metrics, cfg.ocr_engine or "tesseract")
    if profile_named(cfg.profile).needs_model:
        problem = await asyncio.to_thread(_model_problem, cfg)
        out += [problem] if problem else []
    return out
