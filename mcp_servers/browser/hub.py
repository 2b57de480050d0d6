"""One Chromium, many isolated sessions (a browser context each), loopback-only network."""
from __future__ import annotations

import asyncio
import itertools
import os
import secrets
import shutil
import signal
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, Page, Playwright, Route, async_playwright

from iwr.mcp_servers.browser.launch import ALWAYS_ALLOWED_SCHEMES, CHROMIUM_ARGS, chromium_path, is_loopback_url, kill_renderers
from iwr.mcp_servers.browser.disguise import clock_offset_ms, disguise_script
from iwr.mcp_servers.browser.settle import Traffic, watch_activity
from iwr.mcp_servers.browser.static_site import StaticSite
from iwr.tasks import defaults


def _sweep_orphans() -> None:
    """Remove temp screenshot folders left by servers that were killed (their pid no longer runs)."""
    for d in [*Path(tempfile.gettempdir()).glob("iwr-shots-*-*"), *Path(tempfile.gettempdir()).glob("iwr-chromium-*-*")]:
        pid = d.name.split("-")[2]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(d, ignore_errors=True)


def origin_of(url: str) -> str | None:
    """scheme://host:port of an http(s) or ws(s) URL (ws counts as http); None for anything else."""
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return f"{scheme}://{parts.hostname}:{parts.port or (443 if scheme == 'https' else 80)}"


def stays(s: "Session", url: str) -> bool:
    """A page loads only from the origin it was opened on (and inline data, blobs, about:blank): another
    loopback port may be a server the coder left running with the answers."""
    if urlsplit(url).scheme in ALWAYS_ALLOWED_SCHEMES:
        return True
    return s.origin is not None and origin_of(url) == s.origin


def _top_level(request) -> bool:
    """A navigation of a page's main frame, or of a window still being made (whose frame is not yet there)."""
    try:
        return request.frame.parent_frame is None
    except Exception:  # Playwright: the request was issued before its frame existed, i.e. a new window
        return True


class BrowserFault(RuntimeError):
    """The browser itself failed (crashed, closed, timed out at the infrastructure level)."""


class SessionError(ValueError):
    """A caller mistake the caller can fix: unknown session, missing file, bad argument."""


@dataclass
class Session:
    """One isolated browser context with its page and what it has observed."""

    id: str
    context: BrowserContext
    page: Page
    shots_dir: Path
    site: StaticSite | None = None
    blocked: list[str] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)  # allowed requests, first 2000
    console: list[dict] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    elements: bool | None = None  # whether an element list was made (its refs live in the judge world)
    shot_count: int = 0
    inflight: Traffic = field(default_factory=Traffic)  # requests, for settling (see settle.py)
    cdp: object | None = None  # CDP session of the page, for fast screenshots (see capture.py)
    dpr: float = 1.0  # the context's device scale factor (see capture.py)
    origin: str | None = None  # the one origin the page may load from and stay on
    url: str = ""  # the URL the session opened (reopen.py loads it again)
    left: str | None = None  # where the page tried to go when it left its origin or opened a window
    world: object | None = None  # the judge's isolated world in the page (see world.py)
    world_fns: tuple = (None, {})  # (that world's id, the names it keeps our functions under) (world.py)
    token: str = ""  # the secret of the session's init script: its events' names (disguise.py)
    seed: int | None = None  # what the init script seeds Math.random with, and where its clock starts
    clock: str | None = None
    init_script: object | None = None  # the init script as added to the context (reopen.py replaces it)
    last_shot: tuple | None = None  # (the page's activity, PNG bytes) of the last settled screenshot (veil.py)
    ink_memo: tuple | None = None  # the last ink verdicts and what they were made on (ink.py)
    veil_sheet: tuple | None = None  # (CDP session, inspector style sheet id of the current document) (veil.py)


