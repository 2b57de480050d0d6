"""What can be done in a session: plain async functions over a `Session`, tested without MCP."""
from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from PIL import Image
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from iwr.mcp_servers.browser import ink, veil, world
from iwr.mcp_servers.browser.canvas_feeds import fed_event
from iwr.mcp_servers.browser.hub import BrowserFault, Session, SessionError
from iwr.mcp_servers.browser.keystrokes import type_burst
from iwr.mcp_servers.browser.page_observe import OBSERVE, RASTERS
from iwr.mcp_servers.browser.page_scripts import CLEAR_TARGET, KEEP_REFS, NAMED_POINT, OPTION_LABELS, PAGE_STATE, POINT_OF, \
    RUN_CHECKS, SET_OPTION
from iwr.mcp_servers.browser.targets import LABEL_OF
from iwr.mcp_servers.browser.capture import PREPARE, RESTORE, settled_shot
from iwr.mcp_servers.browser.settle import after_timers, probe, settle_page
from iwr.mcp_servers.imaging import cell_share, changed
from iwr.tasks.names import names_agree

SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,80}$")


class ActionFailed(RuntimeError):
    """The action could not be done on this page (element missing, not clickable, timed out)."""


async def bounded(coro, seconds: float, what: str):
    try:
        return await asyncio.wait_for(coro, seconds)
    except asyncio.TimeoutError:
        raise ActionFailed(f"{what} did not finish within {seconds:g} s") from None
    except PlaywrightTimeout as e:
        raise ActionFailed(f"{what} timed out: {str(e).splitlines()[0]}") from None
    except PlaywrightError as e:
        msg = str(e).splitlines()[0]
        if "Target page, context or browser has been closed" in msg or "crash" in msg.lower():
            raise BrowserFault(f"{what}: {msg}") from None
        raise ActionFailed(f"{what}: {msg}") from None
    except world.WorldError as e:
        raise ActionFailed(f"{what}: {e}") from None


async def in_world(s: Session, fn: str, arg, seconds: float, what: str):
    """A script of ours in the judge's world of the page (see world.py), bounded in time."""
    return await bounded(world.call(s, fn, arg), seconds, what)


async def settle(s: Session, wait_ms: int = 0, timeout_s: float = 2.0, timers: bool = False) -> dict:
    """Wait the recorded time, then until the network is idle and the DOM stopped changing (bounded);
    the screenshot that follows waits for a freshly painted frame itself. With `timers`, first until the
    short timeouts the page set as it answered the last input ran (`waited_for_timers`, seconds)."""
    waited = await after_timers(s) if timers else 0.0
    return {**await settle_page(s, wait_ms, timeout_s), **({"waited_for_timers": waited} if timers else {})}


async def screenshot(s: Session, name: str | None = None, full_page: bool = False, timeout_s: float = 20,
                     wait_ms: int = 0) -> Path:
    """Let `wait_ms` pass, settle, and save a PNG of the viewport (or the full page) in the session's
    folder; returns its path."""
    return (await checked_screenshot(s, name, full_page, timeout_s, wait_ms))[0]


async def checked_screenshot(s: Session, name: str | None = None, full_page: bool = False, timeout_s: float = 20,
                             wait_ms: int = 0, checks: list[dict] | None = None,
                             assets: list[str] | None = None) -> tuple[Path, list[dict] | None, dict | None]:
    """A screenshot (as `screenshot`) and, with `checks`, their results (as `run_checks`) on the page it
    shows, decided while the page is still held for the shot where they can be: a hold and a release
    of the page fewer than a screenshot and a check one after the other. With `assets`, the page's raster
    sources too (as `rasters`), listed while the capture waits for its frame."""
    s.shot_count += 1
    name = name or f"shot_{s.shot_count:03d}"
    if not SAFE_NAME.match(name):
        raise SessionError(f"screenshot name {name!r} must be letters, digits, '_', '-' or '.'")
    path = s.shots_dir / (name if name.endswith(".png") else f"{name}.png")
    results = listed = None
    if full_page:
        await settle(s, wait_ms)
        await bounded(s.page.screenshot(path=str(path), full_page=True, animations="disabled",
                                         caret="hide", timeout=timeout_s * 1000), timeout_s + 2, "screenshot")
    else:
        held = (lambda activity, shot: _held(s, checks, assets, activity, shot)) if checks or assets is not None else None
        png, seen = await bounded(settled_shot(s, wait_ms, held=held), timeout_s + wait_ms / 1000, "screenshot")
        results, listed = seen or (None, None)
        path.write_bytes(png)
    if checks and results is None:
        results = await run_checks(s, checks)
    if assets is not None and listed is None:
        listed = await rasters(s, assets)
    return path, results, listed


