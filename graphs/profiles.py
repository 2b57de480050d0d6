"""Judge profiles, found by name in one table: how each grounds an action, names a key and checks
an assertion, and which metrics make its LVS and HVS. Code outside the package may add its own.

- offline: no model; structured hints, description matching, template matching and positions for
  grounding; DOM checks for assertions; OCR, deep features and a structural score.
- paper: the IWR-Bench protocol; the judge's model grounds elements, names keys, judges
  assertions on before/after screenshots and rates each checkpoint on the 100-point rubric.
- hybrid: offline first, the model only where offline cannot decide (no element found, an
  assertion with no checkable form).
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from iwr.graphs.act_llm import llm_ground_and_do
from iwr.graphs.act_offline import UNSURE, not_found, offline_ground_and_do
from iwr.graphs.assertions import judge_assertion, offline_checks, structured_verdict
from iwr.graphs.grounding import key_for
from iwr.graphs.judge_llm import JudgeModelError
from iwr.graphs.painted import by_pixels
from iwr.graphs.sentences import compile_sentence
from iwr.graphs.visible_change import recheck
from iwr.tasks.registry import Registry

LLM_METRIC = "mllm"  # the HVS of a profile whose judge model rates each checkpoint on the rubric

# Each step gets the judge's run context (graphs.judge.JudgeContext: tools, config, llm), the
# browser session and the action; grounding also gets the judge's state and the action's trace.
Ground = Callable[..., Awaitable[tuple[bool, str]]]
KeyNamer = Callable[..., Awaitable[tuple[str | None, str]]]
Asserter = Callable[..., Awaitable[dict | None]]


@dataclass(frozen=True)
class Profile:
    """One way of judging: its grounding, key naming and assertion checks, and its visual metrics."""

    name: str
    ground_and_do: Ground  # (ctx, sid, action, state, trace) -> (success, reason)
    press_key: KeyNamer  # (ctx, params) -> (key, how) or (None, how)
    assertion: Asserter  # (ctx, sid, action, before, after) -> verdict or None
    needs_model: bool = False
    lvs_metrics: tuple[str, ...] = ("ocr", "feature")
    hvs_metric: str = "structural"
    chance_corrected: bool = True  # similarities rescaled so a blank page scores 0 (the paper keeps raw values)
    observes: bool = True  # reads the page before each asserted action (sentence assertions need the before state)
    ocr_engine: str = "tesseract"  # reads the text of the `ocr` metric (mcp_servers/metrics/ocr.py OCR_ENGINES)


PROFILES: Registry[Profile] = Registry("judge profile")


def register_profile(profile: Profile) -> Profile:
    """Add (or replace) a profile by its name."""
    return PROFILES.add(profile.name, profile)


def profile_named(name: str) -> Profile:
    """The profile called `name`; ValueError listing the known ones otherwise."""
    return PROFILES.named(name)


# --- grounding and acting ---------------------------------------------------------------------

UNSURE_MARGIN = 0.15  # hybrid: a description match this close to the runner-up goes to the model


async def ground_offline(ctx, sid: str, action: dict, state: dict, trace: dict,
                         unsure_below: float | None = None) -> tuple[bool, str]:
    before = state["shots"].get(str(state["step"]))

    async def unpictured(shot: str) -> str:
        return (await ctx.without_pictures(sid, shot, f"step_{state['step'] + 1}_press"))[0]

    return await offline_ground_and_do(ctx.tools, sid, action, state["task"], state["task_folder"], before, trace,
                                       ctx.config.paper_compat, unsure_below, ctx.hidden.get("selector"), ctx.memory,
                                       state["step"], unpictured)


async def ground_llm(ctx, sid: str, action: dict, state: dict, trace: dict) -> tuple[bool, str]:
    return await llm_ground_and_do(ctx.tools, ctx.llm, sid, action, state["step"], trace, ctx.config.paper_compat)


async def ground_offline_then_llm(ctx, sid: str, action: dict, state: dict, trace: dict) -> tuple[bool, str]:
    ok, why = await ground_offline(ctx, sid, action, state, trace, UNSURE_MARGIN)
    if not ok and (not_found(why) or why.startswith(("no text to type", UNSURE))):
        offline = trace.pop("grounding")
        ok, why = await ground_llm(ctx, sid, action, state, trace)
        trace["grounding"]["offline"] = offline
    return ok, why


# --- key names --------------------------------------------------------------------------------

async def key_offline(ctx, params: dict) -> tuple[str | None, str]:
    return (params.get("key"), "key") if params.get("key") else (key_for(params), "description")


async def key_llm(ctx, params: dict) -> tuple[str | None, str]:
    return (params.get("key"), "key") if params.get("key") else (
        await ctx.llm.press_key(params.get("description", "")), "llm")


async def key_offline_then_llm(ctx, params: dict) -> tuple[str | None, str]:
    key, how = await key_offline(ctx, params)
    return (key, how) if key else await key_llm(ctx, params)


# --- assertions -------------------------------------------------------------------------------

def checkable(action: dict) -> bool:
    """Whether the action's assertion has a form the page can decide (structured checks, or a sentence
    with at least one decidable claim)."""
    if offline_checks(action):
        return True
    claims = compile_sentence(action.get("logical_assertion") or "")
    return bool(action.get("logical_assertion")) and [c.kind for c in claims] != ["changed"]


async def assert_offline(ctx, sid: str, action: dict, before: str, after: str) -> dict | None:
    if not (action.get("logical_assertion") or offline_checks(action)):
        return None
    verdict = await judge_assertion(ctx.tools, sid, action, ctx.before_view, ctx.served(), ctx.names, ctx.checked)
    if verdict["method"] == "sentence":  # a colour the styles do not show may be painted all the same
        verdict = await by_pixels(ctx, sid, verdict, before, after)
    if verdict["method"] == "unverifiable":  # 'something changed': on what a person sees (visible_change.py)
        verdict = await recheck(ctx, sid, verdict, ctx.before_image, after, f"{Path(after).stem}_after" if after else "")
    if ctx.hidden.get("checks"):  # hints off: how the sentence's verdict compares with the structured one
        verdict["structured_passed"] = (await structured_verdict(ctx.tools, sid, ctx.hidden["checks"], ctx.checked))["passed"]
    return verdict


async def assert_llm(ctx, sid: str, action: dict, before: str, after: str) -> dict | None:
    statement, compat = action.get("logical_assertion"), ctx.config.paper_compat
    if not statement:
        return None
    try:
        verdict = await ctx.llm.assertion(action["parameters"].get("description", ""), statement, before, after)
    except JudgeModelError as e:
        if not compat:
            raise
        return {"passed": True, "method": "llm", "reason": f"API error counted as a pass (paper-compat): {e}"}
    if verdict is None:
        if not compat:
            raise JudgeModelError("the judge model gave no usable Yes/No answer to an assertion, twice")
        return {"passed": True, "method": "llm", "reason": "unusable answer counted as a pass (paper-compat)"}
    return {**verdict, "method": "llm"}


async def assert_checkable_then_llm(ctx, sid: str, action: dict, before: str, after: str) -> dict | None:
    if checkable(action):
        return await assert_offline(ctx, sid, action, before, after)
    return await assert_llm(ctx, sid, action, before, after)


register_profile(Profile("offline", ground_offline, key_offline, assert_offline))
register_profile(Profile("paper", ground_llm, key_llm, assert_llm, needs_model=True,
                         lvs_metrics=("ocr", "dino"), hvs_metric=LLM_METRIC, chance_corrected=False, observes=False,
                         ocr_engine="auto"))  # the paper's EasyOCR wherever it is installed
register_profile(Profile("hybrid", ground_offline_then_llm, key_offline_then_llm, assert_checkable_then_llm,
                         needs_model=True))
