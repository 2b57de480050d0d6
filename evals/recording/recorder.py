"""Record a task from a local site and an action script, in the official layout plus our extension.

The recorder performs each action with the same browser functions the judge uses, so the
checkpoints it saves are exactly what a faithful page shows the judge. The video is composed
from screenshots with a drawn pointer, click rings, per-character typing and key badges.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import httpx

from PIL import Image

from mcp_servers.browser import actions
from mcp_servers.browser.hub import BrowserHub, Session
from mcp_servers.browser.page_scripts import DESCRIBE_ELEMENT
from tasks import defaults
from tasks.script import Script, ScriptAction, ScriptError, load_script
from tasks.sheets import stitch
from tasks.video import FrameTrack, draw_key, draw_pointer

MEDIA_EXT = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".ico", ".bmp", ".mp4", ".webm"}

class RecordError(RuntimeError):
    """The recording cannot be made: bad script, page fails to load, target missing, assertion false."""


async def _grab(s: Session) -> Image.Image:
    png = await s.page.screenshot(animations="disabled", caret="hide")
    return Image.open(io.BytesIO(png)).convert("RGB")


def _glide(track: FrameTrack, frame: Image.Image, start: tuple[float, float], end: tuple[float, float]) -> None:
    for k in range(1, 6):
        x = start[0] + (end[0] - start[0]) * k / 5
        y = start[1] + (end[1] - start[1]) * k / 5
        track.hold(draw_pointer(frame, x, y), 0.08)


async def _target(s: Session, a: ScriptAction, i: int) -> dict:
    loc = s.page.locator(a.target)
    n = await loc.count()
    if n == 0:
        raise RecordError(f"action {i}: target {a.target!r} matches no element")
    info = await loc.first.evaluate(DESCRIBE_ELEMENT)
    if info["bbox"][2] < 1 or info["bbox"][3] < 1:
        raise RecordError(f"action {i}: target {a.target!r} is not visible")
    return info


async def _perform(s: Session, a: ScriptAction, i: int, track: FrameTrack, pointer: list[float],
                   task_dir: Path) -> dict | None:
    """Do one action while filming it; returns the target hint for Click/Type."""
    frame = await _grab(s)
    hint = None
    try:
        if a.type in ("Click", "Type"):
            info = await _target(s, a, i)
            x, y, w, h = info["bbox"]
            centre = (x + w / 2, y + h / 2)
            _glide(track, frame, tuple(pointer), centre)
            pointer[:] = centre
            track.hold(draw_pointer(frame, *centre, click=True), 0.2)
            crop = frame.crop((max(0, int(x)), max(0, int(y)), int(x + w), int(y + h)))
            (task_dir / "iwr").mkdir(exist_ok=True)
            crop.save(task_dir / "iwr" / f"target_{i}.png")
            role = info["role"] if info["role"] != "generic" else None
            hint = {"selector": a.target, "role": role, "name": info["name"] or None,
                    "text": info["text"] or None, "bbox": [round(v, 1) for v in info["bbox"]],
                    "crop": f"iwr/target_{i}.png"}
            await actions.click(s, selector=a.target)
            if a.type == "Type":
                for ch in a.text or "":
                    await s.page.keyboard.type(ch)
                    track.hold(draw_pointer(await _grab(s), *pointer), 0.08)
        elif a.type == "Press":
            track.hold(draw_key(draw_pointer(frame, *pointer), a.key or ""), 0.5)
            await actions.press(s, a.key or "")
        else:
            w, h = s.page.viewport_size["width"], s.page.viewport_size["height"]
            pointer[:] = (w / 2, h / 2)
            moved = await actions.scroll(s, a.direction, a.amount)
            if abs(moved["scroll_y_after"] - moved["scroll_y_before"]) <= 5:
                raise RecordError(f"action {i} ({a.description!r}): the page did not scroll (already at the "
                                  f"{'bottom' if a.direction == 'down' else 'top'}?); a judge would fail it")
    except actions.ActionFailed as e:
        raise RecordError(f"action {i} ({a.description!r}) failed on the reference site: {e}") from e
    return hint


def _action_record(a: ScriptAction, hint: dict | None, height: int) -> dict:
    params: dict = {"description": a.description}
    if a.type == "Type":
        params["text"] = a.text
    if a.type == "Press":
        params["key"] = a.key
    if a.type == "Scroll":
        params["direction"] = a.direction
        params["scroll_page"] = f"{(a.amount if a.amount is not None else height / 2) / height:.4g}"
    ext: dict = {"checks": a.checks}
    if a.wait_ms:  # only where the page changes by itself; the judge settles on its own otherwise
        ext["wait_ms"] = a.wait_ms
    if hint:
        ext["target"] = hint
    return {"type": a.type, "parameters": params, "visual_evaluation_flag": a.visual,
            "logical_assertion": a.assertion, "iwr": ext}


def _save_assets(urls: list[str], base: str, site: Path | None, out_dir: Path) -> list[Path]:
    """Copy (local site) or download (loopback URL) every media file the page requested, anonymised."""
    out_dir.mkdir(parents=True, exist_ok=True)
    saved, seen = [], set()
    for u in urls:
        suffix = Path(unquote(urlsplit(u).path)).suffix.lower()
        if suffix not in MEDIA_EXT or not u.startswith(base) or u in seen:
            continue
        seen.add(u)
        if site is not None:
            p = (site / unquote(urlsplit(u).path.lstrip("/"))).resolve()
            if not (p.is_file() and site in p.parents):
                continue
            data = p.read_bytes()
        else:
            resp = httpx.get(u, timeout=30)
            if resp.status_code != 200:
                continue
            data = resp.content
        dst = out_dir / f"{len(saved) + 1}{suffix}"
        dst.write_bytes(data)
        saved.append(dst)
    return saved


def _write_jsonl(suite: Path, record: dict) -> None:
    f = suite / "data.jsonl"
    lines = [json.loads(x) for x in f.read_text().splitlines() if x.strip()] if f.exists() else []
    lines = [x for x in lines if x.get("id") != record["id"]] + [record]
    lines.sort(key=lambda x: x["id"])
    f.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")


def _entry(site: str | Path | None, script_path: Path, page: str) -> tuple[Path | None, str]:
    """(local site folder or None, what to open) for a folder, a loopback URL, or the script's site."""
    if isinstance(site, str) and site.startswith(("http://", "https://")):
        return None, site if not site.endswith("/") else urljoin(site, page)
    folder = Path(site or Path(script_path).resolve().parent.parent).resolve()
    if not (folder / page).is_file():
        raise RecordError(f"{folder / page} does not exist")
    return folder, str(folder / page)


