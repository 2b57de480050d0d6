"""The LLM judge's decisions (paper and hybrid profiles): grounding, key names, assertions, rubric.

Every decision is one litellm call with the page delimited as untrusted data, answered as a JSON
object. An API error is an infrastructure failure (`JudgeModelError`), never a verdict; an
unusable answer is asked once more, then treated as the protocol says for that decision.
Decisions are cached by the model layer's response cache, keyed by a hash of the whole request
(page, action, prompt and model), when the judge model's `cache_path` names one.
"""
from __future__ import annotations

import base64
import io
import json
import re
from importlib import resources

from PIL import Image

from iwr.agents.models import ModelConfig, ModelFailure, ModelUnavailable, complete, plus_cost
from iwr.agents.toolbox import InfrastructureError

PAGE_TAG = re.compile(r"</?\s*page_data", re.IGNORECASE)
RUBRIC = {"layout": 10, "elements": 15, "content": 40, "style": 15, "overall": 20}


class JudgeModelError(InfrastructureError):
    """The judge's model could not be reached or kept answering garbage: not a verdict."""


def prompt(name: str, **fields) -> str:
    text = resources.files("iwr.graphs").joinpath("judge_prompts", f"{name}.md").read_text(encoding="utf-8")
    return text.format(**fields) if fields else text


def untrusted(text: str, limit: int = 12_000) -> str:
    """Page text made safe to place inside <page_data>: it cannot close or reopen the block."""
    return PAGE_TAG.sub(lambda m: m.group(0).replace("<", "&lt;"), text[:limit])


def image_part(path: str, max_side: int = 1280) -> dict:
    with Image.open(path) as im:
        view = im.convert("RGB")
        view.thumbnail((max_side, max_side))
        buf = io.BytesIO()
        view.save(buf, "JPEG", quality=85)
    return {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode()}}


def json_answer(text: str) -> dict | None:
    """The first JSON object in a model's answer (fences and prose around it allowed): the JSON decoder
    tried at each '{' in turn, so braces inside strings are the decoder's business, not ours."""
    decoder, start = json.JSONDecoder(), text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
            return value if isinstance(value, dict) else None
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
    return None


def element_lines(elements: list[dict]) -> str:
    return "\n".join(f"[{e['ref']}] {e.get('role') or e.get('tag', '')} \"{(e.get('name') or '')[:80]}\""
                     f" {(e.get('text') or '')[:80]!r}" for e in elements) or "(none)"


class LlmJudge:
    """The judge's model; counts calls, cached answers, tokens and cost for the result."""

    def __init__(self, model: ModelConfig):
        self.model = model
        self.usage = {"calls": 0, "cached": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}

    async def ask(self, kind: str, text: str, images: list[str] = (), check=None) -> dict | None:
        """One decision: the parsed JSON answer, or None when the model answered garbage twice.

        `check(answer)` says whether an answer is usable; raises JudgeModelError on API errors."""
        content = [{"type": "text", "text": text}] + [image_part(p) for p in images]
        messages = [{"role": "system", "content": prompt("system")}, {"role": "user", "content": content}]
        for attempt in range(2):
            try:
                reply = await complete(messages, self.model)
            except ModelUnavailable as e:
                raise JudgeModelError(f"judge model unavailable ({kind}): {e}") from e
            except ModelFailure:
                answer = None
            else:
                self._count(reply)
                answer = json_answer(reply.text)
            if answer is not None and (check is None or check(answer)):
                return answer
            messages = messages + [{"role": "user", "content": "Answer with only the JSON object asked for."}]
        return None

    def _count(self, reply) -> None:
        u = self.usage
        u["calls"] += 1
        u["cached"] += int(reply.cached)
        u["prompt_tokens"] += reply.prompt_tokens
        u["completion_tokens"] += reply.completion_tokens
        u["cost_usd"] = plus_cost(u["cost_usd"], reply.cost_usd)

    async def ground(self, action_type: str, description: str, tree: str, elements: list[dict],
                     boxed: str | None = None) -> dict:
        """{"index": ref or -1, "text": typed text (Type)}; with `boxed`, the screenshot variant."""
        refs = {e["ref"] for e in elements}
        type_field = ', "text": "<the text to type>"' if action_type == "Type" else ""
        fields = dict(action_type=action_type, description=description, elements=untrusted(element_lines(elements)),
                      type_field=type_field)
        if boxed:
            answer = await self.ask("ground_visual", prompt("ground_visual", **fields), [boxed], _index_ok(refs))
        else:
            answer = await self.ask("ground", prompt("ground", tree=untrusted(tree), **fields), (), _index_ok(refs))
        if answer is None:
            return {"index": -1, "unparsed": True}
        return {"index": int(answer["index"]), "text": answer.get("text")}

    async def press_key(self, description: str) -> str | None:
        answer = await self.ask("press_key", prompt("press_key", description=description),
                                check=lambda a: isinstance(a.get("key"), str) and a["key"].strip())
        return answer["key"].strip() if answer else None

    async def assertion(self, description: str, statement: str, before: str, after: str) -> dict | None:
        """{"passed", "reason"} from the before/after screenshots, or None for an unusable answer."""
        answer = await self.ask("assertion", prompt("assertion", description=description, assertion=statement),
                                [before, after], check=lambda a: str(a.get("answer", "")).strip().lower() in ("yes", "no"))
        if answer is None:
            return None
        return {"passed": str(answer["answer"]).strip().lower() == "yes", "reason": str(answer.get("reason", ""))[:300]}

    async def rubric(self, reference: str, candidate: str) -> dict | None:
        """The 100-point visual rubric as a 0..1 score with its parts, or None for an unusable answer."""
        answer = await self.ask("rubric", prompt("rubric"), [reference, candidate], check=_rubric_ok)
        if answer is None:
            return None
        parts = {k: max(0.0, min(float(answer[k]), top)) for k, top in RUBRIC.items()}
        return {"value": round(sum(parts.values()) / 100.0, 6), "parts": parts}


def _index_ok(refs: set[int]):
    def ok(a: dict) -> bool:
        try:
            i = int(a.get("index"))
        except (TypeError, ValueError):
            return False
        return i == -1 or i in refs
    return ok


def _rubric_ok(a: dict) -> bool:
    try:
        return all(isinstance(float(a[k]), float) for k in RUBRIC)
    except (KeyError, TypeError, ValueError):
        return False
