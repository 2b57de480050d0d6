"""A different DOM for the same rendering: display:contents wrappers and reordered flex/grid items.

A change is kept only if no style rule would match a different set of elements afterwards (rules
with structural pseudo-classes such as :last-child must not touch the moved elements at all), no
inherited style would reach the content through the new wrapper, and the page's code cannot see
the change (it holds no handle on the parent, and never walks the DOM by position).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from iwr.evals.quality.equiv.css import Rule
from iwr.evals.quality.equiv.html import Element, new_element
from iwr.evals.quality.equiv.selectors import Compound, compound_matches, parse

WRAP_PARENTS = {"body", "div", "section", "main", "header", "footer", "aside", "nav", "article", "form", "figure",
                "blockquote", "dialog", "fieldset"}
NEVER_WRAP = {"li", "tr", "td", "th", "thead", "tbody", "tfoot", "caption", "col", "colgroup", "option", "optgroup",
              "dt", "dd", "figcaption", "summary", "legend", "source", "track", "script", "style", "template", "area",
              "param", "head", "body", "html", "title", "meta", "link", "base", "noscript"}
INHERITED = re.compile(r"^(color|font.*|line-height|letter-spacing|word-spacing|text-(align|indent|transform|shadow)|"
                       r"white-space|visibility|cursor|direction|list-style.*|quotes|tab-size|hyphens|"
                       r"writing-mode|caret-color|accent-color|-webkit-text.*|--.*)$")
FOCUSABLE = {"a", "button", "input", "select", "textarea", "summary", "iframe", "video", "audio"}
DOM_WALKS = re.compile(r"\b(parentNode|parentElement|children|childNodes|firstChild|lastChild|firstElementChild|"
                       r"lastElementChild|nextSibling|previousSibling|nextElementSibling|previousElementSibling|"
                       r"insertBefore|childElementCount)\b")


@dataclass
class Styles:
    """The page's style rules, parsed once."""

    rules: list[tuple[list[Compound], dict[str, str]]]

    @classmethod
    def of(cls, rules: list[Rule]) -> Styles:
        return cls([(parse(r.selector), r.decls) for r in rules if r.selector])


def _prev_elements(el: Element) -> list[Element]:
    if el.parent is None:
        return []
    sibs = el.parent.elements()
    return sibs[:sibs.index(el)]


def matches(comps: list[Compound], el: Element, k: int | None = None) -> bool:
    """Could the selector match `el` (ignoring dynamic and structural pseudo-classes)?"""
    k = len(comps) - 1 if k is None else k
    if k < 0 or el.tag.startswith("#") or not compound_matches(comps[k], el.tag, el.attr_map()):
        return False
    if k == 0:
        return True
    comb = comps[k].combinator
    if comb == ">":
        return el.parent is not None and matches(comps, el.parent, k - 1)
    if comb == "+":
        prev = _prev_elements(el)
        return bool(prev) and matches(comps, prev[-1], k - 1)
    if comb == "~":
        return any(matches(comps, p, k - 1) for p in _prev_elements(el))
    p = el.parent
    while p is not None:
        if matches(comps, p, k - 1):
            return True
        p = p.parent
    return False


def _snapshot(styles: Styles, scope: Element) -> list[frozenset[int]]:
    nodes = [e for e in scope.walk() if not e.synthetic]
    return [frozenset(id(e) for e in nodes if matches(c, e)) for c, _ in styles.rules]


def _structural_risk(styles: Styles, els: list[Element]) -> bool:
    """Does a rule with a structural pseudo-class, or a sibling combinator, possibly touch `els`?"""
    for comps, _ in styles.rules:
        for k, comp in enumerate(comps):
            sibling = comp.combinator in ("+", "~") or (k + 1 < len(comps) and comps[k + 1].combinator in ("+", "~"))
            if not (comp.structural or sibling):
                continue
            for el in els:
                if compound_matches(comp, el.tag, el.attr_map()):
                    return True
    return False


def _inherits_into(styles: Styles, wrapper: Element) -> bool:
    return any(matches(c, wrapper) and any(INHERITED.match(p) for p in d) for c, d in styles.rules)


def _in_svg(el: Element) -> bool:
    p = el.parent
    while p is not None:
        if p.tag in ("svg", "math", "table", "select", "p", "button", "a", "label"):
            return True
        p = p.parent
    return False


