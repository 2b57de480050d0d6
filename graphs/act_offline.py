"""Performing one recorded action with the offline grounding (no model), and the helpers every
profile shares: clicking or typing at a target, scrolling, and turning tool errors into verdicts.

Offline grounding tries, in order: the task's structured hint, role/name/text matching of the
description, template matching of the recorded target's crop on the current screenshot, the place
the recording shows the pointer pressing (graphs/recorded_presses.py), and the recorded position
scaled to the page.
"""
from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from iwr.agents.toolbox import Toolbox, ToolCallError
from iwr.graphs.description import HOVER_THEN, Query, clears_first, parse, quote_bare_names
from iwr.graphs.element_match import fits_kind
from iwr.graphs.grounding import (Plan, label_probe, match_description, names_agree, plans_for, target_quotes, type_text_of,
                                  weak_candidates)
from iwr.graphs.placement import only_of_kind
from iwr.graphs.recorded_presses import MIN_MATCH, patch_file, press_of
from iwr.graphs.replay_memory import ReplayMemory, back_plan, beside_last, beside_previous, points_back
from iwr.graphs.sentence_names import ground_names, task_names
from iwr.tasks.schema import size_of

NOT_FOUND = ("no visible element", "no element with ref", "named like", "matches nothing")
TEMPLATE_MIN_SCORE = 0.9


UNSURE = "unsure: "


async def offline_ground_and_do(tools: Toolbox, sid: str, action: dict, task: dict, task_folder: str,
                                before: str | None, trace: dict, compat_clicks: bool = False,
                                unsure_below: float | None = None, shadow: str | None = None,
                                memory: ReplayMemory | None = None, step: int | None = None,
                                unpictured: Callable[[str], Awaitable[str]] | None = None) -> tuple[bool, str]:
    """Ground a Click/Type without a model and perform it; (success, reason). Fills trace["grounding"].

    With `unsure_below`, a description match whose margin over the runner-up is smaller is not
    performed: the answer starts with UNSURE, so a caller with a model can ask it instead. With
    `shadow` (the hinted selector of an action judged with hints off), the grounding records whether
    the description-only element is the hinted one. `memory` carries what the replay has seen and done
    from one action to the next (graphs/replay_memory.py); it is updated here. `before` is the page's
    screenshot, or None when the replay takes none; `step` the action's place in the task (0-based), for
    the recording's press of it, which is looked for on the screenshot as `unpictured` gives it (the page
    without its pictures: a picture of the original is not the original)."""
    kind, params = action["type"], action["parameters"]
    # what the task types or quotes is a name wherever it is written unquoted: "Tap the X next to Water the plants"
    said = ground_names(params.get("description", ""), task_names(task.get("action_sequence") or []))
    if said != params.get("description", ""):
        action = {**action, "parameters": {**params, "description": said}}
        params = action["parameters"]
    text = type_text_of(params.get("description", ""), params.get("text")) if kind == "Type" else None
    if kind == "Type" and text is None:
        trace["grounding"] = {"strategy": "none", "tried": []}
        return False, "no text to type in the action"
    tried: list[dict] = []
    if kind == "Click":
        await _hover_first(tools, sid, params.get("description", ""))
    quotes = target_quotes(params.get("description", ""), kind)
    async for plan in _plans(tools, sid, action, task, task_folder, memory, step):
        if plan.strategy in ("template", "recording"):
            if before is None:  # a replay without screenshots (the typed-text probe's): one now, the page as it is
                before = (await tools.call("browser", "screenshot", session=sid))["path"]
            plan = await (_template_plan(tools, plan, before, tried) if plan.strategy == "template" else
                          _recorded_plan(tools, task, task_folder, plan.args["step"], before, tried, unpictured))
            if plan is None:
                continue
        # The browser acts only on an element that carries a quoted name (and fails, doing nothing, otherwise).
        named = quotes if quotes and ("selector" in plan.args or "x" in plan.args) else None
        if plan.strategy == "hint.selector":  # the original's selector: only where it names what the original showed
            named = quotes or hint_names(action)
            if not named:
                continue
        record = {"strategy": plan.strategy, "target": plan.args, "why": plan.why, "chosen": plan.chosen,
                  "runner_up": plan.alternatives[0] if plan.alternatives else None, "margin": plan.margin,
                  "alternatives": plan.alternatives, "tried": tried}
        if shadow and plan.chosen:
            record["agrees_with_hint"] = await _same_element(tools, sid, shadow, plan.chosen.get("css"))
        if unsure_below is not None and plan.margin is not None and plan.margin < unsure_below:
            if named and not await _carries(tools, sid, plan.args, named, tried, plan.strategy):
                continue
            trace["grounding"] = record
            return False, f"{UNSURE}margin {plan.margin:.3f} over the runner-up is below {unsure_below}"
        ext = action.get("iwr") or {}
        # a dropdown's option named without quotes ('Pick Meat in the category dropdown') is named all the same
        options = quotes or target_quotes(quote_bare_names(params.get("description", "")), kind)
        if kind == "Click" and (ext.get("select") or (plan.chosen or {}).get("tag") == "select" and options):
            ok, why = await choose_option(tools, sid, plan.args, [ext["select"]] if ext.get("select") else options, named,
                                          params.get("description", ""))
        else:
            ok, why = await perform(tools, sid, kind, plan.args, text, compat_clicks,
                                    bool(ext.get("clear")) or clears_first(params.get("description", "")), named)
        tried.append({"strategy": plan.strategy, "args": plan.args, "ok": ok, "why": plan.why, "error": why or None})
        if ok or not not_found(why):
            trace["grounding"] = record
            if ok and memory is not None:
                memory.remember(kind, plan, parse(params.get("description", ""), kind, params.get("text")).words)
            return ok, why
    trace["grounding"] = {"strategy": "none", "tried": tried}
    return False, "element not found: " + (tried[-1]["error"] if tried else "no candidate matched the description")


