"""'Something changed' is decided by the recording where it shows the change (recorded_change.py), else
on what a person sees. A sentence with nothing decidable in it and no recording on both sides of its
action (`undecided`) passes only when the page changed beyond hover and focus in what it shows (texts,
values, states, dialogs, the task's own images, or boxes the page itself added, removed or restyled,
as a drawn mark or a removed widget) and its pixels changed where no picture is: both
captures are taken with the page's pictures away (pictures.py), so swapping one picture for the
next changes nothing. The verdict records which evidence decided.
"""
from __future__ import annotations

from iwr.graphs.page_view import page_changed
from iwr.graphs.sentences import compile_sentence
from iwr.graphs.recorded_change import by_words, change_between, near, recorded



def unverifiable(action: dict, names=()) -> bool:
    """An assertion whose sentence has nothing decidable (only 'something changed'), and no checks;
    `names`, what the task names (sentence_names.py), which the sentence may use unquoted."""
    sentence = action.get("logical_assertion") or ""
    return bool(sentence) and not (action.get("iwr") or {}).get("checks") and \
        [c.kind for c in compile_sentence(sentence, None, names)] == ["changed"]


async def recheck(ctx, sid: str, verdict: dict, before_image: str | None, after_shot: str | None, name: str) -> dict:
    """An unverifiable verdict decided again: by the recording where it shows the change (recorded_change.py),
    else (`undecided`) on what a person sees: own images only, and pixels outside pictures (when the
    judge takes screenshots)."""
    if ctx.before_view is None:
        return {**verdict, "decided_by": "undecided"}
    after_view = await ctx.tools.call("browser", "observe", session=sid, assets=ctx.served())
    rec = await recorded(ctx, ctx.step)
    ok, why = by_words(rec, ctx.before_view, after_view) if rec is not None else (None, "")
    if ok is not None:
        return {**verdict, "passed": ok, "method": "recording", "decided_by": "recording", "reason": why}
    seen, grid = page_changed(ctx.before_view, after_view) or ctx.scrolled, None  # a scroll moves all a person sees
    # boxes added, taken away or restyled by the page (not by a hover): a drawn mark, a removed widget;
    # the pixels then decide whether a person sees it
    seen = seen or bool(before_image and after_shot) and ctx.before_view.get("shape") != after_view.get("shape")
    if seen and before_image and after_shot:
        grid = change_between(before_image, (await ctx.without_pictures(sid, after_shot, name))[0])
        seen = grid is None or bool(grid.any())  # one 16-pixel cell will do: a toggled icon is that small
    share = None if grid is None else round(float(grid.mean()), 4)
    if rec is not None and rec["cells"] is not None and rec["cells"].any():
        ok = seen and (grid is None or near(rec["cells"], grid))
        return {**verdict, "passed": ok, "method": "recording", "decided_by": "recording", "changed_share": share,
                "reason": "the page changed where the recording did" if ok else
                          "the page did not change visibly where the recording did"}
    reason = ("the page changed where a person sees it" if seen else
              "nothing visible changed beyond hover, focus and pictures")
    return {**verdict, "passed": seen, "reason": reason, "decided_by": "undecided", "changed_share": share}
