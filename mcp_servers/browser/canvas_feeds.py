"""Which canvases were fed image data: a canvas drawn with paths, shapes and text is the page's own
drawing; one that was given images, video frames, bitmaps or pixel arrays shows pictures (unless the
images are the task's assets), however they were scaled, shifted or noised on the way.

Part of the judge's init script (disguise.py), so its hooks look as native as everything there and
keep their state in its closure. The judge asks from its own world: it dispatches the event
`fed_event(token)` on a canvas with the task's asset paths as the detail (a string crosses worlds),
and the init script cancels the event when the canvas was fed anything else; the page, which knows
neither the event's name nor its listener, sees none of it.
"""
from __future__ import annotations


def fed_event(token: str) -> str:
    """The event that asks a canvas whether it was fed pictures (cancelled: yes)."""
    return "z" + token


# Spliced into disguise.SCRIPT, whose helpers (replace, call, apply, gopd, listen, wmGet, ...) it uses.
FEEDS = r"""
  // --- canvases fed image data (canvas_feeds.py) ---
  const feeds = new NativeWeakMap();  // canvas -> {urls: [...], raw: bool}
  const localName = gopd(Element.prototype, 'localName').get;
  const imgSrc = gopd(HTMLImageElement.prototype, 'currentSrc').get;
  const evTarget = gopd(Event.prototype, 'target').get, evCancel = Event.prototype.preventDefault;
  const parseJSON = JSON.parse, NativeURL = URL, urlPath = gopd(URL.prototype, 'pathname').get;
  const decode = decodeURIComponent, includes = Array.prototype.includes, push = Array.prototype.push;
  const tagOf = (x) => { try { return apply(localName, x, []); } catch (e) { return null; } };
  const offscreenWidth = G.OffscreenCanvas ? gopd(OffscreenCanvas.prototype, 'width').get : null;
  const isCanvas = (x) => {
    if (tagOf(x) === 'canvas') return true;
    try { return !!offscreenWidth && (apply(offscreenWidth, x, []), true); } catch (e) { return false; }
  };
  // What a source feeds a canvas: an image's address, true for other image data, null for a clean canvas.
  const feedOf = (x) => {
    if (tagOf(x) === 'img') { try { return apply(imgSrc, x, []) || true; } catch (e) { return true; } }
    if (isCanvas(x)) { const f = apply(wmGet, feeds, [x]); return f && (f.raw || f.urls.length) ? f : null; }
    return true;
  };
  const feed = (canvas, what) => {
    if (!canvas || what === null) return;
    let f = apply(wmGet, feeds, [canvas]);
    if (f === undefined) { f = {__proto__: null, urls: [], raw: false}; apply(wmSet, feeds, [canvas, f]); }
    if (what === true) f.raw = true;
    else if (typeof what === 'string') { if (f.urls.length < 64) apply(push, f.urls, [what]); }
    else { f.raw = f.raw || what.raw; for (let i = 0; i < what.urls.length && f.urls.length < 64; i++) apply(push, f.urls, [what.urls[i]]); }
  };
  const hook = (proto, key, source) => {
    if (!proto) return;
    const canvasGet = (gopd(proto, 'canvas') || {__proto__: null}).get;
    replace(proto, key, {__proto__: null, apply(t, self, args) {
      let c = null;
      try { c = canvasGet ? apply(canvasGet, self, []) : null; } catch (e) {}
      if (c) feed(c, source(args));
      return call(t, self, args);
    }});
  };
  const first = (args) => (args.length ? feedOf(args[0]) : null);
  const last = (args) => (args.length ? feedOf(args[args.length - 1]) : null);
  for (const name of ['CanvasRenderingContext2D', 'OffscreenCanvasRenderingContext2D']) {
    const P = G[name] && G[name].prototype;
    hook(P, 'drawImage', first);
    hook(P, 'createPattern', first);
    hook(P, 'putImageData', () => true);
  }
  for (const name of ['WebGLRenderingContext', 'WebGL2RenderingContext']) {
    const P = G[name] && G[name].prototype;
    hook(P, 'texImage2D', last);
    hook(P, 'texSubImage2D', last);
  }
  hook(G.ImageBitmapRenderingContext && ImageBitmapRenderingContext.prototype, 'transferFromImageBitmap', () => true);
  apply(listen, G, [FEED_QUESTION, (e) => {
    try {
      const f = apply(wmGet, feeds, [apply(evTarget, e, [])]);
      if (!f) return;
      const assets = parseJSON(apply(detail, e, []));
      let foreign = f.raw;
      for (let i = 0; i < f.urls.length && !foreign; i++) {
        let path = null;
        try { path = decode(apply(urlPath, construct(NativeURL, [f.urls[i]]), [])); } catch (x) {}
        foreign = path === null || !apply(includes, assets, [path]);
      }
      if (foreign) apply(evCancel, e, []);
    } catch (x) {}
  }, true]);
"""