async def _held(s: Session, checks: list[dict] | None, assets: list[str] | None, activity, shot) -> tuple:
    """What the page held for a shot shows: the checks' results and the raster listing (each None when not
    asked or declined), read while the capture waits for its frame."""
    listing = asyncio.ensure_future(rasters(s, assets)) if assets is not None else None
    try:
        results = await run_checks(s, checks, activity, shot) if checks else None
    except BaseException:
        if listing is not None:
            listing.cancel()
            await asyncio.gather(listing, return_exceptions=True)
        raise
    return results, (await listing if listing is not None else None)


async def list_elements(s: Session, limit: int = 400, texts: bool = False) -> list[dict]:
    """Visible interactive elements in DOM order, each with a `ref` usable by click/type/hover; with
    `texts`, painted text leaves and images outside them follow (`interactive` false)."""
    infos = await in_world(s, KEEP_REFS, [limit, texts], 15, "listing elements")
    s.elements = True
    return infos


def _target(s: Session, ref: int | None, selector: str | None) -> dict | None:
    """A target our own world finds (a ref of the last element list, or a CSS selector), or None."""
    if ref is not None:
        if s.elements is None:
            raise SessionError("call elements first: refs come from the last element list")
        return {"ref": ref}
    return {"selector": selector} if selector else None


async def _locate(s: Session, ref: int | None, selector: str | None, text: str | None, role: str | None = None):
    """A target for our world (ref or selector), or an element handle Playwright found by an ARIA role
    (named by `text`) or by visible text; None when nothing was named."""
    found = _target(s, ref, selector)
    if found is not None:
        return found
    if role:
        loc = s.page.get_by_role(role, name=text) if text else s.page.get_by_role(role)
    elif text:
        loc = s.page.get_by_text(text, exact=False)
    else:
        return None
    return await _first_visible(loc, text)


async def _first_visible(loc, named: str | None):
    visible = loc.filter(visible=True)  # one query for the first visible match, not one per candidate
    if not await bounded(visible.count(), 10, "finding element"):
        raise ActionFailed(f"no visible element matches {named!r}")
    return await bounded(visible.first.element_handle(timeout=5000), 6, "finding element")


async def carries(s: Session, target: dict, named: list[str] | None) -> None:
    """Before anything is done: ActionFailed when the element a ref, selector or point designates
    carries none of the quoted names (in its label, text, value, placeholder, title or alt)."""
    if not named:
        return
    label = await in_world(s, LABEL_OF, target, 10, "reading the element's name")
    if label is None or not names_agree(named, label):
        raise ActionFailed(f"no visible element named like {named} there (found {str(label)[:60]!r})")


async def _named_point(s: Session, target: dict, named: list[str], what: str) -> dict:
    """`carries` and then `_click_point`, in one evaluation where the element needs no scrolling first
    (so a name that does not fit still scrolls nothing), else one after the other."""
    got = await in_world(s, NAMED_POINT, target, 10, what)
    if got["label"] is None or not names_agree(named, got["label"]):
        raise ActionFailed(f"no visible element named like {named} there (found {str(got['label'])[:60]!r})")
    if got.get("scroll"):
        return await _click_point(s, target, what)
    if "error" in got["at"]:
        raise ActionFailed(f"{what}: {got['at']['error']}")
    return got["at"]


