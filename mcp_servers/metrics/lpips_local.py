"""LPIPS (Zhang et al. 2018, AlexNet "lin" variant) from local weight files, without lpips or torchvision."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image
from torch import nn

from iwr.settings import env_name, settings

from .images import ImageLike, load_rgb, to_common_size
from .values import MetricUnavailable, MetricValue

LPIPS_ENV = env_name("lpips_path")
BACKBONE_FILE, LIN_FILE = "alexnet.pth", "alex.pth"
LPIPS_HINT = (
    f"set {LPIPS_ENV} to a folder with {BACKBONE_FILE} (torchvision AlexNet state dict) "
    f"and {LIN_FILE} (LPIPS linear weights from the lpips package)"
)
TAP_CHANNELS = (64, 192, 384, 256, 256)
TAP_INDICES = (1, 4, 7, 9, 11)  # the five ReLUs of torchvision's alexnet().features
# Screenshots are shrunk so the longer side is at most this: LPIPS cost grows with pixels, and
# AlexNet's first layer (stride 4) already discards most finer detail.
MAX_SIDE = 512
MIN_SIDE = 64  # below ~31 px AlexNet's pooling runs out of pixels
SHIFT = torch.tensor([-0.030, -0.088, -0.188]).view(1, 3, 1, 1)
SCALE = torch.tensor([0.458, 0.448, 0.450]).view(1, 3, 1, 1)


def alexnet_features() -> nn.Sequential:
    """AlexNet's convolutional trunk, with the layer indices of torchvision's alexnet().features."""
    return nn.Sequential(
        nn.Conv2d(3, 64, 11, stride=4, padding=2), nn.ReLU(), nn.MaxPool2d(3, 2),
        nn.Conv2d(64, 192, 5, padding=2), nn.ReLU(), nn.MaxPool2d(3, 2),
        nn.Conv2d(192, 384, 3, padding=1), nn.ReLU(),
        nn.Conv2d(384, 256, 3, padding=1), nn.ReLU(),
        nn.Conv2d(256, 256, 3, padding=1), nn.ReLU(), nn.MaxPool2d(3, 2),
    )


class LinLayer(nn.Module):
    """One LPIPS "lin" head: a bias-free 1x1 convolution from C channels to 1."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        # Slot 0 is lpips' Dropout (a no-op at eval); keeping it gives the key "model.1.weight".
        self.model = nn.Sequential(nn.Identity(), nn.Conv2d(channels, 1, 1, bias=False))


class LinHeads(nn.Module):
    """The five lin heads, keyed lin0 ... lin4 like the lpips package's alex.pth."""

    def __init__(self) -> None:
        super().__init__()
        for i, c in enumerate(TAP_CHANNELS):
            self.add_module(f"lin{i}", LinLayer(c))

    def weights(self) -> list[torch.Tensor]:
        """The (1, C, 1, 1) weight of each head, in tap order."""
        return [getattr(self, f"lin{i}").model[1].weight for i in range(len(TAP_CHANNELS))]


def unit_normalise(x: torch.Tensor, eps: float = 1e-10) -> torch.Tensor:
    """Divide each location's channel vector (dim 1 of N, C, H, W) by its L2 norm plus eps."""
    return x / (x.pow(2).sum(dim=1, keepdim=True).sqrt() + eps)


