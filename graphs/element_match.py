"""How well one listed element fits the words of a description: its kind, its labels, its symbols,
its colour. Pure functions over the browser server's element dicts."""
from __future__ import annotations

import colorsys
import re
from dataclasses import dataclass, field

from iwr.graphs.description import COLOURS, words_of, norm
from iwr.tasks.names import CALENDAR

CALENDAR_WORDS = set(CALENDAR.values()) | {"may"}

LABEL_FIELDS = ("name", "text", "value", "placeholder", "alt", "title", "label")
STRONG_KINDS = {"button", "link", "checkbox", "radio", "field", "dropdown", "tab", "image", "option", "menuitem"}


@dataclass
class Plan:
    """One way to reach the target: arguments for the browser's click/type, and why."""

    strategy: str
    args: dict
    score: float = 1.0
    why: str = ""
    alternatives: list[dict] = field(default_factory=list)
    chosen: dict | None = None  # the element's description, for the record
    margin: float | None = None  # chosen score minus the runner-up's


def fits_kind(el: dict, kind: str) -> bool:
    """Whether an element is of a role noun's kind (or, for other nouns, carries the word)."""
    role, tag = el.get("role"), el.get("tag")
    box = el.get("bbox") or [0, 0, 0, 0]
    if kind == "button":
        return role == "button" or tag == "button"
    if kind == "field":
        return role in ("textbox", "searchbox", "combobox") or tag in ("input", "textarea") and role not in (
            "checkbox", "radio", "button", "slider")
    if kind in ("checkbox", "radio") and looks_checkable(el):
        return True
    if kind in ("checkbox", "radio") and el.get("controls") == kind:  # a label drawn as the box it toggles
        return True
    if kind == "checkbox" and looks_like_switch(el):
        return True
    if kind == "checkbox":
        return role in ("checkbox", "switch")
    if kind == "dropdown":
        return role in ("combobox", "listbox") or tag == "select" or bool(el.get("popup"))
    if kind == "image":
        return role == "img" or tag in ("img", "svg", "picture") or bool(el.get("alt")) or says(el, ("thumb", "image", "photo", "img"),
                                                                                                       prefix=True)
    if kind == "icon":
        return tag in ("svg", "i") or says(el, ("icon",)) or (box[2] <= 48 and box[3] <= 48 and len(el.get("text", "")) <= 2)
    if kind in ("link", "tab", "radio", "option", "menuitem"):
        return role == kind or (kind == "tab" and says(el, ("tab",))) or (kind == "menuitem" and "menu" in el.get("region", []))
    if kind in ("row", "item"):
        return tag in ("li", "tr") or role in ("row", "listitem") or says(el, (kind,))
    if kind == "dot" and 0 < box[2] <= 24 and 0 < box[3] <= 24 and abs(box[2] - box[3]) <= 4 and not str(el.get("text") or "").strip():
        return True  # a dot is what it looks like: small, round or square, no words
    # Another noun ("star", "glass"): in the id or classes, or in a short label (not a sentence about it).
    if kind in words_of(f"{el.get('id', '')} {el.get('classes', '')}"):
        return True
    label = str(el.get("name") or el.get("text") or "")
    return len(label.split()) <= 4 and says(el, (kind,))


CHECK_MARKS = {"", "✓", "✔", "☐", "☑", "○", "◯", "●", "◉"}
OTHER_ACTIONS = {"delete", "remove", "close", "clear", "edit", "trash", "dismiss", "cancel", "more", "menu", "options",
                 "settings", "expand", "collapse", "play", "pause", "next", "previous", "back"}


def looks_checkable(el: dict) -> bool:
    """A control a person takes for a checkbox or radio button though it is none: a small, roughly square
    clickable box showing nothing but a check mark or nothing at all, whose name says no other action."""
    box = el.get("bbox") or [0, 0, 0, 0]
    if not el.get("interactive", True) or el.get("tag") in ("input", "textarea", "select", "a"):
        return False
    small = 8 <= box[2] <= 44 and 8 <= box[3] <= 44 and abs(box[2] - box[3]) <= 8
    return small and str(el.get("text") or "").strip() in CHECK_MARKS and not (
        words_of(f"{el.get('name') or ''} {el.get('title') or ''}") & OTHER_ACTIONS)


def looks_like_switch(el: dict) -> bool:
    """A control a person takes for a switch though no role says so: a clickable pill with no words, about
    twice as wide as it is high."""
    box = el.get("bbox") or [0, 0, 0, 0]
    if not el.get("interactive", True) or el.get("tag") in ("input", "textarea", "select", "a") or not box[3]:
        return False
    return 12 <= box[3] <= 48 and 1.4 <= box[2] / box[3] <= 3.2 and not str(el.get("text") or "").strip()


def says(el: dict, words: tuple[str, ...], prefix: bool = False) -> bool:
    """Whether the element's labels, id or classes carry one of the words (with `prefix`, start with one)."""
    have = words_of(" ".join(str(el.get(k, "")) for k in (*LABEL_FIELDS, "id", "classes")))
    return any(w in have or prefix and any(h.startswith(w) for h in have) for w in words)


