"""What the recording shows an action doing that its sentence does not say (graphs/recorded_effects.py):
numbers read beside a word on the recording's screens, and a page that leaves such a number unmoved."""
from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from iwr.graphs.recorded_effects import labelled_numbers, page_reading, unmade
from iwr.mcp_servers.metrics.ocr import tesseract_boxes


def word(t: str, x: float, y: float, w: float = 30, h: float = 12) -> dict:
    return {"t": t, "x": x, "y": y, "w": w, "h": h}


def test_a_number_takes_the_word_left_of_it_or_above_it():
    # SCORE over 4 and BEST over 20 side by side; 'Moves: 3' on one line; a word beside two numbers is no reading
    words = [word("SCORE", 0, 0), word("BEST", 60, 0), word("4", 10, 16, 10), word("20", 65, 16, 16),
             word("Moves:", 0, 60), word("3", 40, 60, 8), word("Page", 0, 100), word("1", 38, 100, 8),
             word("Page", 0, 130), word("2", 38, 130, 8)]
    assert labelled_numbers(words) == {"score": "4", "best": "20", "moves": "3"}


def test_a_reading_the_page_leaves_unmoved_is_not_made():
    readings = [("best", "0", "4")]
    view = lambda *texts: {"texts": [{"t": t, "v": True} for t in texts]}  # noqa: E731
    before = view("SCORE", "0", "BEST", "0")
    assert page_reading(view("BEST", "4"), "best") == {"4"}
    assert unmade(readings, before, view("SCORE", "4", "BEST", "4")) == []
    assert unmade(readings, before, view("SCORE", "4", "BEST", "0")) == ["best stays 0 (the recording shows 0 -> 4)"]
    # a page that shows no such word, or another number, is left to the sentence
    assert unmade(readings, view("SCORE", "0"), view("SCORE", "4")) == []
    assert unmade(readings, before, view("SCORE", "4", "BEST", "8")) == []


def test_tesseract_reads_word_boxes_in_the_image_pixels(tmp_path: Path):
    img = Image.new("RGB", (400, 120), "white")
    font = ImageFont.truetype("DejaVuSans.ttf", 28) if Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").is_file() \
        else ImageFont.load_default()
    ImageDraw.Draw(img).text((20, 20), "BEST", fill="black", font=font)
    ImageDraw.Draw(img).text((30, 60), "42", fill="black", font=font)
    words = tesseract_boxes(img)
    assert labelled_numbers(words) == {"best": "42"}, words
    best = next(w for w in words if w["t"] == "BEST")
    assert 10 <= best["x"] <= 30 and 15 <= best["y"] <= 35  # in the image's pixels, not the upscaled ones
