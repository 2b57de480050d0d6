"""What the judge fixes in a page for reproducible replays, done so that the page cannot see it.

A judged page is written by an adversary: if it could tell the judge's browser from a person's, it
could show the judge one thing and people another. So the judge's browser differs from a plain
Chromium only where replays need it, and only in values, never in shape:

- Math.random is seeded (the same mulberry32 generator and seed the bundled tasks were recorded with);
- the clock starts where the task says (the time its video was recorded) and runs at real speed; a
  task that records no clock (the official data) runs on the real time;
- `page_reads.freeze` can stop the clock, the page's timers and animation frames, for still screenshots;
- the short timeouts a page sets as it answers an input are noted, so that the judge can look again
  once they ran, as a person does (a card turned back half a second after the second one; settle.py);
- canvases fed image data are remembered, for the judge's pictures (canvas_feeds.py).

All of it is one init script that keeps its state in a closure: no global, no new property anywhere.
Every replaced function is a Proxy around the native one (name, length, own keys, `prototype`,
structured-clone errors stay native), and `Function.prototype.toString`, itself such a Proxy, prints
the native source for each of them, from any frame (the frames of a page share one registry through
an event only they know the name of). Errors thrown through a replacement lose its stack frames.

Why not Playwright's clock, or CDP virtual time: the first leaves a global and non-native timers; the
second, paused, stops the frames a screenshot waits for once the page has scrolled. A clock at real
speed needs no timer of its own: the timers stay native until a freeze, which clears the pending ones
(a freeze is never undone; a navigation starts a new page) and from then on schedules nothing.

The offset moves every way a page can read the time: Date, performance.timeOrigin and .timing,
Intl.DateTimeFormat without a date, Temporal.Now, document.lastModified, a File's default date,
chrome.csi/loadTimes, cookie expiry dates; the page's own server (static_site.py) dates its responses
by the same clock.
"""
from __future__ import annotations

import datetime as dt
import json
import time

from iwr.mcp_servers.browser.canvas_feeds import FEEDS, blob_event, fed_event
from iwr.mcp_servers.browser.input_timers import INPUT_TIMERS, timers_event


def clock_offset_ms(clock: str | None) -> int:
    """Milliseconds from now to the ISO time `clock` (UTC when it names no zone); 0 for no clock."""
    if not clock:
        return 0
    start = dt.datetime.fromisoformat(clock.replace("Z", "+00:00"))
    if start.tzinfo is None:
        start = start.replace(tzinfo=dt.timezone.utc)
    return round(start.timestamp() * 1000 - time.time() * 1000)


def disguise_script(seed: int | None, offset_ms: int, token: str) -> str:
    """The init script: Math.random seeded with `seed` (native when None), the clock moved by
    `offset_ms`; `token` (a per-session secret) names its events and marks its stack frames."""
    return (SCRIPT.replace("__SEED__", json.dumps(None if seed is None else int(seed)))
            .replace("__OFFSET__", json.dumps(int(offset_ms))).replace("__KEY__", json.dumps("x" + token))
            .replace("__FREEZE__", json.dumps(freeze_event(token))).replace("__TIMERS__", json.dumps(timers_event(token)))
            .replace("__FEEDS__", FEEDS).replace("__INPUT_TIMERS__", INPUT_TIMERS)
            .replace("FEED_QUESTION", json.dumps(fed_event(token))).replace("BLOB_QUESTION", json.dumps(blob_event(token))).replace("__MARK__", "iwr" + token))


def freeze_event(token: str) -> str:
    """The event that freezes the page's clock and timers when dispatched on its window (any world)."""
    return "y" + token


# Run in the judge's world (world.py): the page's listener for the event is the init script's.
FREEZE = "(name) => { dispatchEvent(new Event(name)); return true; }"


