"""A small JavaScript tokeniser: enough to find string literals and the code around them.

It tells strings, template chunks, regular expressions and comments apart from code, so that names
are only ever rewritten inside string contents, never in identifiers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

PUNCT = sorted(["===", "!==", "**=", "...", "<<=", ">>=", ">>>", "==", "!=", "<=", ">=", "&&", "||", "??",
                "?.", "=>", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**"],
               key=len, reverse=True)
# After these a '/' starts a regular expression, after anything else it divides.
REGEX_AFTER_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
                     "instanceof", "yield", "await"}
IDENT = re.compile(r"[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*")
NUMBER = re.compile(r"(?:0[xXbBoO][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?")


@dataclass
class Tok:
    """One token: kind is str (quoted string or template chunk), ident, num, punct or regex."""

    kind: str
    text: str
    start: int
    end: int
    quote: str = ""  # for str: the delimiter; for template chunks '`'

    @property
    def content(self) -> tuple[int, int]:
        """Absolute span of a string's contents (without its delimiters)."""
        if self.quote == "`":
            left = 1 if self.text.startswith(("`", "}")) else 0
            right = 2 if self.text.endswith("${") else (1 if self.text.endswith("`") and len(self.text) > left else 0)
            return self.start + left, self.end - right
        return self.start + 1, self.end - 1

    def value(self, src: str) -> str:
        a, b = self.content
        return src[a:b]


def _skip_string(src: str, i: int, quote: str) -> int:
    j = i + 1
    while j < len(src):
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == quote or c == "\n":
            return j + 1
        j += 1
    return j


def _skip_template_chunk(src: str, j: int) -> tuple[int, bool]:
    """From inside a template literal: the end of the chunk and whether a ${ hole follows."""
    while j < len(src):
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == "`":
            return j + 1, False
        if c == "$" and src.startswith("${", j):
            return j + 2, True
        j += 1
    return j, False


def _skip_regex(src: str, i: int) -> int:
    j, in_class = i + 1, False
    while j < len(src) and src[j] != "\n":
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < len(src) and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            return j
        j += 1
    return j


def _regex_allowed(prev: Tok | None) -> bool:
    if prev is None:
        return True
    if prev.kind in ("num", "str", "regex"):
        return False
    if prev.kind == "ident":
        return prev.text in REGEX_AFTER_WORDS
    return prev.text not in (")", "]", "}", "++", "--")


def tokenize(src: str) -> list[Tok]:
    """All tokens of `src` except whitespace and comments."""
    toks: list[Tok] = []
    # Brace depths at which an open template literal resumes after a ${ ... } hole closes.
    template_holes: list[int] = []
    depth = 0
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        prev = toks[-1] if toks else None
        if c in "'\"":
            j = _skip_string(src, i, c)
            toks.append(Tok("str", src[i:j], i, j, c))
        elif c == "`" or (c == "}" and template_holes and template_holes[-1] == depth):
            if c == "}":
                template_holes.pop()
            j, hole = _skip_template_chunk(src, i + 1)
            toks.append(Tok("str", src[i:j], i, j, "`"))
            if hole:
                template_holes.append(depth)
        elif c == "/" and _regex_allowed(prev):
            j = _skip_regex(src, i)
            toks.append(Tok("regex", src[i:j], i, j))
        elif m := IDENT.match(src, i):
            j = m.end()
            toks.append(Tok("ident", m.group(), i, j))
        elif c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            m = NUMBER.match(src, i)
            j = m.end() if m and m.end() > i else i + 1
            toks.append(Tok("num", src[i:j], i, j))
        else:
            p = next((p for p in PUNCT if src.startswith(p, i)), c)
            j = i + len(p)
            if p == "{":
                depth += 1
            elif p == "}":
                depth -= 1
            toks.append(Tok("punct", p, i, j))
        i = j
    return toks
