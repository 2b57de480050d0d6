"""JavaScript that reads what a person sees on the page, for the judge's assertions and grounding.

In the viewport, a text counts only where taking its ink away changes the pixels (ink.py: covered,
clipped, transparent or scaled-away words do not); the observation hands each such text's boxes to
the browser server, which decides. Below the fold its styles decide: painted, and not covered by
another element (a hit test). Nothing here changes the page.
"""

from iwr.mcp_servers.browser.ink import INK_FNS

# Helpers shared by the scripts below: painted(el), uncovered(el), holders(), regionOf(el), colours.
SEEING_FNS = """
  const flat = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  // Whether an element and its ancestors are shown, memoised for one evaluation (ancestors repeat).
  const shownMemo = new Map();
  const shownUp = (e) => {
    if (!e) return true;
    if (shownMemo.has(e)) return shownMemo.get(e);
    const s = getComputedStyle(e);
    const v = !(s.display === 'none' || s.visibility === 'hidden' || parseFloat(s.opacity) < 0.05) &&
              shownUp(e.parentElement);
    shownMemo.set(e, v);
    return v;
  };
  // Text a person cannot see does not count: nearly transparent ink, tiny type or boxes, off the
  // page, clipped away by a scrolling or clipping ancestor, or ink the colour of its background.
  const faint = (c) => c === 'transparent' || /^rgba\\(.*,\\s*(0|0?\\.0\\d*|0?\\.1)\\)$/.test(c);
  const hiddenBy = (s) => /rect\\(\\s*0(px)?[ ,]+0(px)?[ ,]+0(px)?[ ,]+0(px)?\\s*\\)/.test(s.clip || '') ||
    /inset\\(\\s*(50|100)%|circle\\(\\s*0/.test(s.clipPath || '');
  // (An ancestor that scrolls does not hide: a person can scroll to what lies outside it.)
  const clipMemo = new Map(), cuts = (o) => o === 'hidden' || o === 'clip';
  const clippedAway = (el, r) => {
    for (let e = el.parentElement; e && e !== document.documentElement; e = e.parentElement) {
      if (!clipMemo.has(e)) { const s = getComputedStyle(e);
        clipMemo.set(e, hiddenBy(s) ? 'gone' : cuts(s.overflowX) || cuts(s.overflowY) ?
          {b: e.getBoundingClientRect(), x: cuts(s.overflowX), y: cuts(s.overflowY)} : null); }
      const c = clipMemo.get(e);
      if (c === 'gone') return true;
      // a sliver left by a box closed to nothing (max-width: 0 with overflow hidden) shows no word
      if (c && c.x && Math.min(r.right, c.b.right) - Math.max(r.left, c.b.left) < 2) return true;
      if (c && c.y && Math.min(r.bottom, c.b.bottom) - Math.max(r.top, c.b.top) < 4) return true;
    }
    return false;
  };
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const sameInk = (el, cs) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none') return false;
      if (solid(s.backgroundColor)) { const a = rgb(cs.color), b = rgb(s.backgroundColor);
        return a.length === 3 && b.length === 3 && Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) < 12; }
    }
    return false;
  };
  const painted = (el) => {
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (r.width < 2 || r.height < 4 || r.right + scrollX <= 0 || r.bottom + scrollY <= 0) return false;
    if (parseFloat(cs.fontSize) < 4 || faint(cs.color) || hiddenBy(cs)) return false;
    return shownUp(el) && !clippedAway(el, r) && !(ownText(el) && sameInk(el, cs));
  };
  const related = (a, b) => a === b || a.contains(b) || b.contains(a);
  // An element lying over another hides it only where it paints: a transparent box with no text of
  // its own (a full-width filter bar, a layout wrapper) lets what is below show through.
  const OPAQUE = ['IMG', 'VIDEO', 'CANVAS', 'SVG', 'INPUT', 'TEXTAREA', 'SELECT', 'IFRAME', 'OBJECT', 'EMBED'];
  // (A dimming backdrop behind a dialog, at most 80% opaque, still lets a person read what it dims.)
  const dims = (c) => { const m = /^rgba\\(.*,\\s*([\\d.]+)\\)$/.exec(c || ''); return !solid(c) || (m && parseFloat(m[1]) <= 0.8); };
  const seeThrough = (e) => { const cs = getComputedStyle(e);
    return (dims(cs.backgroundColor) || parseFloat(cs.opacity) <= 0.8) && cs.backgroundImage === 'none' && !ownText(e) &&
           !OPAQUE.includes(e.tagName.toUpperCase()); };
  // Inside the viewport, some point of the element must reach it (or a relative) in a hit test.
  const uncovered = (el) => {
    const r = el.getBoundingClientRect(), vw = innerWidth, vh = innerHeight;
    const x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0), x1 = Math.min(r.right, vw), y1 = Math.min(r.bottom, vh);
    if (x1 - x0 < 1 || y1 - y0 < 1) return true;
    const points = [[0.5, 0.5], [0.2, 0.5], [0.8, 0.5], [0.5, 0.2], [0.5, 0.8]].map(([fx, fy]) =>
      [x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy]);
    for (const [x, y] of points) {  // the common case: a single hit test reaches it
      const hit = document.elementFromPoint(x, y);
      if (hit && related(hit, el)) return true;
    }
    for (const [x, y] of points) {
      for (const hit of document.elementsFromPoint(x, y)) {
        if (related(hit, el)) return true;
        if (!seeThrough(hit)) break;
      }
    }
    return false;
  };
  const ownText = (el) => Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
  const holders = () => Array.from(document.querySelectorAll('body *')).filter(
    (el) => !['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION'].includes(el.tagName) && ownText(el));
  const REGION_TAGS = {HEADER: 'header', FOOTER: 'footer', NAV: 'nav', ASIDE: 'sidebar', MAIN: 'main', FORM: 'form',
                       DIALOG: 'dialog', TABLE: 'table', UL: 'list', OL: 'list'};
  const REGION_ROLES = {banner: 'header', contentinfo: 'footer', navigation: 'nav', complementary: 'sidebar',
                        dialog: 'dialog', alertdialog: 'dialog', form: 'form', search: 'form', toolbar: 'toolbar',
                        menu: 'menu', menubar: 'menu', tablist: 'tabs', list: 'list', grid: 'table', table: 'table'};
  const REGION_WORDS = /\\b(header|footer|sidebar|modal|dialog|popup|drawer|toolbar|navbar|menu)\\b/;
  const regionOf = (el) => {
    const out = new Set();
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      if (REGION_TAGS[e.tagName]) out.add(REGION_TAGS[e.tagName]);
      const role = e.getAttribute('role'); if (role && REGION_ROLES[role]) out.add(REGION_ROLES[role]);
      if (e.getAttribute('aria-modal') === 'true') out.add('dialog');
      const words = ((typeof e.className === 'string' ? e.className : '') + ' ' + e.id).toLowerCase().replace(/[-_]/g, ' ');
      const m = words.match(REGION_WORDS);
      if (m) out.add({modal: 'dialog', popup: 'dialog', drawer: 'dialog', navbar: 'nav'}[m[1]] || m[1]);
    }
    return Array.from(out);
  };
  // The box of what an element shows (its text), without padding: a padded label starts where its
  // checkbox is, while its words start to the right of it.
  const inkBox = (el) => {
    const range = document.createRange(); range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1 ? [r.x, r.y, r.width, r.height] : null;
  };
  const solid = (c) => c && c !== 'transparent' && !/^rgba\\(.*,\\s*0\\)$/.test(c);
  const backgroundOf = (el) => {
    for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (solid(c)) return c; }
    return 'rgb(255, 255, 255)';
  };
  const struck = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      if (['S', 'DEL', 'STRIKE'].includes(e.tagName)) return true;
      if ((getComputedStyle(e).textDecorationLine || '').includes('line-through')) return true;
    }
    return false;
  };
"""

