"""EasyOCR, the paper profile's OCR where it is installed: where its model files come from (a local
folder, a Hub repository through the Hub cache, EasyOCR's own folder) and what is said when it or they
are missing. It does not import here (see scripts/setup_ocr.sh); reading with it is tested in .venv-ocr
(tests/test_easyocr_run.py)."""
from __future__ import annotations

import importlib.machinery
import sys
import types
from pathlib import Path

import pytest
from PIL import Image

from iwr.mcp_servers.metrics import easyocr_engine
from iwr.mcp_servers.metrics.ocr import ocr_text, resolve_engine
from iwr.mcp_servers.metrics.values import MetricUnavailable
from tests.fake_hub import FakeHub

IMG = Image.new("RGB", (64, 32), "white")


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    for name in ("IWR_EASYOCR_PATH", "IWR_EASYOCR_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("EASYOCR_MODULE_PATH", str(tmp_path / "easyocr-home"))
    easyocr_engine.clear()
    yield
    easyocr_engine.clear()


def test_easyocr_not_installed_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "easyocr", None)  # forced, so the test never depends on this venv
    for name in easyocr_engine.FILES:
        (tmp_path / name).write_bytes(b"weights")
    monkeypatch.setenv("IWR_EASYOCR_PATH", str(tmp_path))
    with pytest.raises(MetricUnavailable, match=r"pip install 'iwr\[easyocr\]'.*torchvision"):
        ocr_text(IMG, engine="easyocr")
    assert not easyocr_engine.installed()


def test_no_files_anywhere_names_every_way_to_get_them() -> None:
    with pytest.raises(MetricUnavailable, match="craft_mlt_25k.pth and english_g2.pth are not in .*easyocr-home/model.*"
                                                "IWR_EASYOCR_PATH.*IWR_EASYOCR_ID.*easyocr.Reader"):
        easyocr_engine.model_folder()


def test_easyocrs_own_folder_when_nothing_is_set(tmp_path: Path) -> None:
    own = tmp_path / "easyocr-home" / "model"
    own.mkdir(parents=True)
    (own / "craft_mlt_25k.pth").write_bytes(b"d")
    with pytest.raises(MetricUnavailable, match="not in"):  # one file is not enough
        easyocr_engine.model_folder()
    (own / "english_g2.pth").write_bytes(b"r")
    assert easyocr_engine.model_folder() == own  # what EasyOCR fetched for itself once


def test_the_hub_repository_comes_before_easyocrs_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own = tmp_path / "easyocr-home" / "model"
    own.mkdir(parents=True)
    for name in easyocr_engine.FILES:
        (own / name).write_bytes(b"own")
    hub = FakeHub()
    hub.add("models", "mirror/easyocr-en", {"craft_mlt_25k.pth": b"detector", "english_g2.pth": b"recogniser",
                                             "README.md": b"not fetched"})
    hub.add("models", "mirror/half", {"english_g2.pth": b"recogniser"})
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub-cache"))
    try:
        monkeypatch.setenv("IWR_EASYOCR_ID", "mirror/easyocr-en")
        folder = easyocr_engine.model_folder()
        assert (folder / "craft_mlt_25k.pth").read_bytes() == b"detector"
        assert not (folder / "README.md").exists() and folder.is_relative_to(tmp_path / "hub-cache")
        asked = len(hub.requests)
        assert easyocr_engine.model_folder() == folder and len(hub.requests) == asked  # once per process, not per read
        monkeypatch.setenv("IWR_EASYOCR_ID", "mirror/half")
        with pytest.raises(MetricUnavailable, match="mirror/half on the Hub lacks craft_mlt_25k.pth"):
            easyocr_engine.model_folder()
        monkeypatch.setenv("IWR_EASYOCR_ID", "mirror/absent")
        with pytest.raises(MetricUnavailable, match="cannot get EasyOCR's model files from mirror/absent"):
            easyocr_engine.model_folder()
    finally:
        hub.close()


def test_a_local_folder_overrides_the_hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IWR_EASYOCR_ID", "mirror/never-asked")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # would fail if it were asked
    local = tmp_path / "local"
    local.mkdir()
    monkeypatch.setenv("IWR_EASYOCR_PATH", str(local))
    with pytest.raises(MetricUnavailable, match=r"not all in .*local \(craft_mlt_25k.pth, english_g2.pth missing\)"):
        easyocr_engine.model_folder()
    for name in easyocr_engine.FILES:
        (local / name).write_bytes(b"x")
    assert easyocr_engine.model_folder() == local


def test_auto_is_easyocr_only_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "easyocr", None)
    assert resolve_engine("auto") == "tesseract" and resolve_engine("rapidocr") == "rapidocr"
    found = types.ModuleType("easyocr")
    found.__spec__ = importlib.machinery.ModuleSpec("easyocr", None)
    monkeypatch.setitem(sys.modules, "easyocr", found)
    assert resolve_engine("auto") == "easyocr"
    with pytest.raises(ValueError, match="unknown OCR engine 'paddle'"):
        resolve_engine("paddle")


def test_the_paper_profile_reads_with_auto_and_the_others_with_tesseract(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from iwr.agents.models import ModelConfig
    from iwr.evals.cli.app import app
    from iwr.graphs.judge import JudgeConfig

    assert JudgeConfig.for_profile("paper", ModelConfig(model="openai/judge")).ocr_engine == "auto"
    assert JudgeConfig().ocr_engine == "tesseract"
    assert JudgeConfig(ocr_engine="rapidocr").ocr_engine == "rapidocr"
    with pytest.raises(ValueError, match="(?s)ocr_engine.*'auto', 'tesseract', 'rapidocr' or 'easyocr'"):
        JudgeConfig(ocr_engine="paddle")
    for command in (["judge", str(tmp_path), "--task", "1"], ["run", "--agent", "oracle", "--task", "1"]):
        done = CliRunner().invoke(app, [*command, "--ocr-engine", "paddle"])
        assert done.exit_code == 2 and "--ocr-engine is one of auto, tesseract" in done.output, done.output