async def record_task(script_path: Path, suite: Path, site: str | Path | None = None) -> int:
    """Record one script into `suite` (data.jsonl + data/<id>/); returns the task id.

    `site` is a folder (served on loopback), a loopback URL, or None for the folder holding the
    script's `tasks/` folder."""
    try:
        script: Script = load_script(script_path)
    except ScriptError as e:
        raise RecordError(str(e)) from e
    site, entry = _entry(site, Path(script_path), script.page)
    width, height = script.size
    suite = suite.resolve()
    task_dir = suite / "data" / str(script.id)
    work = Path(tempfile.mkdtemp(prefix="iwr-rec-"))
    try:
        if task_dir.exists():
            shutil.rmtree(task_dir)
        (task_dir / "checkpoints").mkdir(parents=True)
        async with BrowserHub(shots_root=work) as hub:
            try:
                s = await hub.open(entry, width, height, seed=defaults.SEED, clock=defaults.CLOCK)
            except ValueError as e:
                raise RecordError(str(e)) from e
            if s.page_errors:
                raise RecordError(f"{entry} failed to load: {s.page_errors[0]}")
            track, pointer, records = FrameTrack(), [width / 2, height / 2], []
            await actions.settle(s, 500)
            shutil.copy(await actions.screenshot(s, "step_0"), task_dir / "checkpoints" / "step_0.png")
            track.hold(draw_pointer(await _grab(s), *pointer), 1.0)
            position = 0  # checkpoints are numbered by position among the judged screenshots, as the official data is
            for i, a in enumerate(script.actions, 1):
                hint = await _perform(s, a, i, track, pointer, task_dir)
                await actions.settle(s, a.wait_ms)
                shot = await actions.screenshot(s, f"step_{i}")
                if a.visual:
                    position += 1
                    shutil.copy(shot, task_dir / "checkpoints" / f"step_{position}.png")
                track.hold(draw_pointer(Image.open(shot).convert("RGB"), *pointer), 0.7)
                if a.checks:
                    res = await actions.run_checks(s, a.checks)
                    bad = [f"{c['kind']} {c.get('text') or c.get('selector')!r} (saw {r['observed'][:60]!r})"
                           for c, r in zip(a.checks, res) if not r["ok"]]
                    if bad:
                        raise RecordError(f"action {i}: assertion {a.assertion!r} does not hold on the reference: {bad}")
                records.append(_action_record(a, hint, height))
            if s.blocked:
                raise RecordError(f"the site requested outside URLs, which tasks may not need: {s.blocked[:3]}")
            base = s.site.url if s.site else f"{urlsplit(entry).scheme}://{urlsplit(entry).netloc}/"
            urls = list(s.requested)
        track.hold(track.frames[-1][0], 0.5)
        track.write_mp4(task_dir / "video.mp4")
        anon = _save_assets(urls, base, site, task_dir / "assets")
        stitch(anon, task_dir / "stitched_assets")
        reference = ({"site": os.path.relpath(site, suite), "page": script.page} if site is not None
                     else {"url": entry})
        record = {"id": script.id, "classification": script.classification.model_dump(),
                  "recording_details": {"resolution": f"{width}x{height}", "environment": script.environment},
                  "source_website": script.source_website, "action_sequence": records,
                  "iwr": {"version": 1, "reference": reference,
                          "seed": defaults.SEED, "clock": defaults.CLOCK}}
        _write_jsonl(suite, record)
        return script.id
    except RecordError:
        shutil.rmtree(task_dir, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
