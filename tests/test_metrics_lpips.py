"""LPIPS from local files (random tiny-test weights, never downloaded)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from PIL import Image, ImageDraw

from iwr.mcp_servers.metrics.compare import MetricModels, MetricUnavailable, compare
from iwr.mcp_servers.metrics.lpips_local import LinHeads, LpipsModel, alexnet_features, tap_distance, unit_normalise


def _page(lines: tuple[str, ...], *, header: tuple[int, int, int] = (40, 70, 160), dark: bool = False) -> Image.Image:
    """A small rendered page: a header bar, text lines and a box."""
    img = Image.new("RGB", (320, 240), (24, 26, 32) if dark else "white")
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, 320, 36], fill=header)
    for i, t in enumerate(lines):
        d.text((16, 50 + 18 * i), t, fill=(200, 200, 210) if dark else (30, 30, 30))
    d.rectangle([180, 150, 300, 220], outline=(150, 150, 150), width=2, fill=(235, 235, 235))
    return img


LINES = ("Fresh bread every morning.", "Sourdough, rye and wheat.", "Open from seven to six.")
REF = _page(LINES)
EDITED = _page(LINES[:2] + ("Open from eight to five.",))
UNRELATED = _page(("Dashboard", "Servers", "Alerts", "Billing"), header=(52, 160, 90), dark=True)


def _save_weights(folder: Path, *, prefixed: bool) -> Path:
    """Random AlexNet trunk and non-negative lin heads, saved in the torchvision / lpips layouts."""
    torch.manual_seed(0)
    backbone, heads = alexnet_features(), LinHeads()
    with torch.no_grad():
        for w in heads.weights():
            w.uniform_(0.0, 1.0)
    state = backbone.state_dict()
    if prefixed:  # like a whole torchvision AlexNet checkpoint, classifier included
        state = {f"features.{k}": v for k, v in state.items()} | {"classifier.1.weight": torch.zeros(4, 9216)}
    folder.mkdir(parents=True, exist_ok=True)
    torch.save(state, folder / "alexnet.pth")
    torch.save(heads.state_dict(), folder / "alex.pth")
    return folder


@pytest.fixture(scope="module", params=[True, False], ids=["features-prefix", "bare-keys"])
def weights(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _save_weights(tmp_path_factory.mktemp("lpips"), prefixed=request.param)


@pytest.fixture(scope="module")
def model(weights: Path) -> LpipsModel:
    return LpipsModel.load(weights)


def test_lin_keys_match_the_lpips_layout() -> None:
    shapes = {k: tuple(v.shape) for k, v in LinHeads().state_dict().items()}
    assert shapes == {f"lin{i}.model.1.weight": (1, c, 1, 1) for i, c in enumerate((64, 192, 384, 256, 256))}
    assert "0.weight" in alexnet_features().state_dict() and "10.bias" in alexnet_features().state_dict()


def test_unit_normalise_and_tap_distance_known_values() -> None:
    a = torch.tensor([3.0, 4.0]).view(1, 2, 1, 1)  # unit: (0.6, 0.8)
    b = torch.tensor([2.0, 0.0]).view(1, 2, 1, 1)  # unit: (1, 0)
    assert unit_normalise(a).flatten().tolist() == pytest.approx([0.6, 0.8])
    ones = torch.ones(1, 2, 1, 1)
    assert float(tap_distance(a, b, ones)) == pytest.approx(0.4**2 + 0.8**2)
    assert float(tap_distance(a, b, torch.tensor([0.0, 2.0]).view(1, 2, 1, 1))) == pytest.approx(2 * 0.64)
    # Spatial mean: one location differs as above, the other is identical.
    a2, b2 = torch.cat([a, a], dim=3), torch.cat([b, a], dim=3)
    assert float(tap_distance(a2, b2, ones)) == pytest.approx(0.8 / 2)
    assert float(tap_distance(torch.zeros(1, 2, 1, 1), torch.zeros(1, 2, 1, 1), ones)) == 0.0  # eps: no NaN


def test_identical_symmetric_and_ranked(model: LpipsModel) -> None:
    assert model.distance(REF, REF.copy()).value == pytest.approx(0.0, abs=1e-6)
    d_edit, d_far = model.distance(REF, EDITED), model.distance(REF, UNRELATED)
    assert model.distance(EDITED, REF).value == pytest.approx(d_edit.value, rel=1e-5)
    assert 0.0 < d_edit.value < d_far.value
    assert d_far.name == "lpips" and d_far.backend == "lpips-alex" and len(d_far.version) == 12
    assert len(d_far.detail["per_tap"]) == 5


def test_large_images_are_downscaled_to_max_side(model: LpipsModel) -> None:
    big = REF.resize((1280, 960))
    assert model.distance(big, big.copy()).detail["input"] == "512x384"
    assert model.prepare(REF, EDITED.resize((100, 50))).shape == (2, 3, 240, 320)  # candidate to ref size


def test_env_var_and_compare(weights: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IWR_LPIPS_PATH", str(weights))
    assert LpipsModel.load().distance(REF, EDITED).backend == "lpips-alex"
    v = compare(REF, EDITED, ["perceptual", "lpips"], MetricModels())
    assert v["perceptual"].backend == v["lpips"].backend == "lpips-alex"
    assert v["perceptual"].value == v["lpips"].value > 0
    monkeypatch.delenv("IWR_LPIPS_PATH")
    explicit = compare(REF, EDITED, ["lpips"], MetricModels(lpips_path=weights))["lpips"]
    assert explicit.value == v["lpips"].value


def test_perceptual_falls_back_to_efficientnet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IWR_LPIPS_PATH", raising=False)
    models = MetricModels()
    v = compare(REF, EDITED, ["perceptual", "feature_distance"], models)["perceptual"]
    assert "lpips" not in v.backend and v.backend.startswith("efficientnet")
    assert "IWR_LPIPS_PATH" in v.detail["lpips"]
    with pytest.raises(MetricUnavailable, match="IWR_LPIPS_PATH.*alexnet.pth.*alex.pth"):
        compare(REF, EDITED, ["lpips"], models)


@pytest.mark.parametrize("missing", ["folder", "alexnet.pth", "alex.pth"])
def test_missing_files_name_env_and_both_files(tmp_path: Path, missing: str) -> None:
    folder = tmp_path / "lpips"
    if missing != "folder":
        _save_weights(folder, prefixed=False)
        (folder / missing).unlink()
    expected = f"missing in {folder}: {'' if missing == 'folder' else missing}"
    with pytest.raises(MetricUnavailable, match=expected) as err:
        LpipsModel.load(folder)
    assert all(s in str(err.value) for s in ("IWR_LPIPS_PATH", "alexnet.pth", "alex.pth"))


def test_unset_path_names_env_and_both_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IWR_LPIPS_PATH", raising=False)
    with pytest.raises(MetricUnavailable, match="set IWR_LPIPS_PATH to a folder with alexnet.pth .* alex.pth"):
        LpipsModel.load()

