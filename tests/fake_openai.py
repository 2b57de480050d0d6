"""A small OpenAI-compatible chat server on 127.0.0.1 for tests: scripted replies and faults."""
from __future__ import annotations

import json
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeOpenAI:
    """Answers /v1/chat/completions from `replies` in order; a reply may be a fault:
    {"status": 429} or {"status": 500} (error response), {"sleep": seconds} (slow),
    {"reset": True} (the connection is reset without an answer), {"body": "..."} (a raw 200 body,
    e.g. invalid JSON), a dict with "content", "tool_calls" and/or "finish_reason" (a tool call's
    "raw_arguments" is sent verbatim, e.g. invalid JSON), a function of the request body returning
    one of these, else a string."""

    def __init__(self) -> None:
        self.replies: list = []
        self.default = "```html\n<!doctype html><html><body><h1>Hello</h1></body></html>\n```"
        self.requests: list[dict] = []
        self.times: list[float] = []  # when each request arrived (time.monotonic), to check the backoff
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                fake.requests.append(body)
                fake.times.append(time.monotonic())
                reply = fake.replies.pop(0) if fake.replies else fake.default
                if callable(reply):  # a reply that depends on the request (e.g. an element index in it)
                    reply = reply(body)
                if isinstance(reply, dict) and "sleep" in reply:
                    time.sleep(reply["sleep"])
                    reply = reply.get("then", fake.default)
                if isinstance(reply, dict) and reply.get("reset"):
                    # SO_LINGER 0 makes close() send a TCP RST: the client sees a reset, not a clean end
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                    self.close_connection = True
                    return
                if isinstance(reply, dict) and "status" in reply:
                    data = json.dumps({"error": {"message": "scripted fault", "type": "server_error"}}).encode()
                    self.send_response(reply["status"])
                elif isinstance(reply, dict) and "body" in reply:
                    data = reply["body"].encode()
                    self.send_response(200)
                else:
                    data = json.dumps(completion(reply, body.get("model", "fake"), len(fake.requests))).encode()
                    self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except OSError:  # the client gave up (a timeout test): nothing to answer
                    self.close_connection = True

            def finish(self):
                try:
                    super().finish()
                except (OSError, ValueError):  # the socket was reset or closed on purpose
                    pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # faults are deliberate; tests assert on `requests`, not on server noise

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def completion(reply, model: str, n: int) -> dict:
    """An OpenAI chat.completion body for a scripted reply (a string or a dict)."""
    msg = {"role": "assistant", "content": reply}
    finish = "stop"
    if isinstance(reply, dict):  # {"content": ..., "tool_calls": [{"name", "arguments"}], "finish_reason": ...}
        calls = [{"id": f"call_{n}_{i}", "type": "function",
                  "function": {"name": c["name"], "arguments": c["raw_arguments"] if "raw_arguments" in c
                               else json.dumps(c.get("arguments", {}))}}
                 for i, c in enumerate(reply.get("tool_calls", []))]
        msg = {"role": "assistant", "content": reply.get("content")}
        if "refusal" in reply:
            msg["refusal"] = reply["refusal"]
        if calls:
            msg["tool_calls"] = calls
        finish = reply.get("finish_reason", "tool_calls" if calls else "stop")
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 40, "total_tokens": 160}}
