"""What a page shows, as the browser's `observe` tool reports it: where a text shows, what changed,
its lists and its fields. Shared by the claim deciders (assertions.py, chosen.py, visible_change.py)."""
from __future__ import annotations

import re
from collections import Counter


def pattern(text: str) -> re.Pattern:
    t = re.escape(" ".join((text or "").lower().split()))
    left = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", text.strip().lower() or " ") else ""
    right = r"(?![a-z0-9])" if re.search(r"[a-z0-9]$", text.strip().lower()) else ""
    return re.compile(left + t + right)


def flat(s: str) -> str:
    return " ".join((s or "").lower().split())


def occurrences(view: dict, text: str, display: bool = False, values: bool = True) -> int:
    """How many painted places show `text` (uncovered, where the viewport allows a hit test; with
    `display`, not inside a control), and field values holding it. Text split over neighbouring
    elements ('1.25L' above 'Remained') counts once when no single element holds it. Text below the
    fold counts: what scrolling brings into view changes the page (see `page_changed`)."""
    p = pattern(text)
    shown = [t for t in view.get("texts", []) if not (display and t.get("ctl"))]
    n = sum(1 for t in shown if p.search(flat(t["t"])))
    if not n:
        n = int(bool(p.search(flat(" ".join(t["t"] for t in shown)))))
    if values:  # a field shows its value, or its placeholder while empty
        n += sum(1 for f in view.get("fields", []) if f.get("checked") is None
                 and p.search(flat(f.get("value") or f.get("ph", ""))))
    return n


def page_changed(before: dict, after: dict) -> bool:
    """Whether anything a person sees changed: text (and how it is painted, unless under the mouse),
    values, states, dialogs, images, canvases, the address. Hover and focus alone are not a change."""
    hovered = {t["t"] for v in (before, after) for t in v.get("texts", []) if t.get("h")}
    texts = lambda v: Counter((t["t"], t.get("v"), None if t["t"] in hovered else t.get("s"), t.get("off"), t.get("strike"))  # noqa: E731
                              for t in v.get("texts", []))
    return any((texts(before) != texts(after), before.get("fields") != after.get("fields"),
                before.get("states") != after.get("states"), before.get("dialogs") != after.get("dialogs"),
                before.get("media") != after.get("media"), before.get("url") != after.get("url"),
                before.get("canvas") != after.get("canvas")))


def items_of(view: dict) -> dict[int, list[dict]]:
    lists: dict[int, list[dict]] = {}
    for t in view.get("texts", []):
        if t.get("list") is not None:
            lists.setdefault(t["list"], []).append(t)
    return lists


def lists_holding(view: dict, texts: tuple[str, ...]) -> dict[int, list[dict]]:
    """The lists (by id) with an item showing one of `texts`."""
    pats = [pattern(q) for q in texts]
    return {lid: ts for lid, ts in items_of(view).items() if any(p.search(flat(t["t"])) for t in ts for p in pats)}


def fields_named(view: dict, text: str | None, kinds: tuple[str, ...] | None = None) -> list[dict]:
    out = [f for f in view.get("fields", []) if kinds is None or f.get("type") in kinds]
    if text:
        p = pattern(text)
        out = [f for f in out if p.search(flat(f.get("label", ""))) or p.search(flat(f.get("value", "")))]
    return out
