"""What the recording shows an action doing that its sentence does not say.

A person who watched the video checks more than the assertion: the 'Best' box that went from 0 to 4
when the tiles merged, the 'YOU (X)' tally that rose with the win. Where the task holds the
recording's screens on both sides of an action, the judge reads the numbers it shows next to a word
there (OCR of the parts that changed, a little grown so the word beside a number is read with it).
A reading the recording changed must change on the page too: the action fails only where the page
shows the same word with a number beside it, before and after, and that number stayed put. A page
that words it otherwise, shows no such word, or shows another number (the sentence decides those)
is not held to it: the rule asks only that what visibly moved in the recording moves on the page.
"""
from __future__ import annotations

import re
from pathlib import Path

from iwr.graphs.page_view import flat
from iwr.graphs.recorded_change import change_between, regions
from iwr.mcp_servers.imaging import CELL, image_size

NUMBER = r"-?\$?\d+(?:[.,:]\d+)*%?"
GROW = 3  # cells added on each side of a changed part: the word beside a number (often above it) is read too


def labelled_numbers(words: list[dict]) -> dict[str, str]:
    """The numbers OCR read beside a word, by the word (lower case): a number takes the nearest word of
    three or more letters just left of it on its line ('Best: 12') or just above it ('SCORE' over '4');
    a word beside two different numbers is left out (no reading can be told apart)."""
    out: dict[str, str] = {}
    labels = [w for w in words if re.fullmatch(r"[A-Za-z][A-Za-z']{2,}:?", w["t"])]
    for n in (w for w in words if re.fullmatch(NUMBER, w["t"].strip(",.;:"))):
        def gap(lab: dict) -> float | None:
            left = abs((lab["y"] + lab["h"] / 2) - (n["y"] + n["h"] / 2)) < n["h"] / 2 and \
                0 <= n["x"] - (lab["x"] + lab["w"]) < 3 * n["h"]
            above = lab["x"] < n["x"] + n["w"] and n["x"] < lab["x"] + lab["w"] and \
                0 <= n["y"] - (lab["y"] + lab["h"]) < 1.5 * n["h"]
            return (n["x"] - lab["x"] - lab["w"]) if left else (n["y"] - lab["y"] - lab["h"]) if above else None
        near = [(g, lab) for lab in labels if (g := gap(lab)) is not None]
        if near:
            key, number = min(near, key=lambda x: x[0])[1]["t"].rstrip(":").lower(), n["t"].strip(",.;:")
            out[key] = number if out.get(key, number) == number else ""
    return {k: v for k, v in out.items() if v}


async def recorded_readings(ctx, step: int) -> list[tuple[str, str, str]]:
    """(word, number before, number after) for each number the recording shows changing next to a word
    across action `step`; read once per task and step. Empty without the recording's screens on both sides."""
    before, after = ctx.refs.get(step - 1), ctx.refs.get(step)
    if ctx.config.paper_compat or not (before and after and Path(before).is_file() and Path(after).is_file()):
        return []  # (a coder replaying its own page has no recording's screens)
    key = ("readings", step)
    if key not in ctx.recorded:
        grid = change_between(before, after)
        readings: dict[str, tuple[str, str]] = {}
        if grid is not None and grid.any():
            w, h = image_size(after)
            for x, y, bw, bh in regions(grid, (w, h)):
                box = [max(0, x - GROW * CELL), max(0, y - GROW * CELL), 0, 0]
                box[2], box[3] = min(w, x + bw + GROW * CELL) - box[0], min(h, y + bh + GROW * CELL) - box[1]
                read = [(await ctx.tools.call("metrics", "ocr", image=p, box=box, words=True))["words"] for p in (before, after)]
                was, now = labelled_numbers(read[0]), labelled_numbers(read[1])
                for word in was.keys() & now.keys():
                    if was[word] != now[word]:
                        readings[word] = (was[word], now[word])
        ctx.recorded[key] = [(word, a, b) for word, (a, b) in sorted(readings.items())]
    return ctx.recorded[key]


def page_reading(view: dict, word: str) -> set[str]:
    """The numbers the page shows right after (or right under) a word, wherever that word is shown."""
    joined = " | ".join(flat(t["t"]) for t in view.get("texts", []) if t.get("v", True))
    found = re.finditer(rf"\b{re.escape(word)}\b[^\d$-]{{0,8}}?({NUMBER})", joined, re.I)
    return {m.group(1) for m in found}


def unmade(readings: list[tuple[str, str, str]], before: dict, after: dict) -> list[str]:
    """The recording's changed readings the page shows unchanged: the word beside one number both before
    and after the action."""
    out = []
    for word, was, now in readings:
        then, later = page_reading(before, word), page_reading(after, word)
        if len(then) == 1 and then == later and now not in later:
            out.append(f"{word} stays {next(iter(later))} (the recording shows {was} -> {now})")
    return out


async def effects_made(ctx, sid: str, readings: list[tuple[str, str, str]], trace: dict) -> tuple[bool, str]:
    """Whether the page made the recording's changed readings (its view before the action is the
    judge's `before_view`); (passed, reason), noted in the action's trace."""
    after = await ctx.tools.call("browser", "observe", session=sid, assets=ctx.served())
    missing = unmade(readings, ctx.before_view or {}, after)
    trace["recorded_effects"] = {"readings": [list(r) for r in readings], "unmade": missing}
    return not missing, "the recording's change is not made: " + "; ".join(missing) if missing else ""
