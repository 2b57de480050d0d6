"""`iwr doctor` looks at the real parts: a Chromium that starts, a Tesseract on PATH, the weights' files;
it names what is missing with the command that fixes it, and fails only for a needed part."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from iwr.evals.cli.app import app


def _run(*args: str, **env: str) -> tuple[int, list[dict]]:
    out = CliRunner().invoke(app, ["doctor", "--json", *args], env=env)
    return out.exit_code, {c["part"]: c for c in json.loads(out.stdout.splitlines()[-1])}


def test_a_working_machine_passes_and_says_what_is_optional(tmp_path):
    (tmp_path / "alexnet.pth").write_bytes(b"x")
    code, found = _run(IWR_LPIPS_PATH=str(tmp_path), IWR_DINOV2_PATH=str(tmp_path))
    assert code == 0 and found["chromium"]["ok"] and "starts" in found["chromium"]["detail"]
    assert found["tesseract"]["ok"] and found["video (PyAV, FFmpeg inside)"]["ok"]
    assert not found["LPIPS weights"]["ok"] and "alex.pth" in found["LPIPS weights"]["fix"]  # one of two files
    assert not found["DINOv2 weights"]["ok"] and not found["DINOv2 weights"]["needed"]


def test_missing_needed_parts_fail_with_their_fix(tmp_path):
    code, found = _run("--no-launch", PATH=str(tmp_path))  # no tesseract, no bwrap on this PATH
    assert code == 1
    assert not found["tesseract"]["ok"] and "tesseract-ocr" in found["tesseract"]["fix"]
    assert not found["bubblewrap"]["ok"] and not found["bubblewrap"]["needed"]
    code, found = _run(IWR_CHROMIUM=str(tmp_path / "no-chromium"))
    assert code == 1 and not found["chromium"]["ok"] and "playwright install chromium" in found["chromium"]["fix"]
