"""The browser MCP server: isolated Chromium sessions on loopback pages, driven by tools."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Literal

from mcp.server.mcpserver import Context, Image, MCPServer
from pydantic import BaseModel

from iwr.mcp_servers.browser import actions, page_reads
from iwr.mcp_servers.browser.hub import BrowserFault, BrowserHub, SessionError
from iwr.mcp_servers.browser.reopen import reopen as reopen_page
from iwr.mcp_servers.common import ACTS, DESTRUCTIVE, READ_ONLY, mapped_errors
from iwr.mcp_servers.imaging import image_size, model_view
from iwr.tasks import defaults

errors = mapped_errors((SessionError, actions.ActionFailed, ValueError), (BrowserFault,))


class Opened(BaseModel):
    session: str
    url: str
    load_errors: list[str]
    browser: str = ""  # "Chromium <version>": recorded with each judgement


class Shot(BaseModel):
    path: str
    width: int
    height: int
    checks: list[dict] | None = None
    rasters: dict | None = None  # the page's raster sources as the shot shows them, when asked


class ShotRequest(BaseModel):
    """A screenshot to take once an action is done, as the screenshot tool takes it."""
    name: str | None = None
    wait_ms: int = 0
    checks: list[dict] | None = None
    rasters: list[str] | None = None


class Observed(BaseModel):
    console: list[dict]
    page_errors: list[str]
    dialogs: list[str]
    blocked_requests: list[str]


class PageState(BaseModel):
    url: str
    title: str
    scroll_x: float
    scroll_y: float
    text: str
    text_truncated: bool


class Outcome(BaseModel):
    ok: bool = True
    detail: dict = {}
    blocked_requests: int = 0
    shot: Shot | None = None  # what `then` asked for
    shot_error: str | None = None  # why that screenshot failed (the action itself is done)


def build_server(shots_dir: Path | None = None, serve_only: Path | None = None) -> MCPServer:
    """A browser server whose screenshots go to `shots_dir` (a temp folder when None); with `serve_only`
    (a coder's browser) it opens files inside that folder only."""

    @contextlib.asynccontextmanager
    async def lifespan(_server):
        hub = BrowserHub(shots_root=shots_dir, serve_only=serve_only)
        hub.start_soon()  # Chromium starts while the client starts its other servers
        try:
            yield hub
        finally:
            await hub.stop()

    mcp = MCPServer("iwr-browser", instructions="Drive a sandboxed Chromium: open a page, act on it, look at it.",
                    lifespan=lifespan)

    def hub_of(ctx: Context) -> BrowserHub:
        return ctx.request_context.lifespan_context

    async def outcome(ctx: Context, sid: str, detail: dict, then: ShotRequest | None = None) -> Outcome:
        """The action's outcome; with `then`, the screenshot after it too, taken in the same call (an
        MCP round trip fewer per judged action: a few ms on an idle machine, a few tens on a loaded one)."""
        s = hub_of(ctx).get(sid)
        stayed(s)
        out = Outcome(detail=detail, blocked_requests=len(s.blocked))
        if then is not None:
            try:
                out.shot = await shoot(s, then.name, False, then.wait_ms, then.checks, then.rasters)
            except (SessionError, actions.ActionFailed, ValueError) as e:
                out.shot_error = str(e)
        return out

    async def shoot(s, name: str | None, full_page: bool, wait_ms: int, checks: list[dict] | None,
                    rasters: list[str] | None = None) -> Shot:
        path, results, listed = await actions.checked_screenshot(s, name, full_page, wait_ms=wait_ms,
                                                                 checks=None if s.left else checks, assets=rasters)
        w, h = image_size(path)
        return Shot(path=str(path), width=w, height=h, checks=results, rasters=listed)

    def stayed(s) -> None:
        """A page that tried to leave its origin or open a window fails every action from then on."""
        if s.left:
            raise actions.ActionFailed(f"the page tried to leave for {s.left}; that is blocked and fails the action")

    @mcp.tool(annotations=ACTS)
    @errors
    async def open(target: str, ctx: Context, width: int = 1280, height: int = 800, scale: float = 1.0,
                   seed: int | None = defaults.SEED, clock: str | None = defaults.CLOCK, root: str | None = None) -> Opened:
        """Open a loopback URL or a local HTML file/folder in a new isolated session; returns its id. `root`,
        a folder holding the file, is served as the site's top (an app whose page sits in a subfolder and
        loads '../../lib/x.js'); by default the file's own folder is."""
        return opened(ctx, await hub_of(ctx).open(target, width=width, height=height, scale=scale, seed=seed, clock=clock,
                                                  serve_root=Path(root) if root else None))

    @mcp.tool(annotations=ACTS)
    @errors
    async def reopen(session: str, ctx: Context) -> Opened:
        """Load a session's page again in its own tab, as a new session would find it (its origin's storage
        and cookies, the tab's session storage, window name and history cleared, its clock started again,
        the renderer's heap collected): a new session's page for the cost of a load. Fails when the page
        does not answer; open a new session then."""
        return opened(ctx, await reopen_page(hub_of(ctx).get(session)))

    def opened(ctx: Context, s) -> Opened:
        left = [f"the page tried to leave for {s.left} (blocked)"] if s.left else []
        return Opened(session=s.id, url=s.page.url, load_errors=left + s.page_errors[:5],
                      browser=hub_of(ctx).browser_version)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def screenshot(session: str, ctx: Context, name: str | None = None, full_page: bool = False,
                         wait_ms: int = 0, checks: list[dict] | None = None, rasters: list[str] | None = None) -> Shot:
        """Save a full-size PNG of the viewport (or the full page) on disk and return its path; with
        `checks` (as the check tool takes them), their results on the page the picture shows (none
        for a page that tried to leave: the check tool says why it fails); with `rasters` (the assets,
        as the rasters tool takes them), the page's raster sources as the picture shows them."""
        return await shoot(hub_of(ctx).get(session), name, full_page, wait_ms, checks, rasters)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def settle(session: str, ctx: Context, wait_ms: int = 0, timers: bool = False) -> dict:
        """Let wait_ms pass, then wait until no request is open and the DOM stopped changing (bounded): what a
        screenshot waits for, without the picture. timers: first wait (up to 1.5 s) until the short timeouts
        the page set as it answered the last input have run, as a person waits for what a click set off."""
        return await actions.settle(hub_of(ctx).get(session), wait_ms, timers=timers)

    @mcp.tool(annotations=READ_ONLY, structured_output=False)
    @errors
    async def look(session: str, ctx: Context, full_page: bool = False) -> list:
        """Show the page as an image (downscaled for a model; the full-size PNG path comes with it)."""
        path = await actions.screenshot(hub_of(ctx).get(session), None, full_page)
        w, h, jpeg = model_view(path)
        return [Shot(path=str(path), width=w, height=h).model_dump_json(), Image(data=jpeg, format="jpeg")]

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def elements(session: str, ctx: Context, limit: int = 200, texts: bool = False) -> list[dict]:
        """List visible interactive elements (ref, role, name, text, bbox) in DOM order; with texts, then
        painted text leaves and images (interactive false)."""
        return await actions.list_elements(hub_of(ctx).get(session), limit, texts)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def observe(session: str, ctx: Context, assets: list[str] | None = None) -> dict[str, Any]:
        """What a person sees: texts whose ink shows; field values, checked and chosen options; dialogs;
        images among `assets` (the task's, as paths on the page's server) and canvases fed no pictures."""
        stayed(hub_of(ctx).get(session))
        return await actions.observe(hub_of(ctx).get(session), assets or [])

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def rasters(session: str, ctx: Context, assets: list[str] | None = None) -> dict[str, Any]:
        """Raster sources of the page (images, videos, SVG images, CSS images of elements and pseudo-elements;
        canvases and frames where they show): kind, source, the element's selector, box; a canvas fed
        image data other than `assets` (paths on the page's server) is marked fed."""
        return await actions.rasters(hub_of(ctx).get(session), assets or [])

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def bare(session: str, css: str, name: str, ctx: Context) -> dict[str, Any]:
        """Capture the viewport with a style sheet laid over it for that one capture (e.g. pictures
        taken away): the PNG's path and the share of the viewport's pixels the sheet changed."""
        return await actions.bare(hub_of(ctx).get(session), css, name)

    @mcp.tool(annotations=ACTS)
    @errors
    async def click(session: str, ctx: Context, ref: int | None = None, selector: str | None = None,
                    text: str | None = None, role: str | None = None, x: float | None = None,
                    y: float | None = None, named: list[str] | None = None, then: ShotRequest | None = None) -> Outcome:
        """Click by element ref (from elements), CSS selector, ARIA role (+ name in text), visible text, or x/y.
        With `named`, the element there must carry one of those names (label, text, value, placeholder,
        title or alt), or nothing is clicked and the call fails. With `then`, a screenshot once the click is
        done (its arguments as the screenshot tool takes them), returned in `shot`: one call for both."""
        return await outcome(ctx, session, await actions.click(hub_of(ctx).get(session), ref, selector, text, x, y,
                                                               role=role, named=named), then)

    @mcp.tool(annotations=ACTS)
    @errors
    async def hover(session: str, ctx: Context, ref: int | None = None, selector: str | None = None,
                    text: str | None = None, role: str | None = None, x: float | None = None,
                    y: float | None = None) -> Outcome:
        """Move the mouse over an element (ref, selector, ARIA role + name in text, or visible text) or a point."""
        return await outcome(ctx, session, await actions.hover(hub_of(ctx).get(session), ref, selector, text, x, y, role=role))

    @mcp.tool(name="type", annotations=ACTS)
    @errors
    async def type_(session: str, text: str, ctx: Context, ref: int | None = None, selector: str | None = None,
                    label: str | None = None, role: str | None = None, clear: bool = False,
                    named: list[str] | None = None, then: ShotRequest | None = None) -> Outcome:
        """Focus an element (ref, selector, ARIA role + name in label, or visible label) and type text key by key.
        With `named` and `then`, as for click."""
        return await outcome(ctx, session, await actions.type_text(hub_of(ctx).get(session), text, ref, selector, label,
                                                                   clear, role=role, named=named), then)

    @mcp.tool(annotations=ACTS)
    @errors
    async def select(session: str, label: str, ctx: Context, ref: int | None = None,
                     selector: str | None = None, named: list[str] | None = None, within: str | None = None,
                     then: ShotRequest | None = None) -> Outcome:
        """Choose the option shown as `label` in a native dropdown (<select>), by ref or CSS selector; with
        `within` (a person's words), where no option is `label`, the option those words name whole.
        With `named` and `then`, as for click."""
        return await outcome(ctx, session, await actions.select_option(hub_of(ctx).get(session), label, ref, selector,
                                                                       named=named, within=within), then)

    @mcp.tool(annotations=ACTS)
    @errors
    async def press(session: str, key: str, ctx: Context, then: ShotRequest | None = None) -> Outcome:
        """Press a key such as Enter, Escape, Tab, ArrowLeft or Control+A. With `then`, as for click."""
        return await outcome(ctx, session, await actions.press(hub_of(ctx).get(session), key), then)

    @mcp.tool(annotations=ACTS)
    @errors
    async def scroll(session: str, ctx: Context, direction: Literal["up", "down", "left", "right"] = "down",
                     amount: float | None = None, then: ShotRequest | None = None) -> Outcome:
        """Scroll by `amount` pixels (default half the viewport); reports scroll position before and after.
        With `then`, as for click."""
        return await outcome(ctx, session, await actions.scroll(hub_of(ctx).get(session), direction, amount), then)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def state(session: str, ctx: Context, max_text: int = 4000) -> PageState:
        """URL, title, scroll position and visible text (cut; call with a larger max_text for more)."""
        return PageState(**await actions.page_state(hub_of(ctx).get(session), max_text))

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def check(session: str, checks: list[dict], ctx: Context) -> list[dict]:
        """Evaluate structured checks (text_visible, text_absent, count, value, url_contains) on the page."""
        stayed(hub_of(ctx).get(session))
        return await actions.run_checks(hub_of(ctx).get(session), checks)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def console(session: str, ctx: Context) -> Observed:
        """Console messages, page errors, dismissed dialogs and blocked outside requests so far."""
        s = hub_of(ctx).get(session)
        return Observed(console=s.console[-100:], page_errors=s.page_errors[-50:], dialogs=s.dialogs[-50:],
                        blocked_requests=s.blocked[-100:])

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def snapshot(session: str, ctx: Context, max_chars: int = 8000) -> dict[str, Any]:
        """The accessibility tree (roles, names, states) as YAML, cut to max_chars."""
        return await page_reads.snapshot(hub_of(ctx).get(session), max_chars)

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def evaluate(session: str, expression: str, ctx: Context, max_chars: int = 4000,
                       isolated: bool = False) -> dict[str, Any]:
        """Evaluate a read-only JavaScript expression; returns its JSON value and whether it changed the page.
        With isolated, it runs in a world of its own: same DOM, none of the page's scripts or overrides."""
        return await page_reads.evaluate(hub_of(ctx).get(session), expression, max_chars, isolated)

    @mcp.tool(annotations=ACTS)
    @errors
    async def freeze(session: str, ctx: Context) -> dict[str, Any]:
        """Pause the page's clock and animations so repeated screenshots are identical."""
        return await page_reads.freeze(hub_of(ctx).get(session))

    @mcp.tool(annotations=DESTRUCTIVE)
    @errors
    async def close(session: str, ctx: Context) -> Outcome:
        """Close a session and its browser context."""
        s = hub_of(ctx).get(session)
        blocked = len(s.blocked)
        await hub_of(ctx).close(session)
        return Outcome(detail={"closed": session}, blocked_requests=blocked)

    return mcp
