"""Attributes of the static markup: names renamed, inline styles and SVG paint restyled."""
from __future__ import annotations

from iwr.evals.quality.equiv import jsnames
from iwr.evals.quality.equiv.css import Look, declarations
from iwr.evals.quality.equiv.html import Element
from iwr.evals.quality.equiv.markup import ID_ATTRS
from iwr.evals.quality.equiv.names import Renamer

PAINT = {"fill", "stroke", "stop-color", "color", "flood-color", "lighting-color"}


def restyle_inline(style: str, look: Look) -> str:
    """An inline style attribute with its declarations restyled."""
    out, last = [], 0
    for v0, v1, prop in declarations(style):
        out.append(style[last:v0])
        new = look.declaration(prop, style[v0:v1])
        out.append(new)
        last = v1
    return "".join(out) + style[last:]


def rewrite(root: Element, renamer: Renamer, look: Look, known_ids: set[str], id_prefixes: set[str]) -> None:
    """Rename ids, classes and id references, and restyle, everywhere in one page tree."""
    for el in root.walk():
        for a in list(el.attrs):
            name, value = a.name.lower(), a.value
            if value is None:
                continue
            new = value
            if name == "class":
                new = " ".join(renamer.name(t) for t in value.split())
            elif name in ID_ATTRS:
                new = " ".join(renamer.name(t) for t in value.split()) if name != "id" else renamer.name(value)
            elif name in ("href", "xlink:href") and value.startswith("#") and len(value) > 1:
                new = "#" + renamer.name(value[1:])
            elif name == "style":
                new = restyle_inline(value, look)
            elif name in PAINT and el.tag not in ("input", "meta"):
                new = look.palette.value(value)
            elif name == "font-family":
                new = look.family(value)
            elif name.startswith("on"):
                new = jsnames.rewrite(jsnames.scan(value), renamer, known_ids, id_prefixes)
            if new != value:
                el.set(name, new)
