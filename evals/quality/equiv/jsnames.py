"""Ids and classes inside a page's JavaScript: found by the context of each string literal.

A literal is a name when the code around it says so: the argument of getElementById (or a `$`
wrapper of it), querySelector, closest, matches, classList.*, setAttribute('class'|'id', ...), the
right side of `.className =` / `.id =`, a comparison with `x.id`, a `case` of `switch (x.id)`, a
method of `x.id` (indexOf, slice prefixes), or a class/id attribute of markup built from strings.
A literal that is none of these is data, except that one spelling exactly a known id is renamed
too (ids are often listed in arrays and passed to helpers that look them up).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from iwr.evals.quality.equiv.jstokens import Tok, tokenize
from iwr.evals.quality.equiv.markup import NAME_CHARS, MarkupState, feed
from iwr.evals.quality.equiv.selectors import name_spans

CMP = {"===", "!==", "==", "!="}
SELECTOR_FNS = {"querySelector", "querySelectorAll", "closest", "matches", "webkitMatchesSelector"}
CLASSLIST_FNS = {"add", "remove", "toggle", "contains", "replace"}
ID_STRING_FNS = {"indexOf", "lastIndexOf", "startsWith", "endsWith", "includes", "replace", "replaceAll"}
# Words before '(' that open no call.
KEYWORDS = {"if", "while", "for", "return", "typeof", "case", "in", "of", "new", "delete", "void", "throw", "catch",
            "function", "else", "do", "await", "yield", "with"}
ID_ATTRS = {"id", "for", "aria-controls", "aria-labelledby", "aria-describedby", "aria-owns", "aria-activedescendant"}
DOLLAR = [
    re.compile(r"([\w$]+)\s*=\s*function\s*\(\s*([\w$]+)\s*\)\s*\{\s*return\s+document\.getElementById\(\s*\2\s*\)"),
    re.compile(r"function\s+([\w$]+)\s*\(\s*([\w$]+)\s*\)\s*\{\s*return\s+document\.getElementById\(\s*\2\s*\)"),
    re.compile(r"([\w$]+)\s*=\s*\(?\s*([\w$]+)\s*\)?\s*=>\s*\(?\s*document\.getElementById\(\s*\2\s*\)"),
]


@dataclass
class Occ:
    """A name inside a literal: absolute span, 'id' or 'class', and role: 'complete', 'prefix'
    (finished by an expression), or 'exact' (an id, or an id family prefix, only if it is one)."""

    start: int
    end: int
    kind: str  # "id", "class" or "href" (an id a #fragment link names)
    role: str
    text: str


@dataclass
class Frame:
    open: str
    callee: str | None = None
    on_id: bool = False  # a method called on `something.id`
    on_classlist: bool = False
    arg: int = 0
    first_literal: str | None = None
    switch_on_id: bool = False
    plain_call: bool = False  # callee(...) rather than obj.callee(...)


@dataclass
class JsScan:
    """What one script holds: its name occurrences, the literals in no name context (fallback
    candidates and data), and whether a class attribute takes whole names from data."""

    src: str
    occs: list[Occ] = field(default_factory=list)
    free: list[tuple[Tok, bool]] = field(default_factory=list)  # (literal, followed by '+')
    data: set[str] = field(default_factory=set)
    opaque_classes: bool = False


def _member_ends_with(toks: list[Tok], i: int, step: int, name: str) -> bool:
    """Does the member chain starting at toks[i] (going forwards, step=1) or ending at toks[i]
    (going backwards, step=-1) end in `.name`?"""
    if step < 0:
        return i >= 1 and toks[i].text == name and toks[i - 1].text == "."
    j, last = i, None
    while j < len(toks) and toks[j].kind == "ident":
        last = toks[j].text
        if j + 1 < len(toks) and toks[j + 1].text == "." and j + 2 < len(toks):
            j += 2
            continue
        j += 1
        break
    nxt = toks[j].text if j < len(toks) else ""
    return last == name and j - i > 1 and nxt not in ("(", "[", ".")


def _skip_member(toks: list[Tok], j: int) -> int:
    """The index just after the member expression starting at toks[j] (a.b[c](d).e)."""
    n = len(toks)
    if j < n and toks[j].kind == "ident":
        j += 1
    while j < n:
        t = toks[j].text
        if t in (".", "?.") and j + 1 < n and toks[j + 1].kind == "ident":
            j += 2
        elif t in ("(", "["):
            depth = 0
            while j < n:
                depth += toks[j].text in ("(", "[", "{")
                depth -= toks[j].text in (")", "]", "}")
                j += 1
                if depth == 0:
                    break
        else:
            break
    return j


def _ternary_group(toks: list[Tok], i: int) -> bool:
    """toks[i] is '(': does the group hold a conditional whose branches start with literals?"""
    depth, q = 0, None
    for j in range(i, len(toks)):
        t = toks[j].text if toks[j].kind == "punct" else None
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return False
        elif depth == 1 and t == "?" and q is None:
            q = j
            if toks[j + 1].kind != "str":
                return False
        elif depth == 1 and t == ":" and q is not None:
            return toks[j + 1].kind == "str"
    return False


def _value_pieces(raw: str, kind: str, glued_left: bool, hole_right: str | None) -> list[tuple[int, int, str]]:
    """(start, end, role) of the names in a literal that is (part of) a class list or an id."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", raw)] if kind == "class" else (
        [(0, len(raw))] if raw and not any(c.isspace() for c in raw) else [])
    out = []
    for a, b in spans:
        if a == 0 and glued_left:
            continue
        role = "prefix" if (b == len(raw) and hole_right == "expr" and raw[-1] in NAME_CHARS) else "complete"
        out.append((a, b, role))
    return out


