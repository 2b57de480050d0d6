"""A loopback server that speaks the Hugging Face Hub's file API (what huggingface_hub calls for
repo_info, list_repo_tree and hf_hub_download), for tests: repositories are folders of bytes at
commits, and a file may be cut off once mid-way to test a resumed download."""
from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

KINDS = {"datasets": "datasets/", "models": ""}  # the API's kind -> the prefix of its file URLs


class FakeHub:
    def __init__(self) -> None:
        self.repos: dict[tuple[str, str], dict] = {}  # (kind, id) -> {"refs": {name: commit}, "commits": {commit: files}}
        self.cut: dict[str, int] = {}  # path -> bytes sent before the connection drops (once)
        self.requests: list[tuple[str, str, str | None]] = []  # (method, path, Range header)
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_HEAD(self):
                hub._serve(self, body=False)

            def do_GET(self):
                hub._serve(self, body=True)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def add(self, kind: str, repo: str, files: dict[str, bytes], ref: str = "main") -> str:
        """A new commit of `repo` holding `files`, which `ref` then names; returns the commit."""
        commit = hashlib.sha1(json.dumps([repo, sorted((k, hashlib.sha1(v).hexdigest()) for k, v in files.items())])
                              .encode()).hexdigest()
        entry = self.repos.setdefault((kind, repo), {"refs": {}, "commits": {}})
        entry["commits"][commit] = dict(files)
        entry["refs"][ref] = commit
        return commit

    def add_folder(self, kind: str, repo: str, folder: Path, ref: str = "main") -> str:
        return self.add(kind, repo, {p.relative_to(folder).as_posix(): p.read_bytes()
                                     for p in sorted(folder.rglob("*")) if p.is_file()}, ref)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # --- the API ------------------------------------------------------------------------------------

    def _resolve(self, kind: str, repo: str, rev: str) -> tuple[str | None, dict | None, str]:
        entry = self.repos.get((kind, repo))
        if entry is None:
            return None, None, "RepoNotFound"
        commit = entry["refs"].get(rev, rev)
        files = entry["commits"].get(commit)
        return (commit, files, "") if files is not None else (None, None, "RevisionNotFound")

    def _serve(self, h: BaseHTTPRequestHandler, body: bool) -> None:
        path = unquote(urlsplit(h.path).path)
        self.requests.append((h.command, path, h.headers.get("Range")))
        api = re.fullmatch(r"/api/(datasets|models)/([^/]+/[^/]+)/(revision|tree)/([^/]+)(?:/.*)?", path)
        if api:
            kind, repo, what, rev = api.groups()
            commit, files, error = self._resolve(kind, repo, rev)
            if error:
                return self._send(h, 404, b"{}", {"X-Error-Code": error}, body)
            if what == "revision":
                info = {"id": repo, "sha": commit, "private": False, "siblings": [{"rfilename": f} for f in files]}
            else:
                info = [{"type": "file", "path": f, "size": len(b), "oid": hashlib.sha1(b).hexdigest()}
                        for f, b in sorted(files.items())]
            return self._send(h, 200, json.dumps(info).encode(), {"Content-Type": "application/json"}, body)
        for kind, prefix in KINDS.items():
            got = re.fullmatch(rf"/{prefix}([^/]+/[^/]+)/resolve/([^/]+)/(.+)", path)
            if got and (kind, got.group(1)) in self.repos:
                commit, files, error = self._resolve(kind, got.group(1), got.group(2))
                data = (files or {}).get(got.group(3))
                if data is None:
                    return self._send(h, 404, b"", {"X-Error-Code": error or "EntryNotFound"}, body)
                return self._file(h, commit, got.group(3), data, body)
        self._send(h, 404, b"", {}, body)

    def _file(self, h, commit: str, name: str, data: bytes, body: bool) -> None:
        start = int(m.group(1)) if (m := re.fullmatch(r"bytes=(\d+)-", h.headers.get("Range") or "")) else 0
        head = {"X-Repo-Commit": commit, "ETag": f'"{hashlib.sha1(data).hexdigest()}"',
                "Accept-Ranges": "bytes"}
        if start:
            head["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
        part = data[start:]
        if body and name in self.cut:
            keep = self.cut.pop(name)
            h.send_response(206 if start else 200)
            for k, v in {**head, "Content-Length": str(len(part))}.items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(part[:keep])
            h.wfile.flush()
            h.close_connection = True
            return
        self._send(h, 206 if start else 200, part, head, body)

    @staticmethod
    def _send(h, status: int, data: bytes, headers: dict, body: bool) -> None:
        h.send_response(status)
        for k, v in {**headers, "Content-Length": str(len(data))}.items():
            h.send_header(k, v)
        h.end_headers()
        if body:
            h.wfile.write(data)
