"""JavaScript run inside pages: element listing, structured checks, click points.

Each function is evaluated with explicit arguments in the judge's isolated world (world.py) (the
seeded Math.random and the clock, which the page's own world needs, are disguise.py's); none of them
changes the DOM except CLEAR_TARGET and SET_OPTION, which do what a person's keys and picks do.
"""

from iwr.mcp_servers.browser.ink import INK_FNS
from iwr.mcp_servers.browser.page_observe import SEEING_FNS, TEXT_ANCHORS
from iwr.mcp_servers.browser.targets import LABEL_FN, TARGET_OF

# How the browser names an element, for the judge's element list and the recorder's target hints
# alike: a role (explicit or implied by the tag) and an accessible-style name.
DESCRIBE_FNS = """
  const clean = (s) => (s || '').replace(/\\s+/g, ' ').trim().slice(0, 160);
  // A label drawn as the switch of a hidden box (a styled toggle) is that box to a person.
  const boxOf = (el) => el.tagName === 'LABEL' && el.control && /^(checkbox|radio)$/i.test(el.control.type) &&
    !clean(el.innerText) ? el.control : null;
  const roleOf = (el) => {
    const r = el.getAttribute('role'); if (r) return r;
    if (boxOf(el)) return roleOf(boxOf(el));
    const t = el.tagName.toLowerCase(), ty = (el.getAttribute('type') || 'text').toLowerCase();
    if (t === 'a') return 'link';
    if (t === 'button' || t === 'summary') return 'button';
    if (t === 'select') return 'combobox';
    if (t === 'textarea') return 'textbox';
    if (t === 'input') {
      if (['button', 'submit', 'reset', 'image'].includes(ty)) return 'button';
      if (ty === 'checkbox' || ty === 'radio' || ty === 'range') return ty === 'range' ? 'slider' : ty;
      return 'textbox';
    }
    return 'generic';
  };
  // A switch or box with no words of its own is named by the words beside it: those of the nearest
  // enclosing element that holds no other control ('Good' next to a drawn toggle).
  const besideName = (el) => {
    const own = boxOf(el) || el;
    for (let p = el.parentElement, depth = 0; p && p !== document.body && depth < 3; p = p.parentElement, depth++) {
      const others = Array.from(p.querySelectorAll('input,button,select,textarea,label,a[href],[role]'))
        .map((c) => boxOf(c) || (c.tagName === 'LABEL' ? c.control : c) || c).filter((c) => c !== own);
      if (others.length) return '';
      const t = clean(p.innerText);
      if (t) return t.length <= 60 ? t : '';
    }
    return '';
  };
  // A pill with no words a person takes for a switch (graphs/element_match.looks_like_switch)
  const pill = (el) => { const r = el.getBoundingClientRect();
    return r.height >= 12 && r.height <= 48 && r.width / r.height >= 1.4 && r.width / r.height <= 3.2 && !clean(el.innerText || ''); };
  const nameOf = (el) => {
    const named = ownName(el);
    return named || (/^(checkbox|radio|switch)$/.test(roleOf(el)) || roleOf(el) === 'button' && pill(el) ? besideName(el) : '');
  };
  const ownName = (el) => {
    const a = el.getAttribute('aria-label'); if (a) return clean(a);
    const lb = el.getAttribute('aria-labelledby');
    if (lb) { const t = lb.split(/\\s+/).map(i => document.getElementById(i)).filter(Boolean).map(e => e.innerText).join(' '); if (t.trim()) return clean(t); }
    if (el.labels && el.labels.length) return clean(Array.from(el.labels).map(l => l.innerText).join(' '));
    const t = el.tagName.toLowerCase();
    if (t === 'input' || t === 'textarea') {
      const ty = (el.getAttribute('type') || '').toLowerCase();
      // A submit or reset input without a value shows the browser's own label, which a person reads.
      if (['button', 'submit', 'reset'].includes(ty)) return clean(el.value || {submit: 'Submit', reset: 'Reset'}[ty] || '');
      return clean(el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('name') || '');
    }
    if (t === 'img') return clean(el.getAttribute('alt') || '');
    return clean(el.innerText || el.getAttribute('title') || el.getAttribute('alt') ||
                 (el.querySelector('img[alt]') || {getAttribute: () => ''}).getAttribute('alt'));
  };
"""

