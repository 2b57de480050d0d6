"""A judged page cannot tell the judge's browser from a plain headless Chromium (disguise.py).

"The same as a plain headless Chromium" here: the same Chromium binary, launched by Playwright with
the same flags (launch.py), in a context with the settings the judge fixes for every page alike
through the browser's own emulation, not through page scripts: the hub's desktop user agent, the
viewport, locale en-US, time zone UTC, reduced motion, service workers blocked; its page is served by
the same kind of loopback server. The plain browser gets no clock, no seed, no init script. What is
compared are the signals a page could use to tell a judge: whether functions look native (source
text from this frame and from another one, name, length, prototype, own keys and their descriptors,
constructor identity, errors, stack traces), which globals exist, whether the clock runs, whether
every other reader of the time and the page's own server agree with Date, and the usual automation
marks. Values the judge sets on purpose (the seeded numbers, the task's date) are not compared;
the determinism test checks those.
"""
from __future__ import annotations

import asyncio
import email.utils
import json
import os
import time
import urllib.error
import urllib.request

import pytest
from playwright.async_api import async_playwright

from iwr.mcp_servers.browser import actions, page_reads
from iwr.mcp_servers.browser.hub import BrowserHub
from iwr.mcp_servers.browser.launch import CHROMIUM_ARGS, chromium_path
from iwr.mcp_servers.browser.static_site import StaticSite
from iwr.tasks import defaults

pytestmark = pytest.mark.slow

TASK_CLOCK = "2026-01-15T10:00:00Z"  # a recorded task's clock, as our recorder writes it
# The first Math.random() values for seed 1, from the seeding script the bundled tasks were recorded with.
RECORDED_SEQUENCE = [0.6270739405881613, 0.002735721180215478, 0.5274470399599522, 0.9810509674716741,
                     0.9683778982143849]