# Whether a blob: URL holds one of the task's assets: asked of the init script (canvas_feeds.py), whose
# event name is the canvas question's with 'w' for 'z'; `assets` is the JSON list the judge hands in.
# A listing that may wait asks again while a URL's bytes are still being hashed (a second in all, however
# many URLs a page makes): a page shown a moment after it made the URL must not have its asset taken for a picture.
BLOB_FNS = """
  const blobAsk = (src, pending) => !!fedEvent && String(src).startsWith('blob:') && !dispatchEvent(new CustomEvent(
    'w' + fedEvent.slice(1), {detail: '[' + JSON.stringify(String(src)) + ',' + (assets || '[]') + (pending ? ',"pending"' : '') + ']',
                              cancelable: true}));
  const blobAsset = (src) => blobAsk(src, false);
  const blobWaitEnds = performance.now() + 1000;
  const blobAssetOnceHashed = async (src) => {
    while (performance.now() < blobWaitEnds && blobAsk(src, true)) await new Promise((r) => setTimeout(r, 20));
    return blobAsk(src, false);
  };
"""

# Painted text leaves and images, for relations ("left of 'buy milk'") and for targets that only a
# delegated handler makes clickable. Each: tag, role 'text' or 'img', name, bbox, colours, region.
TEXT_ANCHORS = """
(limit) => {""" + SEEING_FNS + """
  const out = [];
  for (const el of holders().concat(Array.from(document.querySelectorAll('img,svg[aria-label],[role=img]')))) {
    if (out.length >= limit) break;
    if (!painted(el)) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    const isImg = el.tagName === 'IMG' || el.tagName === 'svg' || el.getAttribute('role') === 'img';
    const name = flat(isImg ? (el.getAttribute('alt') || el.getAttribute('aria-label') || el.getAttribute('title') || '')
                             : el.innerText).slice(0, 160);
    out.push({el, info: {tag: el.tagName.toLowerCase(), role: isImg ? 'img' : 'text', name, text: name,
                         bbox: [r.x, r.y, r.width, r.height], ink: isImg ? null : inkBox(el), color: cs.color, bg: backgroundOf(el),
                         region: regionOf(el), covered: !uncovered(el), interactive: false, enabled: true}});
  }
  return out;
}
"""

