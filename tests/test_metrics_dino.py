"""DINOv2 loading: by Hub id through the Hub cache (a tiny model served by a loopback Hub), a local
folder overriding it, and a clear message when neither is there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from typer.testing import CliRunner

from iwr.evals.cli.app import app
from iwr.mcp_servers.metrics.compare import MetricModels, MetricUnavailable, compare
from iwr.mcp_servers.metrics.features import DinoModel
from tests.fake_hub import FakeHub


def _picture(colour: tuple[int, int, int]) -> Image.Image:
    img = Image.new("RGB", (120, 90), "white")
    ImageDraw.Draw(img).rectangle([10, 10, 70, 60], fill=colour)
    return img


def test_no_hub_and_no_folder_says_both_ways(monkeypatch) -> None:
    monkeypatch.delenv("IWR_DINOV2_PATH", raising=False)
    with pytest.raises(MetricUnavailable, match="cannot get DINOv2 facebook/dinov2-base from the Hub at "
                                                 "http://127.0.0.1:9.*IWR_DINOV2_PATH.*save_pretrained"):
        DinoModel()


def test_the_hub_id_is_fetched_once_into_the_hub_cache(tiny_dino: Path, tmp_path: Path, monkeypatch) -> None:
    hub = FakeHub()
    commit = hub.add_folder("models", "facebook/dinov2-base", tiny_dino)
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub-cache"))
    monkeypatch.delenv("IWR_DINOV2_PATH", raising=False)
    try:
        model = DinoModel()
    finally:
        hub.close()
    assert model.path == tmp_path / "hub-cache" / "models--facebook--dinov2-base" / "snapshots" / commit
    assert model.version.startswith(commit)
    red = _picture((220, 30, 30))
    assert model.similarity(red, red.copy()).value == pytest.approx(1.0, abs=1e-6)
    again = DinoModel()  # the Hub is gone: the cache serves it
    assert again.path == model.path
    assert compare(red, red.copy(), ["dino"], MetricModels())["dino"].value == pytest.approx(1.0, abs=1e-6)
    told = CliRunner().invoke(app, ["doctor", "--json", "--no-launch"])
    dino = {c["part"]: c for c in json.loads(told.stdout.splitlines()[-1])}["DINOv2 weights"]
    assert dino["ok"] and "facebook/dinov2-base in the Hub cache" in dino["detail"], dino


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
