"""Record a task from a local site and an action script, in the official layout plus our extension.

The recorder performs each action with the same browser functions the judge uses, so the
checkpoints it saves are exactly what a faithful page shows the judge. The video is composed
from screenshots with a drawn pointer, click rings, per-character typing and key badges.
With `official`, only the official layout is written (no `iwr` keys, no `iwr/` folder).
"""
from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import httpx
from PIL import Image
from playwright.async_api import Error as PlaywrightError

from iwr.mcp_servers.browser import actions
from iwr.mcp_servers.browser.hub import BrowserHub, Session
from iwr.mcp_servers.browser.page_scripts import DESCRIBE_ELEMENT
from iwr.evals.recording.svg_thumbs import svg_thumbnails
from iwr.tasks import defaults
from iwr.tasks.script import Script, ScriptAction, ScriptError, load_script
from iwr.tasks.sheets import stitch
from iwr.tasks.video import FrameTrack, draw_key, draw_options, draw_pointer, option_centre

MEDIA_EXT = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".ico", ".bmp", ".mp4", ".webm"}
OPTION_LABELS = "el => Array.from(el.options || []).map((o) => o.label)"


class RecordError(RuntimeError):
    """The recording cannot be made: bad script, page fails to load, target missing, assertion false."""


@dataclass
class Played:
    """What replaying a script showed: the action records, the screenshot after each action, what failed."""

    records: list[dict] = field(default_factory=list)
    shots: list[Path] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


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


async def _select(s: Session, a: ScriptAction, i: int, track: FrameTrack, frame: Image.Image,
                  bbox: tuple, pointer: list[float]) -> None:
    """Choose the option by its label, filming the list a person would see open."""
    loc = s.page.locator(a.target).first
    labels = await loc.evaluate(OPTION_LABELS)
    if a.option not in labels:
        raise RecordError(f"action {i}: {a.target!r} has no option labelled {a.option!r} (it has {labels[:12]})")
    chosen = labels.index(a.option)
    at = option_centre(frame.height, bbox, len(labels), chosen)
    opened = draw_options(frame, bbox, labels, chosen)
    _glide(track, opened, tuple(pointer), at)
    pointer[:] = at
    track.hold(draw_pointer(opened, *at, click=True), 0.3)
    try:
        await loc.select_option(label=a.option, timeout=10_000)
    except PlaywrightError as e:
        raise RecordError(f"action {i} ({a.description!r}): cannot choose {a.option!r}: {str(e).splitlines()[0]}") from e


async def _clear(s: Session, a: ScriptAction, track: FrameTrack, pointer: list[float]) -> None:
    """Empty the field, filmed as select-all then delete."""
    track.hold(draw_key(draw_pointer(await _grab(s), *pointer), "Ctrl+A"), 0.3)
    await s.page.locator(a.target).first.fill("", timeout=10_000)
    track.hold(draw_key(draw_pointer(await _grab(s), *pointer), "Delete"), 0.3)


async def _perform(s: Session, a: ScriptAction, i: int, track: FrameTrack, pointer: list[float],
                   crops: Path | None) -> dict | None:
    """Do one action while filming it; returns the target hint for Click/Type/Select (crops saved in
    `crops`, when given)."""
    frame = await _grab(s)
    hint = None
    try:
        if a.type in ("Click", "Type", "Select"):
            info = await _target(s, a, i)
            x, y, w, h = info["bbox"]
            centre = (x + w / 2, y + h / 2)
            _glide(track, frame, tuple(pointer), centre)
            pointer[:] = centre
            track.hold(draw_pointer(frame, *centre, click=True), 0.2)
            role = info["role"] if info["role"] != "generic" else None
            hint = {"selector": a.target, "role": role, "name": info["name"] or None,
                    "text": info["text"] or None, "bbox": [round(v, 1) for v in info["bbox"]]}
            if crops is not None:
                crops.mkdir(exist_ok=True)
                frame.crop((max(0, int(x)), max(0, int(y)), int(x + w), int(y + h))).save(crops / f"target_{i}.png")
                hint["crop"] = f"{crops.name}/target_{i}.png"
            if a.type == "Select":
                await _select(s, a, i, track, frame, (x, y, w, h), pointer)
                return hint
            await actions.click(s, selector=a.target)
            if a.type == "Type":
                if a.clear:
                    await _clear(s, a, track, pointer)
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
    except PlaywrightError as e:
        raise RecordError(f"action {i} ({a.description!r}) failed on the reference site: {str(e).splitlines()[0]}") from e
    return hint


def _action_record(a: ScriptAction, hint: dict | None, height: int, official: bool) -> dict:
    """The action as data.jsonl holds it; a Select is a Click (the official types have no select)."""
    params: dict = {"description": a.description}
    if a.type == "Type":
        params["text"] = a.text
    if a.type == "Press":
        params["key"] = a.key
    if a.type == "Scroll":
        params["direction"] = a.direction
        params["scroll_page"] = f"{(a.amount if a.amount is not None else height / 2) / height:.4g}"
    record = {"type": "Click" if a.type == "Select" else a.type, "parameters": params,
              "visual_evaluation_flag": a.visual, "logical_assertion": a.assertion}
    if official:
        return record
    ext: dict = {"checks": a.checks}
    if a.type == "Select":
        ext["select"] = a.option
    if a.clear:
        ext["clear"] = True
    if a.wait_ms:  # only where the page changes by itself; the judge settles on its own otherwise
        ext["wait_ms"] = a.wait_ms
    if hint:
        ext["target"] = hint
    return {**record, "iwr": ext}