async def click(s: Session, ref: int | None = None, selector: str | None = None, text: str | None = None,
                x: float | None = None, y: float | None = None, timeout_s: float = 30, role: str | None = None,
                named: list[str] | None = None) -> dict:
    """Click an element (by ref, selector, role and name, or text) or a point; returns what was clicked.
    With `named`, only an element that carries one of those names (carries)."""
    target = _target(s, ref, selector)
    where = target or ({"x": x, "y": y} if x is not None and y is not None else None)
    together = bool(named) and target is not None and not (text or role)
    if where is not None and not (text or role) and not together:
        await carries(s, where, named)
    el = await _locate(s, ref, selector, text, role)
    if el is None:
        if x is None or y is None:
            raise SessionError("click needs a ref, a selector, a text, or both x and y")
        await bounded(s.page.mouse.click(x, y), timeout_s, "click")
        return {"clicked": "point", "x": x, "y": y}
    at = await (_named_point(s, el, named, "click") if together else _click_point(s, el, "click"))
    await bounded(s.page.mouse.click(at["x"], at["y"]), timeout_s, "click")
    return {"clicked": "element", "bbox": at["bbox"]}


async def _click_point(s: Session, el, what: str) -> dict:
    """Where a click on `el` lands (it is scrolled into view first); ActionFailed when it cannot be clicked.
    Refs and selectors are resolved and checked in our own world, where the page's scripts cannot answer."""
    at = await in_world(s, POINT_OF, el, 10, what) if isinstance(el, dict) else None
    if at is not None and el.get("selector") and at.get("error", "").startswith(("invalid selector", "no visible")):
        # Playwright's selector syntax (`>>`, text=, open shadow roots) is more than CSS: its engine finds it
        el = await _first_visible(s.page.locator(el["selector"]), el["selector"])
        at = None
    if at is None:  # an element handle Playwright found: the point is computed in the page's world
        at = await bounded(el.evaluate("(el) => (" + POINT_OF + ")({element: el})"), 10, what)
    if "error" in at:
        raise ActionFailed(f"{what}: {at['error']}")
    return at


async def hover(s: Session, ref: int | None = None, selector: str | None = None, text: str | None = None,
                x: float | None = None, y: float | None = None, timeout_s: float = 30, role: str | None = None) -> dict:
    """Move the mouse over an element (ref, selector, role and name, or text) or a point."""
    el = await _locate(s, ref, selector, text, role)
    if el is None:
        if x is None or y is None:
            raise SessionError("hover needs a ref, a selector, a text, or both x and y")
        await bounded(s.page.mouse.move(x, y), timeout_s, "hover")
        return {"hovered": "point"}
    at = await _click_point(s, el, "hover")
    await bounded(s.page.mouse.move(at["x"], at["y"]), timeout_s, "hover")
    return {"hovered": "element"}


async def type_text(s: Session, text: str, ref: int | None = None, selector: str | None = None,
                    label: str | None = None, clear: bool = False, delay_ms: int = 0, timeout_s: float = 30,
                    role: str | None = None, named: list[str] | None = None) -> dict:
    """Focus an element (by ref, selector, role and name in `label`, or visible label), then type key by key.
    With `named`, only into an element (a ref or selector) that carries one of those names (carries)."""
    named = named if _target(s, ref, selector) is not None else None  # only a ref or selector is checked
    el = await _locate(s, ref, selector, label, role)
    if el is not None:
        what = "focus before typing"
        at = await (_named_point(s, el, named, what) if named else _click_point(s, el, what))
        await bounded(s.page.mouse.click(at["x"], at["y"]), timeout_s, "focus before typing")
        if clear and isinstance(el, dict):  # select what the field holds, then delete it as a person does
            if await in_world(s, CLEAR_TARGET, el, 10, "clear"):
                await bounded(s.page.keyboard.press("Backspace"), timeout_s, "clear")
        elif clear:
            await bounded(el.fill("", timeout=timeout_s * 1000), timeout_s + 2, "clear")
    if delay_ms:
        await bounded(s.page.keyboard.type(text, delay=delay_ms), timeout_s + len(text) * delay_ms / 1000, "type")
    else:
        await bounded(type_now(s, text), timeout_s, "type")
    return {"typed": len(text)}


