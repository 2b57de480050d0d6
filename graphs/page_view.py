"""What a page shows, as the browser's `observe` tool reports it: where a text shows, what changed,
its lists and its fields. Shared by the claim deciders (assertions.py, chosen.py, visible_change.py)."""
from __future__ import annotations

import re
from collections import Counter


def pattern(text: str) -> re.Pattern:
    return _bounded(loose(" ".join((text or "").lower().split())), (text or "").strip().lower(), "a-z")


# What a person reads as the same words: a sentence's stops and commas as any other or none ('Congratulations.
# Play Again.' is 'Congratulations! Play again'), one sign for times, divided, minus, apostrophe or quote as another.
STOPS = ".!?,;:"
ALIKE = [("*×✕✖", "[*×✕✖]"), ("/÷", "[/÷]"), ("-−–—", "[-−–—]"), ("'’‘`", "['’‘`]"), ('"“”', '["“”]')]


def loose(t: str) -> str:
    """The regular expression for the text `t` (lower case, spaces single) read as a person reads it."""
    out = []
    for k, ch in enumerate(t):
        between_digits = 0 < k < len(t) - 1 and t[k - 1].isdigit() and t[k + 1].isdigit()
        if ch in STOPS and not between_digits:  # '1.5' and '1,000' keep theirs
            out.append(f"[{re.escape(STOPS)}]?")
        elif ch == " ":
            out.append(f"[{re.escape(STOPS)}]? ")
        else:
            out.append(next((cls for chars, cls in ALIKE if ch in chars), re.escape(ch)))
    return "".join(out)


def _bounded(t: str, text: str, letters: str) -> re.Pattern:
    """Words are whole where they end: a letter after no letter, a digit after no digit ('01Instant Transfers'
    shows 'Instant Transfers': a number drawn against a word is no part of it)."""
    edge = lambda ch: f"[{letters}]" if ch.isalpha() else "[0-9]" if ch.isdigit() else None  # noqa: E731
    left, right = edge(text[:1] or " "), edge(text[-1:] or " ")
    return re.compile((f"(?<!{left})" if left else "") + t + (f"(?!{right})" if right else ""))


def exact_pattern(text: str) -> re.Pattern:
    """`pattern`, in the text's own case."""
    return _bounded(re.escape(" ".join((text or "").split())), (text or "").strip(), "A-Za-z")


def flat(s: str) -> str:
    return " ".join((s or "").lower().split())


def capitals(text: str, views: tuple[dict, ...]) -> str | None:
    """How words written in capitals ('LOST.') are to be found: in capitals ("case") where one of the views
    shows them so, the same letters in other case ('getting lost.') being other words; else ("whole") only
    as a text of their own (a tab written 'Lost.'), not inside a sentence; None for other words."""
    if not (re.search(r"[A-Z]{2}", text or "") and text == text.upper() and len(text.split()) <= 3):
        return None
    return "case" if any(occurrences(v, text, exact="case") for v in views) else "whole"


def occurrences(view: dict, text: str, display: bool = False, values: bool = True, exact: str | None = None) -> int:
    """How many painted places show `text` (uncovered, where the viewport allows a hit test; with
    `display`, not inside a control), and field values holding it. Text split over neighbouring
    elements ('1.25L' above 'Remained') counts once when no single element holds it. Text below the
    fold counts: what scrolling brings into view changes the page (see `page_changed`)."""
    p, see = (exact_pattern(text), lambda x: " ".join((x or "").split())) if exact == "case" else \
        (re.compile("^" + re.escape(flat(text)) + "$"), flat) if exact == "whole" else (pattern(text), flat)
    shown = [t for t in view.get("texts", []) if not (display and t.get("ctl"))]
    n = sum(1 for t in shown if p.search(see(t["t"])))
    if not n:
        n = int(bool(p.search(see(" ".join(t["t"] for t in shown)))))
    if values:  # a field shows its value, or its placeholder while empty
        n += sum(1 for f in view.get("fields", []) if f.get("checked") is None
                 and p.search(see(f.get("value") or f.get("ph", ""))))
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


def moved(before: dict, after: dict) -> bool:
    """Whether texts on both sides moved unlike the page (a row put in above them pushes them down; a
    scroll moves them all alike)."""
    ys = lambda v: {t["t"]: t["y"] for t in v.get("texts", []) if "y" in t and  # noqa: E731
                    sum(1 for u in v.get("texts", []) if u["t"] == t["t"]) == 1}
    b, a = ys(before), ys(after)
    shifts = {round(a[t] - b[t]) for t in b.keys() & a.keys()}
    return any(abs(d) >= 8 for d in shifts) and len({d // 4 for d in shifts}) > 1


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
