"""A small OpenAI-compatible chat server on 127.0.0.1 for tests: scripted replies and faults."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeOpenAI:
    """Answers /v1/chat/completions from `replies` in order; a reply may be a fault:
    {"status": 429} or {"status": 500} (error response), {"sleep": seconds} (slow), a dict with
    "tool_calls" (a tool-calling turn), else a string."""

    def __init__(self) -> None:
        self.replies: list = []
        self.default = "```html\n<!doctype html><html><body><h1>Hello</h1></body></html>\n```"
        self.requests: list[dict] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                fake.requests.append(body)
                reply = fake.replies.pop(0) if fake.replies else fake.default
                if isinstance(reply, dict) and "sleep" in reply:
                    time.sleep(reply["sleep"])
                    reply = reply.get("then", fake.default)
                if isinstance(reply, dict) and "status" in reply:
                    data = json.dumps({"error": {"message": "scripted fault", "type": "server_error"}}).encode()
                    self.send_response(reply["status"])
                else:
                    msg = {"role": "assistant", "content": reply}
                    if isinstance(reply, dict):  # {"content": ..., "tool_calls": [{"name", "arguments"}]}
                        msg = {"role": "assistant", "content": reply.get("content"),
                               "tool_calls": [{"id": f"call_{len(fake.requests)}_{i}", "type": "function",
                                               "function": {"name": c["name"], "arguments": json.dumps(c.get("arguments", {}))}}
                                              for i, c in enumerate(reply.get("tool_calls", []))]}
                    data = json.dumps({"id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                                       "model": body.get("model", "fake"),
                                       "choices": [{"index": 0, "message": msg, "finish_reason": "stop"}],
                                       "usage": {"prompt_tokens": 120, "completion_tokens": 40, "total_tokens": 160}}).encode()
                    self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