def scan(src: str) -> JsScan:
    """Find every id and class name in a script's string literals."""
    toks = tokenize(src)
    out = JsScan(src)
    dollars = {m.group(1) for rx in DOLLAR for m in rx.finditer(src)} | {"getElementById"}
    stack: list[Frame] = []
    assign: tuple[str, int] | None = None  # ('class' | 'id', stack depth) while in `x.className = ...`
    pending_switch = False
    state = MarkupState()
    n = len(toks)

    def tok(j: int) -> Tok:
        return toks[j] if 0 <= j < n else Tok("punct", "", 0, 0)

    for i, t in enumerate(toks):
        if t.kind == "punct":
            if t.text in ("(", "[", "{"):
                f = Frame(t.text)
                if t.text == "(" and tok(i - 1).kind == "ident" and tok(i - 1).text not in KEYWORDS:
                    f.callee = tok(i - 1).text
                    f.plain_call = tok(i - 2).text != "."
                    f.on_id = tok(i - 2).text == "." and tok(i - 3).text == "id" and tok(i - 4).text == "."
                    f.on_classlist = tok(i - 2).text == "." and tok(i - 3).text == "classList"
                if t.text == "{":
                    f.switch_on_id, pending_switch = pending_switch, False
                stack.append(f)
            elif t.text in (")", "]", "}"):
                f = stack.pop() if stack else Frame("(")
                if f.callee == "switch" and _member_ends_with(toks, i - 1, -1, "id"):
                    pending_switch = True
                if assign and len(stack) < assign[1]:
                    assign = None
            elif t.text in (",", ";"):
                if stack and t.text == ",":
                    stack[-1].arg += 1
                if assign and len(stack) == assign[1]:
                    assign = None
            elif t.text in ("=", "+=") and tok(i - 2).text == "." and tok(i - 1).text in ("className", "id"):
                assign = ("class" if tok(i - 1).text == "className" else "id", len(stack))
                # `el.className = other.cls` takes whole names from data; `= a === b ? "x" : "y"` does not.
                if assign[0] == "class" and tok(i + 1).kind == "ident" and \
                        tok(_skip_member(toks, i + 1)).text not in CMP | {"?", "&&", "||", "<", ">", "<=", ">="}:
                    out.opaque_classes = True
            continue
        if t.kind != "str":
            continue
        a, b = t.content
        raw = src[a:b]
        prev, nxt = tok(i - 1), tok(i + 1)
        glued_left = prev.text == "+" and (tok(i - 2).kind != "str" or (tok(i - 2).value(src)[-1:] in NAME_CHARS))
        hole_right = None
        if nxt.text == "+" and tok(i + 2).kind != "str":
            hole_right = None if (tok(i + 2).text == "(" and _ternary_group(toks, i + 2)) else "expr"
        if t.quote == "`":
            glued_left = glued_left or t.text.startswith("}")
            hole_right = "expr" if t.text.endswith("${") else hole_right
        top = stack[-1] if stack else Frame("{")

        def value(kind: str, a: int = a, raw: str = raw, glued: bool = glued_left,
                  hole: str | None = hole_right) -> None:
            for s, e, role in _value_pieces(raw, kind, glued, hole):
                out.occs.append(Occ(a + s, a + e, kind, role, raw[s:e]))
            if kind == "class" and hole == "expr" and (not raw or raw[-1].isspace()):
                out.opaque_classes = True

        if prev.text in CMP or nxt.text in CMP:
            other_id = (prev.text in CMP and _member_ends_with(toks, i - 2, -1, "id")) or (
                nxt.text in CMP and _member_ends_with(toks, i + 2, 1, "id"))
            other_cls = (prev.text in CMP and _member_ends_with(toks, i - 2, -1, "className")) or (
                nxt.text in CMP and _member_ends_with(toks, i + 2, 1, "className"))
            if other_id:
                value("id")
            elif other_cls:
                value("class")
            else:
                out.free.append((t, nxt.text == "+"))
                out.data.add(raw)
            continue
        if prev.text == "case" and any(f.open == "{" for f in stack) and \
                next(f for f in reversed(stack) if f.open == "{").switch_on_id:
            value("id")
            continue
        if top.open == "(" and top.callee:
            c = top.callee
            if top.arg == 0 and c in dollars and (top.plain_call or c == "getElementById"):
                value("id")
            elif top.arg == 0 and c in SELECTOR_FNS and not top.plain_call:
                spans = name_spans(raw)
                for s, e, sym in spans:
                    role = "prefix" if (e == len(raw) and hole_right == "expr") else "complete"
                    out.occs.append(Occ(a + s, a + e, "id" if sym == "#" else "class", role, raw[s:e]))
            elif top.on_classlist and c in CLASSLIST_FNS and (c in ("add", "remove", "replace") or top.arg == 0):
                value("class")
            elif c == "setAttribute" and top.arg == 0:
                top.first_literal = raw.lower()
            elif c == "setAttribute" and top.arg == 1 and top.first_literal in ({"class"} | ID_ATTRS):
                value("class" if top.first_literal == "class" else "id")
            elif top.on_id and c in ID_STRING_FNS and top.arg == 0:
                out.occs.append(Occ(a, b, "id", "exact", raw))
            else:
                # A helper's argument may be an id it looks up; a method's (addEventListener("submit")) is not.
                if top.plain_call:
                    out.free.append((t, nxt.text == "+"))
                out.data.add(raw)
            continue
        if assign and all(f.callee is None or f.open != "(" for f in stack[assign[1]:]):
            value(assign[0])
            continue
        before = state.mode
        pieces = feed(state, raw, glued_left, hole_right)
        for p in pieces:
            if p.role != "tail":
                out.occs.append(Occ(a + p.start, a + p.end, p.kind, p.role, p.text))
        if not pieces and before == "text" and state.mode == "text" and "<" not in raw:
            out.free.append((t, nxt.text == "+"))
            out.data.add(raw)
    out.opaque_classes = out.opaque_classes or state.opaque_classes
    return out


def rewrite(sc: JsScan, renamer, known_ids: set[str], id_prefixes: set[str]) -> str:
    """The script with every name occurrence renamed, and free literals spelling an id too."""
    edits: list[tuple[int, int, str]] = []
    for o in sc.occs:
        if o.role == "prefix":
            new = renamer.prefix(o.text)
        elif o.role == "exact":
            new = renamer.name(o.text) if o.text in known_ids else (
                renamer.prefix(o.text) if o.text in id_prefixes else o.text)
        else:
            new = renamer.name(o.text)
        if new != o.text:
            edits.append((o.start, o.end, new))
    for t, plus in sc.free:
        a, b = t.content
        raw = sc.src[a:b]
        new = renamer.name(raw) if raw in known_ids else (renamer.prefix(raw) if plus and raw in id_prefixes else raw)
        if new != raw:
            edits.append((a, b, new))
    src = sc.src
    for a, b, new in sorted(edits, reverse=True):
        src = src[:a] + new + src[b:]
    return src
