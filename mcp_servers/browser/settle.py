"""Settling without fixed sleeps: wait until the network is idle, the DOM and the scroll position
stopped changing and fonts are ready, within an upper bound.

A page's own clock-driven changes (timers, transitions) are covered by the task's recorded wait,
which the caller sleeps first; what remains is reacting to the action, which is usually done by
the time the action returns, so a settled page costs two cheap probes and one short pause (and a
screenshot folds the probes into its own preparation, see capture.py). Where the task records no wait
(official data), `after_timers` waits, on request, for the short timeouts the page set as it answered its
last input (noted by the init script, disguise.py): the judge asks for it before it fails an assertion.
"""
from __future__ import annotations

import asyncio
import itertools
import time

from playwright.async_api import BrowserContext
from playwright.async_api import Error as PlaywrightError

from iwr.mcp_servers.browser import world
from iwr.mcp_servers.browser.input_timers import TIMERS_PENDING, timers_event

# Runs in the judge's isolated world (world.py), installed by the first probe of each document:
# counts DOM mutations and scroll events, and prepares screenshots as Playwright's
# animations="disabled" does (finite animations finished, infinite ones paused until after the shot;
# the caret is hidden by capture.py through the inspector style sheet). The page can neither see nor
# replace any of it.
ACTIVITY_API = """
(() => {
  if (globalThis.__activity) return globalThis.__activity;
  let n = 0, resume = [];
  const count = (records) => { n += records.length; };
  const obs = new MutationObserver(count);
  obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  addEventListener('scroll', () => { n += 1; }, {capture: true, passive: true});
  // an image in view still loading or decoding shows half a page: not settled yet
  const loading = () => { let k = 0; for (const im of document.images) { if (im.complete) continue;
    const r = im.getBoundingClientRect(); if (r.bottom > 0 && r.top < innerHeight && r.width && r.height) k++; } return k; };
  // whether a text caret can show: the focused element (through shadow roots) takes typing, or a frame
  // holds the focus (its own document may show one); without one, no capture needs the caret hidden
  const NO_CARET = ['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit'];
  const caret = () => { let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    if (document.designMode === 'on' || (a && a.isContentEditable)) return true;
    const tag = a ? a.tagName : '';
    return tag === 'TEXTAREA' || tag === 'IFRAME' || tag === 'FRAME' || tag === 'OBJECT' || tag === 'EMBED'
      || (tag === 'INPUT' && !NO_CARET.includes(a.type)); };
  const activity = () => { count(obs.takeRecords());
    return [n, document.readyState, document.fonts ? document.fonts.status : 'loaded', loading(), caret()]; };
  const still = () => {
    for (const a of document.getAnimations()) {
      const end = a.effect ? a.effect.getComputedTiming().endTime : Infinity;
      if (!a.effect || a.playbackRate === 0 || end === Infinity) { resume.push(a); a.cancel(); } else { a.finish(); }
    }
  };
  globalThis.__activity = {
    activity,
    prepare() {
      const before = activity();
      still();
      document.addEventListener('transitionrun', still);
      document.addEventListener('animationstart', still);
      return before;
    },
    restore() {
      document.removeEventListener('transitionrun', still);
      document.removeEventListener('animationstart', still);
      for (const a of resume) { try { a.play(); } catch (e) {} }
      resume = [];
      return activity();
    },
  };
  return globalThis.__activity;
})()
"""

ACTIVITY = f"() => {ACTIVITY_API.strip()}.activity()"

QUIET_S = 0.015  # the DOM must stay unchanged this long: a zero-delay timer or a fetch reply lands within it
# Requests that may stay open as long as the page lives; waiting for them would always hit the bound.
STREAMING = {"media", "eventsource", "websocket", "ping", "manifest"}
MAX_S = 2.0  # a page that never stops changing (a ticking clock) is shot as it is after this long
TIMERS_MAX_S = 1.5  # a person waits about this long for what an input set off (disguise.py: delays of 1 s at most)
TIMERS_POLL_S = 0.025


class Traffic:
    """The requests of every page of a context that settling waits for: those open now, and how many
    started or ended so far. A request that starts and ends while a capture is taken (a picture a
    style rule names, fetched as the frame computes its styles) leaves none open by the time the
    capture is checked, but the count has moved: the shot may show the page before it arrived."""

    def __init__(self) -> None:
        self.open: set = set()
        self.events = 0

    def started(self, request) -> None:
        if request.resource_type not in STREAMING:
            self.open.add(request)
            self.events += 1

    def ended(self, request) -> None:
        if request in self.open:
            self.open.discard(request)
            self.events += 1

    def __bool__(self) -> bool:
        return bool(self.open)


async def watch_activity(context: BrowserContext, traffic: Traffic) -> None:
    """Keep `traffic` as the requests of every page of the context."""
    context.on("request", traffic.started)
    context.on("requestfinished", traffic.ended)
    context.on("requestfailed", traffic.ended)


def caret_may_show(activity) -> bool:
    """Whether a capture must hide the text caret: the page said something takes typing, or could not say."""
    return not isinstance(activity, list) or len(activity) < 5 or bool(activity[4])


def quiet(before, after, inflight: set) -> bool:
    """Two activity probes show a settled page: nothing changed between them, loaded (fonts and the
    images in view too), no request open."""
    return before is not None and before == after and before[1] == "complete" and before[2] == "loaded" \
        and not before[3] and not inflight


async def probe(session, expression: str, seconds: float):
    """An activity probe's value, or None when the page cannot answer (navigating, busy, crashed)."""
    try:
        return await asyncio.wait_for(world.call(session, expression), max(0.05, seconds))
    except (asyncio.TimeoutError, PlaywrightError, world.WorldError):
        return None


async def settle_page(session, wait_ms: int = 0, max_s: float = MAX_S) -> dict:
    """Sleep the recorded wait, then until nothing changed for QUIET_S with no request open; returns
    how long it took and whether it hit the bound."""
    started = time.monotonic()
    if wait_ms:
        await asyncio.sleep(wait_ms / 1000)
    deadline = time.monotonic() + max_s
    last, probes = None, 0
    while True:
        now = await probe(session, ACTIVITY, deadline - time.monotonic())
        probes += 1
        if quiet(last, now, session.inflight):
            return {"settled": True, "probes": probes, "seconds": round(time.monotonic() - started, 3)}
        if time.monotonic() >= deadline:
            return {"settled": False, "probes": probes, "seconds": round(time.monotonic() - started, 3)}
        last = now
        await asyncio.sleep(QUIET_S)


async def after_timers(session, max_s: float = TIMERS_MAX_S) -> float:
    """Wait (bounded) until the short timeouts the page set as it answered its last input have run
    (input_timers.py notes them); the seconds waited for them, 0 when none was pending. The caller settles."""
    if not session.token:
        return 0.0
    started, deadline = time.monotonic(), time.monotonic() + max_s
    pending = waited = True
    for asked in itertools.count():
        try:
            pending = await asyncio.wait_for(world.call(session, TIMERS_PENDING, timers_event(session.token)), 1.0) is True
        except (asyncio.TimeoutError, PlaywrightError, world.WorldError):
            pending = False
        waited = bool(asked or pending)
        if not pending or time.monotonic() >= deadline:
            break
        await asyncio.sleep(TIMERS_POLL_S)
    return round(time.monotonic() - started, 3) if waited else 0.0
