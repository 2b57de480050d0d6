"""Offline grounding: pick the element an action description means, without any model.

Pure functions over the element list the browser server returns (ref, role, name, text, bbox).
The judge tries the plans in order: the task's structured hint, then text/role matching of the
natural-language description, then the recorded position scaled to the page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

QUOTE_RE = re.compile(r"'([^']+)'|\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’")
WORD_RE = re.compile(r"[a-z0-9]+")
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}
ORDINAL_RE = re.compile(r"\bthe\s+(?:(\d+)(?:st|nd|rd|th)|(" + "|".join(ORDINALS) + r"))\s+([a-z][a-z-]*)")
KIND_ROLES = {
    "button": {"button"}, "link": {"link"}, "tab": {"tab", "button"}, "checkbox": {"checkbox"},
    "radio": {"radio"}, "input": {"textbox"}, "field": {"textbox"}, "box": {"textbox", "combobox"},
    "textbox": {"textbox"}, "textarea": {"textbox"}, "dropdown": {"combobox"}, "select": {"combobox"},
    "menu": {"menuitem", "button", "link"}, "slider": {"slider"},
}
STOP = {"the", "a", "an", "on", "in", "into", "to", "of", "and", "click", "type", "press", "button", "link",
        "field", "box", "input", "with", "at", "for", "tap", "select", "it", "that", "this", "then"}


@dataclass
class Plan:
    """One way to reach the target: arguments for the browser's click/type, and why."""

    strategy: str
    args: dict
    score: float = 1.0
    why: str = ""
    alternatives: list[dict] = field(default_factory=list)


def quoted(text: str) -> list[str]:
    """Every quoted string in a description, in order."""
    return [next(g for g in m.groups() if g) for m in QUOTE_RE.finditer(text or "")]


