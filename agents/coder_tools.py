"""The tools an iterative coder is offered, as OpenAI-style function schemas."""
from __future__ import annotations


def _fn(name: str, description: str, properties: dict | None = None, required: list[str] | None = None) -> dict:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties or {}, "required": required or []}}}


CODER_TOOLS = [
    _fn("write_file", "Create or overwrite a file in your workspace (index.html is the page that is judged).",
        {"path": {"type": "string"}, "content": {"type": "string"}}, ["path", "content"]),
    _fn("edit_file", "Replace the single occurrence of `old` with `new` in a file.",
        {"path": {"type": "string"}, "old": {"type": "string"}, "new": {"type": "string"}}, ["path", "old", "new"]),
    _fn("read_file", "Read a file of your workspace.", {"path": {"type": "string"}}, ["path"]),
    _fn("render", "Render index.html in Chromium at the task's size; you get a screenshot and any console errors."),
    _fn("view_frame", "Look at one frame of the recording (index in the 1 fps sampling).",
        {"index": {"type": "integer"}}, ["index"]),
    _fn("compare_with_frame", "Render index.html and compare its screenshot with a recording frame (similarity 0..1).",
        {"index": {"type": "integer"}}, ["index"]),
    _fn("replay", "Replay the recorded actions on index.html in Chromium; you learn how many replayed successfully "
        "(and, where the run allows it, which ones)."),
    _fn("finish", "Stop: index.html is your final page."),
]