class Restructurer:
    """Applies wrappers and reorderings to one page tree; `changes` says what was done."""

    def __init__(self, styles: Styles, js_names: set[str], js_source: str, rng: random.Random):
        self.styles, self.js_names, self.rng = styles, js_names, rng
        self.walks_dom = bool(DOM_WALKS.search(js_source))
        self.body_walked = bool(re.search(r"document\.body\s*\.\s*" + DOM_WALKS.pattern, js_source))
        self.changes: list[str] = []
        self.touched: set[int] = set()

    def _seen_by_code(self, el: Element) -> bool:
        names = set((el.get("class") or "").split()) | ({el.get("id")} if el.get("id") else set())
        return bool(names & self.js_names)

    def _safe(self, parent: Element, change, undo, new: list[Element], moved: list[Element]) -> bool:
        """Apply `change`; keep it if the style rules see the same page, else `undo` it."""
        if _structural_risk(self.styles, moved + parent.elements()):
            return False
        before = _snapshot(self.styles, parent)
        change()
        if _snapshot(self.styles, parent) != before or any(_inherits_into(self.styles, w) for w in new):
            undo()
            return False
        return True

    def wrap(self, el: Element, label: str) -> bool:
        """Put `el` alone inside a new <div style="display: contents">."""
        parent = el.parent
        if parent is None or parent.tag not in WRAP_PARENTS or el.tag in NEVER_WRAP or _in_svg(el):
            return False
        if parent.get("id") or self._seen_by_code(parent) or id(parent) in self.touched:
            return False
        if self.walks_dom and self._seen_by_code(el):
            return False
        w = new_element("div", {"style": "display: contents"})
        i = parent.children.index(el)

        def change():
            parent.children[i] = w
            w.children, el.parent, w.parent = [el], w, parent

        def undo():
            parent.children[i], el.parent = el, parent

        if not self._safe(parent, change, undo, [w], [el]):
            return False
        self.changes.append(f"wrapped {label} in a display:contents <div>")
        return True

    def wrap_body(self, body: Element) -> bool:
        """Put everything in <body> but its scripts inside one display:contents <div>."""
        if self.body_walked:
            return False
        keep = [c for c in body.children if isinstance(c, Element) and c.tag in ("script", "template")]
        inner = [c for c in body.children if not (isinstance(c, Element) and c.tag in ("script", "template"))]
        w = new_element("div", {"style": "display: contents"})
        old = list(body.children)

        def change():
            w.children, w.parent = inner, body
            for c in inner:
                if isinstance(c, Element):
                    c.parent = w
            body.children = ["\n", w, "\n"] + keep

        def undo():
            body.children = old
            for c in old:
                if isinstance(c, Element):
                    c.parent = body

        if not self._safe(body, change, undo, [w], [c for c in inner if isinstance(c, Element)]):
            return False
        self.touched.add(id(w))
        self.changes.append("wrapped the whole body content in a display:contents <div>")
        return True

    def _display(self, el: Element) -> str:
        shown = [d.get("display", "") for c, d in self.styles.rules if "display" in d and matches(c, el)]
        return shown[-1].replace("!important", "").strip() if shown else ""

    def reorder(self, box: Element, label: str) -> bool:
        """Reverse a flex/grid container's children in the HTML; CSS `order` keeps the visual order."""
        kids = box.elements()
        if len(kids) < 2 or box.get("id") or self._seen_by_code(box) or _in_svg(box):
            return False
        if any(isinstance(c, str) and c.strip() for c in box.children):
            return False
        if self._display(box) not in ("flex", "inline-flex", "grid", "inline-grid"):
            return False
        # Reading order, focus order and field order stay: at most one child holds text, ids or controls.
        meaningful = [k for k in kids if k.text().strip() or any(e.get("id") or e.tag in FOCUSABLE for e in k.walk())]
        if len(meaningful) > 1 or any("order" in d for c, d in self.styles.rules for k in kids if matches(c, k)):
            return False
        old = list(box.children)
        styles = [k.get("style") for k in kids]

        def change():
            box.children = [c for c in reversed(old)]
            for n, k in enumerate(kids):
                k.set("style", ((styles[n] or "").rstrip("; ") + "; " if styles[n] else "") + f"order: {n}")

        def undo():
            box.children = old
            for n, k in enumerate(kids):
                k.set("style", styles[n])

        if not self._safe(box, change, undo, [], kids):
            return False
        self.touched.add(id(box))
        self.changes.append(f"reversed the children of {label} in the HTML (CSS order keeps them in place)")
        return True

    def run(self, body: Element, max_wraps: int = 4) -> None:
        """Reorder every container that allows it, wrap a few elements, then wrap the body."""
        def label(e: Element) -> str:
            cls = (e.get("class") or "").split()
            return f"<{e.tag}{'#' + e.get('id') if e.get('id') else ''}{'.' + cls[0] if cls else ''}>"

        for el in list(body.walk()):
            if el is not body:
                self.reorder(el, label(el))
        candidates = [e for e in body.walk() if e is not body and e.parent is not None and e.parent is not body]
        self.rng.shuffle(candidates)
        wrapped = 0
        for el in candidates:
            if wrapped >= max_wraps:
                break
            if id(el.parent) not in self.touched and self.wrap(el, label(el)):
                self.touched.add(id(el))
                wrapped += 1
        self.wrap_body(body)
