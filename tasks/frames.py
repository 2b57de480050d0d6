"""Sample video frames as the paper does: 1 fps, at most 64 frames, at most 70 images in all."""
from __future__ import annotations

from pathlib import Path

import av
from PIL import Image


def frame_times(duration_s: float, n_sheets: int, fps: float = 1.0, max_frames: int = 64,
                max_images: int = 70) -> list[float]:
    """Timestamps to sample: one per 1/fps seconds, or `budget` uniformly spaced ones if longer."""
    budget = max(0, min(max_frames, max_images - n_sheets))
    if budget == 0 or duration_s <= 0:
        return [0.0] if budget and duration_s <= 0 else []
    n_at_fps = int(duration_s * fps) + 1
    if n_at_fps <= budget:
        return [i / fps for i in range(n_at_fps) if i / fps < duration_s or i == 0]
    step = duration_s / budget
    return [i * step for i in range(budget)]


def video_duration(path: Path) -> float:
    """Length of a video in seconds."""
    with av.open(str(path)) as c:
        s = c.streams.video[0]
        if s.duration is not None and s.time_base is not None:
            return float(s.duration * s.time_base)
        if c.duration is not None:
            return c.duration / av.time_base
        return max((f.time for f in c.decode(video=0) if f.time is not None), default=0.0)


def sample_frames(path: Path, n_sheets: int = 0, **limits) -> list[tuple[float, Image.Image]]:
    """Decode the frames at `frame_times`: the first frame at or after each timestamp."""
    times = frame_times(video_duration(path), n_sheets, **limits)
    return list(zip(times, _frames_at(path, times))) if times else []


def frame_at(path: Path, t: float) -> Image.Image:
    """The frame shown at time `t` seconds (the first frame at or after it, else the last one)."""
    frames = _frames_at(path, [max(0.0, t)])
    if not frames:
        raise ValueError(f"{path} has no video frames")
    return frames[0]


def _frames_at(path: Path, times: list[float]) -> list[Image.Image]:
    out: list[Image.Image] = []
    with av.open(str(path)) as c:
        want = iter(sorted(times))
        target, last = next(want, None), None
        for frame in c.decode(video=0):
            last = frame
            while target is not None and (frame.time or 0.0) + 1e-6 >= target:
                out.append(frame.to_image())
                target = next(want, None)
            if target is None:
                break
        while target is not None and last is not None:
            out.append(last.to_image())
            target = next(want, None)
    return out


def keyframes(path: Path, threshold: float = 0.02, limit: int = 64) -> list[tuple[float, Image.Image]]:
    """Frames where the picture changed: mean absolute difference to the previous kept frame above
    `threshold` (0..1) on a small greyscale copy; the first frame is always kept."""
    import numpy as np

    out: list[tuple[float, Image.Image]] = []
    prev = None
    with av.open(str(path)) as c:
        for frame in c.decode(video=0):
            small = np.asarray(frame.to_image().convert("L").resize((96, 60)), dtype=np.float32) / 255.0
            if prev is None or float(np.abs(small - prev).mean()) > threshold:
                out.append((frame.time or 0.0, frame.to_image()))
                prev = small
                if len(out) >= limit:
                    break
    return out
