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
    out: list[tuple[float, Image.Image]] = []
    if not times:
        return out
    with av.open(str(path)) as c:
        want = iter(times)
        target = next(want)
        last = None
        for frame in c.decode(video=0):
            t = frame.time or 0.0
            last = frame
            while target is not None and t + 1e-6 >= target:
                out.append((target, frame.to_image()))
                target = next(want, None)
            if target is None:
                break
        while target is not None and last is not None:  # timestamps past the last decoded frame
            out.append((target, last.to_image()))
            target = next(want, None)
    return out