# One element's box, tag, role, name and text (the recorder's target hint).
DESCRIBE_ELEMENT = """(el) => {""" + DESCRIBE_FNS + """
  const r = el.getBoundingClientRect();
  return {bbox: [r.x, r.y, r.width, r.height], tag: el.tagName.toLowerCase(), role: roleOf(el), name: nameOf(el),
          text: clean(el.innerText || '')};
}"""

# Returns [elements, infos]: the visible interactive elements in DOM order and a description of each.
LIST_ELEMENTS = """
([limit, withTexts]) => {""" + DESCRIBE_FNS + SEEING_FNS + """
  const SEL = 'a[href],button,input,select,textarea,summary,label,[role],[onclick],[tabindex],' +
              '[contenteditable=""],[contenteditable="true"],.btn';
  const seen = new Set(); const els = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const cs = getComputedStyle(el);
    // A checkbox made invisible over a drawn one (opacity 0) still takes the click a person makes.
    const drawnOver = el.tagName === 'INPUT' && /^(checkbox|radio)$/i.test(el.type);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && (drawnOver || parseFloat(cs.opacity || '1') > 0.01);
  };
  for (const el of document.querySelectorAll(SEL)) { if (!seen.has(el)) { seen.add(el); els.push(el); } }
  // A tile a person takes for something to click though no markup says so (a seat of a cinema map, a cell
  // of a board whose clicks a parent listens for): a small painted box with no words, one of three or more
  // such boxes side by side.
  const box = (el) => { if (el.children.length || (el.textContent || '').trim()) return false;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    return r.width >= 8 && r.height >= 8 && r.width <= 120 && r.height <= 120 &&
      (cs.backgroundColor !== 'rgba(0, 0, 0, 0)' || cs.backgroundImage !== 'none' || parseFloat(cs.borderTopWidth) > 0); };
  const tile = (el) => box(el) && el.parentElement &&
    Array.from(el.parentElement.children).filter((c) => c.tagName === el.tagName && box(c)).length >= 3;
  for (const el of document.querySelectorAll('body *')) {
    if (els.length > 4 * limit) break;
    if (seen.has(el)) continue;
    const cs = getComputedStyle(el);
    if (cs.cursor === 'pointer' && !(el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') || tile(el)) {
      seen.add(el); els.push(el);
    }
  }
  const order = (a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) ? -1 : 1;
  const keep = els.filter(visible).sort(order).slice(0, limit);
  const cssPath = (el) => {
    if (el.id) return '#' + CSS.escape(el.id);
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && e !== document.body; e = e.parentElement) {
      if (e.id) { parts.unshift('#' + CSS.escape(e.id)); break; }
      let i = 1; for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === e.tagName) i++;
      parts.unshift(e.tagName.toLowerCase() + ':nth-of-type(' + i + ')');
    }
    return parts.join(' > ');
  };
  // A field with no label element: the short caption a person reads just before it ('Amount (USD)' above the box)
  const captionOf = (el) => {
    if (!/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) return '';
    const prev = el.previousElementSibling;
    if (!prev || prev.querySelector('input,textarea,select,button')) return '';
    const t = flat(prev.innerText || '');
    return t.length <= 40 ? t : '';
  };
  const infos = keep.map((el, i) => {
    const r = el.getBoundingClientRect();
    return {ref: i, tag: el.tagName.toLowerCase(), role: roleOf(el), name: nameOf(el),
            text: clean(el.innerText || el.value || ''), classes: clean(el.className && el.className.baseVal !== undefined ? el.className.baseVal : el.className),
            id: el.id || '', css: cssPath(el), bbox: [r.x, r.y, r.width, r.height],
            enabled: !el.disabled, interactive: true, value: el.value !== undefined ? flat(String(el.value)) : '',
            placeholder: el.getAttribute('placeholder') || '', alt: el.getAttribute('alt') || '',
            title: el.getAttribute('title') || '', label: el.labels && el.labels.length ? flat(Array.from(el.labels).map((l) => l.innerText).join(' ')) : captionOf(el),
            color: getComputedStyle(el).color, bg: backgroundOf(el), region: regionOf(el), covered: !uncovered(el),
            checked: el.checked === undefined ? null : el.checked, focused: document.activeElement === el,
            controls: el.tagName === 'LABEL' && el.control ? (el.control.type || el.control.tagName.toLowerCase()) : null,
            ink: el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' ? null : inkBox(el),
            popup: !!(el.getAttribute('aria-haspopup') && el.getAttribute('aria-haspopup') !== 'false') || el.hasAttribute('aria-expanded')};
  });
  if (withTexts) {
    for (const {el, info} of (""" + TEXT_ANCHORS + """)(limit)) {
      if (keep.some((k) => k === el || k.contains(el))) continue;
      info.ref = keep.length; info.css = cssPath(el); info.id = el.id || ''; info.classes = '';
      keep.push(el); infos.push(info);
    }
  }
  return [keep, infos];
}
"""

