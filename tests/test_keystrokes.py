"""Typing sent as one burst of key events (keystrokes.py) gives a page the same events, in the same order
and with the same keys and codes, as Playwright's one-by-one typing does."""
from __future__ import annotations

import json

from iwr.mcp_servers.browser import actions
from iwr.mcp_servers.browser.keystrokes import key_events
from iwr.mcp_servers.browser.hub import BrowserHub

# Every keyboard and mouse event the page gets, with what a handler reads of it.
LOGGER = """<!doctype html><body style="margin:0">
<textarea id="f" style="position:absolute;left:20px;top:20px;width:300px;height:100px"></textarea>
<button id="b" style="position:absolute;left:20px;top:150px;width:120px;height:40px">go</button>
<script>
window.log = [];
const keys = ['keydown', 'keypress', 'beforeinput', 'input', 'keyup'];
for (const t of keys) document.addEventListener(t, (e) => log.push([t, e.key ?? null, e.code ?? null, e.keyCode ?? null,
  e.charCode ?? null, e.inputType ?? null, e.data ?? null, e.shiftKey ?? null, e.target.id]), true);
for (const t of ['mousemove', 'mousedown', 'mouseup', 'click', 'pointerdown', 'pointerup', 'focus'])
  document.addEventListener(t, (e) => log.push([t, e.button ?? null, e.buttons ?? null, e.detail ?? null,
    e.clientX ?? null, e.clientY ?? null, e.isTrusted, e.target.id]), true);
</script></body>"""

TEXT = "Hi, Zoë! 1+1=2 (ok?) {a:'b'}\ttab\nline 2 ~`|\\ 😀"


async def _events(hub: BrowserHub, folder, burst: bool) -> tuple[list, str]:
    s = await hub.open(str(folder / "log.html"), 400, 240)
    try:
        if burst:
            await s.page.mouse.click(70, 70)
            await actions.type_now(s, TEXT)
            await s.page.mouse.click(80, 170)
        else:
            await s.page.mouse.click(70, 70)
            await s.page.keyboard.type(TEXT)
            await s.page.mouse.click(80, 170)
        return await s.page.evaluate("log"), await s.page.input_value("#f")
    finally:
        await hub.close(s.id)


async def test_a_burst_gives_the_page_what_one_by_one_input_gives(tmp_path):
    (tmp_path / "log.html").write_text(LOGGER, encoding="utf-8")
    async with BrowserHub() as hub:
        slow, slow_value = await _events(hub, tmp_path, burst=False)
        fast, fast_value = await _events(hub, tmp_path, burst=True)
    assert slow_value == TEXT and fast_value == TEXT
    kinds = {e[0] for e in slow}
    assert {"keydown", "keypress", "input", "keyup", "mousedown", "click"} <= kinds, "the page saw too little to compare"
    assert fast == slow, json.dumps([(a, b) for a, b in zip(slow, fast) if a != b][:5])


def test_keys_of_a_us_keyboard_and_text_for_the_rest():
    events = key_events("A!\né")
    downs = [p for m, p in events if m == "Input.dispatchKeyEvent" and p["type"] != "keyUp"]
    assert [(d["key"], d["code"], d["windowsVirtualKeyCode"]) for d in downs] == \
        [("A", "KeyA", 65), ("!", "Digit1", 49), ("Enter", "Enter", 13)]
    assert downs[2]["text"] == "\r"
    assert events[-1] == ("Input.insertText", {"text": "é"})
