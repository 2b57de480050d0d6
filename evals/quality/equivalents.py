"""Equivalent sites for measuring the judge's false negatives: same behaviour, different build and look.

From a reference site folder (index.html, optional style.css and app.js, assets/) this writes a
site a person would use exactly like the reference (same text after every interaction, same
answers to clicks and keys) but that is built and styled differently:

- every id and class gets a new name, consistently in HTML, CSS and JS (ids that #fragment links
  name stay, so URLs stay; class names that data spells stay, see `equiv.collect`);
- the DOM differs: scripts move into <head> with `defer`, inline styles become a file and linked
  sheets become inline, elements get display:contents wrappers, and flex/grid items whose order
  only CSS `order` then shows are reversed in the HTML;
- it looks different: another font stack, font sizes one pixel off, a hue-rotated palette at the
  same luminance (contrast unchanged), other corner radii and paddings.

Text, labels, placeholders, alt texts, aria labels and assets are untouched: a judge grounds on them.
"""
from __future__ import annotations

import hashlib
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from iwr.evals.quality.equiv import css as csslib
from iwr.evals.quality.equiv import jsnames
from iwr.evals.quality.equiv.attrs import rewrite as rewrite_attrs
from iwr.evals.quality.equiv.collect import collect
from iwr.evals.quality.equiv.colour import Palette
from iwr.evals.quality.equiv.html import Element, find, new_element, parse, serialize
from iwr.evals.quality.equiv.names import Renamer, translate_selector
from iwr.evals.quality.equiv.structure import Restructurer, Styles

__all__ = ["Equivalent", "make_equivalent", "translate_selector"]


@dataclass
class Equivalent:
    """A written equivalent site: its folder, entry page, what changed, and old -> new names
    ('prefix*' -> 'new-prefix*' for names code completes at run time)."""

    folder: Path
    page: str
    changes: list[str] = field(default_factory=list)
    renames: dict[str, str] = field(default_factory=dict)


def _local(ref: str | None) -> bool:
    return bool(ref) and "://" not in ref and not ref.startswith(("data:", "//", "#", "javascript:"))


def _is_js(el: Element) -> bool:
    return (el.get("type") or "text/javascript").lower() in ("text/javascript", "module", "application/javascript", "")


def _stylesheet(el: Element) -> bool:
    return el.tag == "link" and "stylesheet" in (el.get("rel") or "").lower().split() and _local(el.get("href"))


def _look(rng: random.Random) -> csslib.Look:
    hue = rng.choice([-1, 1]) * rng.uniform(35, 70)
    return csslib.Look(Palette(hue=hue, grey_step=rng.uniform(0.025, 0.04)), font_step=rng.choice([-1, 1]),
                       radius_step=rng.choice([2, 3]), padding_step=-1, mono_choice=rng.choice([0, 1]))


def _file_name(stem: str, ext: str, text: str, seed: int) -> str:
    return f"{stem}.{hashlib.sha1(f'{seed}:{text}'.encode()).hexdigest()[:8]}.{ext}"


class _Site:
    """The reference's pages and the scripts and sheets they load."""

    def __init__(self, site: Path):
        self.root = site
        self.pages = {p.name: parse(p.read_text(encoding="utf-8")) for p in sorted(site.glob("*.html"))}
        self.sheets: dict[str, str] = {}  # linked sheet path -> text
        self.scripts: dict[str, str] = {}  # script src -> text
        for tree in self.pages.values():
            for el in tree.walk():
                if _stylesheet(el) and (site / el.get("href")).is_file():
                    self.sheets[el.get("href")] = (site / el.get("href")).read_text(encoding="utf-8")
                elif el.tag == "script" and _local(el.get("src")) and _is_js(el) and (site / el.get("src")).is_file():
                    self.scripts[el.get("src")] = (site / el.get("src")).read_text(encoding="utf-8")

    def inline(self, tag: str) -> list[Element]:
        return [el for t in self.pages.values() for el in t.walk()
                if el.tag == tag and not el.get("src") and (tag != "script" or _is_js(el))]

    def page_css(self, tree: Element) -> str:
        """All style text one page uses, in cascade order."""
        parts = []
        for el in tree.walk():
            if el.tag == "style":
                parts.append("".join(c for c in el.children if isinstance(c, str)))
            elif _stylesheet(el) and el.get("href") in self.sheets:
                parts.append(self.sheets[el.get("href")])
        return "\n".join(parts)


def _text(el: Element) -> str:
    return "".join(c for c in el.children if isinstance(c, str))


