"""Run in .venv-ocr (`python -m tests.easyocr_weights FOLDER`): write EasyOCR's two model files with
random weights, built from EasyOCR's own network classes (its CRAFT detector and its second-generation
English recogniser), so nothing is downloaded. They read nonsense, deterministically."""
from __future__ import annotations

import sys
from pathlib import Path

import torch
from easyocr.config import recognition_models
from easyocr.craft import CRAFT
from easyocr.model.vgg_model import Model


def _as_published(net: torch.nn.Module) -> dict:
    # EasyOCR's published files were saved from torch.nn.DataParallel: every key starts with "module."
    return {f"module.{k}": v for k, v in net.state_dict().items()}


def write(folder: Path) -> None:
    torch.manual_seed(0)
    folder.mkdir(parents=True, exist_ok=True)
    torch.save(_as_published(CRAFT(pretrained=False, freeze=False)), folder / "craft_mlt_25k.pth")
    characters = recognition_models["gen2"]["english_g2"]["characters"]
    recogniser = Model(input_channel=1, output_channel=256, hidden_size=256, num_class=len(characters) + 1)
    torch.save(_as_published(recogniser), folder / "english_g2.pth")


if __name__ == "__main__":
    write(Path(sys.argv[1]))