# Written against a page that may have replaced anything by the time a replacement runs: every
# built-in it calls then was taken before the page's first script, objects it hands to the engine
# have no prototype (a page's Object.prototype.get would otherwise become a Proxy trap), and it
# iterates nothing with the page's iterators.
SCRIPT = r"""
(() => {
  'use strict';
  const SEED = __SEED__, OFFSET = __OFFSET__, KEY = __KEY__, FREEZE = __FREEZE__, TIMERS = __TIMERS__, MARK = '__MARK__';
  const G = globalThis, R = Reflect, apply = R.apply, construct = R.construct, ownKeys = R.ownKeys;
  const protoOf = R.getPrototypeOf, setProto = R.setPrototypeOf;
  const gopd = Object.getOwnPropertyDescriptor, defprop = Object.defineProperty, hasOwn = Object.hasOwn;
  const NativeProxy = Proxy, NativeTypeError = TypeError, NativeError = Error, NativeString = String;
  const NativeWeakMap = WeakMap, wmGet = WeakMap.prototype.get, wmSet = WeakMap.prototype.set;
  const slice = String.prototype.slice, indexOf = String.prototype.indexOf, ITER = Symbol.iterator;
  const dispatch = EventTarget.prototype.dispatchEvent, listen = EventTarget.prototype.addEventListener;
  const NativeCustomEvent = CustomEvent, detail = gopd(CustomEvent.prototype, 'detail').get;
  const frameCount = (gopd(G, 'length') || {__proto__: null}).get;

  // What the frames of a page share, asked of the parent frame when there is one: which replacement
  // shows which native's source, and the time the page was frozen at (null: running).
  let shown, frozen = null, frozenPerf = 0;
  try {
    if (G.parent !== G) {
      const box = {__proto__: null};
      apply(dispatch, G.parent, [new NativeCustomEvent(KEY, {__proto__: null, detail: box})]);
      shown = box.shown;
      if (typeof box.frozen === 'number') frozen = box.frozen;
    }
  } catch (e) {}
  if (!shown) shown = new NativeWeakMap();
  apply(listen, G, [KEY, (e) => {
    const box = apply(detail, e, []);
    if (box && typeof box === 'object') { box.shown = shown; box.frozen = frozen; }
  }]);

  // An error thrown through a replacement leaves with the stack the native would have given it.
  const clean = (e) => {
    try {
      const p = gopd(NativeError, 'prepareStackTrace');
      if (p !== undefined && !(hasOwn(p, 'value') && p.value === undefined)) return e;
      const s = gopd(e, 'stack');
      if (!s || !hasOwn(s, 'get') || !s.get || !s.set) return e;
      const text = apply(s.get, e, []);
      if (typeof text !== 'string' || apply(indexOf, text, [MARK]) < 0) return e;
      let out = null;
      for (let i = 0; i <= text.length;) {
        let j = apply(indexOf, text, ['\n', i]);
        if (j < 0) j = text.length;
        const line = apply(slice, text, [i, j]);
        if (apply(indexOf, line, [MARK]) < 0) out = out === null ? line : out + '\n' + line;
        i = j + 1;
      }
      apply(s.set, e, [out]);
    } catch (x) {}
    return e;
  };
  const call = (fn, self, args) => { try { return apply(fn, self, args); } catch (e) { throw clean(e); } };
  const make = (fn, args, nt) => { try { return construct(fn, args, nt); } catch (e) { throw clean(e); } };

  const wrap = (target, traps) => {
    let self;
    // A Proxy would accept becoming its own prototype, which a native function refuses. (The engine's
    // own walk stops at any Proxy; this one walks a bounded chain and stops where it cannot go on.)
    traps.setPrototypeOf = (t, proto) => {
      let cyclic = false;
      try {
        for (let p = proto, i = 0; p !== null && i < 1000 && !cyclic; p = protoOf(p), i++) {
          cyclic = p === self || p === t;
        }
      } catch (e) {}
      if (cyclic) throw clean(new NativeTypeError('Cyclic __proto__ value'));
      return setProto(t, proto);
    };
    self = new NativeProxy(target, traps);
    apply(wmSet, shown, [self, target]);
    return self;
  };
  const replace = (obj, key, traps) => {
    const d = obj ? gopd(obj, key) : undefined;
    if (d && hasOwn(d, 'value') && typeof d.value === 'function') {
      const native = d.value;
      d.value = wrap(native, traps);
      defprop(obj, key, d);
      return native;
    }
  };
  const getter = (obj, key, map) => {
    const d = obj ? gopd(obj, key) : undefined;
    if (!d || !hasOwn(d, 'get') || typeof d.get !== 'function') return;
    d.get = wrap(d.get, {__proto__: null, apply(t, self, args) { return map(call(t, self, args)); }});
    defprop(obj, key, d);
  };

  const create = Object.create;
  replace(Function.prototype, 'toString', {__proto__: null, apply(t, self, args) {
    let native = apply(wmGet, shown, [self]);
    if (native === undefined && self !== null && typeof self === 'object') {
      // Object.create(fn) fails all the same, but its error names the receiver after fn's kind
      let base;
      try { base = apply(wmGet, shown, [protoOf(self)]); } catch (e) {}
      if (base !== undefined) native = create(base);
    }
    return call(t, native === undefined ? self : native, args);
  }});

  if (SEED !== null) {
    let s = SEED >>> 0;
    const imul = Math.imul;
    replace(Math, 'random', {__proto__: null, apply() {
      s = (s + 0x6D2B79F5) >>> 0;
      let t = s;
      t = imul(t ^ (t >>> 15), t | 1);
      t ^= t + imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }});
  }

  // --- the clock: OFFSET ms from the real time, or standing at `frozen` ---
  const NativeDate = Date, DP = Date.prototype, realNow = Date.now, dateParse = Date.parse;
  const getTime = DP.getTime, dateString = DP.toString, toUTCString = DP.toUTCString, getFullYear = DP.getFullYear;
  const getMonth = DP.getMonth, getDate = DP.getDate, getHours = DP.getHours, getMinutes = DP.getMinutes;
  const getSeconds = DP.getSeconds;
  const real = () => apply(realNow, NativeDate, []);
  const now = () => (frozen === null ? real() + OFFSET : frozen);
  const shift = () => (frozen === null ? OFFSET : frozen - real());  // the page's clock minus the real one
  const moved = (v) => (typeof v === 'number' && v ? v + OFFSET : v);  // a past time the browser recorded
  const at = (t) => construct(NativeDate, [t]);
  const date = (fn, d) => apply(fn, d, []);

  const DateP = wrap(NativeDate, {__proto__: null,
    apply() { return date(dateString, at(now())); },
    construct(t, args, nt) { return make(t, args.length ? args : [now()], nt); }});
  replace(NativeDate, 'now', {__proto__: null, apply: now});
  DP.constructor = DateP;
  G.Date = DateP;

  // Formatting with no date formats now.
  const withNow = (args) => (args.length === 0 || args[0] === undefined ? [now()] : args);
  const DTF = Intl.DateTimeFormat.prototype, bound = new NativeWeakMap();
  getter(DTF, 'format', (f) => {
    let p = apply(wmGet, bound, [f]);
    if (p === undefined && typeof f === 'function') {
      p = wrap(f, {__proto__: null, apply(t, self, args) { return call(t, self, withNow(args)); }});
      apply(wmSet, bound, [f, p]);
    }
    return p === undefined ? f : p;
  });
  replace(DTF, 'formatToParts', {__proto__: null, apply(t, self, args) { return call(t, self, withNow(args)); }});

  const T = G.Temporal;
  if (T && T.Now && T.Duration) {
    const Duration = T.Duration, Z = T.ZonedDateTime.prototype;
    const instantAdd = T.Instant.prototype.add, zonedAdd = Z.add, zoned = T.Now.zonedDateTimeISO;
    const by = () => construct(Duration, [0, 0, 0, 0, 0, 0, 0, shift()]);
    const zonedNow = (self, args) => call(zonedAdd, call(zoned, self, args), [by()]);
    replace(T.Now, 'instant', {__proto__: null, apply(t, self, args) {
      return call(instantAdd, call(t, self, args), [by()]);
    }});
    replace(T.Now, 'zonedDateTimeISO', {__proto__: null, apply(t, self, args) { return zonedNow(self, args); }});
    const part = (key, to) => replace(T.Now, key, {__proto__: null, apply(t, self, args) {
      return apply(to, zonedNow(self, args), []);
    }});
    part('plainDateTimeISO', Z.toPlainDateTime);
    part('plainDateISO', Z.toPlainDate);
    part('plainTimeISO', Z.toPlainTime);
  }

  const moveAll = (o, by) => {
    if (o && typeof o === 'object') {
      const keys = ownKeys(o);
      for (let i = 0; i < keys.length; i++) {
        const d = gopd(o, keys[i]);
        if (d && hasOwn(d, 'value') && typeof d.value === 'number' && d.value) o[keys[i]] = d.value + by;
      }
    }
    return o;
  };
  const perf = G.performance;
  getter(Performance.prototype, 'timeOrigin', moved);
  const perfNow = replace(Performance.prototype, 'now', {__proto__: null, apply(t, self, args) {
    return frozen === null || self !== perf ? call(t, self, args) : frozenPerf;
  }});
  if (frozen !== null) frozenPerf = apply(perfNow, perf, []);
  replace(Performance.prototype, 'toJSON', {__proto__: null, apply(t, self, args) {
    const r = call(t, self, args);
    if (r && typeof r === 'object') {
      const d = gopd(r, 'timeOrigin');
      if (d && hasOwn(d, 'value')) r.timeOrigin = moved(d.value);
      const timing = gopd(r, 'timing');
      if (timing && hasOwn(timing, 'value')) moveAll(timing.value, OFFSET);
    }
    return r;
  }});
  if (G.PerformanceTiming) {
    const PT = PerformanceTiming.prototype, keys = ownKeys(PT);
    for (let i = 0; i < keys.length; i++) if (typeof keys[i] === 'string') getter(PT, keys[i], moved);
    replace(PT, 'toJSON', {__proto__: null, apply(t, self, args) { return moveAll(call(t, self, args), OFFSET); }});
  }
  // chrome.csi() and chrome.loadTimes() answer objects that ignore writes: copies, dated by the clock.
  const dated = (r, time, by) => {
    if (!r || typeof r !== 'object') return r;
    const copy = {}, keys = ownKeys(r);
    for (let i = 0; i < keys.length; i++) {
      const d = gopd(r, keys[i]);
      if (!d) continue;
      setProto(d, null);  // read as a descriptor: a page's Object.prototype.get must not count
      if (hasOwn(d, 'value') && typeof d.value === 'number' && d.value && time(keys[i])) d.value += by;
      defprop(copy, keys[i], d);
    }
    return copy;
  };
  const C = G.chrome;
  if (C && typeof C === 'object') {
    replace(C, 'csi', {__proto__: null, apply(t, self, args) {
      return dated(call(t, self, args), (k) => k === 'startE' || k === 'onloadT', OFFSET);
    }});
    replace(C, 'loadTimes', {__proto__: null, apply(t, self, args) {
      return dated(call(t, self, args), (k) => typeof k === 'string' && apply(indexOf, k, ['Time']) > 0, OFFSET / 1000);
    }});
  }

  // A document served with no Last-Modified (static_site.py sends none) is dated now.
  const pad = (n) => (n < 10 ? '0' : '') + n;
  getter(Document.prototype, 'lastModified', (v) => {
    if (typeof v !== 'string' || v.length !== 19) return v;
    const num = (a, b) => +apply(slice, v, [a, b]);
    const then = construct(NativeDate, [num(6, 10), num(0, 2) - 1, num(3, 5), num(11, 13), num(14, 16), num(17, 19)]);
    const d = at(date(getTime, then) + shift());
    return pad(date(getMonth, d) + 1) + '/' + pad(date(getDate, d)) + '/' + date(getFullYear, d) + ' ' +
      pad(date(getHours, d)) + ':' + pad(date(getMinutes, d)) + ':' + pad(date(getSeconds, d));
  });

  if (G.File) {
    const NativeFile = File, lastModified = gopd(File.prototype, 'lastModified').get;
    const name = gopd(File.prototype, 'name').get, type = gopd(Blob.prototype, 'type').get;
    const one = (v) => ({__proto__: null, [ITER]() {
      let done = false;
      return {__proto__: null, next() {
        const r = {__proto__: null, done, value: done ? undefined : v};
        done = true;
        return r;
      }};
    }});
    const FileP = wrap(NativeFile, {__proto__: null, construct(t, args, nt) {
      const before = real();
      const f = make(t, args, nt);
      const lm = apply(lastModified, f, []);
      if (lm < before || lm > real()) return f;  // the page gave it a date
      const options = {__proto__: null, type: apply(type, f, []), lastModified: lm + shift()};
      return make(t, [one(f), apply(name, f, []), options], nt);
    }});
    File.prototype.constructor = FileP;
    G.File = FileP;
  }

  // A cookie that expires at a time of the page's clock expires then, not at that real time.
  const cookie = gopd(Document.prototype, 'cookie'), expires = /;[ \t]*expires[ \t]*=([^;]*)/i;
  const exec = RegExp.prototype.exec;
  if (cookie && cookie.set) {
    cookie.set = wrap(cookie.set, {__proto__: null, apply(t, self, args) {
      if (args.length && typeof args[0] !== 'symbol') {
        const v = NativeString(args[0]);
        const m = apply(exec, expires, [v]);
        const when = m === null ? NaN : dateParse(m[1]);
        args = when === when ? [apply(slice, v, [0, m.index]) + '; expires=' + date(toUTCString, at(when - shift())) +
                                apply(slice, v, [m.index + m[0].length])] : [v];
      }
      return call(t, self, args);
    }});
    defprop(Document.prototype, 'cookie', cookie);
  }

  // --- timers: native until the page is frozen, then nothing runs ---
  const noop = () => {};
  const clearTimer = G.clearTimeout, cancelFrame = G.cancelAnimationFrame;
  let lastTimer = 0, lastFrame = 0;
  const timer = (key) => replace(G, key, {__proto__: null, apply(t, self, args) {
    const id = call(t, self, frozen === null ? args : [noop]);
    if (typeof id === 'number' && id > lastTimer) lastTimer = id;
    if (frozen !== null) apply(clearTimer, G, [id]);
    else if (key === 'setTimeout') noteTimeout(id, args[1]);
    return id;
  }});
  timer('setTimeout');
  timer('setInterval');
__INPUT_TIMERS__
  replace(G, 'requestAnimationFrame', {__proto__: null, apply(t, self, args) {
    const id = call(t, self, frozen === null ? args : [noop]);
    if (typeof id === 'number' && id > lastFrame) lastFrame = id;
    if (frozen !== null) apply(cancelFrame, G, [id]);
    return id;
  }});
  const freeze = (when) => {
    if (frozen === null) {
      frozen = typeof when === 'number' ? when : now();
      frozenPerf = apply(perfNow, perf, []);
      for (let i = 1; i <= lastTimer; i++) apply(clearTimer, G, [i]);
      for (let i = 1; i <= lastFrame; i++) apply(cancelFrame, G, [i]);
    }
    const n = frameCount ? apply(frameCount, G, []) : 0;
    for (let i = 0; i < n; i++) {
      try { apply(dispatch, G[i], [new NativeCustomEvent(FREEZE, {__proto__: null, detail: frozen})]); } catch (e) {}
    }
  };
  apply(listen, G, [FREEZE, (e) => {
    let when = null;
    try { when = apply(detail, e, []); } catch (x) {}  // from the judge's world: a plain Event
    freeze(when);
  }]);
__FEEDS__
})();
//# sourceURL=__MARK__
"""
