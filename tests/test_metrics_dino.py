"""DINOv2 loading: only from a local folder, with a clear message when none is configured."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from mcp_servers.metrics.compare import MetricModels, MetricUnavailable, compare
from mcp_servers.metrics.features import DinoModel


def _picture(colour: tuple[int, int, int]) -> Image.Image:
    img = Image.new("RGB", (120, 90), "white")
    ImageDraw.Draw(img).rectangle([10, 10, 70, 60], fill=colour)
    return img


def test_missing_path_names_the_env_var(monkeypatch) -> None:
    monkeypatch.delenv("IWR_DINOV2_PATH", raising=False)
    with pytest.raises(MetricUnavailable, match="IWR_DINOV2_PATH.*save_pretrained"):
        DinoModel()


def test_nonexistent_folder_is_named(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("IWR_DINOV2_PATH", str(tmp_path / "dinov2-base"))
    with pytest.raises(MetricUnavailable, match=r"dinov2-base.*IWR_DINOV2_PATH"):
        DinoModel()


def test_tiny_local_model_loads_and_scores(tiny_dino: Path) -> None:
    model = DinoModel(tiny_dino)
    red, blue = _picture((220, 30, 30)), _picture((30, 30, 220))
    same = model.similarity(red, red.copy())
    assert same.value == pytest.approx(1.0, abs=1e-6)
    assert same.name == "dino" and "transformers=" in same.version
    assert 0.0 <= model.similarity(red, blue).value <= 1.0


def test_compare_finds_model_through_env_var(tiny_dino: Path, monkeypatch) -> None:
    monkeypatch.setenv("IWR_DINOV2_PATH", str(tiny_dino))
    out = compare(_picture((10, 160, 60)), _picture((10, 160, 60)), ["dino"], MetricModels())
    assert out["dino"].value == pytest.approx(1.0, abs=1e-6)