async def type_now(s: Session, text: str) -> None:
    """Type `text` in one burst of key events (keystrokes.py)."""
    if not await type_burst(await world.cdp_of(s), text):
        s.cdp, s.world = None, None
        await s.page.keyboard.type(text)



async def select_option(s: Session, label: str, ref: int | None = None, selector: str | None = None,
                        timeout_s: float = 30, named: list[str] | None = None, within: str | None = None) -> dict:
    """Choose the option shown as `label` in a native dropdown (a <select>), as a person picks from its list.
    With `named`, only in a dropdown that carries one of those names (carries). With `within`, where no
    option is `label`: the longest option whose whole text those words hold ('choose Joker ($12)')."""
    target = _target(s, ref, selector)
    if target is None:
        raise SessionError("select needs a ref or a selector")
    await carries(s, target, named)
    labels = await in_world(s, OPTION_LABELS, target, 10, "select")
    if labels is None:
        raise ActionFailed("select: the element is not a dropdown (<select>)")
    match = next((x for x in labels if x.strip().lower() == label.strip().lower()), None)
    if match is None and within:
        match = named_in(within, labels)
    if match is None:
        raise ActionFailed(f"select: no option {label!r} (options: {labels[:12]})")
    await _click_point(s, target, "select")
    if not await in_world(s, SET_OPTION, {**target, "label": match}, timeout_s, "select"):
        raise ActionFailed(f"select: option {match!r} could not be chosen")
    return {"selected": match}


def named_in(words: str, labels: list[str]) -> str | None:
    """The longest of `labels` that `words` hold whole (case and spacing aside, not inside another word)."""
    flat = lambda t: " ".join(t.lower().split())  # noqa: E731
    said = flat(words)
    held = [x for x in labels if flat(x) and re.search(rf"(?<!\w){re.escape(flat(x))}(?!\w)", said)]
    return max(held, key=len) if held else None


async def press(s: Session, key: str, timeout_s: float = 30) -> dict:
    """Press one key (Playwright key names: Enter, Escape, ArrowUp, Control+A, ...)."""
    await bounded(s.page.keyboard.press(key), timeout_s, f"press {key}")
    return {"pressed": key}


UNMOVED_S = 0.4


async def scroll(s: Session, direction: str = "down", amount: float | None = None, timeout_s: float = 30) -> dict:
    """Scroll with the mouse wheel at the viewport centre; returns scrollY before and after."""
    vp = s.page.viewport_size or {"width": 1280, "height": 800}
    amount = vp["height"] / 2 if amount is None else amount
    dy = {"down": amount, "up": -amount}.get(direction.lower())
    dx = {"right": amount, "left": -amount}.get(direction.lower(), 0)
    if dy is None and not dx:
        raise SessionError(f"direction must be up, down, left or right, not {direction!r}")
    before = await in_world(s, PAGE_STATE, None, 10, "scroll")
    await bounded(s.page.mouse.move(vp["width"] / 2, vp["height"] / 2), timeout_s, "scroll")
    await bounded(s.page.mouse.wheel(dx, dy or 0), timeout_s, "scroll")
    at = lambda st: (st["scroll_x"], st["scroll_y"])  # noqa: E731
    last = now = before
    # The wheel scrolls asynchronously: wait until the position is stable, and while it has not moved at
    # all, for a while (UNMOVED_S) in case the scroll lands late (a loaded machine, a page that scrolls
    # itself a little after the wheel, as smooth-scrolling libraries do).
    for i in range(40):
        await asyncio.sleep(0.025)
        now = await in_world(s, PAGE_STATE, None, 10, "scroll")
        if i and at(now) == at(last) and (at(now) != at(before) or (i + 1) * 0.025 >= UNMOVED_S):
            break
        last = now
    after = now
    return {"scroll_y_before": before["scroll_y"], "scroll_y_after": after["scroll_y"],
            "scroll_x_before": before["scroll_x"], "scroll_x_after": after["scroll_x"]}


