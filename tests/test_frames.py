"""Frame sampling as the paper does it, on real video files."""
from pathlib import Path

from PIL import Image

from iwr.tasks.frames import frame_times, sample_frames, video_duration
from iwr.tasks.video import FrameTrack


def _video(path: Path, seconds: float, fps: int = 10) -> Path:
    track = FrameTrack(fps=fps)
    for k in range(int(seconds)):  # one colour per second, so we can tell which second a frame is from
        track.hold(Image.new("RGB", (160, 120), ((k * 37) % 256, (k * 91) % 256, (k * 53) % 256)), 1.0)
    track.write_mp4(path)
    return path


def test_short_video_gives_one_frame_per_second(tmp_path):
    v = _video(tmp_path / "v.mp4", 12)
    assert abs(video_duration(v) - 12) < 0.2
    frames = sample_frames(v, n_sheets=2)
    assert [round(t) for t, _ in frames] == list(range(12))
    for t, im in frames:  # the frame shown at second k has colour k
        k = int(round(t))
        r, g, b = im.getpixel((80, 60))
        assert abs(r - (k * 37) % 256) < 12 and abs(g - (k * 91) % 256) < 12


def test_long_video_is_sampled_uniformly_within_the_image_budget(tmp_path):
    v = _video(tmp_path / "long.mp4", 80, fps=2)
    frames = sample_frames(v, n_sheets=10)  # budget = min(64, 70 - 10) = 60
    assert len(frames) == 60
    times = [t for t, _ in frames]
    steps = {round(b - a, 6) for a, b in zip(times, times[1:])}
    assert len(steps) == 1 and abs(steps.pop() - 80 / 60) < 1e-3


def test_frame_budget_rules():
    assert len(frame_times(200, n_sheets=0)) == 64
    assert len(frame_times(200, n_sheets=10)) == 60
    assert frame_times(200, n_sheets=70) == []
    assert len(frame_times(200, 0, max_frames=20, max_images=20)) == 20
    assert frame_times(3.5, 0) == [0.0, 1.0, 2.0, 3.0]


def test_bundled_task_video_is_real(suite_dir):
    v = next((suite_dir / "data").glob("*/video.mp4"))
    assert video_duration(v) > 3
    frames = sample_frames(v)
    assert len(frames) >= 4 and frames[0][1].size[0] >= 390
