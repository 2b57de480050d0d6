"""Tesseract through its C library (libtesseract, installed with the `tesseract` program), in process.

The program costs a process start, a model load and a PNG round trip per image (about 0.1 s of a
0.3 s read of a 1280x800 screenshot); the library keeps one engine per thread. Both run the same
engine with the same page segmentation, so they read the same text (checked on every bundled
checkpoint by tests/test_tesseract_lib.py).
"""
from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import functools
import threading

import numpy as np

PSM_AUTO = 3  # the program's default ("fully automatic page segmentation, no OSD"); the library's is 6
LIBRARY = "libtesseract.so.5"


@functools.cache
def _library() -> ctypes.CDLL | None:
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("tesseract") or LIBRARY)
    except OSError:
        return None
    p, s, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    signatures = {
        "TessBaseAPICreate": ([], p), "TessBaseAPIInit3": ([p, s, s], i),
        "TessBaseAPISetPageSegMode": ([p, i], None), "TessBaseAPISetVariable": ([p, s, s], i),
        "TessBaseAPISetImage": ([p, s, i, i, i, i], None), "TessBaseAPIRecognize": ([p, p], i),
        "TessBaseAPIGetTsvText": ([p, i], p), "TessDeleteText": ([p], None),
        "TessBaseAPIClear": ([p], None), "TessBaseAPIDelete": ([p], None),
    }
    for name, (args, result) in signatures.items():
        fn = getattr(lib, name, None)
        if fn is None:
            return None
        fn.argtypes, fn.restype = args, result
    return lib


@functools.cache
def available() -> bool:
    """Whether libtesseract loads here with OpenMP held to one thread (mcp_servers/metrics/__init__.py);
    otherwise the program is used, which gets the limit in its own environment."""
    if _library() is None:
        return False
    try:  # the runtime libtesseract bound to: torch's copy when torch came first (same soname)
        limit = ctypes.CDLL("libgomp.so.1").omp_get_thread_limit()
    except (OSError, AttributeError):
        return True  # a build without OpenMP
    return limit == 1


class _Engine:
    """One initialised engine; an engine is not thread-safe, so each thread has its own."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        self.handle = lib.TessBaseAPICreate()
        if lib.TessBaseAPIInit3(self.handle, None, b"eng") != 0:
            lib.TessBaseAPIDelete(self.handle)
            raise RuntimeError("libtesseract found no English model (apt-get install tesseract-ocr-eng)")
        lib.TessBaseAPISetPageSegMode(self.handle, PSM_AUTO)
        lib.TessBaseAPISetVariable(self.handle, b"debug_file", b"/dev/null")  # "Estimating resolution" lines

    def words(self, gray: np.ndarray) -> list[str]:
        data = np.ascontiguousarray(gray, dtype=np.uint8)
        h, w = data.shape
        self.lib.TessBaseAPISetImage(self.handle, data.tobytes(), w, h, 1, w)
        if self.lib.TessBaseAPIRecognize(self.handle, None) != 0:
            raise RuntimeError("libtesseract could not read the image")
        raw = self.lib.TessBaseAPIGetTsvText(self.handle, 0)
        try:
            tsv = ctypes.string_at(raw).decode("utf-8", "replace")
        finally:
            self.lib.TessDeleteText(raw)
            self.lib.TessBaseAPIClear(self.handle)
        return words_from_tsv(tsv)

    def close(self) -> None:
        self.lib.TessBaseAPIDelete(self.handle)


def words_from_tsv(tsv: str) -> list[str]:
    """The words (level 5 rows) of Tesseract's TSV output, in its reading order."""
    rows = (line.split("\t") for line in tsv.splitlines())
    return [cols[11] for cols in rows if len(cols) >= 12 and cols[0] == "5" and cols[11].strip()]


_local = threading.local()
_engines: list[_Engine] = []
_engines_lock = threading.Lock()


def _engine() -> _Engine:
    engine = getattr(_local, "engine", None)
    if engine is None:
        lib = _library()
        if lib is None:
            raise RuntimeError(f"{LIBRARY} cannot be loaded")
        engine = _local.engine = _Engine(lib)
        with _engines_lock:
            _engines.append(engine)
    return engine


def read_words(gray: np.ndarray) -> list[str]:
    """The words of an 8-bit grey image, read by this thread's engine."""
    return _engine().words(gray)


@atexit.register
def _close_all() -> None:  # an engine left open prints a leak warning per model at exit
    with _engines_lock:
        while _engines:
            _engines.pop().close()
