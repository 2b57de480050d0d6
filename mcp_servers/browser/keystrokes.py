"""Typing as key events sent together: each character's keydown and keyup go to the browser in one
burst, not one round trip after another (17 characters: ~40 ms so, ~60-90 ms one by one). Clicks are
not sent so: a move, press and release sent at once wait for the next frame (~17 ms against ~4 ms).

The browser takes input events in the order they were sent and the page handles each before the next,
so what the page sees is what one-by-one typing gives: keydown, keypress, beforeinput, input, keyup per
character, with the key, code and key code of a US keyboard. A character no such key types (a tab, an
accent, an emoji) is inserted as text, as Playwright does.
"""
from __future__ import annotations

import asyncio

from playwright.async_api import Error as PlaywrightError

# (code, key code) of each printable character of a US keyboard; shifted ones share their key's code.
_ROWS = {
    "Backquote": (192, "`~"), "Minus": (189, "-_"), "Equal": (187, "=+"), "BracketLeft": (219, "[{"),
    "BracketRight": (221, "]}"), "Backslash": (220, "\\|"), "Semicolon": (186, ";:"), "Quote": (222, "'\""),
    "Comma": (188, ",<"), "Period": (190, ".>"), "Slash": (191, "/?"), "Space": (32, " "),
}
US_KEYS: dict[str, tuple[str, int]] = {ch: (code, kc) for code, (kc, chars) in _ROWS.items() for ch in chars}
US_KEYS.update({c: (f"Key{c.upper()}", ord(c.upper())) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"})
US_KEYS.update({d: (f"Digit{d}", ord(d)) for d in "0123456789"})
US_KEYS.update({s: (f"Digit{d}", ord(d)) for s, d in zip(")!@#$%^&*(", "0123456789")})
US_KEYS["\n"] = US_KEYS["\r"] = ("Enter", 13)


def key_events(text: str) -> list[tuple[str, dict]]:
    """The CDP Input calls that type `text`: (method, params) in order."""
    out: list[tuple[str, dict]] = []
    for ch in text:
        if ch not in US_KEYS:
            out.append(("Input.insertText", {"text": ch}))
            continue
        code, kc = US_KEYS[ch]
        key, typed = ("Enter", "\r") if code == "Enter" else (ch, ch)
        out.append(("Input.dispatchKeyEvent", {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": kc,
                                               "text": typed, "unmodifiedText": typed}))
        out.append(("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": kc}))
    return out


async def type_burst(cdp, text: str) -> bool:
    """Type `text` through a page's CDP session: the first event alone, then the others in bursts.
    False, having typed nothing, when the session is gone (a page that reloaded itself can leave it
    detached): the caller types another way. Inserted text takes another path in the browser than key
    events and could overtake them: it waits for the ones before it, and the ones after wait for it."""
    events = key_events(text)
    if not events:
        return True
    try:
        await cdp.send(*events[0])
    except PlaywrightError:
        return False
    burst: list = []
    for method, params in events[1:]:
        if method == "Input.insertText":
            await asyncio.gather(*burst)
            await cdp.send(method, params)
            burst = []
        else:
            burst.append(cdp.send(method, params))
    await asyncio.gather(*burst)
    return True
