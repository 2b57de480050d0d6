"""'Something changed' is decided on what a person sees. A sentence with nothing decidable in it
(`unverifiable`) passes only when the page changed beyond hover and focus in what it shows (texts,
values, states, dialogs, the task's own images) and its pixels changed where no picture is: both
captures are taken with the page's pictures away (pictures.py), so swapping one picture for the
next changes nothing. The verdict records which evidence decided.
"""
from __future__ import annotations

from graphs.assertions import page_changed
from graphs.sentences import compile_sentence
from mcp_servers.imaging import cell_share, changed, rgb



def unverifiable(action: dict) -> bool:
    """An assertion whose sentence has nothing decidable (only 'something changed'), and no checks."""
    sentence = action.get("logical_assertion") or ""
    return bool(sentence) and not (action.get("iwr") or {}).get("checks") and \
        [c.kind for c in compile_sentence(sentence)] == ["changed"]


def pixels_changed(before: str, after: str) -> float:
    """The share of the viewport's cells that differ between two captures (1.0 when their sizes differ)."""
    a, b = rgb(before), rgb(after)
    return 1.0 if a.shape != b.shape else cell_share(changed(a, b))


async def recheck(ctx, sid: str, verdict: dict, before_image: str | None, after_shot: str | None, name: str) -> dict:
    """An unverifiable verdict that passed on the page's text and states, decided again on what a person
    sees: own images only, and pixels outside pictures (when the judge takes screenshots)."""
    if not verdict["passed"] or ctx.before_view is None:
        return verdict
    after_view = await ctx.tools.call("browser", "observe", session=sid, assets=ctx.served())
    seen = page_changed(ctx.before_view, after_view)
    share = None
    if seen and before_image and after_shot:
        share = pixels_changed(before_image, (await ctx.without_pictures(sid, after_shot, name))[0])
        seen = share > 0.0  # one 16-pixel cell will do: a toggled icon is that small
    reason = ("the page changed where a person sees it" if seen else
              "nothing visible changed beyond hover, focus and pictures")
    return {**verdict, "passed": seen, "reason": reason, "decided_by": "pixels" if share is not None else "page",
            "changed_share": share}