async def page_state(s: Session, max_text: int = 20_000) -> dict:
    """URL, title, scroll position and the visible text (cut to `max_text` characters)."""
    st = await in_world(s, PAGE_STATE, None, 15, "reading page")
    st["text_truncated"] = len(st["text"]) > max_text
    st["text"] = st["text"][:max_text]
    return st


async def observe(s: Session, assets: list[str] = ()) -> dict:
    """What a person sees now: texts whose ink shows (ink.py), field values, selected states, dialogs, and
    the images and canvases that are no pictures: images among `assets` (paths on the page's server),
    canvases fed nothing else (canvas_feeds.py)."""
    # a transition under way is read at its end, as the screenshots show it (a tab closing to nothing
    # for half a second is closed)
    await probe(s, PREPARE, 2.0)
    try:
        view = await in_world(s, OBSERVE, _asking(s, assets), 15, "observing")
    finally:
        await probe(s, RESTORE, 2.0)
    scroll, live, activity = tuple(view.pop("scroll")), view.pop("live"), view.pop("activity")
    return await bounded(ink.keep_seen(s, view, scroll, live, activity), 15, "observing")


async def rasters(s: Session, assets: list[str] = ()) -> dict:
    """The page's raster sources (page_observe.py), canvases fed image data other than `assets` (paths on
    the page's server, such as /assets/1.png) marked `fed`."""
    return await in_world(s, RASTERS, _asking(s, assets), 15, "listing rasters")


def _asking(s: Session, assets) -> list[str]:
    """What a listing needs to ask canvases whether they were fed pictures (canvas_feeds.py)."""
    return [fed_event(s.token) if s.token else "", json.dumps(list(assets))]


async def bare(s: Session, css: str, name: str) -> dict:
    """The viewport with `css` laid over it for one capture (the judge's pictures taken away, see
    graphs/pictures.py), saved as `name`.png; with the share of the viewport's pixels it changed."""
    if not SAFE_NAME.match(name):
        raise SessionError(f"capture name {name!r} must be letters, digits, '_', '-' or '.'")
    first, (veiled,), _, _ = await bounded(veil.with_and_without(s, [css]), 20, "bare capture")
    path = s.shots_dir / f"{name}.png"
    await asyncio.to_thread(Image.fromarray(veiled.astype("uint8")).save, path, compress_level=1)
    return {"path": str(path), "share": cell_share(changed(first, veiled))}


async def run_checks(s: Session, checks: list[dict], held=None, shot=None) -> list[dict] | None:
    """Evaluate structured checks (text_visible, text_absent, count, value, url_contains) on the DOM;
    a text is visible where its ink changes pixels (ink.py) or, below the fold, where styles paint it.
    `held`: the activity at which capture.settled_shot holds the page it is shooting, `shot` that
    capture (the DOM is read while it waits for its frame, the ink taken away once it is done); None
    comes back when the page changed meanwhile or the pixels need it released (the caller asks again)."""
    *results, where = await in_world(s, RUN_CHECKS, checks, 15, "checking")
    if held is not None:
        await shot
        if where["activity"] != held:
            return None
    per = [r.pop("ink", None) or [] for r in results]
    verdicts = await bounded(ink.seen(s, [c for cs in per for c in cs], tuple(where["scroll"]), where["live"],
                                       where["activity"], held is not None), 15, "checking")
    if verdicts is None:
        return None
    verdicts = iter(verdicts)
    for c, r, cands in zip(checks, results, per):
        if c["kind"] in ("text_visible", "text_absent"):
            shown = r["ok"]
            for cand, v in zip(cands, verdicts):
                shown = shown or (cand["css"] if v is None else v)
            r["ok"] = shown if c["kind"] == "text_visible" else not shown
    return results
