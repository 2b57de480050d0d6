"""Every id and class a site uses, from its markup, stylesheets and scripts, and which to keep.

Kept: ids that #fragment links name (the URL a user sees stays the same), and, when some class
attribute takes whole names from data (class="tag ' + card.tag + '"), the class names that data
spells, since those reach the page unrenamed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from iwr.evals.quality.equiv.html import Element
from iwr.evals.quality.equiv.jsnames import JsScan
from iwr.evals.quality.equiv.markup import ID_ATTRS


@dataclass
class Collected:
    """The names of one site and what to do with them."""

    ids: set[str] = field(default_factory=set)
    classes: set[str] = field(default_factory=set)
    id_prefixes: set[str] = field(default_factory=set)
    class_prefixes: set[str] = field(default_factory=set)
    fragments: set[str] = field(default_factory=set)
    data_classes: set[str] = field(default_factory=set)
    css_names: set[str] = field(default_factory=set)
    js_names: set[str] = field(default_factory=set)  # every name the scripts mention

    @property
    def all_names(self) -> set[str]:
        return self.ids | self.classes | self.css_names


def collect(pages: list[Element], css_names: set[str], scans: list[JsScan], rename_fragments: bool) -> Collected:
    """Gather the names; see the module docstring for what is kept."""
    c = Collected(css_names=set(css_names))
    for root in pages:
        for el in root.walk():
            a = el.attr_map()
            if a.get("id"):
                c.ids.add(a["id"])
            c.classes.update(a.get("class", "").split())
            for name in ID_ATTRS - {"id"}:
                c.ids.update(a.get(name, "").split())
            href = a.get("href", "")
            if href.startswith("#") and len(href) > 1:
                c.fragments.add(href[1:])
    opaque = False
    data: set[str] = set()
    for sc in scans:
        opaque = opaque or sc.opaque_classes
        words = {d.strip() for d in sc.data if d.strip() and len(d.split()) == 1}
        data |= words | ({w.lower() for w in words} if "toLowerCase" in sc.src else set())
        data |= {w.upper() for w in words} if "toUpperCase" in sc.src else set()
        for o in sc.occs:
            if o.kind == "href":
                c.fragments.add(o.text)
            elif o.role == "prefix":
                (c.id_prefixes if o.kind == "id" else c.class_prefixes).add(o.text)
                c.js_names.add(o.text)
            elif o.role == "complete":
                (c.ids if o.kind == "id" else c.classes).add(o.text)
                c.js_names.add(o.text)
    if opaque:
        c.data_classes = data & (c.classes | c.css_names)
    if rename_fragments:
        c.fragments = set()
    c.ids.discard("")
    c.classes.discard("")
    return c
