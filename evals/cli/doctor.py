"""`iwr doctor`: what this machine has of what iwr needs, and the one command that fixes each gap.

Each check looks at the real thing (a Chromium that starts, a Tesseract that answers, the weights'
files) rather than at package lists: the user's machine is not ours (no root, maybe no Debian).
"""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

import typer

from iwr.settings import env_name, settings


@dataclass
class Check:
    part: str
    ok: bool
    needed: bool  # False: only some commands or profiles use it
    detail: str
    fix: str = ""


def _chromium(launch: bool) -> Check:
    from iwr.mcp_servers.browser.launch import chromium_path

    system = chromium_path()
    fix = "python -m playwright install chromium   (Debian, as root: apt-get install chromium)"
    if not launch:
        return Check("chromium", bool(system), True, system or "no system Chromium found (not started: --no-launch)",
                     "" if system else fix)
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:  # no system one: Playwright's own, where `playwright install` put it
            browser = p.chromium.launch(executable_path=system, args=["--no-sandbox"])
            version = browser.version
            browser.close()
        return Check("chromium", True, True, f"{system or 'Playwright’s own Chromium'} starts (version {version})")
    except Exception as e:  # noqa: BLE001 - any failure to start is the finding
        return Check("chromium", False, True, f"{system or 'no system Chromium'}; does not start: "
                     f"{str(e).splitlines()[0][:160]}", fix)


def _tesseract() -> Check:
    exe = shutil.which("tesseract")
    fix = "apt-get install tesseract-ocr   (macOS: brew install tesseract; conda: conda install -c conda-forge tesseract)"
    if not exe:
        return Check("tesseract", False, True, "not on PATH (the offline profile's OCR for VFS)", fix)
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=20)
        return Check("tesseract", out.returncode == 0, True, (out.stdout or out.stderr).splitlines()[0], "" if out.returncode == 0 else fix)
    except (OSError, subprocess.TimeoutExpired) as e:
        return Check("tesseract", False, True, f"{exe} does not answer: {e}", fix)


def _video() -> Check:
    try:
        import av

        return Check("video (PyAV, FFmpeg inside)", True, True, f"av {av.__version__}")
    except ImportError as e:
        return Check("video (PyAV, FFmpeg inside)", False, True, str(e), "pip install 'av>=18,<19'")


def _sandbox() -> Check:
    exe = shutil.which("bwrap")
    return Check("bubblewrap", bool(exe), False, exe or "not on PATH: outside agents (iwr run --agent cmd:…, presets) cannot run",
                 "" if exe else "apt-get install bubblewrap")


def _torch() -> Check:
    try:
        import torch
    except ImportError:
        return Check("torch", False, False, "not installed: LPIPS and DINOv2 metrics are off",
                     "pip install torch --index-url https://download.pytorch.org/whl/cpu")
    cuda = torch.version.cuda
    return Check("torch", True, False, f"{torch.__version__}, {'CUDA ' + cuda if cuda else 'CPU'} build")


def _weights(name: str, field: str, files: tuple[str, ...], used_by: str) -> Check:
    raw, env = str(getattr(settings(), field) or ""), env_name(field)
    if not raw:
        return Check(name, False, False, f"{env} is not set ({used_by})", f"export {env}=/path/to/the/folder")
    missing = [f for f in files if not (Path(raw).expanduser() / f).is_file()]
    return Check(name, not missing, False, f"{raw}" + (f": missing {', '.join(missing)}" if missing else ""),
                 f"put {', '.join(missing)} in {raw}" if missing else "")


def _dino() -> Check:
    """A local folder ($IWR_DINOV2_PATH) overrides; else the Hub id, fetched on first use unless cached."""
    from iwr.mcp_servers.metrics.features import DINO_ENV

    name, used_by, env = "DINOv2 weights", "the paper profile's DINO metric", settings()
    if env.dinov2_path:
        return _weights(name, "dinov2_path", ("config.json",), used_by)
    from huggingface_hub import try_to_load_from_cache

    from iwr.tasks.hub import hub_cache

    repo = env.dinov2_id
    cached = try_to_load_from_cache(repo, "config.json", cache_dir=hub_cache())
    if isinstance(cached, str):
        return Check(name, True, False, f"{repo} in the Hub cache ({Path(cached).parent})")
    return Check(name, False, False, f"{repo} is not in the Hub cache ({hub_cache()}): fetched on first use ({used_by})",
                 f"hf download {repo} --include 'config.json' '*.safetensors' 'preprocessor_config.json' "
                 f"(or export {DINO_ENV}=/path/to/a/local/copy)")


def _easyocr() -> Check:
    """The paper profile reads with EasyOCR wherever it is installed; Tesseract otherwise (said here, and in
    every result's backend)."""
    from iwr.mcp_servers.metrics import easyocr_engine
    from iwr.mcp_servers.metrics.values import MetricUnavailable

    name = "EasyOCR (the paper's OCR)"
    if not easyocr_engine.installed():
        return Check(name, False, False, "not installed: the paper profile reads text with Tesseract",
                     easyocr_engine.INSTALL_HINT)
    env = settings()
    if env.easyocr_id and not env.easyocr_path:  # said without fetching, like DINOv2
        from huggingface_hub import try_to_load_from_cache

        from iwr.tasks.hub import hub_cache

        cached = [try_to_load_from_cache(env.easyocr_id, f, cache_dir=hub_cache()) for f in easyocr_engine.FILES]
        if all(isinstance(c, str) for c in cached):
            return Check(name, True, False, f"installed; model files from {env.easyocr_id} in the Hub cache")
        return Check(name, False, False, f"installed; {env.easyocr_id} is not in the Hub cache ({hub_cache()}): "
                     "fetched on first use", f"hf download {env.easyocr_id} {' '.join(easyocr_engine.FILES)}")
    try:
        folder = easyocr_engine.model_folder()
    except MetricUnavailable as e:
        return Check(name, False, False, f"installed, but its model files are missing: {e}", easyocr_engine.WEIGHTS_HINT)
    return Check(name, True, False, f"installed; model files in {folder}")


def checks(launch: bool = True) -> list[Check]:
    from iwr.mcp_servers.metrics.lpips_local import BACKBONE_FILE, LIN_FILE

    return [_chromium(launch), _tesseract(), _video(), _sandbox(), _torch(),
            _dino(), _easyocr(),
            _weights("LPIPS weights", "lpips_path", (BACKBONE_FILE, LIN_FILE), "the LPIPS metric")]


def doctor(launch: bool = typer.Option(True, "--launch/--no-launch", help="start Chromium once to prove it works"),
           as_json: bool = typer.Option(False, "--json", help="print the checks as JSON")):
    """Check what iwr needs on this machine (Chromium, Tesseract, video decoding, the agents' sandbox,
    torch and optional weights); print what is missing and the command that fixes it; exit 1 when a
    needed part is missing.

    Examples:
      iwr doctor
      iwr doctor --json --no-launch
    """
    found = checks(launch)
    if as_json:
        typer.echo(json.dumps([asdict(c) for c in found]))
    else:
        for c in found:
            mark = "ok " if c.ok else "MISSING" if c.needed else "absent"
            typer.echo(f"{mark:8} {c.part}: {c.detail}" + (f"\n         fix: {c.fix}" if c.fix else ""))
    if any(c.needed and not c.ok for c in found):
        raise typer.Exit(1)
