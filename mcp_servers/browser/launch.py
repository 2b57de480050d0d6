"""Which Chromium to launch, with which flags, and which URLs a page may reach."""
from __future__ import annotations

import ipaddress
import os
import shutil
from urllib.parse import urlsplit

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
]

ALWAYS_ALLOWED_SCHEMES = {"about", "data", "blob"}


def chromium_path() -> str | None:
    """The Chromium to launch: $IWR_CHROMIUM, else Debian's, else whatever Playwright finds."""
    env = os.environ.get("IWR_CHROMIUM")
    if env:
        return env
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