PROBE = r"""<!doctype html><html><head><meta charset="utf-8"><title>probe</title></head>
<body><pre id="out"></pre><script>
(async () => {
  const S = {};
  const FTS = Function.prototype.toString;
  const text = (f) => { try { return FTS.call(f); } catch (e) { return 'throws ' + e.message; } };
  const kind = (v) => (v !== null && (typeof v === 'object' || typeof v === 'function') ? typeof v : v);
  const shape = (d) => (d ? Object.fromEntries(Object.entries(d).map(([k, v]) => [k, kind(v)])) : null);
  const stack = (f) => { try { f(); return 'no error'; } catch (e) {
    return e.constructor.name + ': ' + e.message + ' | ' + String(e.stack).replace(/http:\/\/127\.0\.0\.1:\d+/g, 'ORIGIN'); } };
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const other = frame.contentWindow;
  const desc = (o, k) => Object.getOwnPropertyDescriptor(o, k);
  const fns = {
    'Date': Date, 'Date.now': Date.now, 'Date.parse': Date.parse, 'Date.UTC': Date.UTC, 'Math.random': Math.random,
    'setTimeout': setTimeout, 'setInterval': setInterval, 'clearTimeout': clearTimeout,
    'requestAnimationFrame': requestAnimationFrame, 'performance.now': performance.now,
    'Function.prototype.toString': Function.prototype.toString,
    'get timeOrigin': desc(Performance.prototype, 'timeOrigin').get,
    'get navigationStart': desc(PerformanceTiming.prototype, 'navigationStart').get,
    'get format': desc(Intl.DateTimeFormat.prototype, 'format').get,
    'format': new Intl.DateTimeFormat('en-US').format, 'formatToParts': Intl.DateTimeFormat.prototype.formatToParts,
    'Temporal.Now.instant': typeof Temporal === 'object' ? Temporal.Now.instant : null,
    'File': File, 'get lastModified': desc(Document.prototype, 'lastModified').get,
    'set cookie': desc(Document.prototype, 'cookie').set, 'chrome.csi': window.chrome ? chrome.csi : null,
    'other Date': other.Date, 'other Math.random': other.Math.random,
    'drawImage': CanvasRenderingContext2D.prototype.drawImage, 'putImageData': CanvasRenderingContext2D.prototype.putImageData,
    'createPattern': CanvasRenderingContext2D.prototype.createPattern,
    'texImage2D': WebGLRenderingContext.prototype.texImage2D, 'texSubImage2D': WebGL2RenderingContext.prototype.texSubImage2D,
    'offscreen drawImage': OffscreenCanvasRenderingContext2D.prototype.drawImage,
    'transferFromImageBitmap': ImageBitmapRenderingContext.prototype.transferFromImageBitmap,
  };
  for (const [k, f] of Object.entries(fns)) {
    if (!f) { S[k] = null; continue; }
    const keys = Reflect.ownKeys(f).map(String);
    let clone; try { structuredClone(f); clone = 'cloned'; } catch (e) { clone = e.message; }
    S[k] = {type: typeof f, string: String(f), text: text(f), name: f.name, length: f.length,
            fromOtherFrame: other.Function.prototype.toString.call(f), prototype: 'prototype' in f, keys,
            descriptors: Object.fromEntries(keys.map((p) => [p, shape(desc(f, p))])), clone,
            bound: f.bind(null).name, toStringOfToString: text(f.toString),
            cycle: stack(() => Object.setPrototypeOf(f, Object.create(f)))};
  }
  S.toStringChain = [FTS.toString(), FTS.call(FTS), String(FTS.toString.toString), text(other.Function.prototype.toString)];
  S.toStringErrors = [stack(() => FTS.call({})), stack(() => FTS.call(Object.create(Math.random)))];
  S.notConstructors = [stack(() => new Math.random()), stack(() => new Date.now()), stack(() => new setTimeout())];
  S.badThis = [stack(() => desc(Performance.prototype, 'timeOrigin').get.call({})), stack(() => setTimeout.call(5, () => {}))];
  S.global = Object.fromEntries(['Date', 'Math', 'setTimeout', 'setInterval', 'requestAnimationFrame', 'File',
                                 'performance', 'Temporal', 'chrome'].map((k) => [k, shape(desc(window, k))]));
  S.members = {'Math.random': shape(desc(Math, 'random')), 'Date.now': shape(desc(Date, 'now')),
               'Function.prototype.toString': shape(desc(Function.prototype, 'toString')),
               'Performance.prototype.now': shape(desc(Performance.prototype, 'now')),
               'Performance.prototype.timeOrigin': shape(desc(Performance.prototype, 'timeOrigin')),
               'Intl format': shape(desc(Intl.DateTimeFormat.prototype, 'format')),
               'lastModified': shape(desc(Document.prototype, 'lastModified')),
               'cookie': shape(desc(Document.prototype, 'cookie')),
               'Temporal.Now.instant': typeof Temporal === 'object' ? shape(desc(Temporal.Now, 'instant')) : null};
  S.constructors = [Date.prototype.constructor === Date, File.prototype.constructor === File,
                    new Date() instanceof Date, Object.getPrototypeOf(new Date()) === Date.prototype,
                    (() => { class D extends Date {} const d = new D(); return d instanceof D && d instanceof Date; })(),
                    typeof Date() === 'string', Math.abs(Date.parse(Date()) - Date.now()) < 2000,
                    Math.abs(new Date().getTime() - Date.now()) < 50, new Date(0).toISOString(), Date.UTC(2020, 1, 2),
                    new File(['x'], 'a', {lastModified: 5}).lastModified, new File(['x'], 'a.txt', {type: 'text/plain'}).type,
                    await new File(['xyz'], 'a.txt').text(), Object.getOwnPropertyNames(Date), Object.getOwnPropertyNames(File)];
  S.globals = Object.getOwnPropertyNames(window).sort();
  S.globalSymbols = Object.getOwnPropertySymbols(window).map(String);
  S.otherGlobals = Object.getOwnPropertyNames(other).sort();
  S.webdriver = navigator.webdriver;
  S.headless = /Headless/i.test(navigator.userAgent);
  S.languages = navigator.languages;
  S.timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  S.plugins = navigator.plugins.length;

  const t0 = Date.now(), p0 = performance.now();
  await new Promise((r) => setTimeout(r, 50));
  S.clockRuns = Date.now() - t0 >= 40 && performance.now() - p0 >= 40;
  S.frameRuns = await new Promise((r) => requestAnimationFrame(() => r(true)));
  const reply = await fetch(location.href, {cache: 'no-store'});
  const served = reply.headers.get('date'), modified = reply.headers.get('last-modified');
  S.serverDate = served === null ? 'absent' : Math.abs(Date.parse(served) - Date.now()) < 60000;
  S.lastModifiedHeader = modified === null ? 'absent' : Date.parse(modified) <= Date.now() + 1000;
  const since = (ms) => fetch(location.href, {headers: {'If-Modified-Since': new Date(ms).toUTCString()}}).then((r) => r.status);
  S.conditional = [await since(Date.now()), await since(Date.now() - 3650 * 864e5)];
  S.timeOrigin = Math.abs(performance.timeOrigin + performance.now() - Date.now()) < 1000;
  S.timing = Math.abs(performance.timing.navigationStart - performance.timeOrigin) < 1000 &&
             performance.timing.toJSON().navigationStart === performance.timing.navigationStart &&
             performance.toJSON().timeOrigin === performance.timeOrigin &&
             performance.toJSON().timing.navigationStart === performance.timing.navigationStart;
  const full = new Intl.DateTimeFormat('en-US', {dateStyle: 'full', timeStyle: 'short'});
  S.intl = [full.format() === full.format(new Date()), full.format === full.format,
            JSON.stringify(full.formatToParts()) === JSON.stringify(full.formatToParts(new Date()))];
  S.temporal = typeof Temporal !== 'object' ? 'none' :
    [Math.abs(Temporal.Now.instant().epochMilliseconds - Date.now()) < 1000,
     Temporal.Now.plainDateISO('UTC').toString() === new Date().toISOString().slice(0, 10),
     Math.abs(Temporal.Now.zonedDateTimeISO('UTC').epochMilliseconds - Date.now()) < 1000];
  S.lastModified = Math.abs(Date.parse(document.lastModified) - Date.now()) < 5000;
  S.file = Math.abs(new File(['x'], 'a.txt').lastModified - Date.now()) < 1000;
  S.chrome = window.chrome ? [Math.abs(chrome.csi().startE - performance.timeOrigin) < 2000,
                              Math.abs(chrome.loadTimes().startLoadTime * 1000 - performance.timeOrigin) < 2000] : 'none';
  document.cookie = 'kept=1; path=/; expires=' + new Date(Date.now() + 864e5).toUTCString();
  document.cookie = 'gone=1; path=/; expires=' + new Date(Date.now() - 864e5).toUTCString();
  S.cookies = document.cookie;
  S.otherClock = Math.abs(other.Date.now() - Date.now()) < 1000;
  document.getElementById('out').textContent = JSON.stringify(S);
})().catch((e) => { document.getElementById('out').textContent = JSON.stringify({error: String(e && e.stack)}); });
</script></body></html>"""


