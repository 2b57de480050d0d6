"""JavaScript tokens from tree-sitter's JavaScript grammar: enough to find string literals and the
code around them.

A real parser tells strings, template chunks, regular expressions and comments apart from code
(`if (x) /re/.test(s)` is a regular expression, `a / b / c` two divisions), so that names are only
ever rewritten inside string contents, never in identifiers. Keywords come out as `ident` tokens,
as the callers expect.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

IDENT = re.compile(r"[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*\Z")
SKIPPED = {"comment", "html_comment", "hash_bang_line"}
WHOLE = {"string": "str", "regex": "regex", "number": "num"}


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


@lru_cache(maxsize=1)
def _parser():
    import tree_sitter_javascript
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_javascript.language()))


def _char_offsets(src: str, data: bytes):
    """A byte offset of `data` (src in UTF-8) as an index into `src`."""
    if len(data) == len(src):
        return lambda b: b
    at = [0] * (len(data) + 1)
    b = 0
    for i, ch in enumerate(src):
        n = len(ch.encode("utf-8", "surrogatepass"))
        for k in range(n):
            at[b + k] = i
        b += n
    at[b] = len(src)
    return at.__getitem__


def tokenize(src: str) -> list[Tok]:
    """All tokens of `src` except whitespace and comments, in source order."""
    data = src.encode("utf-8", "surrogatepass")
    char = _char_offsets(src, data)
    toks: list[Tok] = []

    def add(kind: str, a: int, b: int, quote: str = "") -> None:
        i, j = char(a), char(b)
        toks.append(Tok(kind, src[i:j], i, j, quote))

    stack = [_parser().parse(data).root_node]  # a loop, not recursion: minified code nests deeply
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in SKIPPED:
            continue
        if kind == "template_string":
            # chunks from the opening ` (or the } closing a hole) to the next ${ (or the closing `), and
            # the holes' code between them
            start = node.start_byte
            for child in node.children:
                if child.type == "template_substitution":
                    add("str", start, child.start_byte + 2, "`")
                    stack.extend(child.children[1:-1])
                    start = child.end_byte - 1
            add("str", start, node.end_byte, "`")
        elif kind in WHOLE:
            add(WHOLE[kind], node.start_byte, node.end_byte, src[char(node.start_byte)] if kind == "string" else "")
        elif node.child_count == 0:
            if node.end_byte > node.start_byte:
                text = data[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass")
                add("ident" if IDENT.match(text) else "punct", node.start_byte, node.end_byte)
        else:
            stack.extend(node.children)
    toks.sort(key=lambda t: t.start)
    return toks
