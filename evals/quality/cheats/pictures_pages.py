"""Pages that show the recording and carry its words where a person cannot see them: the picture
and hiding cheats. Built from a `Recording`, what a coder read off the workspace (frames/, the OCR
of each frame, actions.json, the viewport); `page(recording, picture, hiding)` mixes one way of
showing the frames with one way of hiding the words and the named targets.

The page moves one step on per replayed action: it knows the kinds of the actions in order (Click,
Type, Press, Scroll) and takes the first event that fits the next one (the keys of one Type stay in
that step), so a typed word does not run through the frames a letter at a time.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass

PICTURES = ("img", "glass", "pseudo", "border_image", "content_url", "canvas_distorted", "mosaic")
HIDINGS = ("transparent", "faint", "fill", "filter", "clip", "scale", "mask", "under", "background_colour")


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True)
class Text:
    """A line of words at a place, in a size; `colour` set only where it is the trick."""

    text: str
    box: Box
    size: int
    colour: str | None = None


@dataclass(frozen=True)
class Target:
    """An element the replay acts on, named as a description names it: button, field or checkbox."""

    kind: str
    name: str
    box: Box


@dataclass
class Recording:
    """What the coder read: the frame and the words of each step (0: before any action), the kinds
    of the actions, the targets, and (for the colour trick) each target's colour per step."""

    size: tuple[int, int]
    frames: list[str]
    texts: list[list[Text]]
    types: list[str]
    targets: list[Target]
    target_colours: list[list[str]] | None = None


def _js(value) -> str:
    return json.dumps(value).replace("</", "<\\/")


def _at(b: Box) -> str:
    return f"left:{b.x}px;top:{b.y}px;width:{b.w}px;height:{b.h}px"


def words_html(texts: list[Text]) -> str:
    """One step's lines as positioned spans."""
    return "".join(f"<span style='left:{t.box.x}px;top:{t.box.y}px;font-size:{t.size}px"
                   + (f";color:{t.colour}" if t.colour else "") + f"'>{html.escape(t.text)}</span>" for t in texts)


