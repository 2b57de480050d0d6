"""The built wheel in an environment of its own (no root, no apt), beside other projects' top-level
`agents` and `evals` packages (the OpenAI Agents SDK's and OpenAI evals' import names): `iwr doctor`,
`iwr judge` (the same scores as the checkout's install), `iwr run` and the Python API run from the
wheel's `iwr.*` namespace, and the others stay importable as they are."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.conftest import tracked_files

ROOT = Path(__file__).resolve().parent.parent
OTHERS = {"agents": "the other project's agents", "evals": "the other project's evals"}


def source_tree(into: Path) -> Path:
    """A clean checkout's files, copied."""
    for rel in tracked_files(ROOT):
        (into / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, into / rel)
    return into


def fresh_env(where: Path, wheel: Path) -> Path:
    """A new venv whose only project code is the wheel and the two look-alikes; the dependencies are
    read from this venv's site-packages as a plain path (its .pth files, ours among them, are not run)."""
    venv.EnvBuilder(with_pip=False).create(where)
    rel = Path(sysconfig.get_path("purelib")).relative_to(sys.prefix)
    site = where / rel
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    for name, text in OTHERS.items():
        (site / name).mkdir()
        (site / name / "__init__.py").write_text(f"WHO = {text!r}\n")
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return where / "bin" / "python"


@pytest.mark.slow
def test_the_wheel_runs_beside_other_agents_and_evals_packages(tmp_path):
    src = source_tree(tmp_path / "src")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("iwr-*.whl")
    python = fresh_env(tmp_path / "env", wheel)
    site = next((tmp_path / "env").glob("lib/*/site-packages"))
    entry = next(site.glob("iwr-*.dist-info")) / "entry_points.txt"
    assert "iwr = iwr.evals.cli.app:app" in entry.read_text()

    ws = tmp_path / "ws"
    run = lambda *a: subprocess.run([str(python), *a], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    p = run("-m", "iwr.evals.cli", "prepare", "1", "--out", str(ws))
    assert p.returncode == 0, p.stderr[-3000:]
    api = f"""
import json, agents, evals, iwr
from iwr import judge, load_tasks
suite = load_tasks()
task = suite.get("1")
page = task.reference_site() / task.record.iwr.reference.page
r = judge(page, "1")
print(json.dumps({{"iwr": iwr.__file__, "suite": str(suite.root), "page": str(page), "agents": agents.WHO,
                  "evals": evals.WHO, "status": r.status, "final": r.final}}))
"""
    a = run("-c", api)
    assert a.returncode == 0, a.stderr[-3000:]
    got = json.loads(a.stdout.strip().splitlines()[-1])
    assert Path(got["iwr"]).is_relative_to(site) and Path(got["suite"]).is_relative_to(site), got
    assert (got["agents"], got["evals"]) == (OTHERS["agents"], OTHERS["evals"])
    assert got["status"] == "scored" and got["final"] > 0.9, got

    assert Path(got["page"]).is_relative_to(site)
    shutil.copytree(Path(got["page"]).parent, ws, dirs_exist_ok=True)
    judged = {}
    for name, py in (("wheel", python), ("checkout", Path(sys.executable))):
        j = subprocess.run([str(py), "-m", "iwr.evals.cli", "judge", str(ws), "--json"], capture_output=True, text=True,
                           timeout=600, cwd=tmp_path)
        assert j.returncode == 0, j.stderr[-3000:]
        judged[name] = json.loads(j.stdout.strip().splitlines()[-1])
    assert judged["wheel"]["status"] == "scored" and judged["wheel"]["final"] > 0.9, judged["wheel"]
    same = ("ifs", "vfs", "final", "actions_passed")
    assert {k: judged["wheel"].get(k) for k in same} == {k: judged["checkout"].get(k) for k in same}

    ran = run("-m", "iwr.evals.cli", "run", "--agent", "oracle", "--task", "1", "--runs-dir", str(tmp_path / "runs"),
              "--json")
    assert ran.returncode == 0, ran.stderr[-3000:]
    (task,) = json.loads(ran.stdout.strip().splitlines()[-1])["tasks"]
    assert task["status"] == "scored" and task["final"] > 0.9, task
    doctor = run("-m", "iwr.evals.cli", "doctor", "--json", "--no-launch")
    assert doctor.returncode == 0, doctor.stdout[-2000:]


def test_a_checkout_on_the_path_runs_its_own_layers(tmp_path):
    """A copy of the checkout used through PYTHONPATH (no install) imports its own folders, not those
    of the installed checkout."""
    for part in ("iwr", "evals"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    with (tmp_path / "evals" / "__init__.py").open("a") as f:
        f.write("\nCOPY = True\n")
    p = subprocess.run([sys.executable, "-c", "import iwr.evals as e; print(e.__file__, e.COPY)"], capture_output=True,
                       text=True, cwd=tmp_path.parent, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [str(tmp_path / "evals" / "__init__.py"), "True"]
