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


@pytest.fixture(scope="module")
def tiny_dino(tmp_path_factory: pytest.TempPathFactory) -> Path:
    transformers = pytest.importorskip(
        "transformers", reason='transformers is not installed (pip install "transformers>=5,<6")'
    )
    cfg = transformers.Dinov2Config(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, image_size=56, patch_size=14
    )
    folder = tmp_path_factory.mktemp("tiny-dinov2")
    transformers.Dinov2Model(cfg).save_pretrained(folder)
    transformers.BitImageProcessor(
        size={"shortest_edge": 64}, crop_size={"height": 56, "width": 56},
        image_mean=[0.485, 0.456, 0.406], image_std=[0.229, 0.224, 0.225],
    ).save_pretrained(folder)
    return folder


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