def phrase_score(el: dict, phrase: str) -> tuple[float, str]:
    target, raw = norm(phrase), " ".join(phrase.lower().split())
    best, why = 0.0, ""
    if not target:  # a symbol ('★') has no words to find: symbol_score reads it
        return best, why
    for f in LABEL_FIELDS:
        # '<span>01</span>Instant Transfers' reads '01Instant Transfers': a number drawn against a word
        shown = re.sub(r"(?<=\d)(?=[A-Z])", " ", str(el.get(f) or ""))
        value = norm(shown)
        if not value:
            continue
        if " ".join(shown.lower().split()) == raw:
            cand, w = 1.0, f"{f} equals {phrase!r}"
        elif value == target:  # equal once symbols are dropped: '+15' is not '-15'
            cand, w = 0.9, f"{f} equals {phrase!r} but for symbols"
        elif re.search(rf"\b{re.escape(target)}\b", value):
            cand, w = 0.5 + 0.4 * len(target) / len(value), f"{f} contains {phrase!r}"
        elif len(value) >= 3 and re.search(rf"\b{re.escape(value)}\b", target):
            cand, w = 0.6 * len(value) / len(target), f"{phrase!r} contains the {f}"
        elif same_date(phrase, str(el.get(f))):
            cand, w = 0.8, f"{f} shows the day {phrase!r} names"
        elif same_but_little_words(phrase, str(el.get(f))):
            cand, w = 0.7, f"{f} says {phrase!r} but for little words"
        else:
            continue
        if cand > best:
            best, why = cand, w
    return best, why


LITTLE = {"to", "for", "of", "the", "a", "an", "one", "some", "any", "this", "that", "in", "on", "at", "by", "with", "your",
          "my", "our", "its", "their"}


def same_but_little_words(phrase: str, label: str) -> bool:
    """'+1 to Player-1' on a button '+1 for Player 1': the same words and numbers, in the same order, but
    for little words between them (a coder's or an annotator's rewording a person reads past)."""
    seq = lambda t: [w for w in re.findall(r"[a-z]+|\d+", t.lower()) if w not in LITTLE]  # noqa: E731
    a = seq(phrase)
    return len(a) >= 2 and a == seq(label)


def same_date(phrase: str, label: str) -> bool:
    """'Monday 15 July' on a day cell 'Mon 15': the phrase's numbers are all on the label and what it
    says besides is a weekday or a month (the calendar around the cell shows those)."""
    pw, lw = words_of(phrase), words_of(label)
    digits = {w for w in pw if w.isdigit()}
    return bool(digits) and digits <= lw and all(w in CALENDAR_WORDS for w in pw - lw)


# What a symbol on a small control means, as its name says it ("the little x" on a tab named 'Remove Tab')
SYMBOL_MEANINGS = [("×✕✖✗xX", {"close", "remove", "delete", "clear", "dismiss", "cancel"}),
                   ("+", {"add", "new", "plus", "create", "expand", "increase", "increment"}),
                   ("−-–", {"minus", "decrease", "decrement", "collapse", "less"}),
                   ("←‹«◀", {"back", "previous", "prev"}), ("→›»▶❯", {"next", "forward"}),
                   ("☰", {"menu", "navigation"}), ("⚙", {"settings", "options", "preferences"})]


def symbol_score(el: dict, symbols: list[str]) -> tuple[float, str]:
    best, why = 0.0, ""
    box = el.get("bbox") or [0, 0, 99, 99]
    if box[2] <= 48 and box[3] <= 48:  # an icon-sized control whose name says what its symbol means
        said = words_of(" ".join(str(el.get(f) or "") for f in LABEL_FIELDS))
        for chars, meaning in SYMBOL_MEANINGS:
            if any(s in chars for s in symbols) and said & meaning:
                best, why = 0.6, f"a small control named for what {symbols[0]!r} means"
    for f in LABEL_FIELDS:
        value = str(el.get(f) or "").strip()
        for sym in symbols:
            if value == sym:
                cand = 1.0
            elif sym in value and len(value) <= 3:
                cand = 0.8
            else:
                continue
            if cand > best:
                best, why = cand, f"{f} shows {sym!r}"
    return best, why


def hue_fits(colour: str, rgb_css: str) -> bool:
    nums = [float(n) for n in re.findall(r"[\d.]+", rgb_css or "")[:3]]
    if len(nums) < 3:
        return False
    h, l, s = colorsys.rgb_to_hls(*(n / 255 for n in nums))
    return bool(hls_fits(colour, h * 360, l, s))


def hls_fits(colour: str, hue, light, sat):
    """Whether a hue (degrees), lightness and saturation (0-1) are the named colour a person says; numbers
    or numpy arrays alike (graphs/painted.py tests every pixel that changed)."""
    if colour in ("grey", "gray"):
        return (sat < 0.15) & (light > 0.25) & (light < 0.85)
    if colour in ("black", "dark"):
        return light < 0.25
    if colour == "white":
        return light > 0.92
    lo, hi = COLOURS[colour]
    inside = (hue >= lo) & (hue <= hi) | ((hue >= 345) if colour == "red" else False)  # red wraps round 0
    return (sat > 0.25) & (light > 0.12) & (light < 0.9) & inside


def describe(el: dict, score: float) -> dict:
    """The element as a grounding records it."""
    return {"ref": el["ref"], "role": el.get("role"), "tag": el.get("tag"), "name": str(el.get("name") or el.get("text") or "")[:60],
            "css": el.get("css"), "score": round(score, 3)}