HOVER_MS = 500  # what shows under the mouse often fades in (0.3 s is common)


async def _hover_first(tools: Toolbox, sid: str, description: str) -> None:
    """"Hover over the Salary entry and click the red square at its right end": the mouse goes over the
    entry first, as the person's did, so that what shows only under the mouse is there to be found."""
    m = HOVER_THEN.match(description)
    if m is None:
        return
    elements = await tools.call("browser", "elements", session=sid, texts=True)
    plan = match_description(f"Point at {m.group(1)}", elements, "Click")
    if plan is not None and "ref" in plan.args and (await attempt(tools.call("browser", "hover", session=sid,
                                                                             ref=plan.args["ref"])))[0]:
        await attempt(tools.call("browser", "settle", session=sid, wait_ms=HOVER_MS))  # a fade-in under the mouse


def hint_names(action: dict) -> list[str]:
    """The names the recorded target showed (its accessible name and text)."""
    hint = (action.get("iwr") or {}).get("target") or {}
    return [n for n in (hint.get("name"), hint.get("text")) if n and str(n).strip()]


async def _carries(tools: Toolbox, sid: str, target: dict, quotes: list[str], tried: list, strategy: str) -> bool:
    """Whether the element a plan designates carries a quoted name, asked without acting (the browser's
    own check, for a plan that is not performed here); a miss is noted in `tried`."""
    label = json.loads((await tools.call("browser", "evaluate", session=sid, expression=label_probe(target),
                                         isolated=True))["value"])
    if label is not None and names_agree(quotes, label):
        return True
    tried.append({"strategy": strategy, "args": target, "ok": False,
                  "error": f"no visible element named like {quotes} there (found {str(label)[:60]!r})"})
    return False


SAME_ELEMENT = """(() => { const a = document.querySelector(%s), b = document.querySelector(%s);
  return !!(a && b && (a === b || a.contains(b) || (b.control && b.control === a))); })()"""


async def _same_element(tools: Toolbox, sid: str, hinted: str, chosen_css: str | None) -> bool | None:
    """Whether the chosen element is the hinted one (or lies in it, or is its label)."""
    if not chosen_css:
        return None
    out = await tools.call("browser", "evaluate", session=sid, isolated=True,
                           expression=SAME_ELEMENT % (json.dumps(hinted), json.dumps(chosen_css)))
    return None if out.get("error") else json.loads(out["value"])