# Evaluates structured checks against the live DOM; returns [{ok, observed}] in order.
RUN_CHECKS = """
(checks) => {""" + SEEING_FNS + INK_FNS + """
  const scroll = [scrollX, scrollY], live = liveBoxes();
  const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const body = norm(document.body ? document.body.innerText : '');
  const shown = (el) => { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none'; };
  const q = (sel) => { try { return Array.from(document.querySelectorAll(sel)); } catch (e) { return null; } };
  // innerText keeps text a reader cannot see (off-page, faint, tiny, clipped, covered); a hostile page
  // could plant the expected text that way. Text counts as visible only where some smallest element
  // holding it shows: in the viewport its ink must change pixels (ink.py, decided by the server from
  // `ink`), below the fold its styles must paint it.
  const seen = (t) => {
    if (!body.includes(t)) return {ok: false, ink: []};
    const holders = [];
    const descend = (el) => {
      const inner = Array.from(el.children).filter((c) => norm(c.innerText).includes(t));
      if (!inner.length) holders.push(el); else inner.forEach(descend);
    };
    descend(document.body);
    const ink = holders.map((el) => inView(el.getBoundingClientRect()) ? inkOf(el) : null);
    return {ok: holders.some((el, i) => !ink[i] && painted(el) && uncovered(el)), ink: ink.filter(Boolean)};
  };
  return checks.map((c) => {
    if (c.kind === 'text_visible' || c.kind === 'text_absent') {
      const v = seen(norm(c.text));
      return {ok: v.ok, ink: v.ink, observed: body.slice(0, 300)};
    }
    if (c.kind === 'url_contains') return {ok: location.href.includes(c.text), observed: location.href};
    const els = q(c.selector);
    if (els === null) return {ok: false, observed: 'invalid selector'};
    if (c.kind === 'count') { const n = els.filter(shown).length; return {ok: n === c.equals, observed: String(n)}; }
    if (c.kind === 'value') {
      if (!els.length) return {ok: false, observed: 'no element'};
      const v = els[0].value !== undefined ? String(els[0].value) : els[0].textContent;
      return {ok: v === c.equals, observed: v};
    }
    return {ok: false, observed: 'unsupported check ' + c.kind};
  }).concat([{scroll, live, activity: activityNow()}]);
}
"""

PAGE_STATE = """
() => ({url: location.href, title: document.title, scroll_x: window.scrollX, scroll_y: window.scrollY,
        text: document.body ? document.body.innerText : ''})
"""

