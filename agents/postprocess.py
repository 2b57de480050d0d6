"""Turn a model's answer into index.html, as the IWR-Bench generation protocol does."""
from __future__ import annotations

import re

from iwr.tasks.instruction import PLACEHOLDER

HTML_BLOCK = re.compile(r"```html[^\n]*\n(.*?)(?:```|\Z)", re.S | re.I)
IFRAME = re.compile(r"<iframe\b.*?(?:</iframe\s*>|/>|$)", re.S | re.I)
FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*$", re.M)


def extract_html(answer: str) -> str:
    """The first ```html block (else the raw text), without iframes or stray fences."""
    m = HTML_BLOCK.search(answer or "")
    html = m.group(1) if m else (answer or "")
    html = IFRAME.sub("", html)
    return FENCE.sub("", html).strip()


def resolve_assets(html: str, assets_path: str) -> str:
    """Replace the asset placeholder with the path the page's assets are served from."""
    return html.replace(PLACEHOLDER, assets_path.rstrip("/"))


def looks_like_html(html: str) -> bool:
    """Whether the extracted text is plausibly a page (used to label empty or prose answers)."""
    return bool(re.search(r"<(html|body|div|main|section|button|h1|p)\b", html, re.I))