async def _plans(tools: Toolbox, sid: str, action: dict, task: dict, task_folder: str, memory: ReplayMemory | None,
                 step: int | None = None):
    """The grounding plans in order; the element list is fetched only when the hint did not do."""
    hint = (action.get("iwr") or {}).get("target") or {}
    if hint.get("selector"):
        yield Plan("hint.selector", {"selector": hint["selector"]}, 1.0, "structured target hint")
    elements = await tools.call("browser", "elements", session=sid, texts=True)
    seen = memory.seen if memory is not None else None
    before = set(seen or ())
    if seen is not None:
        seen.update(e.get("name") or e.get("text") for e in elements)  # texts too: "the new card" is the one whose words are new
    plans = [p for p in plans_for(action, elements, size_of(task), size_of(task), before)
             if p.strategy != "hint.selector"]
    description, kind = action["parameters"].get("description", ""), action["type"]
    q = parse(description, kind, action["parameters"].get("text"))
    beside = beside_previous(description, elements, memory.used) if memory is not None else None
    if beside is not None:  # "the seat just to its right": the words name a place, not a thing
        plans.insert(0, beside)
    recalled = back_plan(q, description, kind, elements, memory.used) if memory is not None else None
    if recalled is not None:  # "the same button", or the words only guess: before the words; else after them
        guess = bool(plans) and plans[0].strategy == "text.kind" and not plans[0].margin
        plans.insert(0 if points_back(description) or guess else _after_words(plans), recalled)
    if memory is not None and not q.typing and NEXT_TO_IT.search(description):  # "Send the request with the
        # arrow next to it": the control beside what the previous action used, when the words find none
        near = beside_last(elements, memory.used, kind="button")
        if near is not None:
            plans.insert(_after_words(plans), near)
    if q.typing:  # "into the card title box" where no label says so: the focused field, the only one, or the
        # one beside what the previous action used (the form it opened)
        fields = [e for e in elements if e.get("enabled", True)]
        weak = [e for e in weak_candidates(description, fields, kind, action["parameters"].get("text")) if fits_kind(e, "field")]
        pointed = only_of_kind(Query(typing=True), weak) if len(weak) == 1 else \
            beside_last(fields, memory.used if memory is not None else [], among=weak) if weak else None
        fallback = pointed or only_of_kind(Query(typing=True), fields)
        if fallback is None or not fallback.margin:
            fallback = beside_last(fields, memory.used if memory is not None else [])
        if fallback is not None:  # where the words point, however weakly ("an amount" by a box labelled
            # 'Amount'), before a field an earlier action used that they do not name
            at = 0 if pointed is not None and recalled is not None and not points_back(description) else _after_words(plans)
            plans.insert(at, fallback)
    # before the recorded position, which is the weakest evidence: the recorded target's crop, then what a
    # person watching the video sees pressed (both reached only when the words found nothing that worked)
    at = next((n for n, p in enumerate(plans) if p.strategy == "hint.position"), len(plans))
    if step is not None:
        plans.insert(at, Plan("recording", {"step": step}, 0.5, "where the recording shows the press"))
    if hint.get("crop"):
        plans.insert(at, Plan("template", {"crop": str(Path(task_folder) / hint["crop"])}, 0.5, "recorded target's crop"))
    for plan in plans:
        yield plan


NEXT_TO_IT = re.compile(r"\b(?:next to|beside|by|near|alongside)\s+it\b", re.I)


def _after_words(plans: list[Plan]) -> int:
    """Where a fallback goes: after the plans the description's words made, before recorded positions."""
    return next((n for n, p in enumerate(plans) if not p.strategy.startswith(("text", "memory"))), len(plans))


async def _template_plan(tools: Toolbox, plan: Plan, screenshot: str, tried: list) -> Plan | None:
    """The template plan made concrete: the centre of the best match, if it is a good one."""
    if not Path(plan.args["crop"]).is_file():
        tried.append({"strategy": "template", "args": plan.args, "ok": False, "error": "no crop file"})
        return None
    m = await tools.call("metrics", "locate", template=plan.args["crop"], image=screenshot)
    if m["score"] < TEMPLATE_MIN_SCORE:
        tried.append({"strategy": "template", "args": plan.args, "ok": False,
                      "error": f"best match of the crop scores {m['score']:.3f} (matches nothing above {TEMPLATE_MIN_SCORE})"})
        return None
    return Plan("template", {"x": m["x"] + m["width"] / 2, "y": m["y"] + m["height"] / 2}, m["score"],
                f"crop matched with score {m['score']:.3f}")


async def _recorded_plan(tools: Toolbox, task: dict, task_folder: str, step: int, screenshot: str,
                         tried: list, unpictured: Callable[[str], Awaitable[str]] | None = None) -> Plan | None:
    """Where the recording shows the pointer pressing for this action, found on the page's screenshot by
    the original's patch around the press point; None (noted in `tried`) when there is no such press or no
    good match."""
    press, why = press_of(task, task_folder, step)
    if press is None:
        tried.append({"strategy": "recording", "args": {"step": step}, "ok": False, "error": f"no press in the recording: {why}"})
        return None
    patch, (dx, dy) = patch_file(press, Path(screenshot).parent, f"press_{step + 1}_{Path(screenshot).stem}", size_of(task))
    image = await unpictured(screenshot) if unpictured is not None else screenshot
    m = await tools.call("metrics", "locate", template=str(patch), image=image)
    where = {"step": step, "video_xy": [press.x, press.y], "time": round(press.time, 2)}
    if m["score"] < MIN_MATCH:
        tried.append({"strategy": "recording", "args": where, "ok": False, "error":
                      f"the page around the recording's press matches nothing above {MIN_MATCH} (best {m['score']:.3f})"})
        return None
    return Plan("recording", {"x": m["x"] + dx, "y": m["y"] + dy}, m["score"],
                f"the recording's press at {press.x},{press.y} ({press.time:.1f} s) matched with score {m['score']:.3f}")