# Where a click on an element lands, checked as a user's click would be: scrolled into view only if
# needed (centred, as Chromium's own scrollIntoViewIfNeeded does), the centre of its first box inside
# the viewport, and that point must reach the element itself, not an overlay covering it. One
# evaluation instead of Playwright's retried actionability checks, whose wait for a "stable" element
# (consecutive animation frames) cost more than the click; a judged page is settled already.
CLICK_POINT = """
(target) => {
  // a control a person cannot see (a hidden radio drawn by its label) is clicked where its label shows
  const labels = target.labels ? Array.from(target.labels) : [];
  const at = (el) => {
  if (!el.isConnected) return {error: 'the element is no longer in the page'};
  if (el.matches(':disabled') || el.closest('[aria-disabled="true"]')) return {error: 'the element is disabled'};
  if (getComputedStyle(el).visibility !== 'visible') return {error: 'the element is not visible'};
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
  else el.scrollIntoView({block: 'center', inline: 'center'});
  const vw = document.documentElement.clientWidth || innerWidth, vh = document.documentElement.clientHeight || innerHeight;
  const root = el.getRootNode();
  for (const r of el.getClientRects()) {
    const x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0), x1 = Math.min(r.right, vw), y1 = Math.min(r.bottom, vh);
    if ((x1 - x0) * (y1 - y0) < 0.99) continue;
    const x = (x0 + x1) / 2, y = (y0 + y1) / 2;
    const hit = (root.elementFromPoint ? root : document).elementFromPoint(x, y);
    for (let n = hit; n; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
      if (n === el || labels.includes(n)) return {x, y, bbox: [r.left, r.top, r.width, r.height]};
    }
    const who = hit ? hit.tagName.toLowerCase() + (hit.id ? '#' + hit.id : '') : 'nothing';
    return {error: `the click point is covered by ${who}, which would receive the click`};
  }
  return {error: 'the element is not visible'};
  };
  const own = at(target);
  if (!own.error || own.error.indexOf('not visible') < 0) return own;
  for (const label of labels) { const p = at(label); if (!p.error) return p; }
  return own;
}
"""

KEEP_REFS = """
(args) => { const [els, infos] = (""" + LIST_ELEMENTS + """)(args); globalThis.__refs = els; return infos; }
"""

POINT_OF = """(t) => {""" + TARGET_OF + """
  const el = targetOf(t);
  return el ? (""" + CLICK_POINT + """)(el) : missing(t, el);
}"""

# The name of the element a target designates and, when clicking it needs no scrolling first (its box
# lies inside the viewport and inside every ancestor that clips), where the click lands: the name check
# and the click point in one evaluation, with nothing scrolled before the name is known to fit.
NAMED_POINT = """(t) => {""" + TARGET_OF + LABEL_FN + """
  const el = targetOf(t);
  if (!el) return {label: null};
  const r = el.getBoundingClientRect(), inside = (b) => r.left >= b.left && r.top >= b.top && r.right <= b.right && r.bottom <= b.bottom;
  let still = el.getRootNode() === document && inside({left: 0, top: 0, right: document.documentElement.clientWidth || innerWidth,
                                                       bottom: document.documentElement.clientHeight || innerHeight});
  for (let a = el.parentElement; still && a && a !== document.documentElement; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') still = inside(a.getBoundingClientRect());
  }
  return still ? {label: labelOf(el), at: (""" + CLICK_POINT + """)(el)} : {label: labelOf(el), scroll: true};
}"""

# Selects what a field holds, so the Backspace that follows deletes it as a person's would.
CLEAR_TARGET = """(t) => {""" + TARGET_OF + """
  const el = targetOf(t);
  if (!el) return false;
  el.focus();
  if (typeof el.select === 'function') { el.select(); return String(el.value || '').length > 0; }
  const range = document.createRange(); range.selectNodeContents(el);
  const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
  return !sel.isCollapsed;
}"""

OPTION_LABELS = """(t) => {""" + TARGET_OF + """
  const el = targetOf(t);
  return el && el.tagName === 'SELECT' ? Array.from(el.options).map((o) => o.label) : null;
}"""

# Chooses an option as a dropdown does when a person picks it: the value changes, then input and change fire.
SET_OPTION = """(t) => {""" + TARGET_OF + """
  const el = targetOf(t);
  if (!el || el.tagName !== 'SELECT') return false;
  const opt = Array.from(el.options).find((o) => o.label === t.label);
  if (!opt || opt.disabled) return false;
  el.value = opt.value; opt.selected = true;
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}"""