# What the page shows now, for deciding assertions: painted and uncovered texts (with whether they
# sit inside a control, are struck through, and which list item holds them), form fields with their
# values, checked states and chosen options, selected/pressed/current elements, open dialogs, media,
# and a signature of styles on elements that are neither hovered nor focused.
OBSERVE = """
([fedEvent, assets]) => {""" + SEEING_FNS + INK_FNS + BLOB_FNS + """
  // Pictures change nothing a person counts as the page changing (graphs/pictures.py): the images
  // listed are the task's assets (paths on the page's server), the canvases hashed those fed no pictures.
  const own = JSON.parse(assets || '[]');
  const ownImage = (i) => { try { const src = i.currentSrc || i.src;
                                  return own.includes(decodeURIComponent(new URL(src).pathname)) || blobAsset(src); }
                            catch (e) { return false; } };
  const fedCanvas = (c) => !!fedEvent && !c.dispatchEvent(new CustomEvent(fedEvent, {detail: assets, cancelable: true}));
  const CONTROL = 'button,a[href],select,[role=button],[role=tab],[role=link],[role=menuitem],[role=option]';
  const ITEM = 'li,tr,[role=listitem],[role=row],[role=option],[role=treeitem],[role=article],article';
  // A control among three or more of its kind side by side (a key pad, a button bar): its peers show
  // whether it stands out as the chosen one, as a list's items do (no list: counts ignore it).
  const runOf = (el) => { const c = el.closest('button,[role=button],[role=tab],a[href]');
    const peers = c && c.parentElement ? Array.from(c.parentElement.children).filter((s) => s.tagName === c.tagName) : [];
    return peers.length >= 3 ? c : null; };
  const lists = new Map(), idOf = (m, k) => { if (!m.has(k)) m.set(k, m.size); return m.get(k); };
  let hash = 0; const mix = (s) => { for (let i = 0; i < s.length; i++) hash = (Math.imul(hash, 31) + s.charCodeAt(i)) | 0; };
  const texts = [], held = [], all = holders();
  // A state or dialog holding words shows where one of them shows (the pixels decide, in keep_seen);
  // `words` counts those a person cannot see too.
  const holds = (box) => ({i: held.map((e, i) => box.contains(e) ? i : -1).filter((i) => i >= 0),
                           words: all.some((e) => box.contains(e))});
  for (const el of all) {
    const shows = painted(el), r = el.getBoundingClientRect();
    const calm = !el.matches(':hover') && !el.matches(':focus-within');
    if (shows && calm) { const cs = getComputedStyle(el); mix([cs.color, cs.backgroundColor, cs.fontWeight, cs.textDecorationLine, cs.opacity].join('|')); }
    // In the viewport the pixels decide (ink.py); below the fold, the styles.
    const pixels = inView(r) ? inkOf(el) : null;
    if (!pixels && !(shows && uncovered(el))) continue;
    held.push(el);
    const item = el.closest(ITEM), cs = getComputedStyle(el), run = runOf(el);
    const ctl = el.closest(CONTROL + ',input,textarea');
    const pseudo = (w) => { const c = getComputedStyle(el, w).content;
      return c && c !== 'none' && c !== 'normal' && /^["']/.test(c) ? c.slice(1, -1) : ''; };
    texts.push({t: flat([pseudo('::before'), el.innerText, pseudo('::after')].join(' ')).slice(0, 300), ctl: !!ctl,
                strike: struck(el), h: !calm,
                item: item ? idOf(lists, item) : null, list: item && item.parentElement ? idOf(lists, item.parentElement) : null,
                run: run ? [idOf(lists, run.parentElement), idOf(lists, run)] : null,
                y: Math.round(r.y), v: r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth,
                off: !!(ctl && (ctl.disabled || ctl.getAttribute('aria-disabled') === 'true')),
                s: [cs.color, backgroundOf(el), cs.fontWeight, cs.borderTopColor].join('|'), ...(pixels || {})});
  }
  const nameOf = (el) => flat(el.getAttribute('aria-label') || (el.labels && el.labels.length ?
    Array.from(el.labels).map((l) => l.innerText).join(' ') : '') || el.getAttribute('placeholder') ||
    el.getAttribute('title') || el.getAttribute('name') || (el.parentElement ? el.parentElement.innerText : ''));
  const fields = [];
  for (const el of document.querySelectorAll('input,textarea,select,[contenteditable=true],[contenteditable=""]')) {
    const ty = (el.getAttribute('type') || '').toLowerCase();
    if (ty === 'hidden' || getComputedStyle(el).display === 'none') continue;
    const f = {label: nameOf(el).slice(0, 160), type: ty || el.tagName.toLowerCase()};
    if (el.disabled || el.closest('[aria-disabled="true"]')) f.off = true;
    if (el.tagName === 'SELECT') f.value = el.selectedIndex >= 0 ? flat(el.options[el.selectedIndex].text) : '';
    else if (el.isContentEditable) f.value = flat(el.innerText);
    else f.value = String(el.value);
    if (ty === 'checkbox' || ty === 'radio') {
      f.checked = el.checked;
      // how it looks, on the label drawn in its place when the box itself is hidden (a styled toggle)
      const cs = getComputedStyle(el), face = (cs.visibility === 'hidden' || parseFloat(cs.opacity) < 0.05) &&
        el.labels && el.labels.length ? el.labels[0] : el, fs = getComputedStyle(face);
      f.s = [fs.color, backgroundOf(face), fs.borderTopColor].join('|');
    }
    // A value a person reads: in the viewport, taking its ink away must change the field's pixels (ink.py).
    const r = el.getBoundingClientRect();
    // An empty field shows its placeholder, tested the same way (its ink is the ::placeholder's).
    const ph = !f.value && f.checked === undefined && el.placeholder ? flat(el.placeholder) : '';
    if (ph) f.ph = ph;
    if ((f.value || ph) && f.checked === undefined && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth) {
      const path = pathOf(el);
      if (path && r.width >= 1 && r.height >= 1)
        Object.assign(f, {p: ph ? path + '::placeholder' : path, ink: [[r.x, r.y, r.width, r.height]], css: true});
    }
    fields.push(f);
  }
  const STATE = 'input:checked,[aria-selected=true],[aria-pressed=true],[aria-checked=true],[aria-current]:not([aria-current=false]),' +
                '.active,.selected,.current,.checked,.is-active,.is-selected,.on,option:checked';
  const field = (el) => el.tagName === 'OPTION' || el.tagName === 'INPUT';
  const states = Array.from(document.querySelectorAll(STATE)).filter((el) => field(el) || painted(el))
    .map((el) => ({t: flat(el.innerText || el.textContent || el.getAttribute('aria-label') ||
                           (el.labels && el.labels.length ? el.labels[0].innerText : '') || el.value || '').slice(0, 160),
                   ...(field(el) ? {i: [], words: false} : holds(el))}));
  const DIALOG = '[role=dialog],[role=alertdialog],dialog[open],[aria-modal=true]';
  const dialogs = Array.from(document.querySelectorAll(DIALOG + ',body *')).filter((el) => {
    if (el.matches(DIALOG)) return painted(el);
    const words = ((typeof el.className === 'string' ? el.className : '') + ' ' + el.id).toLowerCase();
    const pos = getComputedStyle(el).position;
    return /modal|dialog|popup|popover|overlay|drawer|lightbox|toast|dropdown/.test(words) &&
           (pos === 'fixed' || pos === 'absolute') && painted(el);
  }).map((el) => ({t: flat(el.innerText).slice(0, 160), ...holds(el)}));
  const media = Array.from(document.querySelectorAll('img')).filter((i) => painted(i) && ownImage(i))
    .map((i) => i.currentSrc || i.src);
  const styleHash = hash; hash = 0;
  for (const c of document.querySelectorAll('canvas')) {
    if (fedCanvas(c)) continue;
    try { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          for (let i = 0; i < d.length; i += 4 * 97) mix(String(d[i] + d[i + 1] * 3 + d[i + 2] * 7)); } catch (e) {}
  }
  const canvasHash = hash; hash = 0;
  // The page's own state, apart from the pointer: which boxes there are and their classes and inline
  // styles (a hover restyles through CSS alone). Told apart from a hover, pixels that changed are the
  // page's doing (visible_change.py); it is never evidence by itself.
  for (const el of document.body ? document.body.querySelectorAll('*') : [])
    mix(el.tagName + '|' + (el.getAttribute('class') || '') + '|' + (el.getAttribute('style') || '') + '|' + el.childElementCount);
  const shape = hash;
  const act = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
  // a box or field named by nothing of its own is known by the row it sits in
  const row = el => { for (let p = el.parentElement, n = 0; p && p !== document.body && n < 3; p = p.parentElement, n++)
                        if (flat(p.innerText)) return p.innerText; return ''; };
  const focus = act ? flat(act.innerText || act.getAttribute('aria-label') ||
                           (act.labels && act.labels.length ? act.labels[0].innerText : '') ||
                           (act.matches('input[type=checkbox], input[type=radio]') ? row(act) : act.value || row(act))).slice(0, 160) : null;
  return {url: location.href, focus, texts, fields, states, dialogs, media, style: styleHash, canvas: canvasHash, shape,
          scroll: [scrollX, scrollY], live: liveBoxes(), activity: activityNow()};
}
"""

