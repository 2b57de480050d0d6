"""Tokens and cost as an outside agent reports them in its own JSON output (stdout, a JSON document or
JSON lines): Claude Code's result object, Codex CLI's `turn.completed` events, Gemini CLI's stats, and
any OpenAI-style `usage` block. Nothing is guessed: an agent that prints none has no usage."""
from __future__ import annotations

import json


def _objects(text: str) -> list[dict]:
    """Every JSON object in `text`: the whole of it, or one per line."""
    try:
        whole = json.loads(text)
        return [whole] if isinstance(whole, dict) else [x for x in whole if isinstance(x, dict)] if isinstance(whole, list) else []
    except ValueError:
        pass
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                out.append(obj)
    return out


def _int(x) -> int:
    return int(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else 0


def usage_from_output(text: str) -> dict:
    """{prompt_tokens, completion_tokens, cost_usd?, turns?, source} from the agent's output, or {}."""
    prompt = completion = 0
    cost, turns, sources = None, None, set()
    for o in _objects(text):
        u = o.get("usage") if isinstance(o.get("usage"), dict) else None
        if o.get("type") == "result" and ("total_cost_usd" in o or u is not None):  # Claude Code
            u = u or {}
            prompt += _int(u.get("input_tokens")) + _int(u.get("cache_read_input_tokens")) + _int(
                u.get("cache_creation_input_tokens"))
            completion += _int(u.get("output_tokens"))
            if isinstance(o.get("total_cost_usd"), (int, float)):
                cost = (cost or 0.0) + float(o["total_cost_usd"])
            turns = _int(o.get("num_turns")) or turns
            sources.add("claude-code result")
        elif o.get("type") == "turn.completed" and u is not None:  # Codex CLI exec --json
            prompt += _int(u.get("input_tokens"))
            completion += _int(u.get("output_tokens"))
            turns = (turns or 0) + 1
            sources.add("codex turn.completed")
        elif isinstance(o.get("stats"), dict) and isinstance(o["stats"].get("models"), dict):  # Gemini CLI
            for m in o["stats"]["models"].values():
                t = (m or {}).get("tokens") or {}
                prompt += _int(t.get("prompt"))
                completion += _int(t.get("candidates"))
            sources.add("gemini stats")
        elif isinstance(o.get("final_metrics"), dict) and "total_prompt_tokens" in o["final_metrics"]:  # ATIF
            prompt += _int(o["final_metrics"].get("total_prompt_tokens"))
            completion += _int(o["final_metrics"].get("total_completion_tokens"))
            sources.add("trajectory final_metrics")
        elif u is not None and ("prompt_tokens" in u or "completion_tokens" in u):  # OpenAI style
            prompt += _int(u.get("prompt_tokens"))
            completion += _int(u.get("completion_tokens"))
            sources.add("usage")
    if not sources:
        return {}
    out = {"prompt_tokens": prompt, "completion_tokens": completion, "source": ", ".join(sorted(sources))}
    if cost is not None:
        out["cost_usd"] = round(cost, 6)
    if turns is not None:
        out["turns"] = turns
    return out
