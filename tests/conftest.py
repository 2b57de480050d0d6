"""Shared fixtures: the bundled suite, a scratch copy of it, and a local fake OpenAI-compatible server."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The metrics package holds OpenMP to one thread before anything starts it; a test module that imports
# torch first would otherwise start it unbounded, and libtesseract in process then stays unused.
import iwr.mcp_servers.metrics  # noqa: F401,E402

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# Registers of prepared workspaces and their judgements (tasks/marker.py) stay out of the tester's home.
os.environ["IWR_STATE_DIR"] = tempfile.mkdtemp(prefix="iwr-test-state-")
# A repository fetch a test did not mean to make goes to a closed loopback port, never to GitHub.
os.environ["IWR_FORGE"] = "http://127.0.0.1:9"
# So does a Hub download (data sets, weights), into a cache of the test run's own; a test that means
# one serves the Hub's file API on loopback (tests/fake_hub.py).
os.environ["HF_ENDPOINT"] = "http://127.0.0.1:9"
os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="iwr-test-hf-")
os.environ.pop("HF_HUB_CACHE", None)

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "tasks" / "suite"


@pytest.fixture(autouse=True)
def records_conform_to_their_schemas(request):
    """Every result.json and summary.json a test leaves in its tmp_path conforms to the shipped JSON
    Schema (evals/records/schemas): a test that writes a record out of format fails at teardown."""
    root = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    yield
    if root is None:
        return
    from iwr.evals.records.schemas import problems

    bad = []
    for kind, name in (("result", "result.json"), ("summary", "summary.json")):
        for f in root.rglob(name):
            try:
                import json

                found = problems(kind, json.loads(f.read_text()))
            except ValueError as e:
                found = [f"not JSON: {e}"]
            bad += [f"{f.relative_to(root)}: {p}" for p in found[:3]]
    assert not bad, "records out of format:\n" + "\n".join(bad[:10])


@pytest.fixture(scope="session")
def suite_dir() -> Path:
    return SUITE


def tracked_files(root: Path) -> list[str]:
    """What a clean checkout at `root` holds: tracked and new files, nothing gitignored (app copies)."""
    import subprocess

    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, check=True,
                         capture_output=True).stdout.decode().split("\0")
    return [rel for rel in out if rel and (root / rel).is_file()]


def one_task_suite(root: Path, task_id: str = "1") -> Path:
    """A writable suite under `root` holding one bundled task and its reference site."""
    import json

    dst = root / "tasks" / "suite"
    dst.mkdir(parents=True)
    line = next(x for x in (SUITE / "data.jsonl").read_text().splitlines() if json.loads(x)["id"] == int(task_id))
    (dst / "data.jsonl").write_text(line + "\n")
    shutil.copytree(SUITE / "data" / task_id, dst / "data" / task_id)
    site = json.loads(line)["iwr"]["reference"]["site"]
    shutil.copytree((SUITE / site).resolve(), (dst / site).resolve())
    return dst


@pytest.fixture
def suite_copy(tmp_path: Path) -> Path:
    """A writable one-task copy of the bundled suite (task 1 and its site, same relative layout)."""
    return one_task_suite(tmp_path)


@pytest.fixture
def fake_openai():
    """Start the local fake OpenAI-compatible server; yields it (set `.replies` to script answers)."""
    from tests.fake_openai import FakeOpenAI

    server = FakeOpenAI()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def scripted_iterative(tmp_path_factory):
    """The scripted iterative run (tests/iterative_script.py), run once per session:
    yields (runs_dir, result, the requests the fake model received)."""
    import asyncio

    from tests.fake_openai import FakeOpenAI
    from tests.iterative_script import run_scripted, script

    server = FakeOpenAI()
    server.replies = script()
    server.start()
    try:
        runs = tmp_path_factory.mktemp("iterative-runs")
        result = asyncio.run(run_scripted(server.base_url, runs, SUITE))
        yield runs, result, server.requests
    finally:
        server.stop()


@pytest.fixture(scope="session")
def tiny_dino(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised, very small DINOv2 saved as a local model folder (no download)."""
    import transformers  # a project dependency: missing, the test fails rather than skips
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


# --- tasks/real: the app files are not in the repository (see tasks/real/README.md) -------------

REAL = ROOT / "tasks" / "real"
_REAL_DESELECTED = pytest.StashKey[int]()


def _real_apps_at_hand() -> bool:
    """The fetch mirror is here, or every app of tasks/real is already materialised."""
    from iwr.evals.quality.real_corpus import MIRROR

    return MIRROR.is_dir() or all((app / "site").is_dir() for app in (REAL / "apps").iterdir() if app.is_dir())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect `cheats_full`, `whole_suite` and `easyocr` unless asked for with -m; deselect `real_apps` tests on a machine that cannot
    materialise tasks/real (a fresh clone without the mirror), unless they were asked for with -m; the
    terminal summary says so."""
    for opt_in in ("cheats_full", "whole_suite", "easyocr"):
        if opt_in not in (config.option.markexpr or ""):
            left_out = [i for i in items if i.get_closest_marker(opt_in)]
            config.hook.pytest_deselected(items=left_out)
            items[:] = [i for i in items if not i.get_closest_marker(opt_in)]
    marked = [i for i in items if i.get_closest_marker("real_apps")]
    if not marked or "real_apps" in (config.option.markexpr or "") or _real_apps_at_hand():
        return
    config.hook.pytest_deselected(items=marked)
    items[:] = [i for i in items if not i.get_closest_marker("real_apps")]
    config.stash[_REAL_DESELECTED] = len(marked)


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    n = config.stash.get(_REAL_DESELECTED, 0)
    if n:
        from iwr.evals.quality.real_corpus import MIRROR

        terminalreporter.write_line(
            f"{n} real_apps test(s) deselected: tasks/real's app files are not materialised and there is no fetch "
            f"mirror at {MIRROR}; run `iwr tasks materialise-real` where the mirror is (or `-m real_apps`)",
            yellow=True)


@pytest.fixture(scope="session")
def real_corpus() -> Path:
    """tasks/real with its app files materialised: from the fetch mirror when it is here (into the gitignored
    site/, LICENSE and assets/; files already right are left alone), else as already materialised."""
    from iwr.evals.quality.real_corpus import MIRROR, CorpusError, materialise, real_tasks

    try:
        if MIRROR.is_dir():
            materialise(REAL, MIRROR)
        real_tasks(REAL)
    except CorpusError as e:
        pytest.fail(f"tasks/real's app files are not at hand: {e}\n(run `iwr tasks materialise-real` with the "
                    f"fetch mirror at {MIRROR})", pytrace=False)
    return REAL
