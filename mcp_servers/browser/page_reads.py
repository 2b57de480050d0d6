"""Reading the page by script and by its accessibility tree, and stopping its clock: the browser
tools that look at a page rather than act on it or shoot it (actions.py)."""
from __future__ import annotations

from iwr.mcp_servers.browser.actions import bounded, in_world
from iwr.mcp_servers.browser.disguise import FREEZE, freeze_event
from iwr.mcp_servers.browser.hub import Session


# Runs an expression and reports whether it changed the DOM while it ran.
EVALUATE = """
async (expr) => {
  let mutations = 0;
  const obs = new MutationObserver((m) => { mutations += m.length; });
  obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  let value, error = null;
  try { value = await (0, eval)(expr); } catch (e) { error = String(e); }
  await Promise.resolve();
  mutations += obs.takeRecords().length; obs.disconnect();
  let json;
  try { json = JSON.stringify(value === undefined ? null : value); } catch (e) { json = JSON.stringify(String(value)); }
  return {json, error, mutations};
}
"""


async def evaluate(s: Session, expression: str, max_chars: int = 4000, isolated: bool = False) -> dict:
    """Evaluate a JavaScript expression meant to only read the page; reports DOM changes it made. With
    `isolated`, in our own world, out of the page's reach (the DOM is shared, its scripts are not)."""
    out = await (in_world(s, EVALUATE, expression, 10, "evaluate") if isolated
                 else bounded(s.page.evaluate(EVALUATE, expression), 10, "evaluate"))
    text = out["json"] or "null"
    return {"value": text[:max_chars], "truncated": len(text) > max_chars, "error": out["error"],
            "changed_page": out["mutations"] > 0}


async def snapshot(s: Session, max_chars: int = 8000) -> dict:
    """The page's accessibility tree as YAML (roles, names, states), cut to max_chars."""
    text = await bounded(s.page.locator("body").aria_snapshot(timeout=10_000), 12, "snapshot")
    return {"tree": text[:max_chars], "truncated": len(text) > max_chars}


async def freeze(s: Session) -> dict:
    """Stop the page's clock, its timers and animation frames (disguise.py) and its CSS/Web animations,
    for screenshots that do not move."""
    await in_world(s, FREEZE, freeze_event(s.token), 10, "freeze")
    cdp = await s.context.new_cdp_session(s.page)
    await cdp.send("Animation.enable")
    await cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    return {"frozen": True}
