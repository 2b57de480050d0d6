"""A scripted model for third-party agent clients, on 127.0.0.1: the OpenAI Responses API as Codex CLI
streams it (POST /v1/responses, server-sent events) and Anthropic's Messages API as Claude Code
streams it (POST /v1/messages).

The script is a list of steps, each {"tool": NAME, "args": {...}} (call the offered tool whose name
ends with NAME, an iwr one first) or {"text": "..."} (answer and stop). Which step answers a request
is read off the request itself, by the number of tool results its conversation already holds, so a
client's retries or side requests cannot shift the script. Every request body is kept in `requests`.
"""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USAGE = {"input_tokens": 120, "output_tokens": 40}


def offered(body: dict) -> list[tuple[str, str]]:
    """(namespace, tool name) of every tool in a request; Codex groups an MCP server's tools in a namespace."""
    out = []
    for t in body.get("tools") or []:
        if t.get("type") == "namespace":
            out += [(t.get("name", ""), sub.get("name", "")) for sub in t.get("tools") or []]
        elif "name" in t:
            out.append(("", t["name"]))
    return out


def results_so_far(body: dict) -> int:
    if isinstance(body.get("input"), list):  # Responses
        return sum(1 for it in body["input"] if isinstance(it, dict) and it.get("type") == "function_call_output")
    return sum(1 for m in body.get("messages") or [] if isinstance(m.get("content"), list)  # Messages
               for c in m["content"] if isinstance(c, dict) and c.get("type") == "tool_result")


class AgentModelServer:
    def __init__(self, steps: list[dict]):
        self.steps, self.requests = steps, []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                self._json({"object": "list", "data": [{"id": "scripted", "object": "model"}]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                server.requests.append({"path": self.path, "body": body})
                step = server.step_for(body)
                if self.path.split("?")[0].endswith("/responses"):
                    self._sse(responses_events(step, len(server.requests)))
                elif self.path.split("?")[0].endswith("/messages"):
                    self._sse(messages_events(step, len(server.requests), body.get("model", "scripted")))
                else:
                    self.send_error(404)

            def _json(self, obj):
                data = json.dumps(obj).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, events):
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                self.close_connection = True
                for name, obj in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(obj)}\n\n".encode())
                self.wfile.flush()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "AgentModelServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def step_for(self, body: dict) -> dict:
        """The scripted reply to this request: {"text"} or {"namespace", "tool", "args"}."""
        i = results_so_far(body)
        step = self.steps[i] if i < len(self.steps) else {"text": "Done."}
        if "tool" not in step:
            return step
        names = sorted((n for n in offered(body) if n[1].endswith(step["tool"])),
                       key=lambda n: ("iwr" not in (n[0] + n[1]), -len(n[1])))
        if not names:
            return {"text": f"no offered tool ends with {step['tool']!r}"}
        return {"namespace": names[0][0], "tool": names[0][1], "args": step.get("args", {})}


def responses_events(step: dict, n: int):
    if "tool" in step:
        item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": step["tool"],
                "arguments": json.dumps(step["args"]), "status": "completed"}
        if step["namespace"]:
            item["namespace"] = step["namespace"]
    else:
        item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": step["text"], "annotations": []}]}
    usage = {**USAGE, "total_tokens": sum(USAGE.values()), "input_tokens_details": {"cached_tokens": 0},
             "output_tokens_details": {"reasoning_tokens": 0}}
    yield "response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}
    yield "response.completed", {"type": "response.completed", "response": {"id": f"resp_{n}", "usage": usage}}


def messages_events(step: dict, n: int, model: str):
    stop = "tool_use" if "tool" in step else "end_turn"
    message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": model, "content": [],
               "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": USAGE["input_tokens"],
                                                                      "output_tokens": 1}}
    yield "message_start", {"type": "message_start", "message": message}
    if "tool" in step:
        block = {"type": "tool_use", "id": f"toolu_{n}", "name": step["tool"], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(step["args"])}
    else:
        block, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": step["text"]}
    yield "content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}
    yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
    yield "content_block_stop", {"type": "content_block_stop", "index": 0}
    yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                            "usage": {"output_tokens": USAGE["output_tokens"]}}
    yield "message_stop", {"type": "message_stop"}


if __name__ == "__main__":  # python agent_model_server.py STEPS.json URL_FILE LOG.jsonl: serve until killed
    import sys
    import time
    from pathlib import Path

    steps_file, url_file, log_file = sys.argv[1:4]
    with AgentModelServer(json.loads(Path(steps_file).read_text())) as srv:
        Path(url_file).write_text(srv.url)
        seen = 0
        while True:
            time.sleep(0.2)
            if len(srv.requests) > seen:
                with open(log_file, "a") as f:
                    for r in srv.requests[seen:]:
                        f.write(json.dumps(r) + "\n")
                seen = len(srv.requests)