def targets_html(targets: list[Target], colours: list[str] | None) -> str:
    out = []
    for i, t in enumerate(targets):
        name, size = html.escape(t.name, quote=True), max(10, min(18, int(t.box.h * 0.6)))
        style = f"{_at(t.box)};font-size:{size}px" + (f";color:{colours[i]}" if colours else "")
        if t.kind == "field":
            out.append(f"<input class='target btn' data-i='{i}' placeholder='{name}' aria-label='{name}' "
                       f"style='{style}'>")
        elif t.kind == "checkbox":
            box = Box(t.box.x - 24, t.box.y + max(0, (t.box.h - 16) // 2), 16, 16)
            out.append(f"<input type='checkbox' class='target btn' data-i='{i}' aria-label='{name}' "
                       f"style='{_at(box)}'><span class='target name' data-i='{i}' style='{style}'>{name}</span>")
        else:
            out.append(f"<button class='target btn' data-i='{i}' style='{style}'><span>{name}</span></button>")
    return "".join(out)


_TINY = ("polygon(calc(50% - .5px) calc(50% - .5px), calc(50% + .5px) calc(50% - .5px), "
         "calc(50% + .5px) calc(50% + .5px), calc(50% - .5px) calc(50% + .5px))")
_PLAIN = "background:transparent;border:0;outline:0;box-shadow:none;appearance:none;-webkit-appearance:none"
NONE = "linear-gradient(transparent,transparent)"


def hiding_css(hiding: str) -> str:
    """How the words (#words) and the targets (#targets) are kept from a person's eyes."""
    both = "#words span, #targets .target"
    return {
        "transparent": f"{both} {{color:transparent;caret-color:transparent;{_PLAIN}}} "
                       "#targets ::placeholder {color:transparent}",
        "faint": "#layer {opacity:0.02}",
        "fill": f"{both} {{-webkit-text-fill-color:transparent;caret-color:transparent;{_PLAIN}}} "
                "#targets ::placeholder {-webkit-text-fill-color:transparent}",
        "filter": "#layer {filter:opacity(0)}",
        "clip": f"#words span {{clip-path:polygon(0 0,0 0,0 0)}} #targets .target {{clip-path:{_TINY}}}",
        # a button keeps its (bare) box and its words shrink; a field or a checkbox shrinks whole
        "scale": f"#words span, #targets button > span, #targets .name, #targets input {{transform:scale(0.01)}} "
                 f"#targets button {{{_PLAIN}}}",
        "mask": f"#layer {{-webkit-mask-image:{NONE};mask-image:{NONE}}}",
        "under": "#pic {z-index:3;pointer-events:none} #layer {background:#fff}",
        "background_colour": f"{both} {{caret-color:transparent;{_PLAIN}}} #targets ::placeholder {{color:inherit}}",
    }[hiding]


def _step_rules(frames: list[str], size: tuple[int, int], picture: str) -> str:
    """Per-step CSS for the pictures that only CSS can set (pseudo-elements)."""
    w, h = size
    rules = []
    for k, f in enumerate(frames):
        url, sel = f"url({_js(f)})", f"#pic[data-s='{k}']"
        if picture == "pseudo":  # even steps on ::before, odd ones on ::after
            on, off = ("before", "after") if k % 2 == 0 else ("after", "before")
            rules.append(f"{sel}::{on} {{background-image:{url}}} {sel}::{off} {{display:none}}")
        elif picture == "border_image":
            rules.append(f"{sel}::before {{border-image:{url} 50% / {h // 2}px {w // 2}px / 0 stretch}}")
        elif picture == "content_url":
            rules.append(f"{sel}::before {{content:{url}}}")
    base = {
        "pseudo": f"#pic::before, #pic::after {{content:'';position:absolute;left:0;top:0;width:{w}px;height:{h}px;"
                  f"background-size:{w}px {h}px;background-repeat:no-repeat}}",
        "border_image": f"#pic::before {{content:'';position:absolute;left:0;top:0;width:{w}px;height:{h}px;"
                        f"box-sizing:border-box;border-style:solid;border-color:transparent;"
                        f"border-width:{h // 2}px {w // 2}px}}",
        "content_url": "#pic::before {display:block;line-height:0}",
    }.get(picture, "")
    return base + " " + " ".join(rules)


def _picture_html(frames: list[str], size: tuple[int, int], picture: str) -> str:
    w, h = size
    if picture in ("img", "glass"):
        return f"<img id='pic' src='{html.escape(frames[0])}' width='{w}' height='{h}' alt=''>"
    if picture == "canvas_distorted":
        return f"<canvas id='pic' width='{w}' height='{h}'></canvas>"
    return "<div id='pic' data-s='0'></div>"


# Per picture: how step k is shown (`pic`, FRAMES, W, H in scope).
_SHOW = {
    "img": "pic.src = FRAMES[k];",
    "glass": "pic.src = FRAMES[k];",
    "pseudo": "pic.dataset.s = String(k);",
    "border_image": "pic.dataset.s = String(k);",
    "content_url": "pic.dataset.s = String(k);",
    # 97 % of the frame, a few pixels off centre, with grey noise of +-6 levels on every pixel.
    "canvas_distorted": """
      loaded(FRAMES[k], (im) => {
        const g = pic.getContext('2d'), s = 0.97;
        g.drawImage(im, 0, 0, 1, 1, 0, 0, W, H);
        g.drawImage(im, Math.round(W * (1 - s) / 2) + 4, Math.round(H * (1 - s) / 2) + 3, W * s, H * s);
        const d = g.getImageData(0, 0, W, H), px = d.data; let r = 2463534242 + k;
        for (let i = 0; i < px.length; i += 4) {
          r ^= r << 13; r ^= r >>> 17; r ^= r << 5; const n = ((r >>> 0) % 13) - 6;
          px[i] += n; px[i + 1] += n; px[i + 2] += n;
        }
        g.putImageData(d, 0, 0);
      });""",
    # Solid-colour cells of 8 px sampled from the frame; a run of like cells in a row is one div.
    "mosaic": """
      loaded(FRAMES[k], (im) => {
        const C = 8, cw = Math.ceil(W / C), ch = Math.ceil(H / C), c = document.createElement('canvas');
        c.width = cw; c.height = ch; const g = c.getContext('2d'); g.imageSmoothingQuality = 'high';
        g.drawImage(im, 0, 0, cw, ch); const px = g.getImageData(0, 0, cw, ch).data, out = [];
        for (let y = 0; y < ch; y++) {
          let x0 = 0;
          for (let x = 1; x <= cw; x++) {
            const a = (y * cw + x0) * 4, b = (y * cw + x) * 4;
            const near = Math.abs(px[a] - px[b]) + Math.abs(px[a + 1] - px[b + 1]) + Math.abs(px[a + 2] - px[b + 2]);
            if (x < cw && near < 10) continue;
            out.push(`<i style="left:${x0 * C}px;top:${y * C}px;width:${(x - x0) * C}px;` +
                     `background:rgb(${px[a]},${px[a + 1]},${px[a + 2]})"></i>`);
            x0 = x;
          }
        }
        pic.innerHTML = out.join('');
      });""",
}

STEPPER = """
(() => {
const FRAMES = __FRAMES__, WORDS = __WORDS__, TYPES = __TYPES__, COLOURS = __COLOURS__, W = __W__, H = __H__;
const pic = document.getElementById('pic'), words = document.getElementById('words');
const loaded = (src, then) => { const im = new Image(); im.onload = () => then(im); im.src = src; };
function show(k) {
  __SHOW__
  words.innerHTML = WORDS[k];
  if (COLOURS) for (const el of document.querySelectorAll('#targets .target'))
    el.style.color = COLOURS[k][+el.dataset.i];
}
const fits = (t, kind) => t === 'Click' ? kind === 'click' : t === 'Type' ? kind === 'char' || kind === 'click'
  : t === 'Press' ? kind === 'key' || kind === 'char' : kind === 'scroll';
let cur = -1, typing = null, last = null;
function on(kind, target) {
  const was = last; last = kind;
  if (cur >= 0 && TYPES[cur] === 'Type' && kind === 'char' && (typing === null || typing === target)) {
    typing = target; return; }
  if (cur >= 0 && TYPES[cur] === 'Scroll' && kind === 'scroll') return;
  if (kind === 'click' && was === 'key' && TYPES[cur] === 'Press') return;  // a key's own click
  for (let j = cur + 1; j < Math.min(TYPES.length, cur + 4); j++) {
    if (fits(TYPES[j], kind)) { cur = j; typing = kind === 'scroll' ? null : target; show(cur + 1); return; }
  }
}
document.addEventListener('click', (e) => on('click', e.target), true);
document.addEventListener('keydown', (e) => on(e.key.length === 1 && !e.ctrlKey && !e.metaKey ? 'char' : 'key',
                                               e.target), true);
document.addEventListener('input', (e) => on('char', e.target), true);
window.addEventListener('wheel', () => on('scroll', null), {capture: true, passive: true});
window.addEventListener('scroll', () => on('scroll', null), true);
__FIRST__
})();
"""


def page(rec: Recording, picture: str, hiding: str) -> str:
    """The recording as `picture` shows it, with every step's words and the targets hidden by `hiding`."""
    if picture not in PICTURES or hiding not in HIDINGS:
        raise ValueError(f"unknown picture {picture!r} or hiding {hiding!r}")
    w, h = rec.size
    colours = rec.target_colours
    css = (f"html,body{{margin:0;background:#fff}} body{{height:{3 * h}px}} "
           f"#pic{{position:fixed;left:0;top:0;width:{w}px;height:{h}px;z-index:1;overflow:hidden;display:block}} "
           "#pic i{position:absolute;display:block;height:8px} "
           f"#layer{{position:fixed;left:0;top:0;width:{w}px;height:{h}px;z-index:2;"
           + ("" if picture == "glass" or hiding == "under" else "pointer-events:none;") + "} "
           "#words span{position:absolute;white-space:nowrap;line-height:1;font-family:Arial,Helvetica,sans-serif} "
           "#targets .target{position:absolute;box-sizing:border-box;margin:0;padding:0 4px;pointer-events:auto;"
           "font-family:Arial,Helvetica,sans-serif} #targets button > span{display:inline-block} "
           + _step_rules(rec.frames, rec.size, picture) + " " + hiding_css(hiding))
    first = "show(0);" if picture in ("canvas_distorted", "mosaic") else ""
    script = (STEPPER.replace("__FRAMES__", _js(rec.frames)).replace("__TYPES__", _js(rec.types))
              .replace("__WORDS__", _js([words_html(t) for t in rec.texts])).replace("__COLOURS__", _js(colours))
              .replace("__W__", str(w)).replace("__H__", str(h)).replace("__SHOW__", _SHOW[picture])
              .replace("__FIRST__", first))
    body = (_picture_html(rec.frames, rec.size, picture)
            + f"<div id='layer'><div id='words'>{words_html(rec.texts[0])}</div>"
            + f"<div id='targets'>{targets_html(rec.targets, colours[0] if colours else None)}</div></div>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>page</title><style>{css}</style></head>"
            f"<body>{body}<script>{script}</script></body></html>")