def python_mulberry32(seed: int, n: int) -> list[float]:
    """The seeding script's generator, in Python (JS's 32-bit integer arithmetic, modulo 2**32)."""
    s, out = seed & 0xFFFFFFFF, []
    for _ in range(n):
        s = (s + 0x6D2B79F5) & 0xFFFFFFFF
        t = ((s ^ (s >> 15)) * (s | 1)) & 0xFFFFFFFF
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
        out.append(((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296)
    return out


async def signals(page) -> dict:
    """The probe page's signals, read from its DOM by Playwright's own world (the page's is not touched)."""
    for _ in range(200):
        text = await page.locator("#out").text_content()
        if text:
            out = json.loads(text)
            assert "error" not in out, out["error"]
            return out
        await asyncio.sleep(0.05)
    raise AssertionError("the probe page never reported")


@pytest.fixture
def probe_dir(tmp_path):
    (tmp_path / "index.html").write_text(PROBE)
    hour_ago = time.time() - 3600
    os.utime(tmp_path / "index.html", (hour_ago, hour_ago))
    return tmp_path


async def test_a_page_cannot_tell_the_judge_from_a_plain_chromium(probe_dir, tmp_path):
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        # as graphs/judge.py::open_page opens a recorded task (its seed and clock) ...
        s = await hub.open(str(probe_dir / "index.html"), 1280, 800, seed=defaults.SEED, clock=TASK_CLOCK)
        judged = await signals(s.page)
        # ... and an official one, which records no clock
        s2 = await hub.open(str(probe_dir / "index.html"), 1280, 800, seed=defaults.SEED, clock=None)
        official = await signals(s2.page)
        ua = hub._person_ua()
    site = StaticSite(probe_dir)
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            context = await browser.new_context(
                viewport={"width": 1280, "height": 800}, user_agent=ua, service_workers="block", locale="en-US",
                timezone_id="UTC", reduced_motion="reduce")
            page = await context.new_page()
            await page.goto(site.url + "index.html")
            plain = await signals(page)
            await browser.close()
    finally:
        site.close()
    assert plain["clockRuns"] and plain["serverDate"] is True and plain["webdriver"] is False and not plain["headless"]
    assert plain["Math.random"]["text"] == "function random() { [native code] }"
    for name, got in (("a recorded task", judged), ("an official task", official)):
        different = {k: (got.get(k), plain[k]) for k in plain if got.get(k) != plain[k]}
        assert not different, f"{name}: the judge's browser differs from a plain Chromium in {json.dumps(different)[:3000]}"


async def test_replays_stay_deterministic_and_freeze_stops_the_clock(tmp_path):
    page = tmp_path / "index.html"
    page.write_text("<!doctype html><p id=n>0</p><script>let n = 0; setInterval(() => { n += 1; "
                    "document.getElementById('n').textContent = n; }, 20);</script>")
    expected = python_mulberry32(defaults.SEED, 5)
    assert expected == RECORDED_SEQUENCE
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        firsts = []
        for _ in range(2):
            s = await hub.open(str(page), 640, 480, seed=defaults.SEED, clock=TASK_CLOCK)
            firsts.append(await s.page.evaluate("[0, 1, 2, 3, 4].map(() => Math.random())"))
            assert (await s.page.evaluate("new Date().toISOString()")).startswith("2026-01-15T10:0")
        assert firsts[0] == firsts[1] == RECORDED_SEQUENCE
        iframe = await s.page.evaluate("""() => { const f = document.createElement('iframe'); document.body.append(f);
                                          return f.contentWindow.Math.random(); }""")
        assert iframe == RECORDED_SEQUENCE[0]  # each frame starts its own sequence, as the old script did

        real = await hub.open(str(page), 640, 480, seed=None, clock=None)
        assert abs(await real.page.evaluate("Date.now()") - time.time() * 1000) < 5000
        assert await real.page.evaluate("Math.random()") not in RECORDED_SEQUENCE

        await page_reads.freeze(s)
        before = await s.page.evaluate("[Date.now(), performance.now(), document.getElementById('n').textContent]")
        await asyncio.sleep(0.3)
        after = await s.page.evaluate("[Date.now(), performance.now(), document.getElementById('n').textContent, "
                                      "new Date().getTime(), frames[0].Date.now()]")
        assert after[:3] == before and after[3] == before[0] == after[4]
        await actions.scroll(s, "down", 100)
        a = await actions.screenshot(s, "a")
        b = await actions.screenshot(s, "b")
        assert a.read_bytes() == b.read_bytes()


def test_the_served_page_dates_its_replies_by_the_page_clock(tmp_path):
    (tmp_path / "index.html").write_text("<p>x</p>")
    offset_ms = -300 * 864e5  # the page's clock runs 300 days behind the real one
    site = StaticSite(tmp_path, int(offset_ms))
    try:
        with urllib.request.urlopen(site.url + "index.html") as r:
            served = email.utils.parsedate_to_datetime(r.headers["Date"]).timestamp()
            assert abs(served - (time.time() + offset_ms / 1000)) < 5
            assert r.headers["Last-Modified"] is None
        page_now = email.utils.formatdate(time.time() + offset_ms / 1000, usegmt=True)
        req = urllib.request.Request(site.url + "index.html", headers={"If-Modified-Since": page_now})
        with pytest.raises(urllib.error.HTTPError) as e:  # not modified since the page's now
            urllib.request.urlopen(req)
        assert e.value.code == 304
    finally:
        site.close()
