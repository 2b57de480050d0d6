"""A lossless HTML tree: parse, edit attributes and children, and write back.

Untouched parts are written back byte for byte (a start tag is only regenerated once its
attributes change), so a page differs from its reference only where it was meant to.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
RAW_TEXT = {"script", "style", "textarea", "title"}
START = re.compile(r"<([A-Za-z][\w:-]*)((?:\s+[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*(/?)>",
                   re.DOTALL)
ATTR = re.compile(r"\s+([^\s\"'>/=]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?", re.DOTALL)
END = re.compile(r"</([A-Za-z][\w:-]*)\s*>")


@dataclass
class Attr:
    name: str
    value: str | None
    quote: str = '"'


@dataclass
class Element:
    """An element; `raw` is its original start tag, `end_raw` its end tag ('' if none)."""

    tag: str
    attrs: list[Attr] = field(default_factory=list)
    children: list = field(default_factory=list)  # Element or str
    raw: str = ""
    end_raw: str = ""
    self_closing: bool = False
    parent: Element | None = None
    dirty: bool = False
    synthetic: bool = False  # added by the generator, not in the reference

    def get(self, name: str) -> str | None:
        for a in self.attrs:
            if a.name.lower() == name:
                return a.value if a.value is not None else ""
        return None

    def has(self, name: str) -> bool:
        return any(a.name.lower() == name for a in self.attrs)

    def set(self, name: str, value: str | None) -> None:
        """Set (or add) an attribute; value None removes it."""
        self.dirty = True
        for a in self.attrs:
            if a.name.lower() == name:
                if value is None:
                    self.attrs.remove(a)
                else:
                    a.value = value
                return
        if value is not None:
            self.attrs.append(Attr(name, value))

    def attr_map(self) -> dict[str, str]:
        return {a.name.lower(): (a.value or "") for a in self.attrs}

    def elements(self) -> list[Element]:
        return [c for c in self.children if isinstance(c, Element)]

    def walk(self):
        """This element and all below it, in document order."""
        yield self
        for c in self.children:
            if isinstance(c, Element):
                yield from c.walk()

    def text(self) -> str:
        """Concatenated text below (script and style contents excluded)."""
        if self.tag in ("script", "style"):
            return ""
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


def _unquote(v: str | None) -> tuple[str | None, str]:
    if v is None:
        return None, '"'
    if v[:1] in "\"'":
        return v[1:-1], v[0]
    return v, ""


def parse(html: str) -> Element:
    """The document as a tree under a root Element with tag '#document'."""
    root = Element("#document")
    stack = [root]
    i, n = 0, len(html)
    while i < n:
        if html.startswith("<!--", i):
            j = html.find("-->", i + 4)
            j = n if j < 0 else j + 3
            stack[-1].children.append(html[i:j])
        elif html.startswith("<!", i) or html.startswith("<?", i):
            j = html.find(">", i)
            j = n if j < 0 else j + 1
            stack[-1].children.append(html[i:j])
        elif (m := START.match(html, i)) is not None:
            tag = m.group(1).lower()
            attrs = [Attr(a.group(1), *_unquote(a.group(2))) for a in ATTR.finditer(m.group(2))]
            el = Element(tag, attrs, raw=m.group(0), self_closing=bool(m.group(3)), parent=stack[-1])
            stack[-1].children.append(el)
            j = m.end()
            if tag in RAW_TEXT:
                close = re.compile(rf"</{tag}\s*>", re.IGNORECASE).search(html, j)
                k = close.start() if close else n
                if k > j:
                    el.children.append(html[j:k])
                el.end_raw = close.group(0) if close else ""
                j = close.end() if close else n
            elif tag not in VOID and not el.self_closing:
                stack.append(el)
        elif (m := END.match(html, i)) is not None:
            tag = m.group(1).lower()
            j = m.end()
            if any(e.tag == tag for e in stack[1:]):
                while stack[-1].tag != tag:
                    stack.pop()
                stack.pop().end_raw = m.group(0)
            else:
                stack[-1].children.append(m.group(0))
        else:
            j = html.find("<", i + 1)
            j = n if j < 0 else j
            stack[-1].children.append(html[i:j])
        i = j
    return root


def start_tag(el: Element) -> str:
    if not el.dirty and el.raw:
        return el.raw
    parts = [el.tag]
    for a in el.attrs:
        if a.value is None:
            parts.append(a.name)
        else:
            q = a.quote or '"'
            if q in a.value:
                q = "'" if q == '"' else '"'
            parts.append(f"{a.name}={q}{a.value}{q}")
    return "<" + " ".join(parts) + ("/>" if el.self_closing else ">")


def serialize(node) -> str:
    """The tree (or one node) as HTML text."""
    if isinstance(node, str):
        return node
    inner = "".join(serialize(c) for c in node.children)
    if node.tag == "#document":
        return inner
    end = node.end_raw if (node.end_raw or node.tag in VOID or node.self_closing) else f"</{node.tag}>"
    return start_tag(node) + inner + end


def new_element(tag: str, attrs: dict[str, str], children: list | None = None) -> Element:
    """A fresh element (its start tag is generated when written)."""
    el = Element(tag, [Attr(k, v) for k, v in attrs.items()], children=list(children or []), dirty=True, synthetic=True)
    for c in el.children:
        if isinstance(c, Element):
            c.parent = el
    return el


def find(root: Element, tag: str) -> Element | None:
    return next((e for e in root.walk() if e.tag == tag), None)
