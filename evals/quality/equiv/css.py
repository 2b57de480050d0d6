"""Stylesheets: selectors renamed, and a different look (fonts, sizes, palette, radii, padding).

Names are only rewritten in selectors and colours only in declaration values, so an id selector
that happens to read like a hex colour (#bad) is never taken for one.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from iwr.evals.quality.equiv.colour import Palette
from iwr.evals.quality.equiv.selectors import name_spans, rewrite_names, split_list

NESTING_AT = ("@media", "@supports", "@container", "@layer", "@document", "@scope", "@starting-style")
PX = re.compile(r"(?<![\w.-])(\d+(?:\.\d+)?)px\b")
SERIF = '"DejaVu Serif", "Liberation Serif", Georgia, serif'
SANS = '"DejaVu Sans", Verdana, sans-serif'
MONO = ('"Liberation Mono", "Courier New", monospace', '"DejaVu Sans Mono", monospace')


@dataclass
class Rule:
    """A style rule: its selector text and its declarations (property -> value)."""

    selector: str
    decls: dict[str, str]


@dataclass
class Sheet:
    """Where a stylesheet's selectors and declaration blocks are: (start, end) spans."""

    text: str
    selectors: list[tuple[int, int]] = field(default_factory=list)
    blocks: list[tuple[int, int]] = field(default_factory=list)  # declarations of style rules and @font-face etc.
    rule_of_block: dict[int, int] = field(default_factory=dict)  # block index -> selector index


def _skip_comment_or_string(css: str, i: int) -> int:
    if css.startswith("/*", i):
        j = css.find("*/", i + 2)
        return len(css) if j < 0 else j + 2
    if css[i] in "\"'":
        j = i + 1
        while j < len(css) and css[j] != css[i]:
            j += 2 if css[j] == "\\" else 1
        return j + 1
    return i


def _block_end(css: str, i: int) -> int:
    """Index of the '}' closing the block whose '{' is at i - 1."""
    depth = 1
    while i < len(css):
        j = _skip_comment_or_string(css, i)
        if j != i:
            i = j
            continue
        depth += css[i] == "{"
        depth -= css[i] == "}"
        if depth == 0:
            return i
        i += 1
    return i


def scan(css: str, start: int = 0, end: int | None = None, sheet: Sheet | None = None) -> Sheet:
    """Find selectors and declaration blocks (descending into @media and similar)."""
    sheet = sheet or Sheet(css)
    end = len(css) if end is None else end
    i, prelude_start = start, start
    while i < end:
        j = _skip_comment_or_string(css, i)
        if j != i:
            i = j
            continue
        c = css[i]
        if c == ";":
            prelude_start = i + 1
        elif c == "{":
            close = _block_end(css, i + 1)
            prelude = css[prelude_start:i].strip()
            low = prelude.lower()
            if low.startswith(NESTING_AT):
                scan(css, i + 1, close, sheet)
            elif low.startswith("@") and "keyframes" in low:
                k = i + 1
                while k < close:
                    o = css.find("{", k, close)
                    if o < 0:
                        break
                    c2 = _block_end(css, o + 1)
                    sheet.blocks.append((o + 1, c2))
                    k = c2 + 1
            elif low.startswith("@"):
                sheet.blocks.append((i + 1, close))
            else:
                a = prelude_start + (len(css[prelude_start:i]) - len(css[prelude_start:i].lstrip()))
                sheet.selectors.append((a, i))
                sheet.rule_of_block[len(sheet.blocks)] = len(sheet.selectors) - 1
                sheet.blocks.append((i + 1, close))
            i = close + 1
            prelude_start = i
            continue
        i += 1
    return sheet


def declarations(block: str) -> list[tuple[int, int, str]]:
    """(value start, value end, property) of each declaration in a block."""
    out, i, n = [], 0, len(block)
    seg = 0
    while i <= n:
        j = _skip_comment_or_string(block, i) if i < n else i
        if j != i:
            i = j
            continue
        if i == n or block[i] == ";":
            part = block[seg:i]
            colon = part.find(":")
            if colon > 0:
                prop = part[:colon].strip().lower()
                vstart = seg + colon + 1
                out.append((vstart, i, prop))
            seg = i + 1
        elif block[i] == "(":
            depth = 1
            i += 1
            while i < n and depth:
                depth += block[i] == "("
                depth -= block[i] == ")"
                i += 1
            continue
        i += 1
    return out


def rules(css: str) -> list[Rule]:
    """Every style rule of a sheet, each selector of a list separately."""
    sh = scan(css)
    out = []
    for bi, (a, b) in enumerate(sh.blocks):
        if bi not in sh.rule_of_block:
            continue
        s0, s1 = sh.selectors[sh.rule_of_block[bi]]
        block = css[a:b]
        decls = {p: block[v0:v1].strip() for v0, v1, p in declarations(block)}
        for sel in split_list(css[s0:s1]):
            out.append(Rule(sel, decls))
    return out


def names(css: str) -> set[str]:
    """Ids and classes named in a sheet's selectors."""
    sh = scan(css)
    return {css[s0:s1][a:b] for s0, s1 in sh.selectors for a, b, _ in name_spans(css[s0:s1])}


@dataclass
class Look:
    """The visual changes: palette, font stacks, font-size step, radius step, padding step."""

    palette: Palette
    font_step: int = -1
    radius_step: int = 2
    padding_step: int = -1
    mono_choice: int = 0

    def family(self, value: str) -> str:
        low = value.lower()
        if "monospace" in low or "mono" in low:
            return MONO[self.mono_choice]
        if re.search(r"(?<!sans-)serif", low) and "sans" not in low.split(",")[0]:
            return SANS
        return SERIF

    def declaration(self, prop: str, value: str) -> str:
        """One declaration's new value."""
        if prop == "font-family":
            return " " + self.family(value)
        value = self.palette.value(value)
        if prop == "font-size":
            value = _step_px(value, self.font_step, 9, 1000)
        elif prop.startswith("border") and prop.endswith("radius"):
            value = _step_px(value, self.radius_step, 2, 24)  # 999px pills and 0 stay as they are
        elif prop.startswith("padding"):
            value = _step_px(value, self.padding_step, 6, 1000)
        return value


def _step_px(value: str, step: int, lo: float, hi: float) -> str:
    """Every px length in [lo, hi] moved by `step`."""
    def one(m: re.Match) -> str:
        v = float(m.group(1))
        return f"{_px(v + step)}px" if lo <= v <= hi else m.group()
    return PX.sub(one, value)


def _px(v: float) -> str:
    return str(int(v)) if v == int(v) else f"{v:g}"


def rewrite(css: str, rename: Callable[[str], str], look: Look | None) -> str:
    """A sheet with its selector names renamed and (with `look`) its declarations restyled."""
    sh = scan(css)
    edits: list[tuple[int, int, str]] = []
    for s0, s1 in sh.selectors:
        edits.append((s0, s1, rewrite_names(css[s0:s1], rename)))
    if look is not None:
        for a, b in sh.blocks:
            block = css[a:b]
            for v0, v1, prop in declarations(block):
                new = look.declaration(prop, block[v0:v1])
                if new != block[v0:v1]:
                    edits.append((a + v0, a + v1, new))
    for a, b, new in sorted(edits, reverse=True):
        css = css[:a] + new + css[b:]
    return css
