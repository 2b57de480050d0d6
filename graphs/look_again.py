"""A failed assertion looked at again: a person watches until the page stops reacting (two cards turned
back half a second after the second one), so before the judge fails an assertion it waits for the short
timeouts the page set as it answered the action (the browser's `settle` with `timers`, settle.py) and
decides it again. The first look stands unless the later one passes."""
from __future__ import annotations


async def looked_again(ctx, sid: str, action: dict, before: str | None, verdict: dict, step: int, shots: dict,
                       trace: dict) -> dict:
    """The verdict, decided again where the page had timeouts to run; a later look that passes becomes the
    step's screenshot for what follows (`shots`, and `trace["later_screenshot"]`)."""
    waited = (await ctx.tools.call("browser", "settle", session=sid, timers=True)).get("waited_for_timers") or 0
    if not waited:
        return verdict
    later = (await ctx.tools.call("browser", "screenshot", session=sid, name=f"step_{step}_later"))["path"] \
        if ctx.config.screenshots else None
    again = await ctx.config.judging.assertion(ctx, sid, action, before, later)
    if again is None or not again["passed"]:
        return {**verdict, "looked_again_after_s": waited}
    if later:
        shots[str(step)] = trace["later_screenshot"] = later  # where the next action starts
    return {**again, "looked_again_after_s": waited}