def stem(word: str) -> str:
    """Crude plural folding so 'star' meets 'stars'."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def words_of(text: str) -> set[str]:
    return {stem(w) for w in WORD_RE.findall((text or "").lower())}


def norm(s: str) -> str:
    return " ".join(WORD_RE.findall((s or "").lower()))


def type_text_of(description: str, explicit: str | None) -> str | None:
    """The text a Type action enters: its `text` parameter, else the first quoted string."""
    if explicit:
        return explicit
    q = quoted(description)
    return q[0] if q else None


def _ordinal(description: str) -> tuple[int, str] | None:
    """(n, noun) for phrases like 'the 9th star' or 'the last card'; n is -1 for 'last'."""
    m = ORDINAL_RE.search(description.lower())
    if not m:
        return None
    return (int(m.group(1)) if m.group(1) else ORDINALS[m.group(2)]), stem(m.group(3))


def _contains(a: list, b: list) -> bool:
    return a[0] <= b[0] and a[1] <= b[1] and a[0] + a[2] >= b[0] + b[2] and a[1] + a[3] >= b[1] + b[3] and a != b


def _leaves(group: list[dict]) -> list[dict]:
    """Drop containers (a star rating widget) whose box holds other members (its stars)."""
    return [e for e in group if not any(_contains(e.get("bbox", [0, 0, 0, 0]), o.get("bbox", [0, 0, 0, 0]))
                                        for o in group if o is not e)]


def _of_kind(el: dict, noun: str) -> bool:
    if noun in KIND_ROLES:
        return el.get("role") in KIND_ROLES[noun]
    return noun in words_of(f"{el.get('name', '')} {el.get('text', '')} {el.get('id', '')} {el.get('classes', '')}")


def _score(el: dict, phrases: list[str], words: set[str], kinds: set[str], typing: bool) -> tuple[float, str]:
    name, text = norm(el.get("name", "")), norm(el.get("text", ""))
    best, why = 0.0, ""
    for p in phrases:
        np_ = norm(p)
        if not np_:
            continue
        for label, value in (("name", name), ("text", text)):
            if value == np_:
                cand, w = 1.0, f"{label} equals {p!r}"
            elif np_ in value and len(np_) >= 2:
                cand, w = 0.8 * len(np_) / max(len(value), 1) + 0.1, f"{label} contains {p!r}"
            elif value and value in np_ and len(value) >= 3:
                cand, w = 0.6 * len(value) / len(np_), f"{p!r} contains the {label}"
            else:
                continue
            if cand > best:
                best, why = cand, w
    if words:
        ew = words_of(f"{name} {text} {el.get('id', '')} {el.get('classes', '')}") - STOP
        overlap = len(words & ew) / len(words)
        if 0.45 * overlap > best:
            best, why = 0.45 * overlap, f"shares words {sorted(words & ew)}"
    roles = set().union(*(KIND_ROLES[k] for k in kinds)) if kinds else set()
    if roles and el.get("role") in roles:
        best += 0.1
    if typing and el.get("role") not in ("textbox", "combobox", "searchbox") and el.get("tag") not in ("input", "textarea"):
        return 0.0, "cannot take text"
    return best, why


def match_description(description: str, elements: list[dict], action_type: str,
                      hint_name: str | None = None, hint_text: str | None = None,
                      threshold: float = 0.5) -> Plan | None:
    """Best element for a description by quoted text, words, element kind and ordinal; None if unsure."""
    typing = action_type == "Type"
    q = quoted(description)
    if typing and q:
        q = q[1:]  # the first quote of a Type description is the text to type
    phrases = [p for p in [hint_name, hint_text, *q] if p]
    lowered = description.lower()
    kinds = {k for k in KIND_ROLES if re.search(rf"\b{k}s?\b", lowered)}
    words = words_of(re.sub(QUOTE_RE, " ", description)) - STOP - set(ORDINALS)
    words = {w for w in words if not w.isdigit() and len(w) > 2}
    scored = []
    for el in elements:
        if not el.get("enabled", True):
            continue
        s, why = _score(el, phrases, words, kinds, typing)
        scored.append((s, el, why))
    ordinal = _ordinal(description)
    if ordinal is not None:
        nth, noun = ordinal
        group = _leaves([el for el in elements if el.get("enabled", True) and _of_kind(el, noun)])
        if group and 0 < abs(nth) <= len(group):
            el = group[nth - 1 if nth > 0 else nth]
            return Plan("text.ordinal", {"ref": el["ref"]}, 0.9, f"{'last' if nth < 0 else nth} of {len(group)} '{noun}' elements")
    scored.sort(key=lambda x: -x[0])
    if not scored or scored[0][0] < threshold:
        return None
    s, el, why = scored[0]
    alts = [{"ref": e["ref"], "name": e.get("name", "")[:60], "score": round(sc, 3)} for sc, e, _ in scored[1:4]]
    return Plan("text", {"ref": el["ref"]}, s, why, alts)


def plans_for(action: dict, elements: list[dict], viewport: tuple[int, int],
              recorded_size: tuple[int, int]) -> list[Plan]:
    """Grounding plans in the order the offline judge tries them."""
    params = action["parameters"]
    hint = ((action.get("iwr") or {}).get("target")) or {}
    out: list[Plan] = []
    if hint.get("selector"):
        out.append(Plan("hint.selector", {"selector": hint["selector"]}, 1.0, "structured target hint"))
    m = match_description(params.get("description", ""), elements, action["type"], hint.get("name"), hint.get("text"))
    if m is not None:
        out.append(m)
    if hint.get("bbox"):
        x, y, w, h = hint["bbox"]
        sx, sy = viewport[0] / recorded_size[0], viewport[1] / recorded_size[1]
        out.append(Plan("hint.position", {"x": (x + w / 2) * sx, "y": (y + h / 2) * sy}, 0.3, "recorded position"))
    return out


KEY_WORDS = [("enter", "Enter"), ("return", "Enter"), ("escape", "Escape"), ("esc", "Escape"), ("tab", "Tab"),
             ("space", " "), ("backspace", "Backspace"), ("delete", "Delete"), ("up", "ArrowUp"),
             ("down", "ArrowDown"), ("left", "ArrowLeft"), ("right", "ArrowRight"), ("home", "Home"),
             ("end", "End"), ("page down", "PageDown"), ("page up", "PageUp")]


def key_for(params: dict) -> str | None:
    """The key a Press action means: its `key` parameter, else a key name found in the description."""
    if params.get("key"):
        return params["key"]
    words = " " + norm(params.get("description", "")) + " "
    for word, key in KEY_WORDS:
        if f" {word} " in words:
            return key
    return None


def target_quotes(description: str, action_type: str) -> list[str]:
    """Quoted strings that name the target (a Type description's first quote is the text)."""
    q = quoted(description)
    return q[1:] if action_type == "Type" else q


def names_agree(quotes: list[str], label: str) -> bool:
    """Whether an element's label (name, text, label, placeholder) fits any quoted target name."""
    if not quotes:
        return True
    lab = norm(label)
    for q in quotes:
        nq = norm(q)
        if not nq:  # a symbol such as '+' or '×': compare the characters themselves
            if q.strip() and q.strip() in label:
                return True
            continue
        if nq in lab or (len(lab) >= 3 and lab in nq):
            return True
        qw, lw = words_of(q), words_of(label)
        if qw and len(qw & lw) / len(qw) >= 0.5:
            return True
    return False


# Reads the label of the element a selector or a point designates, without changing the page.
LABEL_AT = """(() => {
  const el = %s;
  if (!el) return null;
  const t = el.closest('a,button,input,select,textarea,label,summary,[role],[onclick],[tabindex]') || el;
  const labels = t.labels ? Array.from(t.labels).map(l => l.innerText).join(' ') : '';
  return [t.getAttribute('aria-label') || '', t.innerText || '', t.value || '', t.getAttribute('placeholder') || '',
          t.getAttribute('title') || '', t.getAttribute('alt') || '', labels].join(' ');
})()"""


def label_probe(args: dict) -> str | None:
    """A read-only JS expression giving the label of the element a selector or point plan designates."""
    import json

    if "selector" in args:
        return LABEL_AT % f"document.querySelector({json.dumps(args['selector'])})"
    if "x" in args:
        return LABEL_AT % f"document.elementFromPoint({float(args['x'])}, {float(args['y'])})"
    return None
