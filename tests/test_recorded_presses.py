"""Where the recording shows the pointer pressing (graphs/recorded_presses.py): rings found in a real
H.264 file drawn as `iwr record` draws them, paired with the pressing actions, and the page under a
press found again on another page's screenshot, the pointer left out of the match."""
from pathlib import Path

from PIL import Image, ImageDraw

from iwr.graphs.press_alignment import align
from iwr.graphs.recorded_presses import events, patch_file, press_of
from iwr.mcp_servers.metrics.locate import locate
from iwr.tasks.video import FrameTrack, draw_key, draw_pointer

SIZE = (640, 400)


def _page(button_at: tuple[int, int], red_banner: bool = False) -> Image.Image:
    """A page with a dark round-ended arrow button (no words: what only the video shows) and some text."""
    img = Image.new("RGB", SIZE, (250, 250, 245))
    d = ImageDraw.Draw(img)
    d.text((30, 30), "Testimonials", fill=(20, 20, 20))
    x, y = button_at
    d.ellipse([x - 18, y - 18, x + 18, y + 18], fill=(40, 60, 90))
    d.polygon([(x - 6, y - 9), (x + 8, y), (x - 6, y + 9)], fill=(255, 255, 255))
    d.rectangle([x - 120, y - 30, x - 40, y + 30], outline=(120, 120, 120), width=2)
    if red_banner:  # red content appearing after a press is no press
        d.rectangle([0, 300, 640, 340], fill=(220, 30, 30))
    return img


def _film(path: Path, clicks: list, red_after: bool = False) -> None:
    """A recording as the recorder films it: the pointer glides to each target, a ring shows, the page
    changes (a red banner after the first click, when asked); a key name instead of a target is a key
    pressed, its badge shown."""
    track, pointer = FrameTrack(), (320.0, 200.0)
    page = _page((500, 150))
    track.hold(page, 1.0)
    for n, target in enumerate(clicks):
        if isinstance(target, str):
            track.hold(draw_key(draw_pointer(page, *pointer), target), 0.5)
            track.hold(draw_pointer(page, *pointer), 0.8)
            continue
        x, y = target
        for k in range(1, 6):
            track.hold(draw_pointer(page, pointer[0] + (x - pointer[0]) * k / 5, pointer[1] + (y - pointer[1]) * k / 5), 0.08)
        pointer = (x, y)
        track.hold(draw_pointer(page, x, y, click=True), 0.2)
        page = _page((500, 150), red_banner=red_after and n == 0)
        track.hold(draw_pointer(page, x, y), 1.0)
    track.write_mp4(path)


def _task(types: list[str]) -> dict:
    return {"recording_details": {"resolution": f"{SIZE[0]}x{SIZE[1]}"},
            "action_sequence": [{"type": t, "parameters": {"description": "x"}} for t in types]}


def test_each_ring_is_a_press_where_it_was_drawn_and_red_content_is_none(tmp_path):
    _film(tmp_path / "video.mp4", [(500, 150), (100, 60), (500, 150)], red_after=True)
    found, keys = events(tmp_path / "video.mp4")
    assert len(found) == 3 and all(abs(p.x - x) <= 2 and abs(p.y - y) <= 2 for p, (x, y) in zip(found, [(500, 150), (100, 60), (500, 150)]))
    assert found[0].time < found[1].time < found[2].time and found[0].frame == SIZE and keys == ()


def test_presses_and_keys_pair_with_the_actions_that_show_them(tmp_path):
    _film(tmp_path / "video.mp4", [(500, 150), "Enter", (100, 60)])
    found, keys = events(tmp_path / "video.mp4")
    assert len(found) == 2 and len(keys) == 1 and found[0].time < keys[0] < found[1].time
    task = _task(["Click", "Press", "Scroll", "Type"])
    first, why = press_of(task, tmp_path, 0)
    second, _ = press_of(task, tmp_path, 3)
    assert why == "" and (abs(first.x - 500), abs(second.x - 100)) <= (2, 2)
    assert press_of(task, tmp_path, 1) == (None, "the action does not press")
    # one press too few, and nothing to say which: no action of the three has one
    missing, why = press_of(_task(["Click", "Click", "Press", "Click", "Click"]), tmp_path, 0)
    assert missing is None and "leave this action's place uncertain" in why
    assert press_of(task, tmp_path / "nowhere", 0) == (None, "the task has no recording")


def test_an_action_not_seen_is_placed_by_the_key_after_it_or_by_a_quiet_gap():
    P, K = "press", "key"
    # five clicks, the third's ring drawn on red and not seen: the long gap where it happened places it
    clicks = [(P, 1.4), (P, 2.7), (P, 5.3), (P, 6.6), (K, 7.9), (K, 9.2), (P, 10.3)]
    placed = align(["Click"] * 5 + ["Press", "Press", "Click"], clicks)
    assert placed == {0: 0, 1: 1, 2: None, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6}
    even = [(P, 1.4), (P, 2.7), (P, 4.0), (P, 5.3), (K, 6.6), (K, 7.9), (P, 9.2)]  # no gap: the unseen one could be any
    assert align(["Click"] * 5 + ["Press", "Press", "Click"], even) == {5: 4, 6: 5, 7: 6}
    # a ring that is no action's (red content after a click) leaves the clicks around it uncertain, not the rest
    assert align(["Click", "Press", "Click"], [(P, 1), (P, 1.8), (K, 3), (P, 4)]) == {1: 2, 2: 3}


def test_the_page_under_a_press_is_found_on_another_layout_with_the_pointer_left_out(tmp_path):
    _film(tmp_path / "video.mp4", [(500, 150)])
    press, _ = press_of(_task(["Click"]), tmp_path, 0)
    moved = _page((260, 320))  # the same button elsewhere, on a page of twice the size (scaled by the judge)
    big = moved.resize((SIZE[0] * 2, SIZE[1] * 2))
    big.save(tmp_path / "shot.png")
    patch, (dx, dy) = patch_file(press, tmp_path, "press_1", (SIZE[0] * 2, SIZE[1] * 2))
    assert Image.open(patch).mode == "RGBA" and Image.open(patch).getchannel("A").getextrema() == (0, 255)
    m = locate(patch, tmp_path / "shot.png")
    assert m["score"] > 0.8
    assert abs(m["x"] + dx - 520) <= 6 and abs(m["y"] + dy - 640) <= 6  # the button's centre, doubled
    Image.new("RGB", big.size, (250, 250, 245)).save(tmp_path / "blank.png")
    assert locate(patch, tmp_path / "blank.png")["score"] < 0.5  # a page without it: no match
    faint = Image.new("RGB", big.size, (250, 250, 245))  # nearly flat: a ratio of tiny numbers is no match
    ImageDraw.Draw(faint).rectangle([0, 0, big.size[0], big.size[1] // 2], fill=(251, 250, 245))
    faint.save(tmp_path / "faint.png")
    assert locate(patch, tmp_path / "faint.png")["score"] < 0.5
