"""Which Chromium to launch, with which flags, and which URLs a page may reach."""
from __future__ import annotations

import ipaddress
import os
import shutil
from urllib.parse import urlsplit

from iwr.settings import settings

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--font-render-hinting=none",
    # Reproducible pixels: one raster thread and full-tile raster, so anti-aliasing never varies.
    "--num-raster-threads=1",
    "--disable-partial-raster",
    "--force-color-profile=srgb",
    "--hide-scrollbars",
    # Keys and the wheel jump instead of animating: a settled page is then one whose scroll is done,
    # however slowly a loaded machine would have played the animation.
    "--disable-smooth-scrolling",
    # navigator.webdriver stays false, as in a person's browser (the page cannot tell it is judged).
    "--disable-blink-features=AutomationControlled",
    # A page that exhausts memory does so within seconds and a few hundred MB, not the machine's RAM.
    "--js-flags=--max-old-space-size=768",
    # A fence behind the request routing: anything that is not loopback and still reaches the network
    # stack (Chromium's own update and sign-in calls, a request routing missed) goes to a proxy that
    # answers nothing. Loopback always bypasses it. The hostile-page selftest points it at a sink.
    f"--proxy-server={settings().outside_proxy}",
]

ALWAYS_ALLOWED_SCHEMES = {"about", "data", "blob"}


def chromium_path() -> str | None:
    """The Chromium to launch: $IWR_CHROMIUM, else Debian's, else whatever Playwright finds."""
    chosen = settings().chromium
    if chosen:
        return chosen
    for cand in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(cand):
            return cand
    return shutil.which("chromium") or shutil.which("chromium-browser")


def is_loopback_url(url: str) -> bool:
    """True for about:/data:/blob: and for http(s)/ws(s) URLs on the loopback interface."""
    parts = urlsplit(url)
    if parts.scheme in ALWAYS_ALLOWED_SCHEMES:
        return True
    if parts.scheme not in ("http", "https", "ws", "wss"):
        return False
    host = (parts.hostname or "").strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def kill_renderers(tag: str, everything: bool = False) -> int:
    """SIGKILL the renderer processes (or, with `everything`, all processes) of the Chromium launched
    with the switch `tag` (Linux /proc).

    A renderer stuck in a page's endless script makes Chromium's own shutdown wait for it, longer
    than an MCP client gives a server to exit; killed that way, Chromium leaves its temp profile behind.
    """
    import signal
    from pathlib import Path

    from iwr.mcp_servers.browser.procs import descendants

    cmdlines = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                cmdlines[int(d.name)] = (d / "cmdline").read_bytes()
            except OSError:
                pass
    roots = {p for p, c in cmdlines.items() if tag.encode() in c.split(b"\0")}
    tree = roots | descendants(*roots)
    killed = 0
    for pid in tree:
        if everything or b"--type=renderer" in cmdlines.get(pid, b""):
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
    return killed