# Raster content of the page, wherever it is painted: images, videos (and posters), SVG images, and
# every CSS image of an element or its ::before/::after (backgrounds, border images, masks, content:
# url(), list markers), each with its source, the element's place (a selector, for the bare capture
# of graphs/pictures.py) and its box clipped to the viewport; canvases (`fed` when fed image data) and
# embedded documents come with their boxes where they show; mosaics (a picture made of elements) with
# the elements that hold their cells. A data: URL is sent as `data:<type>;sha256,<hex>` of its bytes (the
# whole URL may be megabytes), so that an inlined asset can be told by its hash; a blob: URL made of an
# asset's bytes is marked `asset` (canvas_feeds.py hashes what the page hands URL.createObjectURL).
RASTERS = """
async ([fedEvent, assets]) => {""" + SEEING_FNS + INK_FNS + BLOB_FNS + """
  const vw = innerWidth, vh = innerHeight, out = [], MAX = 600;
  const MOSAIC_CELL = 24, MOSAIC_CELLS = 400, MOSAIC_COLOURS = 64;
  const clipped = (r) => { const x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0);
    return [x0, y0, Math.max(0, Math.min(r.right, vw) - x0), Math.max(0, Math.min(r.bottom, vh) - y0)]; };
  const add = (el, kind, src, pseudo, prop) => {
    if (out.length >= MAX || !src || !el.getClientRects().length) return;
    out.push({kind, src: new URL(String(src), document.baseURI).href, p: (pathOf(el) || '') + (pseudo || ''),
              prop: prop || '', box: clipped(el.getBoundingClientRect())});
  };
  // Canvases and embedded documents are judged by how they look (graphs/pictures.py): only where they show.
  const addShown = (el, kind, src) => {
    const r = el.getBoundingClientRect(), b = clipped(r);
    if (b[2] < 8 || b[3] < 8 || !shownUp(el) || clippedAway(el, r) || !uncovered(el)) return;
    out.push({kind, src: String(src || ''), p: pathOf(el) || '', box: b});
  };
  // A canvas fed anything but the task's assets shows pictures, wherever it is (canvas_feeds.py).
  const fed = (el) => !!fedEvent && !el.dispatchEvent(new CustomEvent(fedEvent, {detail: assets, cancelable: true}));
  for (const el of document.querySelectorAll('img,input[type=image],video,svg image,canvas,iframe,object,embed')) {
    const t = el.tagName.toLowerCase();
    if (t === 'img') add(el, 'img', el.currentSrc || el.src);
    else if (t === 'input') add(el, 'img', el.src);
    else if (t === 'video') { add(el, 'video', el.currentSrc || el.src); add(el, 'video', el.getAttribute('poster')); }
    else if (t === 'image') add(el, 'image', el.getAttribute('href') || el.getAttribute('xlink:href'));
    else if (t === 'canvas' && fed(el)) out.push({kind: 'canvas', src: '', fed: true, p: pathOf(el) || '',
                                                  box: clipped(el.getBoundingClientRect())});
    else addShown(el, t, el.src || el.data || '');
  }
  const urls = (v) => Array.from(String(v || '').matchAll(/url\\(\\s*(?:"([^"]*)"|'([^']*)'|([^)'"\\s]*))\\s*\\)/g),
                                 (m) => m[1] || m[2] || m[3]).filter(Boolean);
  const CSS_IMAGES = ['backgroundImage', 'borderImageSource', 'maskImage', 'webkitMaskImage', 'content', 'listStyleImage'];
  const cssImages = (el, cs, pseudo) => {
    for (const k of CSS_IMAGES) {
      if (k === 'listStyleImage' && cs.display !== 'list-item') continue;  // inherited by every descendant
      for (const u of urls(cs[k])) add(el, 'background', u, pseudo, k);
    }
  };
  // A picture made of elements: hundreds of small blank boxes, each a solid colour, many colours among
  // them (a frame sampled into cells). A board, a palette or a chart has few colours or few cells.
  const cells = new Map(), colours = new Set();
  const cell = (el, cs) => {
    if (el.firstElementChild || !el.parentElement || ownText(el) || cs.backgroundImage !== 'none') return;
    const r = el.getBoundingClientRect();
    if (r.height > MOSAIC_CELL || r.width < 1 || r.height < 1 || !solid(cs.backgroundColor) || !inView(r)) return;
    cells.set(el.parentElement, (cells.get(el.parentElement) || 0) + 1);
    if (colours.size <= MOSAIC_COLOURS) colours.add(cs.backgroundColor);
  };
  for (const el of document.querySelectorAll('body, body *')) {
    const cs = getComputedStyle(el);
    cell(el, cs);
    if (out.length >= MAX) continue;
    cssImages(el, cs, '');
    for (const pseudo of ['::before', '::after']) {
      const ps = getComputedStyle(el, pseudo);
      if (ps.content !== 'none' && ps.content !== 'normal') cssImages(el, ps, pseudo);
    }
  }
  const tiled = Array.from(cells).filter(([, n]) => n >= 20);
  if (tiled.reduce((a, [, n]) => a + n, 0) >= MOSAIC_CELLS && colours.size >= MOSAIC_COLOURS) {
    for (const [el] of tiled.slice(0, 200)) out.push({kind: 'mosaic', src: '', p: pathOf(el) || '',
                                                      box: clipped(el.getBoundingClientRect())});
  }
  const hex = (buf) => Array.from(new Uint8Array(buf), b => b.toString(16).padStart(2, '0')).join('');
  const hashed = async (src) => {
    const comma = src.indexOf(',');
    if (!src.startsWith('data:') || comma < 0 || !(crypto && crypto.subtle)) return src.slice(0, 500);
    const head = src.slice(5, comma), body = src.slice(comma + 1);
    let bytes;
    try {
      bytes = head.endsWith(';base64') ? Uint8Array.from(atob(body), c => c.charCodeAt(0))
                                       : new TextEncoder().encode(decodeURIComponent(body));
    } catch (e) { return src.slice(0, 500); }
    return 'data:' + head.split(';')[0] + ';sha256,' + hex(await crypto.subtle.digest('SHA-256', bytes));
  };
  for (const r of out) { if (r.src.startsWith('blob:')) r.asset = await blobAssetOnceHashed(r.src); r.src = await hashed(r.src); }
  return {viewport: [vw, vh], rasters: out, full: out.length >= MAX};
}
"""
