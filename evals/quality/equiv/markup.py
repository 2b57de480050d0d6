"""Markup built from JavaScript string pieces: where its class, id and id-reference values are.

Pages build HTML by concatenating literals with expressions ('<li class="item' + (done ? " done" :
"") + '" id="todo-' + t.id + '">'). The state of an HTML tokenizer is carried from one literal to
the next, so a literal in the middle of an attribute value is known to be one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Attributes whose value is a list of class names, a list of ids, or a link that may hold #id.
CLASS_ATTRS = {"class"}
ID_ATTRS = {"id", "for", "aria-controls", "aria-labelledby", "aria-describedby", "aria-owns",
            "aria-activedescendant", "aria-details", "aria-errormessage", "aria-flowto", "list", "form",
            "headers", "popovertarget", "commandfor", "anchor"}
HREF_ATTRS = {"href", "xlink:href"}
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


@dataclass
class Piece:
    """A name found in a literal: span inside the literal's raw contents, what kind of name, and
    whether it is whole ('complete'), the start of a name finished by an expression ('prefix'), or
    the continuation of one ('tail', left alone)."""

    start: int
    end: int
    kind: str  # "class", "id" or "href" (an id named by a #fragment link)
    role: str
    text: str


@dataclass
class MarkupState:
    """Tokenizer state carried across literals."""

    mode: str = "text"  # text, tagname, intag, attrname, aftername, beforevalue, value
    attr: str = ""
    quote: str = ""  # the open value's quote ('' when unquoted)
    opaque_classes: bool = False  # a class value took a whole token from an expression
    pieces: list[Piece] = field(default_factory=list)

    def value_kind(self) -> str | None:
        if self.mode != "value":
            return None
        if self.attr in CLASS_ATTRS:
            return "class"
        if self.attr in ID_ATTRS:
            return "id"
        if self.attr in HREF_ATTRS:
            return "href"
        return None


def _split_tokens(raw: str, start: int, end: int, kind: str) -> list[tuple[int, int]]:
    """Whitespace-separated tokens of raw[start:end]; for href only a '#name' fragment at the start."""
    if kind == "href":
        return [(start + 1, end)] if raw.startswith("#", start) and end > start + 1 else []
    out, i = [], start
    while i < end:
        while i < end and raw[i].isspace():
            i += 1
        j = i
        while j < end and not raw[j].isspace():
            j += 1
        if j > i:
            out.append((i, j))
        i = j
    return out


def feed(state: MarkupState, raw: str, glued_left: bool, hole_right: str | None) -> list[Piece]:
    """Advance `state` over one literal's raw contents; returns the names found in it.

    `glued_left`: an expression's value directly precedes this literal. `hole_right`: 'expr' when an
    expression's value is appended right after it, else None (a conditional choosing between
    literals counts as None: those literals carry their own separators)."""
    pieces: list[Piece] = []
    value_start = 0 if state.mode == "value" else None
    continued = state.mode == "value" and glued_left  # the value's first token here may go on from the expression

    def emit(end: int, open_end: bool) -> None:
        kind = state.value_kind()
        if not kind or value_start is None:
            return
        spans = _split_tokens(raw, value_start, end, kind)
        for a, b in spans:
            role = "complete"
            if a == 0 and continued:
                role = "tail"
            elif open_end and b == end and raw[end - 1] in NAME_CHARS and hole_right == "expr":
                role = "prefix"
            pieces.append(Piece(a, b, kind, role, raw[a:b]))
        if open_end and kind == "class" and hole_right == "expr":
            boundary = end == value_start or raw[end - 1].isspace()
            if boundary and not (end == 0 and continued):
                state.opaque_classes = True

    i, n = 0, len(raw)
    while i < n:
        c, step = (raw[i + 1], 2) if raw[i] == "\\" and i + 1 < n else (raw[i], 1)
        m = state.mode
        if m == "text":
            if c == "<" and i + step < n and (raw[i + step].isalpha() or raw[i + step] in "/!"):
                state.mode = "tagname"
        elif m == "tagname":
            if c.isspace():
                state.mode = "intag"
            elif c == ">":
                state.mode = "text"
        elif m in ("intag", "attrname", "aftername"):
            if c == ">":
                state.mode = "text"
            elif c == "=" and m in ("attrname", "aftername"):
                state.mode = "beforevalue"
            elif c.isspace():
                if m == "attrname":
                    state.mode = "aftername"
            elif c == "/":
                state.mode = "intag"
            elif m == "attrname":
                state.attr += c.lower()
            else:
                state.mode, state.attr = "attrname", c.lower()
        elif m == "beforevalue":
            if c in "\"'":
                state.mode, state.quote, value_start, continued = "value", c, i + step, False
            elif not c.isspace():
                state.mode, state.quote, value_start, continued = "value", "", i, False
                continue
        elif m == "value" and ((state.quote and c == state.quote) or (not state.quote and (c.isspace() or c == ">"))):
            emit(i, False)
            state.mode, value_start, continued = ("intag" if c != ">" else "text"), None, False
        i += step
    if state.mode == "value":
        emit(n, True)
    return pieces
