"""OCR text extraction and the IWR-Bench text-similarity formula."""

from __future__ import annotations

import functools
import importlib.metadata
import math
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal, get_args

import numpy as np
from PIL import Image
from rapidfuzz.distance import Levenshtein

from . import easyocr_engine, tesseract_lib
from .images import ImageLike, load_rgb
from .tesseract_lib import words_from_tsv
from .values import MetricUnavailable, MetricValue

ENGINES = ("tesseract", "rapidocr", "easyocr")
OcrEngine = Literal["auto", "tesseract", "rapidocr", "easyocr"]  # what a profile or --ocr-engine may name
OCR_ENGINES = get_args(OcrEngine)
# Below this width screenshot text is usually too small for Tesseract (measured: a 400 px
# wide page goes from 0.87 to 0.97 similarity with 2x upscaling); above it upscaling only
# costs time and occasionally adds errors.
MIN_OCR_WIDTH = 720
MAX_UPSCALE = 4
RAPIDOCR_HINT = "pip install --no-deps rapidocr-onnxruntime onnxruntime pyclipper shapely"


def _upscale_factor(width: int) -> int:
    """Integer upscale factor that brings narrow images to MIN_OCR_WIDTH."""
    return max(1, min(MAX_UPSCALE, math.ceil(MIN_OCR_WIDTH / max(1, width))))


_omp_lock = threading.Lock()
_omp_users = 0  # Tesseract calls in flight that rely on our OMP_THREAD_LIMIT


@contextmanager
def _single_threaded_tesseract() -> Iterator[None]:
    """Run Tesseract with OMP_THREAD_LIMIT=1 unless the caller chose a limit."""
    # Tesseract's OpenMP threads make page-sized OCR about 4x slower on small CPUs; the
    # variable is only set around the calls so torch (also OpenMP) keeps its own threads. Calls run
    # in parallel threads, and Popen reads os.environ while it starts Tesseract: the variable is set
    # by the first call in flight and removed by the last, never under another call's Popen.
    global _omp_users
    with _omp_lock:
        ours = _omp_users > 0 or "OMP_THREAD_LIMIT" not in os.environ
        if ours:
            _omp_users += 1
            os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        yield
    finally:
        if ours:
            with _omp_lock:
                _omp_users -= 1
                if _omp_users == 0:
                    os.environ.pop("OMP_THREAD_LIMIT", None)


def _tesseract(img: Image.Image) -> str:
    import pytesseract

    gray, _ = _upscaled(img.convert("L"))
    try:
        with _single_threaded_tesseract():
            return str(pytesseract.image_to_string(gray))
    except pytesseract.TesseractNotFoundError as exc:
        raise MetricUnavailable("tesseract is not installed: apt-get install tesseract-ocr") from exc


def _upscaled(gray: Image.Image) -> tuple[Image.Image, int]:
    k = _upscale_factor(gray.width)
    if k > 1:
        gray = gray.resize((gray.width * k, gray.height * k), Image.Resampling.LANCZOS)
    return gray, k


def tesseract_boxes(img: Image.Image) -> list[dict]:
    """Tesseract's words with their boxes, in the image's pixels: [{t, x, y, w, h}] in reading order."""
    import pytesseract

    gray, k = _upscaled(img.convert("L"))
    try:
        with _single_threaded_tesseract():
            tsv = str(pytesseract.image_to_data(gray))
    except pytesseract.TesseractNotFoundError as exc:
        raise MetricUnavailable("tesseract is not installed: apt-get install tesseract-ocr") from exc
    rows = (line.split("\t") for line in tsv.splitlines())
    return [{"t": c[11], "x": int(c[6]) / k, "y": int(c[7]) / k, "w": int(c[8]) / k, "h": int(c[9]) / k}
            for c in rows if len(c) >= 12 and c[0] == "5" and c[11].strip()]


def tesseract_words(gray: np.ndarray) -> list[str]:
    """Tesseract's words on an 8-bit grey image (upscaled like `ocr_text`), in reading order: through
    libtesseract in process when it loads, else through the program. Joined by spaces, they are
    `ocr_text`'s text once whitespace is normalised."""
    img, _ = _upscaled(Image.fromarray(np.ascontiguousarray(gray, dtype=np.uint8), "L"))
    if tesseract_lib.available():
        words = tesseract_lib.read_words(np.asarray(img))
    else:
        import pytesseract

        try:
            with _single_threaded_tesseract():
                words = words_from_tsv(str(pytesseract.image_to_data(img)))
        except pytesseract.TesseractNotFoundError as exc:
            raise MetricUnavailable("tesseract is not installed: apt-get install tesseract-ocr") from exc
    return words


