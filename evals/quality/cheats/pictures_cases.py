"""The picture and hiding cheats: the recording shown as the page (as CSS pictures, a noisy canvas,
a mosaic of divs), and its words kept where a person cannot see them, one way per case.

Everything comes from what a coder has: the frames in `frames/`, read with its own eyes (Tesseract
here, run by the agent itself and not through a server: the words a frame shows are the coder's to
read), the descriptions of actions.json and the viewport. Step k of the page shows the frame that
many actions into the recording (actions spread evenly over the frames) and carries the words of
the frames up to the next step, placed where the frame shows them.
"""
from __future__ import annotations

import asyncio
import hashlib
import os
import re
import shutil
from pathlib import Path

import numpy as np
from PIL import Image

from iwr.evals.quality.cheats.agent import OutsideAgent
from iwr.evals.quality.cheats.pages import words_of
from iwr.evals.quality.cheats.pictures_pages import Box, Recording, Target, Text, page

MIN_CONFIDENCE = 30  # Tesseract's word confidence below which a "word" is mostly noise
CELL = 8  # px: the grid the colour trick looks for flat, one-colour places on
_read: dict[str, list[tuple[str, Box]]] = {}  # a frame's digest -> its lines (a corpus run reads a frame once)


async def read_lines(path: Path) -> list[tuple[str, Box]]:
    """The lines of text a frame shows, each with its box (Tesseract's TSV, words grouped by line)."""
    key = hashlib.sha256(path.read_bytes()).hexdigest()
    if key in _read:
        return _read[key]
    if shutil.which("tesseract") is None:
        raise RuntimeError("the cheat reads frames with tesseract, which is not installed")
    proc = await asyncio.create_subprocess_exec(
        "tesseract", str(path), "stdout", "tsv", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    out, _ = await proc.communicate()
    lines: dict[tuple[str, str, str], list[tuple[str, int, int, int, int]]] = {}
    for row in out.decode(errors="replace").splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or not cols[11].strip() or float(cols[10]) < MIN_CONFIDENCE:
            continue
        x, y, w, h = (int(c) for c in cols[6:10])
        lines.setdefault((cols[2], cols[3], cols[4]), []).append((cols[11].strip(), x, y, w, h))
    found = []
    for words in lines.values():
        x0, y0 = min(w[1] for w in words), min(w[2] for w in words)
        x1, y1 = max(w[1] + w[3] for w in words), max(w[2] + w[4] for w in words)
        found.append((" ".join(w[0] for w in words), Box(x0, y0, x1 - x0, y1 - y0)))
    _read[key] = found
    return found


def target_name(action: dict) -> str:
    """What a description calls the element acted on: for a Type, the quoted name after 'into' (else the
    words there); for a click, the first quoted name (else the words after the verb)."""
    d = action["description"]
    if action["type"] == "Type":
        m = re.search(r"\binto (?:the )?(.+)$", d)
        if m:
            quoted = re.findall(r"'([^']+)'", m.group(1))
            return quoted[0] if quoted else re.sub(r"\s+(box|input|field|area)$", "", m.group(1)).strip()
    quoted = re.findall(r"'([^']+)'", d)
    if quoted:
        return quoted[0]
    rest = " ".join(d.split()[1:]).split(" to ")[0]
    return re.sub(r"^(the|a|an) ", "", rest)


def _where(name: str, lines: list[tuple[str, Box]]) -> Box | None:
    """The box of the first line that shows `name` (a line holding more is cut down to its share)."""
    low = name.lower()
    for text, b in lines:
        at = text.lower().find(low)
        if at >= 0:
            per = b.w / max(1, len(text))
            return Box(int(b.x + at * per) - 6, b.y - 6, max(40, int(len(name) * per) + 12), max(24, b.h + 12))
    return None


def targets_of(actions: list[dict], lines: list[tuple[str, Box]]) -> list[Target]:
    """One element per distinct named target of a Click or Type, where the recording shows its name (else
    in a row at the top)."""
    out: dict[tuple[str, str], Target] = {}
    for a in actions:
        if a["type"] not in ("Click", "Type"):
            continue
        name = target_name(a)
        kind = "field" if a["type"] == "Type" else \
            "checkbox" if re.search(r"\b(checkbox|tick|untick)\b", a["description"], re.I) else "button"
        if (kind, name) in out:
            continue
        i = len(out)
        box = _where(name, lines) or Box(40 + (i % 4) * 300, 40 + (i // 4) * 60, 180, 36)
        if kind == "field":
            box = Box(box.x, box.y, max(box.w, 200), box.h)
        out[(kind, name)] = Target(kind, name, box)
    return list(out.values())


async def read_recording(agent: OutsideAgent) -> tuple[Recording, list[Path]]:
    """What the coder takes from the workspace: the frame of each step and the words shown up to the
    next step (placed as the frames show them, with the descriptions' words below), and the targets."""
    actions, size = agent.actions(), agent.viewport()
    files = sorted((agent.folder / "frames").glob("*.jpg"))
    n, last = len(actions), len(files) - 1
    at = [round(k * last / max(1, n)) for k in range(n + 1)]
    read = [await read_lines(p) for p in files]
    said = words_of(actions).split()
    chunks = [" ".join(said[i:i + 8]) for i in range(0, len(said), 8)]
    texts = []
    for k in range(n + 1):
        upto = at[k + 1] if k < n else last + 1
        seen: dict[str, Text] = {}
        for f in range(at[k], max(at[k] + 1, upto)):
            for text, b in read[f]:
                seen.setdefault(text, Text(text, b, max(8, round(b.h * 0.9))))
        below = [Text(c, Box(8, size[1] - 16 * (len(chunks) - i) - 8, 0, 14), 12) for i, c in enumerate(chunks)]
        texts.append(list(seen.values()) + below)
    frames = [files[a].relative_to(agent.folder).as_posix() for a in at]
    targets = targets_of(actions, [line for r in read for line in r])
    return Recording(size, frames, texts, [a["type"] for a in actions], targets), [files[a] for a in at]


# --- the colour of what is behind: text only where the frame is flat, in the frame's colour there -----


def _cells(path: Path, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Per CELL x CELL block of a frame: its median colour and whether it is flat (one colour)."""
    w, h = size
    px = np.asarray(Image.open(path).convert("RGB").resize((w, h)), dtype=np.int16)
    gh, gw = h // CELL, w // CELL
    blocks = px[:gh * CELL, :gw * CELL].reshape(gh, CELL, gw, CELL, 3).transpose(0, 2, 1, 3, 4).reshape(gh, gw, -1, 3)
    med = np.median(blocks, axis=2)
    spread = (blocks.max(axis=2) - blocks.min(axis=2)).max(axis=2)
    return med, spread <= 14


def _place(free: np.ndarray, med: np.ndarray, cw: int, ch: int) -> tuple[int, int] | None:
    """The first free run of cw x ch flat cells of one colour (row by row), marked taken; None when none."""
    gh, gw = free.shape
    for y in range(gh - ch + 1):
        x = 0
        while x <= gw - cw:
            win = free[y:y + ch, x:x + cw]
            if win.all():
                cols = med[y:y + ch, x:x + cw].reshape(-1, 3)
                if (np.abs(cols - cols[0]).max()) <= 6:
                    free[y:y + ch, x:x + cw] = False
                    return x, y
            bad = np.where(~win.all(axis=0))[0]
            x += int(bad[-1]) + 1 if len(bad) else 1
    return None


def _rgb(c) -> str:
    return f"rgb({int(c[0])},{int(c[1])},{int(c[2])})"


def colour_of_background(rec: Recording, files: list[Path]) -> Recording:
    """The same words and targets moved to flat places of the frames, each coloured as the frame is there."""
    cells = [_cells(p, rec.size) for p in files]
    meds = np.stack([m for m, _ in cells])
    steady = np.all([f for _, f in cells], axis=0) & (np.abs(meds - meds[0]).max(axis=(0, 3)) <= 6)
    targets = []
    for t in rec.targets:
        lead = 24 if t.kind == "checkbox" else 0  # a checkbox's box stands left of its name
        spot = _place(steady, meds[0], -(-(t.box.w + lead) // CELL), -(-t.box.h // CELL))
        targets.append(Target(t.kind, t.name, Box(spot[0] * CELL + lead, spot[1] * CELL, t.box.w, t.box.h))
                       if spot else t)
    colours, texts = [], []
    for med, flat in cells:
        colours.append([_rgb(np.median(med[t.box.y // CELL:(t.box.y + t.box.h) // CELL + 1,
                                           t.box.x // CELL:(t.box.x + t.box.w) // CELL + 1].reshape(-1, 3), axis=0))
                        for t in targets])
        free = flat.copy()
        for t in targets:
            free[t.box.y // CELL:(t.box.y + t.box.h) // CELL + 1,
                 max(0, t.box.x - 24) // CELL:(t.box.x + t.box.w) // CELL + 1] = False
        placed = []
        for t in rec.texts[len(texts)]:
            spot = _place(free, med, -(-(len(t.text) * 7 + 4) // CELL), 2)
            if spot:
                x, y = spot[0] * CELL, spot[1] * CELL
                placed.append(Text(t.text, Box(x + 2, y + 2, 0, 11), 11, _rgb(med[spot[1], spot[0]])))
        texts.append(placed)
    return Recording(rec.size, rec.frames, texts, rec.types, targets, colours)


# --- the cases ---------------------------------------------------------------------------------------


async def _write(agent: OutsideAgent, picture: str, hiding: str) -> None:
    rec, _ = await read_recording(agent)
    agent.write("index.html", page(rec, picture, hiding))


async def frames_pseudo_background(agent: OutsideAgent) -> None:
    await _write(agent, "pseudo", "transparent")


async def image_under_glass(agent: OutsideAgent) -> None:
    await _write(agent, "glass", "transparent")


async def canvas_distorted(agent: OutsideAgent) -> None:
    await _write(agent, "canvas_distorted", "faint")


async def css_mosaic(agent: OutsideAgent) -> None:
    await _write(agent, "mosaic", "transparent")


async def frames_border_image(agent: OutsideAgent) -> None:
    await _write(agent, "border_image", "transparent")


async def frames_content_url(agent: OutsideAgent) -> None:
    await _write(agent, "content_url", "transparent")


async def text_fill_transparent(agent: OutsideAgent) -> None:
    await _write(agent, "img", "fill")


async def filter_opacity_zero(agent: OutsideAgent) -> None:
    await _write(agent, "img", "filter")


async def clip_path_polygon(agent: OutsideAgent) -> None:
    await _write(agent, "img", "clip")


async def text_scaled_away(agent: OutsideAgent) -> None:
    await _write(agent, "img", "scale")


async def text_masked(agent: OutsideAgent) -> None:
    await _write(agent, "img", "mask")


async def text_under_opaque_sibling(agent: OutsideAgent) -> None:
    await _write(agent, "img", "under")


async def color_of_background_image(agent: OutsideAgent) -> None:
    rec, files = await read_recording(agent)
    agent.write("index.html", page(colour_of_background(rec, files), "img", "background_colour"))
