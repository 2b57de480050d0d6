"""Build the chat messages a coder sends: instruction text plus images as data URLs."""
from __future__ import annotations

import base64
import io
from importlib import resources
from pathlib import Path

from PIL import Image

from iwr.tasks.instruction import PLACEHOLDER


def prompt(name: str, **values: str | int) -> str:
    """A prompt template from agents/prompts, with `{name}` fields filled in."""
    text = resources.files("iwr.agents").joinpath("prompts", f"{name}.md").read_text(encoding="utf-8")
    return text.format(placeholder=PLACEHOLDER, **values)


def image_part(img: Image.Image | Path, max_side: int = 1280, fmt: str = "JPEG") -> dict:
    """An OpenAI-style image content part, downscaled to `max_side` on its longer side."""
    im = Image.open(img) if isinstance(img, Path) else img
    im = im.convert("RGB")
    if max(im.size) > max_side:
        im = im.copy()
        im.thumbnail((max_side, max_side))
    buf = io.BytesIO()
    im.save(buf, fmt, quality=85)
    data = base64.b64encode(buf.getvalue()).decode()
    return {"type": "image_url", "image_url": {"url": f"data:image/{fmt.lower()};base64,{data}"}}


def user_message(text: str, images: list[Image.Image | Path], max_side: int = 1280) -> list[dict]:
    """One user message: the text first, then every image in order."""
    return [{"role": "user", "content": [{"type": "text", "text": text}, *(image_part(i, max_side) for i in images)]}]
