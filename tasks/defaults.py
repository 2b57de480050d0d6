"""Defaults every layer shares, each defined once: the bundled suite, the replay environment of a
task that names none, and how long one judgement may take."""
from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # the tree the packages sit in (a checkout, in development)
BUNDLED_SUITE = PROJECT_ROOT / "tasks" / "suite"
AGREEMENT_CORPUS = PROJECT_ROOT / "tasks" / "agreement"  # pages made outside the judge, labelled by people
RUNS_DIR = Path("runs")  # where runs, their database and the caches live, relative to the working folder
RESOLUTION = "1920x1080"  # the official default when a task records none
RECORDING_RESOLUTION = "1280x800"  # what the recorder uses when a script names none
SEED = 1  # Math.random is seeded with this in every replay and recording
# Where a replay's clock starts when the task records none: None is the real time (a fixed date would
# be a constant a judged page could check for). A task that records one (`iwr.clock`) starts there.
CLOCK: str | None = None
RECORDING_CLOCK = "2026-01-15T10:00:00Z"  # the recorder's clock, recorded in each task it makes
JUDGE_TIMEOUT_S = 120.0  # one task's replay; a page that hangs every action must not hang the run
# One `iwr judge` process: the replay, the typed-text probe's replay (each bounded by
# JUDGE_TIMEOUT_S) and the start of its servers and models.
JUDGE_PROCESS_TIMEOUT_S = 2 * JUDGE_TIMEOUT_S + 120.0
# What the judge copies of an artifact before judging it (evals/judging/judged_copy.py); beyond these
# it refuses the artifact (model_failure). No honest single-page reconstruction comes near 64 MiB of its
# own bytes (the task's assets, byte-identical, do not count), and the hostile corpus's 50 MB page still
# gets judged; the counts bound the work and the disk a folder bomb could cost.
MAX_ARTIFACT_BYTES = 64 * 2**20
MAX_ARTIFACT_FILES = 5000  # files and folders
MAX_ARTIFACT_DEPTH = 32  # folders below the artifact folder


def judge_cache(runs_dir: Path = RUNS_DIR) -> Path:
    """Where judgements and metric values are cached by content."""
    return runs_dir / "cache" / "judge"


def response_cache(runs_dir: Path = RUNS_DIR) -> Path:
    """Where model replies are cached by request (unless $IWR_RESPONSE_CACHE says otherwise)."""
    return runs_dir / "cache" / "responses.db"