class BrowserHub:
    """Owns Playwright and one Chromium; opens and closes sessions."""

    def __init__(self, shots_root: Path | None = None, headless: bool = True, serve_only: Path | None = None):
        self._own_tmp = shots_root is None
        if shots_root is None:
            _sweep_orphans()
        self.shots_root = Path(shots_root or tempfile.mkdtemp(prefix=f"iwr-shots-{os.getpid()}-"))
        self.headless = headless
        # A coder's browser: it opens files inside this folder only, never a URL (see open).
        self.serve_only = Path(serve_only).resolve() if serve_only is not None else None
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self._sessions: dict[str, Session] = {}
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()
        self._tag = f"--iwr-hub={os.getpid()}-{id(self)}"  # finds this hub's Chromium among the processes
        # Chromium's own temp files (shared memory, with --disable-dev-shm-usage) go here, removed on stop.
        # (Chromium's singleton socket path inside it must stay under the 108-byte Unix socket limit.)
        short = tempfile.gettempdir() if len(tempfile.gettempdir()) <= 20 else "/tmp"
        self._chromium_tmp = Path(tempfile.mkdtemp(prefix=f"iwr-chromium-{os.getpid()}-", dir=short))
        self._closing: set[asyncio.Future] = set()
        self._previous_sigterm = None
        self._starting: asyncio.Future | None = None

    def start_soon(self) -> None:
        """Start in the background (a server answers its client meanwhile); `open` waits for it, and a
        start that failed raises its BrowserFault there."""
        self._starting = asyncio.ensure_future(self.start())

    async def start(self) -> "BrowserHub":
        # Playwright's driver puts Chromium's profile and its artifacts in its TMPDIR: ours, so one
        # removal (on stop, on SIGTERM, or by the next server's sweep) takes everything.
        saved = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = str(self._chromium_tmp)
        try:
            self._pw = await async_playwright().start()
        finally:
            os.environ.pop("TMPDIR") if saved is None else os.environ.__setitem__("TMPDIR", saved)
        self._on_sigterm_kill_browser()
        try:
            await self._launch()
        except BrowserFault:
            await self._pw.stop()
            self._pw = None
            shutil.rmtree(self._chromium_tmp, ignore_errors=True)
            raise
        return self

    async def _launch(self) -> None:
        try:
            self._browser = await self._pw.chromium.launch(
                executable_path=chromium_path(), headless=self.headless, args=[*CHROMIUM_ARGS, self._tag],
                env={**os.environ, "TMPDIR": str(self._chromium_tmp)})
        except Exception as e:
            raise BrowserFault(f"cannot launch Chromium ({chromium_path() or 'playwright default'}): {e}") from e

    def _person_ua(self) -> str:
        """The user agent of the same Chromium on a desktop, not its headless one: nothing a page reads
        tells a judge's or a coder's browser from a person's."""
        return (f"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                f"Chrome/{self._browser.version} Safari/537.36")

    async def _relaunch_if_dead(self) -> None:
        """A Chromium that crashed or was killed is replaced, so the next task gets a browser again;
        the sessions it held are gone with it."""
        async with self._lock:
            if self._pw is None or (self._browser is not None and self._browser.is_connected()):
                return
            for sid in list(self._sessions):
                await self.close(sid)
            await self._launch()

    @property
    def browser_version(self) -> str:
        return f"Chromium {self._browser.version}" if self._browser is not None else ""

    def _on_sigterm_kill_browser(self) -> None:
        """An MCP client that loses patience sends SIGTERM: take Chromium and its files down with us."""
        if threading.current_thread() is not threading.main_thread():
            return

        def die(signum, frame):
            kill_renderers(self._tag, everything=True)
            shutil.rmtree(self._chromium_tmp, ignore_errors=True)
            if self._own_tmp:
                shutil.rmtree(self.shots_root, ignore_errors=True)
            os._exit(128 + signum)

        self._previous_sigterm = signal.signal(signal.SIGTERM, die)

    async def stop(self) -> None:
        if self._starting is not None:  # a start still under way finishes first (its fault, if any, is the open's)
            await asyncio.gather(self._starting, return_exceptions=True)
        if self._browser is not None:
            kill_renderers(self._tag)  # nothing is left to render; a hung one would stall the shutdown
        for sid in list(self._sessions):
            try:
                await asyncio.wait_for(self.close(sid), 1.0)
            except Exception:  # Chromium is about to go anyway
                pass
        await self.closed(timeout_s=1.0)
        if self._browser is not None:
            try:
                await asyncio.wait_for(self._browser.close(), 1.5)
            except Exception:  # within the MCP client's grace: Playwright removes the profile once Chromium is gone
                kill_renderers(self._tag, everything=True)
                await asyncio.sleep(0.3)
        if self._pw is not None:
            await self._pw.stop()
        shutil.rmtree(self._chromium_tmp, ignore_errors=True)
        if self._own_tmp:
            shutil.rmtree(self.shots_root, ignore_errors=True)
        if self._previous_sigterm is not None:
            signal.signal(signal.SIGTERM, self._previous_sigterm)

    async def closed(self, timeout_s: float = 10.0) -> None:
        """Wait until the contexts closing in the background are gone (or `timeout_s` passed)."""
        if self._closing:  # asyncio.wait refuses an empty set
            await asyncio.wait(set(self._closing), timeout=timeout_s)

    async def __aenter__(self) -> "BrowserHub":
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    def get(self, sid: str) -> Session:
        try:
            return self._sessions[sid]
        except KeyError:
            raise SessionError(f"no open session {sid!r}; open one first") from None

    @property
    def sessions(self) -> list[str]:
        return list(self._sessions)

    async def open(self, target: str, width: int = 1280, height: int = 800, scale: float = 1.0,
                   seed: int | None = defaults.SEED, clock: str | None = defaults.CLOCK,
                   timeout_s: float = 30.0, serve_root: Path | None = None) -> Session:
        """Open a loopback URL, or a local HTML file / folder served on its own loopback port
        (from `serve_root` when given, so pages can reach sibling folders such as assets/).
        `seed` seeds Math.random (None: unseeded) and `clock`, an ISO time, is where the page's clock
        starts (None: the real time); the page cannot see either (disguise.py)."""
        if self._starting is not None:
            await asyncio.shield(self._starting)
        if self._browser is None or not self._browser.is_connected():
            await self._relaunch_if_dead()
        site, url = None, target
        try:
            offset_ms = clock_offset_ms(clock)  # the served page's server dates its replies by the page's clock
        except ValueError:
            raise SessionError(f"clock {clock!r} is not an ISO time such as 2026-01-15T10:00:00Z") from None
        if self.serve_only is not None:
            target, serve_root = self._confined(target), self.serve_only
        if not target.startswith(("http://", "https://", "about:", "data:")):
            path = Path(target).expanduser().resolve()
            if not path.exists():
                raise SessionError(f"no such file or folder: {path}")
            root, page_name = (path, "index.html") if path.is_dir() else (path.parent, path.name)
            if serve_root is not None:
                root = Path(serve_root).resolve()
                try:
                    page_name = (path / "index.html" if path.is_dir() else path).relative_to(root).as_posix()
                except ValueError:
                    raise SessionError(f"{path} is not inside {root}") from None
            site = StaticSite(root, offset_ms)
            url = site.url + page_name
        elif not is_loopback_url(target):
            raise SessionError(f"only loopback URLs may be opened, not {target}")
        sid = f"s{next(self._ids)}"
        try:
            context = await self._browser.new_context(
                viewport={"width": width, "height": height}, device_scale_factor=scale, user_agent=self._person_ua(),
                service_workers="block", locale="en-US", timezone_id="UTC", reduced_motion="reduce")
        except Exception as e:  # the browser died under us: an infrastructure fault, not the page's
            if site is not None:
                site.close()
            raise BrowserFault(f"cannot open a browser context: {str(e).splitlines()[0]}") from e
        session = Session(id=sid, context=context, page=None, shots_dir=self.shots_root / sid, site=site,  # type: ignore[arg-type]
                          dpr=scale, origin=origin_of(url), url=url, seed=seed, clock=clock)
        session.shots_dir.mkdir(parents=True, exist_ok=True)
        await context.route("**/*", lambda route: self._route(session, route))
        session.token = secrets.token_hex(8)
        session.init_script = await context.add_init_script(disguise_script(seed, offset_ms, session.token))
        await watch_activity(context, session.inflight)
        page = await context.new_page()
        session.page = page
        self._watch(session, page)
        context.on("page", lambda p: asyncio.ensure_future(self._close_popup(session, p)))
        self._sessions[sid] = session
        try:
            await page.goto(url, wait_until="load", timeout=timeout_s * 1000)
        except Exception as e:
            session.page_errors.append(f"load: {e}".splitlines()[0])
        page.on("framenavigated", lambda f: self._navigated(session, f))
        if origin_of(page.url) != session.origin:
            session.left = session.left or page.url[:300]
        return session

    def _confined(self, target: str) -> str:
        """A coder's browser opens a file or folder inside its workspace, nothing else."""
        if target.startswith(("http:", "https:", "file:", "data:", "about:", "ws:", "wss:", "blob:")):
            raise SessionError(f"this browser opens only files inside {self.serve_only}, not URLs")
        path = Path(target).expanduser()
        path = (path if path.is_absolute() else self.serve_only / path).resolve()
        if path != self.serve_only and self.serve_only not in path.parents:
            raise SessionError(f"this browser opens only files inside {self.serve_only}")
        return str(path)

    def _navigated(self, s: Session, frame) -> None:
        if frame.parent_frame is None and origin_of(frame.url) != s.origin and s.left is None:
            s.left = frame.url[:300]

    async def close(self, sid: str) -> None:
        """Forget a session at once; its context closes in the background (a few hundred ms nobody waits for)."""
        s = self._sessions.pop(sid, None)
        if s is None:
            return
        closing = asyncio.ensure_future(self._dispose(s))
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    async def _dispose(self, s: Session) -> None:
        # Once a context is closing Playwright stops handing its requests to our routing and leaves them
        # paused; if interception ends before Chromium drops them, they go out to the network (one
        # hostile page's XHR loop did, to the proxy fence). Leaving the page first ends its timers
        # and requests while the routing still answers them.
        try:
            await asyncio.wait_for(s.page.goto("about:blank"), 1.0)
        except Exception:  # a hung or crashed page: closing takes it down all the same
            pass
        try:
            await asyncio.wait_for(s.context.close(), 10)
        except Exception:
            pass
        if s.site is not None:
            await asyncio.to_thread(s.site.close)

    async def _route(self, session: Session, route: Route) -> None:
        url = route.request.url
        if stays(session, url) and is_loopback_url(url):
            if len(session.requested) < 2000:
                session.requested.append(url)
            await route.continue_()
            return
        if route.request.is_navigation_request() and _top_level(route.request):
            session.left = session.left or url[:300]
        session.blocked.append(url[:300])
        await route.abort("blockedbyclient")

    def _watch(self, s: Session, page: Page) -> None:
        # Each listener stops at its cap: while one is attached, every message crosses the driver's pipe
        # (a page logging 100 kB lines in a loop kept the judge busy for minutes).
        def console(m) -> None:
            s.console.append({"type": m.type, "text": m.text[:500]})
            if m.type == "error" and "Content Security Policy" in m.text and "connect" in m.text.lower():
                s.blocked.append(m.text[:300])  # a socket or fetch the served page's policy stopped (static_site.py)
            if len(s.console) >= 500:
                page.remove_listener("console", console)

        def page_error(e) -> None:
            s.page_errors.append(str(e)[:500])
            if len(s.page_errors) >= 200:
                page.remove_listener("pageerror", page_error)

        page.on("console", console)
        page.on("pageerror", page_error)
        page.on("dialog", lambda d: asyncio.ensure_future(self._dismiss(s, d)))

    async def _dismiss(self, s: Session, dialog) -> None:
        s.dialogs.append(f"{dialog.type}: {dialog.message[:200]}")
        try:
            await dialog.dismiss()
        except Exception:
            pass

    async def _close_popup(self, s: Session, popup: Page) -> None:
        if popup is not s.page:
            s.dialogs.append(f"popup closed: {popup.url[:200]}")
            s.left = s.left or f"a new window ({popup.url[:200]})"
            try:
                await popup.close()
            except Exception:
                pass
