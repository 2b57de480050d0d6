"""EasyOCR, the paper's OCR engine: where its model files come from, and a reader on the CPU.

The files are EasyOCR's English pair, its CRAFT text detector and its second-generation English
recogniser. They come from, in order: a local folder ($IWR_EASYOCR_PATH); a Hub repository holding
them ($IWR_EASYOCR_ID), fetched once into the Hub cache; EasyOCR's own folder, where EasyOCR keeps what
it downloaded ($EASYOCR_MODULE_PATH/model, by default ~/.EasyOCR/model). This module never downloads
from anywhere else. The files' integrity is the Hub's (it checks each file's hash) or the folder
owner's; the version every result carries says whether they are EasyOCR's published weights.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any

from iwr.settings import env_name, settings

from .values import MetricUnavailable

DETECTOR, RECOGNISER = "craft_mlt_25k.pth", "english_g2.pth"
FILES = (DETECTOR, RECOGNISER)
INSTALL_HINT = ("pip install 'iwr[easyocr]' where torchvision imports (EasyOCR needs it; beside a CPU-only torch "
                "without torchvision it does not import)")
WEIGHTS_HINT = (f"set {env_name('easyocr_path')} to a folder holding {' and '.join(FILES)}, or "
                f"{env_name('easyocr_id')} to a Hub repository holding them, or let EasyOCR fetch them once: "
                "python -c \"import easyocr; easyocr.Reader(['en'], gpu=False)\"")


def installed() -> bool:
    """Whether EasyOCR can be imported here (found, not imported: importing it loads torch)."""
    try:
        return importlib.util.find_spec("easyocr") is not None
    except (ImportError, ValueError):  # ValueError: a test masked it in sys.modules
        return False


def _easyocr_own_folder() -> Path:
    # EasyOCR's own rule for where it keeps models (easyocr/config.py), read without importing it.
    base = os.environ.get("EASYOCR_MODULE_PATH") or os.environ.get("MODULE_PATH") or str(Path.home() / ".EasyOCR")
    return Path(base).expanduser() / "model"


def _complete(folder: Path) -> bool:
    return all((folder / f).is_file() for f in FILES)


@functools.cache  # one round trip to the Hub per process, not one per image read
def _from_hub(repo: str, endpoint: str, cache: str) -> Path:
    from iwr.tasks.hub import HubError, model_files

    try:
        folder = model_files(repo, list(FILES))
    except HubError as e:
        raise MetricUnavailable(f"cannot get EasyOCR's model files from {repo} {e}: {WEIGHTS_HINT}") from e
    if not _complete(folder):
        raise MetricUnavailable(f"{repo} on the Hub lacks {', '.join(f for f in FILES if not (folder / f).is_file())}: "
                                f"{WEIGHTS_HINT}")
    return folder


def model_folder() -> Path:
    """The folder holding EasyOCR's two model files, by the order in the module's docstring."""
    env = settings()
    if env.easyocr_path:
        folder = Path(env.easyocr_path).expanduser()
        if not _complete(folder):
            missing = ", ".join(f for f in FILES if not (folder / f).is_file())
            raise MetricUnavailable(f"EasyOCR's model files are not all in {folder} ({missing} missing): {WEIGHTS_HINT}")
        return folder
    if env.easyocr_id:
        from iwr.tasks.hub import endpoint, hub_cache

        return _from_hub(env.easyocr_id, endpoint(), str(hub_cache()))
    own = _easyocr_own_folder()
    if _complete(own):
        return own
    raise MetricUnavailable(f"EasyOCR has no model files ({' and '.join(FILES)} are not in {own}): {WEIGHTS_HINT}")


def _md5(path: Path) -> str:
    h = hashlib.md5(usedforsecurity=False)
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@functools.cache
def _reader(folder: str) -> tuple[Any, str]:
    try:
        import easyocr
        from easyocr.config import detection_models, recognition_models
        from easyocr.detection import get_detector, get_textbox
        from easyocr.recognition import get_recognizer
    except ImportError as exc:
        raise MetricUnavailable(f"OCR engine 'easyocr' is not installed: {INSTALL_HINT}") from exc
    where = Path(folder)
    # The reader's own loading checks each file against EasyOCR's published checksums and, with downloads
    # off, refuses any other file. The detector and recogniser are built here from the same functions instead,
    # so weights from a mirror or a test load alike; whether they are the published ones goes into the version.
    reader = easyocr.Reader(["en"], gpu=False, detector=False, recognizer=False, verbose=False,
                            download_enabled=False, model_storage_directory=str(where),
                            user_network_directory=str(Path(tempfile.gettempdir()) / "iwr-easyocr-user-network"))
    reader.detect_network, reader.get_textbox = "craft", get_textbox
    try:
        reader.detector = get_detector(str(where / DETECTOR), device="cpu", quantize=True, cudnn_benchmark=False)
        dicts = {"en": str(Path(easyocr.__file__).parent / "dict" / "en.txt")}
        reader.recognizer, reader.converter = get_recognizer(
            "generation2", {"input_channel": 1, "output_channel": 256, "hidden_size": 256}, reader.character, {},
            dicts, str(where / RECOGNISER), device="cpu", quantize=True)
    except Exception as e:  # noqa: BLE001 - torch's errors on a damaged or foreign file alike
        raise MetricUnavailable(f"EasyOCR cannot load its model files from {where} ({type(e).__name__}: "
                                f"{(str(e) or '-').splitlines()[0]}): {WEIGHTS_HINT}") from e
    published = (_md5(where / DETECTOR) == detection_models["craft"]["md5sum"]
                 and _md5(where / RECOGNISER) == recognition_models["gen2"]["english_g2"]["md5sum"])
    digest = hashlib.sha256(b"".join(_md5(where / f).encode() for f in FILES)).hexdigest()[:8]
    version = importlib.metadata.version("easyocr") + ("" if published else f"+weights-{digest}")
    return reader, version


def reader() -> Any:
    """An easyocr.Reader for English on the CPU, from `model_folder()`."""
    return _reader(str(model_folder()))[0]


def version() -> str:
    """EasyOCR's version, with `+weights-<digest>` when its model files are not EasyOCR's published ones."""
    return _reader(str(model_folder()))[1]


def clear() -> None:
    """Forget loaded readers and fetched folders (tests change the settings between cases)."""
    _reader.cache_clear()
    _from_hub.cache_clear()
