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


def blob_event(token: str) -> str:
    """The event that asks, on the window, whether a blob: URL holds one of the task's assets (cancelled:
    yes); its detail is JSON [url, assets], or [url, assets, "pending"] to ask whether the URL's bytes are
    still being hashed (a digest takes a few tasks after createObjectURL). The page scripts derive it from
    fed_event: 'w' for 'z'."""
    return "w" + token


# The task's assets, as the judge hands them to the page scripts: paths on the page's server
# ('/images/pic1.jpg') and content digests ('sha256:<hex>'), for assets shown from memory (blob: URLs).
DIGEST = "sha256:"


# Spliced into disguise.SCRIPT, whose helpers (replace, call, apply, gopd, listen, wmGet, ...) it uses.
FEEDS = r"""
  // --- canvases fed image data (canvas_feeds.py) ---
  const feeds = new NativeWeakMap();  // canvas -> {urls: [...], raw: bool}
  const localName = gopd(Element.prototype, 'localName').get;
  const imgSrc = gopd(HTMLImageElement.prototype, 'currentSrc').get;
  const evTarget = gopd(Event.prototype, 'target').get, evCancel = Event.prototype.preventDefault;
  const parseJSON = JSON.parse, NativeURL = URL, urlPath = gopd(URL.prototype, 'pathname').get;
  const decode = decodeURIComponent, includes = Array.prototype.includes, push = Array.prototype.push;
  // --- assets shown from memory: a blob: URL made of an asset's bytes keeps their digest ---
  const NativeMap = Map, blobKeys = new NativeMap();  // url -> {hex}, once its bytes are hashed
  const mapGet = NativeMap.prototype.get, mapSet = NativeMap.prototype.set, mapSize = gopd(NativeMap.prototype, 'size').get;
  const blobSize = gopd(Blob.prototype, 'size').get, blobBytes = Blob.prototype.arrayBuffer;
  const subtle = G.crypto && G.isSecureContext ? gopd(Crypto.prototype, 'subtle').get : null;
  const digestOf = G.SubtleCrypto ? SubtleCrypto.prototype.digest : null, then = Promise.prototype.then;
  const U8 = Uint8Array, numText = Number.prototype.toString;
  const hexOf = (buf) => { const a = construct(U8, [buf]); let s = '';
    for (let i = 0; i < a.length; i++) s += (a[i] < 16 ? '0' : '') + apply(numText, a[i], [16]);
    return s; };
  replace(URL, 'createObjectURL', {__proto__: null, apply(t, self, args) {
    const url = call(t, self, args);
    try {
      const b = args[0], c = subtle && apply(subtle, G.crypto, []);
      if (c && digestOf && apply(mapSize, blobKeys, []) < 20000 && (apply(blobSize, b, []), true)) {
        const keep = {__proto__: null, hex: null};
        apply(mapSet, blobKeys, [url, keep]);
        const failed = () => { keep.hex = ''; };  // never pending for ever: an unread blob is no asset
        apply(then, apply(blobBytes, b, []), [(buf) => apply(then, apply(digestOf, c, ['SHA-256', buf]),
                                                              [(d) => { keep.hex = hexOf(d); }, failed]), failed]);
      }
    } catch (e) {}
    return url;
  }});
  const blobAsset = (url, assets) => {
    const keep = apply(mapGet, blobKeys, [url]);
    return !!keep && keep.hex !== null && apply(includes, assets, ['sha256:' + keep.hex]);
  };
  const blobPending = (url) => { const keep = apply(mapGet, blobKeys, [url]); return !!keep && keep.hex === null; };
  apply(listen, G, [BLOB_QUESTION, (e) => {
    try {
      const q = parseJSON(apply(detail, e, []));  // [url, assets], or [url, assets, 'pending']: is its digest still being taken?
      if (q[2] === 'pending' ? blobPending(q[0]) : blobAsset(q[0], q[1]))
        apply(evCancel, e, []);
    } catch (x) {}
  }, true]);
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
        foreign = (path === null || !apply(includes, assets, [path])) && !blobAsset(f.urls[i], assets);
      }
      if (foreign) apply(evCancel, e, []);
    } catch (x) {}
  }, true]);
"""
