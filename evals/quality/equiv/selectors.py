"""CSS selectors: where their id and class names are, and a simple static matcher.

The matcher answers "could this selector match that element", ignoring dynamic pseudo-classes
(:hover, :checked, ...), which is what the restructuring needs to stay on the safe side.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

NAME = re.compile(r"(?:[\w-]|\\.)+")
STRUCTURAL = re.compile(r":(first-child|last-child|only-child|nth-child|nth-last-child|first-of-type|last-of-type|"
                        r"only-of-type|nth-of-type|nth-last-of-type|empty|has)\b")


def name_spans(sel: str) -> list[tuple[int, int, str]]:
    """(start, end, '#' or '.') of every id and class name in a selector list, outside [attr] parts,
    strings and url()."""
    out, i, n = [], 0, len(sel)
    while i < n:
        c = sel[i]
        if c in "\"'":
            j = sel.find(c, i + 1)
            i = n if j < 0 else j + 1
        elif c == "[":
            j = i + 1
            while j < n and sel[j] != "]":
                if sel[j] in "\"'":
                    k = sel.find(sel[j], j + 1)
                    j = n if k < 0 else k
                j += 1
            i = j + 1
        elif c in "#." and i + 1 < n:
            m = NAME.match(sel, i + 1)
            if m and not (c == "." and sel[i + 1].isdigit()):
                out.append((m.start(), m.end(), c))
                i = m.end()
            else:
                i += 1
        else:
            i += 1
    return out


def rewrite_names(sel: str, rename) -> str:
    """`sel` with every id and class name passed through rename(name)."""
    parts, last = [], 0
    for a, b, _ in name_spans(sel):
        parts.append(sel[last:a])
        parts.append(rename(sel[a:b]))
        last = b
    return "".join(parts) + sel[last:]


def split_list(sel: str) -> list[str]:
    """A selector list split at its top-level commas."""
    out, depth, cur, quote = [], 0, [], ""
    for c in sel:
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(c)
    out.append("".join(cur).strip())
    return [s for s in out if s]


@dataclass
class Compound:
    """One compound selector: tag, ids, classes, attribute names; `structural` when it has a
    structural pseudo-class; `combinator` joins it to the compound on its left ('' for the first)."""

    tag: str = ""
    ids: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)
    structural: bool = False
    combinator: str = ""


COMPOUND_PART = re.compile(r"(\*|[\w-]+)|#((?:[\w-]|\\.)+)|\.((?:[\w-]|\\.)+)|\[\s*([\w:-]+)[^\]]*\]|"
                           r"::?[\w-]+(\((?:[^()]|\([^()]*\))*\))?")


def parse(sel: str) -> list[Compound]:
    """One complex selector (no commas) as compounds, left to right."""
    out: list[Compound] = []
    comb, i, n = " ", 0, len(sel)
    cur: Compound | None = None
    while i < n:
        c = sel[i]
        if c.isspace() or c in ">+~":
            if c in ">+~":
                comb = c
            elif comb not in ">+~":
                comb = " "
            cur = None
            i += 1
            continue
        if cur is None:
            cur = Compound(combinator="" if not out else comb)
            out.append(cur)
            comb = " "
        m = COMPOUND_PART.match(sel, i)
        if not m:
            i += 1
            continue
        if m.group(1):
            cur.tag = m.group(1).lower()
        elif m.group(2):
            cur.ids.append(m.group(2))
        elif m.group(3):
            cur.classes.append(m.group(3))
        elif m.group(4):
            cur.attrs.append(m.group(4).lower())
        elif STRUCTURAL.match(m.group(0)):
            cur.structural = True
        i = m.end()
    return out


def compound_matches(comp: Compound, tag: str, attrs: dict[str, str]) -> bool:
    """Could an element with this tag and these attributes match `comp` (dynamic state ignored)?"""
    if comp.tag and comp.tag != "*" and comp.tag != tag:
        return False
    ids = attrs.get("id", "")
    if any(i != ids for i in comp.ids):
        return False
    classes = set((attrs.get("class") or "").split())
    if any(c not in classes for c in comp.classes):
        return False
    return all(a in attrs for a in comp.attrs if a not in ("hidden", "disabled", "checked", "open", "selected"))
