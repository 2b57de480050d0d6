"""JavaScript that finds the element an action's target names, and reads the words that name it.

Plain text with no imports, so the judge's graph can build the same read-only probe the browser runs
(grounding.label_probe) without loading a browser library.
"""

# The element a target names in our world: a ref of the last element list (kept in this world's
# own global, which the page cannot see), the first visible match of a CSS selector, or an element
# handed over directly; undefined for an invalid selector.
TARGET_OF = """
  const targetOf = (t) => {
    if (t.element) return t.element;
    if (t.ref !== undefined && t.ref !== null) return (globalThis.__refs || [])[t.ref] || null;
    let els; try { els = Array.from(document.querySelectorAll(t.selector)); } catch (e) { return undefined; }
    return els.find((el) => { const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility === 'visible'; }) || null;
  };
  const missing = (t, el) => el === undefined ? {error: 'invalid selector ' + JSON.stringify(t.selector)} :
    {error: t.ref !== undefined && t.ref !== null ? 'no element with ref ' + t.ref + ' in the last element list'
                                                  : 'no visible element matches ' + JSON.stringify(t.selector)};
"""

# The words that name an element: its own or its control's (a link, button, field, label, ...) label,
# text, value, placeholder, title and alt.
LABEL_FN = """
  const labelOf = (el) => {
    const c = el.closest('a,button,input,select,textarea,label,summary,[role],[onclick],[tabindex]') || el;
    const labels = c.labels ? Array.from(c.labels).map((l) => l.innerText).join(' ') : '';
    return [c.getAttribute('aria-label') || '', c.innerText || '', c.value || '', c.getAttribute('placeholder') || '',
            c.getAttribute('title') || '', c.getAttribute('alt') || '', labels].join(' ');
  };
"""

# The words that name the element a target designates (a ref, a selector, or the point x, y), read
# without changing the page: what the browser checks against the quoted names an action was sent with.
LABEL_OF = """(t) => {""" + TARGET_OF + LABEL_FN + """
  const el = typeof t.x === 'number' ? document.elementFromPoint(t.x, t.y) : targetOf(t);
  return el ? labelOf(el) : null;
}"""
