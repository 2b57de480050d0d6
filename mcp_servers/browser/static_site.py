"""Serve one folder on 127.0.0.1 so a page gets a real origin of its own (own storage per task)."""
from __future__ import annotations

import datetime as dt
import email.utils
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _Handler(SimpleHTTPRequestHandler):
    offset_s = 0.0  # the page's clock minus the real time (disguise.py): the server dates by the page's clock

    def log_message(self, format, *args):  # noqa: A002 - keep stdout/stderr clean
        pass

    def date_time_string(self, timestamp=None):
        # The Date header tells the time by the page's clock: a page comparing it with Date.now() learns
        # nothing. (Last-Modified, the file's real time, is not sent; see send_header.)
        return super().date_time_string((time.time() if timestamp is None else timestamp) + self.offset_s)

    def send_header(self, keyword, value):
        if keyword.lower() != "last-modified":
            super().send_header(keyword, value)

    def send_head(self):
        # A page's own If-Modified-Since is a time by its clock; the file's is real.
        since = self.headers.get("If-Modified-Since")
        if since and self.offset_s:
            try:
                when = email.utils.parsedate_to_datetime(since)
                moved = when.replace(tzinfo=when.tzinfo or dt.timezone.utc).timestamp() - self.offset_s
            except (TypeError, ValueError, IndexError, OverflowError):
                moved = None
            if moved is not None:
                del self.headers["If-Modified-Since"]
                self.headers["If-Modified-Since"] = email.utils.formatdate(moved, usegmt=True)
        return super().send_head()

    def translate_path(self, path: str) -> str:
        # Refuse anything (e.g. a symbolic link) that resolves outside the served folder.
        local = Path(super().translate_path(path)).resolve()
        root = Path(self.directory).resolve()
        if local != root and root not in local.parents:
            return str(root / "__outside_refused__")
        return str(local)

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        # Requests from workers (shared and service workers, and sockets they open) bypass the
        # browser's request routing, where outside requests are blocked and counted, so the page
        # may not start any. A generated single-file page has no use for them. WebSockets bypass it
        # too (routing them would leave Playwright's bindings in the page, a tell of the judge), so
        # the page connects to its own origin only; the outside was fenced by the proxy already,
        # and another loopback port may be a server holding the answers.
        self.send_header("Content-Security-Policy", "worker-src 'none'; connect-src 'self'")
        super().end_headers()


class StaticSite:
    """A threaded static file server for one folder; `url` is its base. `offset_ms` is the page's clock
    minus the real time, which its Date headers follow."""

    def __init__(self, root: Path, offset_ms: int | None = None):
        self.root = Path(root).resolve()
        self._dated = type("Handler", (_Handler,), {"offset_s": (offset_ms or 0) / 1000})
        handler = partial(self._dated, directory=str(self.root))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        # shutdown() waits for the serve loop to look up; at the default half second that wait
        # blocked the browser server's event loop on every close.
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()

    def redate(self, offset_ms: int) -> None:
        """Date the replies by a page clock moved anew (a page loaded again starts its clock again)."""
        self._dated.offset_s = offset_ms / 1000

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