def not_found(error: str) -> bool:
    return any(m in error for m in NOT_FOUND)


async def choose_option(tools: Toolbox, sid: str, target: dict, quotes: list[str],
                        named: list[str] | None = None, words: str = "") -> tuple[bool, str]:
    """'Choose 'February' from the 'Select month' dropdown': pick the quoted option the dropdown has
    (with `named`, in a dropdown that carries one of those names); where none is an option, the one the
    description's words name whole ("Open the 'Pick a movie' dropdown and choose Joker ($12)")."""
    errors = []
    for q in quotes:
        try:
            await tools.call("browser", "select", session=sid, label=q, **target, **({"named": named} if named else {}),
                             **({"within": words} if words else {}))
            return True, ""
        except ToolCallError as e:
            errors.append(str(e))
    return False, "; ".join(errors)


async def perform(tools: Toolbox, sid: str, kind: str, target: dict, text: str | None,
                  compat_clicks: bool = False, clear: bool = False, named: list[str] | None = None) -> tuple[bool, str]:
    """Click or type at a target; (success, reason). With `compat_clicks`, as in the reference code,
    a click that raised for any reason other than a missing element still counts as done. With
    `clear`, a Type replaces what the field holds. With `named`, only at an element that carries one
    of those names (the browser checks, and fails having done nothing)."""
    check = {"named": named} if named else {}
    try:
        if kind != "Type":
            await tools.call("browser", "click", session=sid, **target, **check)
        elif "x" in target:  # a position: focus by clicking there, then type into whatever has focus
            await tools.call("browser", "click", session=sid, **target, **check)
            if clear:
                await tools.call("browser", "press", session=sid, key="ControlOrMeta+A")
            await tools.call("browser", "type", session=sid, text=text)
        else:
            await tools.call("browser", "type", session=sid, text=text, clear=clear, **target, **check)
        return True, ""
    except ToolCallError as e:
        if compat_clicks and kind == "Click" and not not_found(str(e)):
            return True, ""
        return False, str(e)


async def attempt(call) -> tuple[bool, str]:
    try:
        await call
        return True, ""
    except ToolCallError as e:
        return False, str(e)


async def scroll(tools: Toolbox, sid: str, params: dict, height: int, min_px: float, compat: bool,
                 trace: dict) -> tuple[bool, str]:
    """Scroll as the action says (the reference, and `compat`, always scroll down half a viewport)."""
    direction = "down" if compat else (params.get("direction") or "down").lower()
    amount = height / 2 if compat else scroll_amount(params, height)
    if not compat and (end := to_the_end(params.get("description") or "")):  # "scroll to the bottom of the page"
        direction, amount = end, END_PX
    trace["grounding"] = {"strategy": "scroll", "target": {"direction": direction, "amount": amount}}
    try:
        out = await tools.call("browser", "scroll", session=sid, direction=direction, amount=amount)
    except ToolCallError as e:
        return False, str(e)
    d = out["detail"]
    moved = abs(d["scroll_y_after"] - d["scroll_y_before"]) + abs(d["scroll_x_after"] - d["scroll_x_before"])
    trace["did"] = d
    return (moved > min_px, "" if moved > min_px else f"page did not scroll ({moved:.0f} px)")


# "Scroll to the bottom of the page", "all the way up": the page's end, whatever the recorded amount (a
# person scrolls until there is no more); "to the bottom of the list" is not the page's.
TO_THE_END = re.compile(r"\b(?:to|until|reach(?:es|ing)?)\s+the\s+(?:very\s+)?(bottom|end|top|foot)\b(?!\s+of\s+(?:the|this|its|that)\s+"
                        r"(?!page|site|screen|window|document)\w)|\ball the way (down|up)\b", re.I)
END_PX = 100_000  # the wheel stops at the end


def to_the_end(description: str) -> str | None:
    """'down' or 'up' when the words scroll to the page's end or its top, else None."""
    m = TO_THE_END.search(description)
    if not m:
        return None
    return "up" if (m.group(1) or m.group(2)).lower() in ("top", "up") else "down"


def scroll_amount(params: dict, height: int) -> float:
    sp = (params.get("scroll_page") or "").strip().lower()
    try:
        return float(sp) * height if sp and float(sp) < 20 else (float(sp) if sp else height / 2)
    except ValueError:
        return {"half": height / 2, "one": height, "full": height, "page": height}.get(sp, height / 2)
