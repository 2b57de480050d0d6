"""Model access: litellm for every provider, plus a scripted model for tests and examples.

`model="openai/<name>"` with `api_base` reaches any OpenAI-compatible server (vLLM, Ollama, a
local fake). `model="scripted:<file>"` answers from a file without any network.
"""
from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

from pydantic import BaseModel, Field

from iwr.agents.response_cache import request_key, response_cache
from iwr.settings import settings

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # litellm reaches for the network otherwise


class ModelConfig(BaseModel):
    """Which model to call and how."""

    model: str = Field(description="litellm model name, or scripted:<file>; empty: an outside agent's own "
                       "model, priced by price_in/price_out")
    api_base: str | None = Field(None, description="base URL of an OpenAI-compatible server")
    api_key: str | None = Field(None, description="API key; default: the provider's usual environment variable")
    temperature: float = Field(0.0, description="sampling temperature; the paper uses 0")
    max_tokens: int = Field(16_000, description="answer length limit")
    timeout_s: float = Field(600.0, description="limit for one call")
    retries: int = Field(3, description="retries on rate limits, server errors and timeouts")
    backoff_s: float = Field(0.5, description="delay before the first retry, doubled for each next one (at most 30 s)")
    cache_path: str | None = Field(None, description="response cache file; None: $IWR_RESPONSE_CACHE, else no cache; 'off': none")
    price_in: float | None = Field(None, description="US dollars per million prompt tokens (with price_out: instead of "
                                   "litellm's price map, which knows no local model)")
    price_out: float | None = Field(None, description="US dollars per million completion tokens")

    def priced(self) -> bool:
        return self.price_in is not None or self.price_out is not None

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """What the given tokens cost at this configuration's own prices."""
        return round((prompt_tokens * (self.price_in or 0.0) + completion_tokens * (self.price_out or 0.0)) / 1e6, 8)


def model_name(config: ModelConfig | None) -> str | None:
    """The model a configuration names, or None (none, or an outside agent's own default model)."""
    return (config.model or None) if config is not None else None


def plus_cost(a: float | None, b: float | None) -> float | None:
    """A sum of dollar amounts in which one unknown (None) makes the sum unknown."""
    return None if a is None or b is None else round(a + b, 8)


class ToolCall(BaseModel):
    """A tool the model asked for, with its arguments (parsed when they are valid JSON)."""

    id: str
    name: str
    arguments: dict = Field(default_factory=dict)
    error: str | None = Field(None, description="why the arguments could not be parsed, if they could not")


class Reply(BaseModel):
    """One model answer with what it cost."""

    text: str
    model: str
    tool_calls: list[ToolCall] = Field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = Field(0.0, description="US dollars; None when no price is known for the model")
    latency_s: float = 0.0
    finish_reason: str | None = Field(None, description="why the model stopped: stop, length (truncated), tool_calls")
    cached: bool = Field(False, description="answered from the response cache (so it cost nothing now)")


class ModelFailure(RuntimeError):
    """The model answered, but unusably (refused, empty, malformed): the task scores 0."""


class ModelUnavailable(RuntimeError):
    """The model could not be reached after retries: an infrastructure failure, never a 0."""


