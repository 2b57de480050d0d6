"""Compute several metrics for one reference/candidate pair, sharing work between them."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import Image

from iwr.settings import settings
from iwr.tasks.registry import Registry

from .features import DinoModel, Features, FeatureModel
from .images import ImageLike, load_rgb, to_common_size
from .lpips_local import LPIPS_HINT, LpipsModel
from .ocr import engine_version, ocr_text, resolve_engine, similarity_from_texts, tesseract_words
from .ssim import fast_ssim, gray_array, ssim_arrays, ssim_value
from .store import FORMAT as STORE_FORMAT, ImageStore
from .structure import (
    aligned_ssim,
    color_histogram,
    color_similarity,
    combine_structural,
    estimate_offset,
    find_blocks,
    histogram_similarity,
    layout_from_boxes,
    layout_from_gray,
    layout_value,
)
from .structure import VERSION as STRUCTURE_VERSION
from .values import MetricUnavailable, MetricValue

__all__ = ["METRICS", "Metric", "MetricModels", "MetricUnavailable", "MetricValue", "Pair", "compare", "register_metric"]


@dataclass(frozen=True)
class Metric:
    """A named way to compare two screenshots."""

    name: str
    compute: Callable[["Pair"], MetricValue]  # the value for one reference/candidate pair
    kind: Literal["similarity", "distance"] = "similarity"  # similarities are 1 for identical images
    needs_setup: bool = False  # runs only with local model files or configuration (see its error when missing)
    doc: str = ""


MOSTLY_SAME = 0.5  # at most this share of the rows with content changed: no global shift to look for

# The one table of metrics: `compare`, the metrics server's tools and its `list_metrics` read it.
METRICS: Registry[Metric] = Registry("metric")


def register_metric(name: str, compute: Callable[["Pair"], MetricValue], *, kind: str = "similarity",
                    needs_setup: bool = False, doc: str = "") -> Metric:
    """Add (or replace) a metric; code outside the package may add its own."""
    return METRICS.add(name, Metric(name, compute, kind, needs_setup, doc))


class MetricModels:
    """Models shared across compare() calls; each is loaded on first use."""

    def __init__(
        self,
        feature: FeatureModel | None = None,
        dino: DinoModel | None = None,
        *,
        dino_path: str | Path | None = None,
        ocr_engine: str = "tesseract",
        lpips_path: str | Path | None = None,
        memo_size: int = 512,
        fast: bool = True,
        store: str | Path | None = None,
    ) -> None:
        self._feature = feature
        self._dino = dino
        self._lpips: LpipsModel | None = None
        self.dino_path = dino_path
        self.lpips_path = lpips_path or settings().lpips_path or None
        self.ocr_engine = ocr_engine
        # Per-image results (OCR text, features) keyed by pixel hash, shared across calls: a
        # reference checkpoint is read once however many candidates are compared with it.
        self.memo: OrderedDict[tuple[str, str], object] = OrderedDict()
        self.memo_size = memo_size
        self.memo_lock = threading.Lock()
        # `fast` reads through libtesseract, keeps references' results in the store and skips work whose
        # result is known (fast_ssim, the offset of a mostly unchanged page); off, everything is
        # computed as first written (the Tesseract program, skimage's SSIM), which the bench compares with.
        self.fast = fast
        self.store = ImageStore(store) if store and fast else None

    def feature_model(self) -> FeatureModel:
        """The EfficientNet-Lite0 model (bundled weights), loaded once per process."""
        if self._feature is None:
            self._feature = FeatureModel.load()
        return self._feature

    def dino_model(self) -> DinoModel:
        """The local DINOv2 model; raises MetricUnavailable when it is not configured."""
        if self._dino is None:
            self._dino = DinoModel(self.dino_path)
        return self._dino

    def lpips_model(self) -> LpipsModel:
        """The local LPIPS model; raises MetricUnavailable when it is not configured."""
        if self._lpips is None:
            self._lpips = LpipsModel.load(self.lpips_path)
        return self._lpips

    def remember(self, kind: str, key: str, fn: Callable[[], object], lasting: type | None = None) -> object:
        """`fn()`'s value under (kind, key), computed once while it stays among the latest `memo_size`;
        `lasting` values (a reference's, of that type) are also kept in the store, across processes."""
        with self.memo_lock:
            hit = self.memo.get((kind, key))
            if hit is not None:
                self.memo.move_to_end((kind, key))
                return hit
        kept = f"{kind}:v{STORE_FORMAT}"
        hit = self.store.get(kept, key) if lasting and self.store else None
        if hit is not None and not isinstance(hit, lasting):  # a damaged entry: computed again
            hit = None
        if hit is None:
            hit = fn()
            if lasting and self.store:
                self.store.put(kept, key, hit)
        with self.memo_lock:
            self.memo[(kind, key)] = hit
            while len(self.memo) > self.memo_size:
                self.memo.popitem(last=False)
        return hit


def _digest(img: Image.Image) -> str:
    # SHA-256 runs on the CPU's SHA instructions: about twice as fast as BLAKE2 on a screenshot.
    return f"{img.size}:sha256:{hashlib.sha256(np.asarray(img)).hexdigest()[:32]}"


class Pair:
    """Per-call memo: each intermediate (OCR text, features, blocks) is computed once per image."""

    def __init__(self, ref: Image.Image, cand: Image.Image, models: MetricModels, ocr_engine: str | None = None) -> None:
        self.ref, self.cand, self.models = ref, cand, models
        self.ocr_engine = resolve_engine(ocr_engine or models.ocr_engine)
        self.keys = (_digest(ref), _digest(cand))

    def per_image(self, kind: str, fn: Callable[[Image.Image], object], lasting: type | None = None) -> tuple:
        """`fn` of the reference and of the candidate, each computed once across calls (the
        reference's kept in the store when `lasting`, its type)."""
        return tuple(self.models.remember(kind, key, lambda img=img: fn(img), lasting if side == 0 else None)
                     for side, (key, img) in enumerate(zip(self.keys, (self.ref, self.cand))))

    def blank_floor(self, name: str) -> float:
        """What a blank (white) page of the reference's size gets on metric `name`, once per reference."""
        return self.models.remember(f"floor:{name}:{self._versions(name)}", self.keys[0], lambda: Pair(
            self.ref, Image.new("RGB", self.ref.size, "white"), self.models, self.ocr_engine).metric(name).value,
            lasting=float)

    def _versions(self, name: str) -> str:
        if name == "ocr":
            return f"{self.ocr_engine}-{engine_version(self.ocr_engine)}"
        if name in ("feature", "feature_distance", "perceptual"):
            return self.models.feature_model().version
        return STRUCTURE_VERSION

    @cached_property
    def changed(self) -> np.ndarray | None:
        """Per row, whether the two grey images differ (None when their sizes differ)."""
        ref, cand = self.grays
        return np.any(ref != cand, axis=1) if self.ref.size == self.cand.size else None

    @cached_property
    def mostly_same(self) -> bool:
        """Whether most of the reference's rows with content are unchanged: a page moved as a whole
        changes every such row."""
        if not self.models.fast or self.changed is None:
            return False
        ref = self.grays[0]
        content = ref.max(axis=1) != ref.min(axis=1)
        return bool(content.any()) and self.changed[content].mean() <= MOSTLY_SAME

    @cached_property
    def grays(self) -> tuple[np.ndarray, np.ndarray]:
        if self.keys[0] == self.keys[1]:  # the same pixels (a page that looks just like its checkpoint)
            gray = gray_array(self.ref)
            return gray, gray
        ref, cand = to_common_size(self.ref, self.cand)
        return gray_array(ref), gray_array(cand)

    @cached_property
    def layout(self) -> tuple[float, tuple[int, int], dict]:
        if not self.models.fast or self.ref.size != self.cand.size:
            return layout_from_gray(*self.grays)
        # Most rows unchanged means no global shift, and the phase correlation would find none.
        return layout_from_boxes(*self.blocks(), (0, 0) if self.mostly_same else estimate_offset(*self.grays))

    def ocr(self) -> MetricValue:
        engine = self.ocr_engine
        if engine != "tesseract" or not self.models.fast:
            # the version names EasyOCR's model files too, so a reference's text is kept only for the same reader
            ref_text, cand_text = self.per_image(f"ocr:{engine}-{engine_version(engine)}", lambda im: ocr_text(im, engine),
                                                 lasting=str if self.models.fast else None)
            return similarity_from_texts(ref_text, cand_text, engine)
        ref_text, cand_text = self.per_image(f"ocr:{engine}-{engine_version(engine)}:lib",
                                             lambda im: " ".join(tesseract_words(gray_array(im))), lasting=str)
        return similarity_from_texts(ref_text, cand_text, engine)

    def features(self) -> tuple[Features, Features]:
        return self.per_image("features", self.models.feature_model().extract)

    def embeddings(self) -> tuple[Features, Features]:
        """The pooled embeddings only (what `feature` needs), the reference's kept in the store."""
        model, out = self.models.feature_model(), []
        for side, (key, img) in enumerate(zip(self.keys, (self.ref, self.cand))):
            whole = lambda key=key, img=img: self.models.remember("features", key, lambda: model.extract(img))
            out.append(Features(self.models.remember(
                f"embedding:{model.version}", key, lambda whole=whole: whole().embedding, lasting=np.ndarray if side == 0 else None), ()))
        return tuple(out)

    def blocks(self) -> tuple[np.ndarray, np.ndarray]:
        return self.per_image(f"blocks:{STRUCTURE_VERSION}", lambda im: find_blocks(gray_array(im)), lasting=np.ndarray)

    @cached_property
    def ssim(self) -> MetricValue:
        if self.models.fast:
            return ssim_value(fast_ssim(*self.grays, self.changed), self.ref.size)
        return ssim_value(ssim_arrays(*self.grays), self.ref.size)

    @cached_property
    def color(self) -> MetricValue:
        if not self.models.fast:
            return color_similarity(self.ref, self.cand)
        return histogram_similarity(*self.per_image(f"color:{STRUCTURE_VERSION}", color_histogram, lasting=np.ndarray))

    @cached_property
    def lpips(self) -> MetricValue:
        return self.models.lpips_model().distance(self.ref, self.cand)

    def perceptual(self) -> MetricValue:
        """LPIPS when a path is configured (a broken one raises), else the EfficientNet distance."""
        if self.models.lpips_path:
            return self.lpips.model_copy(update={"name": "perceptual"})
        value = self.models.feature_model().distance_of(*self.features())
        detail = {**value.detail, "lpips": f"not configured: {LPIPS_HINT}"}
        return value.model_copy(update={"name": "perceptual", "detail": detail})

    def structural(self) -> MetricValue:
        score, offset, detail = self.layout
        ssim = self.ssim.value if offset == (0, 0) else aligned_ssim(*self.grays, offset, fast=self.models.fast)
        return combine_structural(score, self.color.value, ssim, detail)

    def metric(self, name: str) -> MetricValue:
        return METRICS.named(name).compute(self)


def _dino(pair: Pair) -> MetricValue:
    dino = pair.models.dino_model()
    return dino.similarity_of(*pair.per_image("dino", dino.embed))


register_metric("ocr", Pair.ocr, doc="similarity of the text OCR reads on each image")
register_metric("ssim", lambda p: p.ssim, doc="structural similarity of the grey images")
register_metric("feature", lambda p: p.models.feature_model().similarity_of(*p.embeddings()),
                doc="cosine similarity of EfficientNet-Lite0 embeddings")
register_metric("feature_distance", lambda p: p.models.feature_model().distance_of(*p.features()), kind="distance",
                doc="LPIPS-style distance between EfficientNet-Lite0 feature maps")
register_metric("dino", _dino, needs_setup=True, doc="cosine similarity of DINOv2 embeddings (local weights)")
register_metric("color", lambda p: p.color, doc="colour histogram similarity")
register_metric("layout", lambda p: layout_value(p.layout[0], p.layout[2]), doc="match of the text and block layout")
register_metric("structural", Pair.structural, doc="layout, colour and SSIM combined (offline stand-in for HVS)")
register_metric("perceptual", Pair.perceptual, kind="distance",
                doc="LPIPS when local weights are configured, else the EfficientNet distance")
register_metric("lpips", lambda p: p.lpips, kind="distance", needs_setup=True, doc="LPIPS (local AlexNet weights)")


def chance_corrected(value: MetricValue, floor: float) -> MetricValue:
    """A similarity rescaled so that what a blank page gets (`floor`) becomes 0 and 1 stays 1; the raw
    value and the floor are kept in the detail. Where a blank page already scores 1 (OCR on a checkpoint
    with no words it can read, a dark or pictorial page) the metric cannot tell a page from nothing:
    it has no say there (None), and the checkpoint is scored on the other metrics."""
    raw = value.value
    if floor >= 1.0:
        corrected = None
    elif raw >= 1.0:
        corrected = 1.0
    else:
        corrected = max(0.0, (raw - floor) / (1.0 - floor))
    return value.model_copy(update={"value": corrected, "detail": {**value.detail, "raw": raw, "blank_floor": floor}})


def compare(
    ref: ImageLike, cand: ImageLike, metrics: Sequence[str], models: MetricModels | None = None, floor: bool = False,
    ocr_engine: str | None = None,
) -> dict[str, MetricValue]:
    """Score a candidate against a reference on each named metric (see METRICS). With `floor`, each
    similarity is chance-corrected against a blank (white) page of the reference's size. `ocr_engine`
    (one of OCR_ENGINES; default the models') reads the text of the `ocr` metric."""
    unknown = sorted(set(metrics) - set(METRICS))
    if unknown:
        raise ValueError(f"unknown metrics {unknown}; choose from {list(METRICS)}")
    pair = Pair(load_rgb(ref), load_rgb(cand), models or MetricModels(), ocr_engine)
    values = {name: pair.metric(name) for name in dict.fromkeys(metrics)}
    if not floor:
        return values
    return {name: chance_corrected(v, pair.blank_floor(name)) if METRICS[name].kind == "similarity" else v
            for name, v in values.items()}