@functools.cache
def _rapidocr_engine() -> Any:
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError as exc:
        raise MetricUnavailable(f"OCR engine 'rapidocr' is not installed: {RAPIDOCR_HINT}") from exc
    return RapidOCR()


def _in_reading_order(result: list | None) -> str:
    """Join (box, text, score) detections top-to-bottom by the box's top-left corner, then left-to-right."""
    lines = sorted(result or [], key=lambda r: (round(r[0][0][1] / 10), r[0][0][0]))
    return "\n".join(str(r[1]) for r in lines)


def _rapidocr(img: Image.Image) -> str:
    import numpy as np

    result, _ = _rapidocr_engine()(np.asarray(img.convert("RGB")))
    return _in_reading_order(result)


def _easyocr(img: Image.Image) -> str:
    # The paper joins EasyOCR's words in the order EasyOCR gives them (its own line grouping), so no re-sorting.
    return "\n".join(easyocr_engine.reader().readtext(np.asarray(img.convert("RGB")), detail=0))


def resolve_engine(engine: str) -> str:
    """`auto` (the paper profile's) is EasyOCR, the paper's engine, wherever it is installed, else
    Tesseract; any other name is itself."""
    if engine == "auto":
        return "easyocr" if easyocr_engine.installed() else "tesseract"
    if engine not in ENGINES:
        raise ValueError(f"unknown OCR engine {engine!r}; expected auto or one of {ENGINES}")
    return engine


def ocr_text(img: ImageLike, engine: str = "tesseract") -> str:
    """Text found in an image by the given OCR engine (see ENGINES; EasyOCR's model files as
    easyocr_engine.model_folder() finds them)."""
    img = load_rgb(img)
    if engine == "tesseract":
        return _tesseract(img).strip()
    if engine == "rapidocr":
        return _rapidocr(img).strip()
    if engine == "easyocr":
        return _easyocr(img).strip()
    raise ValueError(f"unknown OCR engine {engine!r}; expected one of {ENGINES}")


@functools.cache
def engine_version(engine: str = "tesseract") -> str:
    """Version string of an OCR engine, for MetricValue.version."""
    if engine == "tesseract":
        import pytesseract

        try:
            return str(pytesseract.get_tesseract_version())
        except pytesseract.TesseractNotFoundError as exc:
            raise MetricUnavailable("tesseract is not installed: apt-get install tesseract-ocr") from exc
    if engine == "rapidocr":
        _rapidocr_engine()
        return importlib.metadata.version("rapidocr-onnxruntime")
    if engine == "easyocr":
        return easyocr_engine.version()
    raise ValueError(f"unknown OCR engine {engine!r}; expected one of {ENGINES}")


def normalize_text(s: str) -> str:
    """Lowercase and collapse runs of whitespace to single spaces."""
    return " ".join(s.lower().split())


def text_similarity(a: str, b: str) -> float:
    """IWR-Bench text similarity: 1 - Levenshtein(a, b) / max(len a, len b) after normalising."""
    a, b = normalize_text(a), normalize_text(b)
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    return 1.0 - Levenshtein.distance(a, b) / max(len(a), len(b))


def similarity_from_texts(ref_text: str, cand_text: str, engine: str = "tesseract") -> MetricValue:
    """OCR MetricValue for two already extracted texts."""
    return MetricValue(
        name="ocr",
        value=text_similarity(ref_text, cand_text),
        backend=engine,
        version=engine_version(engine),
        detail={"ref_chars": len(normalize_text(ref_text)), "cand_chars": len(normalize_text(cand_text))},
    )


def ocr_similarity(ref_img: ImageLike, cand_img: ImageLike, engine: str = "tesseract") -> MetricValue:
    """Text similarity between the OCR of a reference and a candidate image."""
    return similarity_from_texts(ocr_text(ref_img, engine), ocr_text(cand_img, engine), engine)