class ScriptedModel:
    """Answers from a file: an .html file (always that page) or a JSON/YAML list of replies in order."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise ModelUnavailable(f"scripted model file not found: {self.path}")
        text = self.path.read_text(encoding="utf-8")
        if self.path.suffix.lower() in (".html", ".htm"):
            self.replies = None
            self.page = text
        else:
            import yaml

            data = json.loads(text) if self.path.suffix == ".json" else yaml.safe_load(text)
            if not isinstance(data, list):
                raise ModelUnavailable(f"{self.path}: a scripted model file must hold a list of replies")
            self.replies = [x if isinstance(x, dict) else str(x) for x in data]
        self.calls = 0
        self.seen: list[list[dict]] = []

    def answer(self, messages: list[dict]) -> str | dict:
        """The next reply: a string, or a dict {"content": ..., "tool_calls": [{"name", "arguments"}]}.

        A dict reply may carry "expect": text the request must contain (a script that drifted from
        the conversation fails loudly instead of answering the wrong question), and "error": a
        message raised as ModelUnavailable (an API error)."""
        self.seen.append(messages)
        self.calls += 1
        self._log(messages)
        if self.replies is None:
            return "```html\n" + self.page + "\n```"
        if self.calls > len(self.replies):
            raise ModelFailure(f"{self.path}: script has only {len(self.replies)} replies")
        reply = self.replies[self.calls - 1]
        if isinstance(reply, dict):
            expect = reply.get("expect")
            if expect and expect not in request_text(messages):
                raise ModelFailure(f"{self.path}: reply {self.calls} expects a request containing {expect!r}")
            if reply.get("error"):
                raise ModelUnavailable(f"scripted API error: {reply['error']}")
        return reply

    def _log(self, messages: list[dict]) -> None:
        """Append what the model saw (text, images as a marker) to the file named by
        IWR_SCRIPTED_SEEN, for tests that run the model in another process."""
        log = settings().scripted_seen
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"script": str(self.path), "call": self.calls, "text": request_text(messages)}) + "\n")


def request_text(messages: list[dict]) -> str:
    """The text of a request, images replaced by "[image]"."""
    parts = []
    for m in messages:
        content = m.get("content")
        items = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
        for item in items:
            parts.append(item.get("text", "") if item.get("type") == "text" else "[image]")
    return "\n".join(parts)


_scripted: dict[str, ScriptedModel] = {}


def scripted(name: str) -> ScriptedModel:
    """The scripted model for `scripted:<file>` (one instance per file per process)."""
    path = name.split(":", 1)[1]
    if path not in _scripted:
        _scripted[path] = ScriptedModel(path)
    return _scripted[path]


def parse_tool_calls(raw: list) -> list[ToolCall]:
    """Tool calls from an OpenAI-style message; bad JSON arguments are kept as an error, not raised."""
    out = []
    for n, tc in enumerate(raw or []):
        fn = tc.get("function", tc) if isinstance(tc, dict) else getattr(tc, "function", tc)
        get = (lambda k: fn.get(k)) if isinstance(fn, dict) else (lambda k: getattr(fn, k, None))
        args, err = get("arguments"), None
        if isinstance(args, str):
            try:
                args = json.loads(args or "{}")
            except json.JSONDecodeError as e:
                args, err = {}, f"arguments are not valid JSON: {e.msg}"
        if not isinstance(args, dict):
            args, err = {}, "arguments must be a JSON object"
        tid = (tc.get("id") if isinstance(tc, dict) else getattr(tc, "id", None)) or f"call_{n}"
        out.append(ToolCall(id=tid, name=str(get("name") or ""), arguments=args, error=err))
    return out


async def complete(messages: list[dict], cfg: ModelConfig, tools: list[dict] | None = None) -> Reply:
    """One chat completion (optionally offering tools); retries transient errors with backoff,
    then raises ModelUnavailable. With a response cache, an identical request is answered from it."""
    started = time.monotonic()
    if cfg.model.startswith("scripted:"):
        ans = scripted(cfg.model).answer(messages)
        if isinstance(ans, dict):
            return Reply(text=str(ans.get("content") or ""), model=cfg.model,
                         tool_calls=parse_tool_calls(ans.get("tool_calls")), latency_s=time.monotonic() - started)
        return Reply(text=ans, model=cfg.model, latency_s=time.monotonic() - started)
    cache = response_cache(cfg.cache_path)
    key = request_key(cfg.model, cfg.api_base, messages, tools, cfg.temperature, cfg.max_tokens) if cache else ""
    if cache and (hit := cache.get(key)) is not None:
        return Reply(**{**hit, "cached": True, "cost_usd": 0.0, "latency_s": 0.0})
    reply = await _litellm_complete(messages, cfg, tools, started)
    if cache and (reply.text.strip() or reply.tool_calls):  # an empty answer may be a glitch: ask again next time
        cache.put(key, cfg.model, reply.model_dump())
    return reply


async def _litellm_complete(messages: list[dict], cfg: ModelConfig, tools: list[dict] | None, started: float) -> Reply:
    import litellm

    litellm.suppress_debug_info = True
    transient = (litellm.RateLimitError, litellm.InternalServerError, litellm.ServiceUnavailableError,
                 litellm.Timeout, litellm.APIConnectionError, litellm.BadGatewayError)
    api_key = cfg.api_key
    if api_key is None and cfg.api_base and not os.environ.get("OPENAI_API_KEY"):
        api_key = "no-key"  # local OpenAI-compatible servers ignore the key, but the client insists on one
    last: Exception | None = None
    for attempt in range(cfg.retries + 1):
        try:
            extra = {"tools": tools} if tools else {}
            resp = await litellm.acompletion(model=cfg.model, messages=messages, temperature=cfg.temperature, **extra,
                                             max_tokens=cfg.max_tokens, api_base=cfg.api_base, api_key=api_key, max_retries=0, num_retries=0,
                                             timeout=cfg.timeout_s)
            break
        except transient as e:
            last = e
            if attempt < cfg.retries:
                await asyncio.sleep(min(30.0, cfg.backoff_s * 2 ** attempt))
        except (litellm.AuthenticationError, litellm.NotFoundError) as e:
            raise ModelUnavailable(f"{cfg.model}: {type(e).__name__}: {str(e)[:300]}") from e
        except litellm.BadRequestError as e:
            raise ModelFailure(f"{cfg.model} rejected the request: {str(e)[:300]}") from e
    else:
        raise ModelUnavailable(f"{cfg.model}: {type(last).__name__} after {cfg.retries + 1} attempts: {str(last)[:300]}")
    msg = resp.choices[0].message if resp.choices else None
    text = (msg.content or "") if msg is not None else ""
    calls = parse_tool_calls(getattr(msg, "tool_calls", None) or []) if msg is not None else []
    usage = getattr(resp, "usage", None)
    prompt, completion = getattr(usage, "prompt_tokens", 0) or 0, getattr(usage, "completion_tokens", 0) or 0
    if cfg.priced():
        cost = cfg.cost(prompt, completion)
    else:
        try:
            cost = float(litellm.completion_cost(completion_response=resp))
        except Exception:  # a model litellm's price map does not know (any local one): unknown, not $0
            cost = None
    return Reply(text=text, model=cfg.model, tool_calls=calls, prompt_tokens=prompt, completion_tokens=completion, cost_usd=cost,
                 latency_s=time.monotonic() - started,
                 finish_reason=getattr(resp.choices[0], "finish_reason", None) if resp.choices else None)
