"""Grounding a Click/Type with the judge's model, as the paper does: first the accessibility tree
and an indexed element list, then, if that finds nothing, a screenshot with the elements boxed
and labelled by index. Type takes the text the model extracts from the description.
"""
from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from iwr.agents.toolbox import Toolbox
from iwr.graphs.act_offline import perform
from iwr.graphs.grounding import type_text_of
from iwr.graphs.judge_llm import LlmJudge


async def llm_ground_and_do(tools: Toolbox, llm: LlmJudge, sid: str, action: dict, step: int, trace: dict,
                            compat_clicks: bool = False, tried: list | None = None) -> tuple[bool, str]:
    """Ground with the model and perform; (success, reason). Fills trace["grounding"]."""
    kind, params = action["type"], action["parameters"]
    description = params.get("description", "")
    tried = tried if tried is not None else []
    elements = await tools.call("browser", "elements", session=sid)
    tree = (await tools.call("browser", "snapshot", session=sid, max_chars=12_000)).get("tree", "")
    answer = await llm.ground(kind, description, str(tree), elements)
    tried.append({"strategy": "llm.tree", "answer": answer})
    strategy = "llm.tree"
    if answer["index"] == -1:
        boxed = await boxed_screenshot(tools, sid, elements, f"step_{step}_boxes")
        answer = await llm.ground(kind, description, str(tree), elements, boxed=boxed)
        tried.append({"strategy": "llm.screenshot", "answer": answer, "screenshot": boxed})
        strategy = "llm.screenshot"
    if answer["index"] == -1:
        trace["grounding"] = {"strategy": "none", "tried": tried}
        return False, "element not found: the judge model found no element matching the description"
    text = None
    if kind == "Type":
        text = answer.get("text") or type_text_of(description, params.get("text"))
        if not text:
            trace["grounding"] = {"strategy": strategy, "target": {"ref": answer["index"]}, "tried": tried}
            return False, "no text to type: the judge model extracted none"
    ok, why = await perform(tools, sid, kind, {"ref": answer["index"]}, text, compat_clicks)
    trace["grounding"] = {"strategy": strategy, "target": {"ref": answer["index"]}, "typed": text, "tried": tried}
    return ok, why


async def boxed_screenshot(tools: Toolbox, sid: str, elements: list[dict], name: str) -> str:
    """A screenshot of the page with every listed element outlined and labelled with its index."""
    shot = await tools.call("browser", "screenshot", session=sid, name=name)
    path = Path(shot["path"])
    out = path.with_name(path.stem + "_boxed.png")
    with Image.open(path) as im:
        img = im.convert("RGB")
    draw = ImageDraw.Draw(img)
    for e in elements:
        x, y, w, h = e.get("bbox") or (0, 0, 0, 0)
        if w <= 0 or h <= 0:
            continue
        draw.rectangle([x, y, x + w, y + h], outline=(255, 0, 40), width=2)
        label = str(e["ref"])
        tx, ty = x, max(0, y - 12)
        draw.rectangle([tx, ty, tx + 7 * len(label) + 4, ty + 12], fill=(255, 0, 40))
        draw.text((tx + 2, ty), label, fill=(255, 255, 255))
    img.save(out)
    return str(out)