async def _play(s: Session, script: Script, track: FrameTrack, crops: Path | None, official: bool,
                strict: bool = True) -> Played:
    """Perform every action, filming it and checking what must hold after it. With `strict`, the first
    false check raises RecordError; otherwise every false check is listed and the replay goes on (an
    action that cannot be done still ends it)."""
    width, height = script.size
    out, pointer = Played(), [width / 2, height / 2]
    for i, a in enumerate(script.actions, 1):
        try:
            hint = await _perform(s, a, i, track, pointer, crops)
        except RecordError as e:
            if strict:
                raise
            out.failures.append(str(e))
            return out
        await actions.settle(s, a.wait_ms)
        shot = await actions.screenshot(s, f"step_{i}")
        out.shots.append(shot)
        track.hold(draw_pointer(Image.open(shot).convert("RGB"), *pointer), 0.7)
        if a.checks:
            res = await actions.run_checks(s, a.checks)
            bad = [f"{c['kind']} {c.get('text') or c.get('selector')!r} (saw {r['observed'][:60]!r})"
                   for c, r in zip(a.checks, res) if not r["ok"]]
            if bad:
                msg = f"action {i}: assertion {a.assertion!r} does not hold: {bad}"
                if strict:
                    raise RecordError(msg.replace("does not hold", "does not hold on the reference"))
                out.failures.append(msg)
        out.records.append(_action_record(a, hint, height, official))
    return out


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


def _load(script_path: Path, official: bool) -> Script:
    try:
        return load_script(script_path, official=official)
    except ScriptError as e:
        raise RecordError(str(e)) from e


async def _open(hub: BrowserHub, entry: str, width: int, height: int, site: Path | None = None) -> Session:
    """Open the entry; a local site is served from its top folder, whatever subfolder the page sits in."""
    try:
        s = await hub.open(entry, width, height, seed=defaults.SEED, clock=defaults.RECORDING_CLOCK, serve_root=site)
    except ValueError as e:
        raise RecordError(str(e)) from e
    if s.page_errors:
        raise RecordError(f"{entry} failed to load: {s.page_errors[0]}")
    await actions.settle(s, 500)
    return s


async def record_task(script_path: Path, suite: Path, site: str | Path | None = None, official: bool = False) -> int:
    """Record one script into `suite` (data.jsonl + data/<id>/); returns the task id.

    `site` is a folder (served on loopback), a loopback URL, or None for the folder holding the
    script's `tasks/` folder. With `official`, only the official layout is written: no `iwr` key on
    the task or its actions and no `iwr/` folder; assertions may then come without checks."""
    script = _load(script_path, official)
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
            s = await _open(hub, entry, width, height, site)
            shutil.copy(await actions.screenshot(s, "step_0"), task_dir / "checkpoints" / "step_0.png")
            track = FrameTrack()
            track.hold(draw_pointer(await _grab(s), width / 2, height / 2), 1.0)
            played = await _play(s, script, track, None if official else task_dir / "iwr", official)
            # checkpoints are numbered by position among the judged screenshots, as the official data is
            flagged = [shot for a, shot in zip(script.actions, played.shots) if a.visual]
            for k, shot in enumerate(flagged, 1):
                shutil.copy(shot, task_dir / "checkpoints" / f"step_{k}.png")
            if s.blocked:
                raise RecordError(f"the site requested outside URLs, which tasks may not need: {s.blocked[:3]}")
            base = s.site.url if s.site else f"{urlsplit(entry).scheme}://{urlsplit(entry).netloc}/"
            urls = list(s.requested)
        track.hold(track.frames[-1][0], 0.5)
        track.write_mp4(task_dir / "video.mp4")
        anon = _save_assets(urls, base, site, task_dir / "assets")
        stitch(anon, task_dir / "stitched_assets", await svg_thumbnails([a for a in anon if a.suffix.lower() == ".svg"]))
        record = {"id": script.id, "classification": script.classification.model_dump(),
                  "recording_details": {"resolution": f"{width}x{height}", "environment": script.environment},
                  "source_website": script.source_website, "action_sequence": played.records}
        if not official:
            reference = ({"site": os.path.relpath(site, suite), "page": script.page} if site is not None
                         else {"url": entry})
            record["iwr"] = {"version": 1, "reference": reference, "seed": defaults.SEED, "clock": defaults.RECORDING_CLOCK}
        _write_jsonl(suite, record)
        return script.id
    except RecordError:
        shutil.rmtree(task_dir, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


async def verify_script(script_path: Path, site: str | Path | None = None, overlay: Path | None = None) -> list[str]:
    """Replay a script without writing anything and return every check that does not hold (empty: all
    hold). An action that cannot be done ends the replay and is reported too. `overlay` is a folder of
    files that replace the site's files of the same relative path (a broken variant of the site)."""
    script = _load(script_path, official=True)
    folder, entry = _entry(site, Path(script_path), script.page)
    work = Path(tempfile.mkdtemp(prefix="iwr-verify-"))
    try:
        if overlay is not None:
            if folder is None:
                raise RecordError("an overlay needs a site folder, not a URL")
            shutil.copytree(folder, work / "site")
            for f in Path(overlay).rglob("*"):
                if f.is_file():
                    dst = work / "site" / f.relative_to(overlay)
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(f, dst)
            entry, folder = str(work / "site" / script.page), work / "site"
        width, height = script.size
        async with BrowserHub(shots_root=work / "shots") as hub:
            s = await _open(hub, entry, width, height, folder)
            played = await _play(s, script, FrameTrack(), None, official=True, strict=False)
            if s.blocked:
                played.failures.append(f"the site requested outside URLs: {s.blocked[:3]}")
        return played.failures
    finally:
        shutil.rmtree(work, ignore_errors=True)