def tap_distance(a: torch.Tensor, b: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Per-image LPIPS term of one tap: spatial mean of lin((unit(a) - unit(b))^2), shape (N,)."""
    diff = (unit_normalise(a) - unit_normalise(b)) ** 2
    return F.conv2d(diff, weight).mean(dim=(1, 2, 3))


def _load_dict(path: Path) -> dict[str, torch.Tensor]:
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # a corrupt or foreign file, whatever torch raises for it
        raise MetricUnavailable(f"cannot read {path}: {exc}; {LPIPS_HINT}") from exc
    if not isinstance(state, dict):
        raise MetricUnavailable(f"{path} is not a state dict; {LPIPS_HINT}")
    return state


def _backbone_state(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Bare features keys ("0.weight"); a whole torchvision AlexNet's classifier keys are dropped."""
    if any(k.startswith("features.") for k in state):
        return {k.removeprefix("features."): v for k, v in state.items() if k.startswith("features.")}
    return state


def _short_sha256(*paths: Path) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


class LpipsModel:
    """LPIPS distance with AlexNet features, from a folder holding alexnet.pth and alex.pth."""

    def __init__(self, backbone: nn.Sequential, heads: LinHeads, version: str, max_side: int | None = MAX_SIDE) -> None:
        self.backbone, self.heads = backbone.eval(), heads.eval()
        self.version, self.max_side = version, max_side

    @classmethod
    def load(cls, path: str | Path | None = None, max_side: int | None = MAX_SIDE) -> LpipsModel:
        """Load from `path` or IWR_LPIPS_PATH; MetricUnavailable says what is missing."""
        raw = str(path or settings().lpips_path or "")
        if not raw:
            raise MetricUnavailable(f"LPIPS is not configured: {LPIPS_HINT}")
        folder = Path(raw).expanduser()
        files = [folder / BACKBONE_FILE, folder / LIN_FILE]
        missing = [f.name for f in files if not f.is_file()]
        if missing:
            raise MetricUnavailable(f"LPIPS files missing in {folder}: {', '.join(missing)}; {LPIPS_HINT}")
        backbone, heads = alexnet_features(), LinHeads()
        for module, state, f in ((backbone, _backbone_state(_load_dict(files[0])), files[0]),
                                 (heads, _load_dict(files[1]), files[1])):
            try:
                module.load_state_dict(state, strict=True)
            except RuntimeError as exc:
                raise MetricUnavailable(f"{f} does not match the expected layout: {exc}; {LPIPS_HINT}") from exc
        if any(bool((w < 0).any()) for w in heads.weights()):
            raise MetricUnavailable(f"{files[1]} has negative lin weights, so it is not LPIPS; {LPIPS_HINT}")
        return cls(backbone, heads, _short_sha256(*files), max_side)

    def prepare(self, ref: ImageLike, cand: ImageLike) -> torch.Tensor:
        """Both images at one size, as a (2, 3, H, W) batch in [-1, 1]."""
        a, b = to_common_size(load_rgb(ref), load_rgb(cand))
        w, h = a.size
        k = min(1.0, self.max_side / max(w, h)) if self.max_side else 1.0
        size = (max(MIN_SIDE, round(w * k)), max(MIN_SIDE, round(h * k)))
        if size != a.size:
            a, b = (im.resize(size, Image.Resampling.BICUBIC) for im in (a, b))
        x = torch.from_numpy(np.stack([np.asarray(a), np.asarray(b)]).astype(np.float32))
        return x.permute(0, 3, 1, 2) / 127.5 - 1.0

    def taps(self, x: torch.Tensor) -> list[torch.Tensor]:
        """Feature maps after the five ReLUs, for a scaled-and-shifted input batch."""
        out, x = [], (x - SHIFT) / SCALE
        for i, layer in enumerate(self.backbone[: TAP_INDICES[-1] + 1]):
            x = layer(x)
            if i in TAP_INDICES:
                out.append(x)
        return out

    def distance(self, ref: ImageLike, cand: ImageLike) -> MetricValue:
        """LPIPS distance between two screenshots (0 for identical; larger is more different)."""
        x = self.prepare(ref, cand)
        with torch.inference_mode():
            per_tap = [float(tap_distance(t[:1], t[1:], w)[0]) for t, w in zip(self.taps(x), self.heads.weights())]
        return MetricValue(
            name="lpips", value=float(sum(per_tap)), backend="lpips-alex", version=self.version,
            detail={"per_tap": [round(v, 6) for v in per_tap], "input": f"{x.shape[3]}x{x.shape[2]}",
                    "max_side": self.max_side},
        )