def make_equivalent(site: Path, out: Path, page: str = "index.html", seed: int = 0,
                    rename_fragments: bool = False) -> Equivalent:
    """Write an equivalent of the site folder `site` into the new folder `out` (deterministic per seed)."""
    site, out = Path(site).resolve(), Path(out)
    if not (site / page).is_file():
        raise FileNotFoundError(f"{site / page}: no such page")
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} exists and is not empty")
    ref = _Site(site)
    rng = random.Random(f"equivalent:{seed}")
    look = _look(rng)

    inline_js = ref.inline("script")
    handlers = [a.value for t in ref.pages.values() for el in t.walk() for a in el.attrs
                if a.name.lower().startswith("on") and a.value]
    sources = [_text(el) for el in inline_js] + list(ref.scripts.values()) + handlers
    scans = [jsnames.scan(s) for s in sources]
    all_css = [ref.page_css(t) for t in ref.pages.values()]
    css_names = set().union(*(csslib.names(c) for c in all_css)) if all_css else set()
    names = collect(list(ref.pages.values()), css_names, scans, rename_fragments)
    renamer = Renamer(seed, names.ids, names.classes, names.id_prefixes, names.class_prefixes,
                      keep=names.fragments, keep_unless_family=names.data_classes)
    renamable_ids = {i for i in names.ids if renamer.name(i) != i}
    new_js = {id(s): jsnames.rewrite(s, renamer, renamable_ids, names.id_prefixes) for s in scans}
    js_by_source = dict(zip(sources, (new_js[id(s)] for s in scans)))

    changes: list[str] = []
    for name, tree in ref.pages.items():
        body = find(tree, "body")
        if body is not None:
            styles = Styles.of(csslib.rules(ref.page_css(tree)))
            r = Restructurer(styles, names.js_names, "\n".join(sources), random.Random(f"{seed}:{name}"))
            r.run(body)
            changes += [f"{name}: {c}" for c in r.changes]
        rewrite_attrs(tree, renamer, look, renamable_ids, names.id_prefixes)

    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, str] = {}
    replaced = set(ref.sheets) | set(ref.scripts)
    for name, tree in ref.pages.items():
        changes += _move_resources(name, tree, ref, renamer, look, js_by_source, written, seed)
    _copy(site, out, set(ref.pages) | replaced)
    for fname, text in written.items():
        (out / fname).write_text(text, encoding="utf-8")
    for name, tree in ref.pages.items():
        (out / name).write_text(serialize(tree), encoding="utf-8")

    renames = renamer.renames()
    total = len(names.all_names)
    changed = sum(1 for n in names.all_names if translate_selector("." + n, renames) != "." + n)
    summary = [(f"renamed {changed} of {total} ids and classes (new names start with {renamer.tag}); "
                f"{len(renamer.families)} name prefixes completed by code renamed as families")]
    if names.fragments:
        summary.append(f"kept ids that #links name, so URLs stay the same: {', '.join(sorted(names.fragments))}")
    kept = sorted(n for n in names.data_classes if renamer.name(n) == n)
    if kept:
        summary.append("kept class names that page data spells (a class attribute takes them from data): "
                       + ", ".join(kept))
    summary.append(f"fonts: sans-serif stacks -> serif, serif -> sans-serif, "
                   f"monospace -> {csslib.MONO[look.mono_choice]}; font sizes {look.font_step:+d}px")
    summary.append(f"palette: hue rotated {look.palette.hue:+.0f}° at equal luminance, greys moved "
                   f"{look.palette.grey_step:.3f} towards mid-grey; border radii {look.radius_step:+d}px; "
                   f"paddings {look.padding_step:+d}px")
    return Equivalent(folder=out, page=page, changes=summary + changes, renames=renames)


def _move_resources(name: str, tree: Element, ref: _Site, renamer: Renamer, look: csslib.Look,
                    js_by_source: dict[str, str], written: dict[str, str], seed: int) -> list[str]:
    """Inline <style> -> file, linked sheet -> <style>, body scripts -> <head> with defer; contents rewritten."""
    changes = []
    head = find(tree, "head")
    for el in list(tree.walk()):
        parent = el.parent
        if parent is None:
            continue
        i = parent.children.index(el)
        if el.tag == "style":
            text = csslib.rewrite(_text(el), renamer.name, look)
            fname = _file_name("styles", "css", text, seed)
            written[fname] = text
            link = new_element("link", {"rel": "stylesheet", "href": fname})
            link.parent, parent.children[i] = parent, link
            changes.append(f"{name}: inline <style> moved to {fname}")
        elif _stylesheet(el) and el.get("href") in ref.sheets:
            text = csslib.rewrite(ref.sheets[el.get("href")], renamer.name, look)
            style = new_element("style", {}, ["\n" + text.strip("\n") + "\n"])
            style.parent, parent.children[i] = parent, style
            changes.append(f"{name}: {el.get('href')} inlined into a <style> block")
        elif el.tag == "script" and _is_js(el) and (not el.get("src") or el.get("src") in ref.scripts):
            src = el.get("src")
            text = js_by_source[ref.scripts[src] if src else _text(el)]
            fname = _file_name("main" if not src else Path(src).stem + "-bundle", "js", text, seed)
            written[fname] = text
            attrs = {"src": fname} | ({"type": el.get("type")} if el.get("type") else {})
            in_head = head is not None and any(p is head for p in _ancestors(el))
            moved = new_element("script", attrs | ({} if in_head and not el.has("defer") else {"defer": None}))
            moved.end_raw = "</script>"
            if in_head or head is None:
                moved.parent, parent.children[i] = parent, moved
                changes.append(f"{name}: script {src or 'inline'} now loads from {fname}")
            else:
                parent.children.pop(i)
                moved.parent = head
                head.children += [moved, "\n"]
                changes.append(f"{name}: script {src or '(inline)'} moved into <head> as {fname} with defer")
    return changes


def _ancestors(el: Element):
    p = el.parent
    while p is not None:
        yield p
        p = p.parent


def _copy(site: Path, out: Path, skip: set[str]) -> None:
    """Copy everything but the pages, the replaced scripts and sheets, and the action scripts (tasks/)."""
    for src in site.rglob("*"):
        rel = src.relative_to(site)
        if rel.parts[0] == "tasks" or rel.as_posix() in skip or src.is_dir():
            continue
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
