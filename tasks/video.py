"""Write an interaction video from held frames, and draw the pointer, clicks and keys onto frames."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import av
from PIL import Image, ImageDraw, ImageFont

POINTER = [(0, 0), (0, 17), (4, 13), (7, 20), (10, 19), (7, 12), (12, 12)]


@dataclass
class FrameTrack:
    """Frames, each held for a duration, encoded later at a constant frame rate."""

    fps: int = 10
    frames: list[tuple[Image.Image, float]] = field(default_factory=list)

    def hold(self, image: Image.Image, seconds: float) -> None:
        self.frames.append((image.convert("RGB"), seconds))

    @property
    def duration(self) -> float:
        return sum(s for _, s in self.frames)

    def write_mp4(self, path: Path, crf: int = 30) -> None:
        """Encode as H.264 (yuv420p, even dimensions), holding each frame for its duration."""
        if not self.frames:
            raise ValueError("no frames to encode")
        w, h = self.frames[0][0].size
        w2, h2 = w - w % 2, h - h % 2
        with av.open(str(path), "w") as c:
            s = c.add_stream("libx264", rate=self.fps, options={"crf": str(crf), "preset": "veryfast", "tune": "stillimage"})
            s.width, s.height, s.pix_fmt = w2, h2, "yuv420p"
            s.time_base = Fraction(1, self.fps)
            t_due, n = 0.0, 0
            for img, secs in self.frames:
                t_due += secs
                frame = av.VideoFrame.from_image(img.crop((0, 0, w2, h2)))
                while n < round(t_due * self.fps) or n == 0:
                    frame.pts = n
                    for pkt in s.encode(frame):
                        c.mux(pkt)
                    n += 1
            for pkt in s.encode():
                c.mux(pkt)


def draw_pointer(img: Image.Image, x: float, y: float, click: bool = False) -> Image.Image:
    """A copy of the frame with an arrow pointer at (x, y), and a ring when clicking."""
    out = img.copy()
    d = ImageDraw.Draw(out)
    if click:
        d.ellipse([x - 16, y - 16, x + 16, y + 16], outline=(230, 40, 40), width=4)
    pts = [(x + px * 1.2, y + py * 1.2) for px, py in POINTER]
    d.polygon(pts, fill=(255, 255, 255), outline=(0, 0, 0))
    return out


def _font(name: str, size: int):
    try:
        return ImageFont.truetype(name, size)
    except OSError:  # the system font is missing: Pillow's own, smaller but readable
        return ImageFont.load_default()


def draw_key(img: Image.Image, label: str) -> Image.Image:
    """A copy of the frame with a key-press badge in the bottom-left corner."""
    out = img.copy()
    d = ImageDraw.Draw(out)
    font = _font("DejaVuSans-Bold.ttf", 22)
    text = f"key: {label}"
    x0, y0 = 16, out.height - 56
    box = d.textbbox((x0 + 12, y0 + 8), text, font=font)
    d.rounded_rectangle([x0, y0, box[2] + 12, box[3] + 10], radius=8, fill=(30, 30, 30))
    d.text((x0 + 12, y0 + 8), text, fill=(255, 255, 255), font=font)
    return out


def draw_options(img: Image.Image, bbox: tuple[float, float, float, float], labels: list[str], chosen: int) -> Image.Image:
    """A copy of the frame with an open drop-down list under `bbox` and the option `chosen` highlighted
    (a native <select> popup is drawn by the system, never by the page, so screenshots lack it)."""
    out = img.copy()
    d = ImageDraw.Draw(out)
    font = _font("DejaVuSans.ttf", 14)
    x, y, w, h = bbox
    row = 22
    width = max([w, *(d.textlength(t, font=font) + 24 for t in labels)])
    top = y + h if y + h + row * len(labels) <= out.height else max(0, y - row * len(labels))
    d.rectangle([x, top, x + width, top + row * len(labels)], fill=(255, 255, 255), outline=(120, 120, 120))
    for k, label in enumerate(labels):
        ry = top + k * row
        if k == chosen:
            d.rectangle([x + 1, ry + 1, x + width - 1, ry + row - 1], fill=(30, 110, 230))
        d.text((x + 8, ry + 3), label, fill=(255, 255, 255) if k == chosen else (20, 20, 20), font=font)
    return out


def option_centre(img_height: int, bbox: tuple[float, float, float, float], count: int, chosen: int) -> tuple[float, float]:
    """Where the pointer rests on option `chosen` of the list drawn by `draw_options`."""
    x, y, w, h = bbox
    row = 22
    top = y + h if y + h + row * count <= img_height else max(0, y - row * count)
    return x + min(w, 120) / 2, top + chosen * row + row / 2
