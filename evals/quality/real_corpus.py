"""The corpus of real public apps (tasks/real): each task's original app and its broken variants.

`originals.json` names, for each task, the app folder under `apps/`, its entry page and its broken
variants. Only our own files are in the repository: the app files (`apps/<app>/site/`, `LICENSE`)
and the assets the recorder copied from them (`data/<id>/assets/`) are brought out of the apps'
public repositories by `materialise`, at the commit that `apps/<app>/source.json` pins (fetched into
the user's cache once: forge.py; or taken from repository snapshots there).
A broken variant is the original site with a piece of our own JavaScript (`apps/<app>/variants.json`)
injected into its entry page. Calibration judges the originals (which must score high) and the
variants (which must score lower).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field, ValidationError, field_validator, model_validator

from iwr.evals.quality.forge import FORGE, ForgeError, fetch_commit, has_commit
from iwr.settings import settings
from iwr.tasks.defaults import PROJECT_ROOT
from iwr.tasks.schema import Ours

REAL_SUITE = PROJECT_ROOT / "tasks" / "real"
# Where the apps' repositories are kept as <owner>+<name>/ (a snapshot's git directory, or the shallow
# fetch of the pinned commit that forge.py makes): IWR_FETCH_MIRROR, else the user's cache.
MIRROR = settings().fetch_mirror.expanduser()
MATERIALISE_HINT = "run `iwr tasks materialise-real`"


class CorpusError(ValueError):
    """originals.json or an app folder is not usable; the message names the file."""


class Change(Ours):
    """A change made to one taken file, expressed as data so that it can be made again."""

    file: str = Field(description="the file's path under the app's site/")
    drop_lines_containing: str = Field(min_length=1, description="every line containing this text is removed")
    why: str = Field(description="why the change is needed")


class Source(Ours):
    """apps/<app>/source.json: where the app's files come from."""

    repo: str = Field(pattern=r"^[\w.-]+/[\w.-]+$", description="owner/name on GitHub")
    commit: str = Field(pattern=r"^[0-9a-f]{40}$", description="the pinned commit")
    root: str = Field("", description="the folder in the repository the files are taken from ('' for the top)")
    licence: str = Field(description="SPDX identifier of the app's licence")
    licence_file: str = Field(description="the licence file's path in the repository (copied to apps/<app>/LICENSE)")
    files: list[str] = Field(min_length=1, description="paths under `root`, copied to site/ with the same paths")
    changes: list[Change] = Field(default_factory=list, description="changes made after copying")

    @field_validator("files")
    @classmethod
    def _relative(cls, files: list[str]) -> list[str]:
        bad = [f for f in files if f.startswith("/") or ".." in Path(f).parts]
        if bad:
            raise ValueError(f"paths must stay inside the app's folder: {bad}")
        return files


class Variant(Ours):
    """One broken variant in apps/<app>/variants.json: our own script, injected into the entry page."""

    note: str = Field(description="the defect, as a person using the app would see it")
    inject_head: str | None = Field(None, description="script run first in <head>, before any of the app's code")
    inject_body: str | None = Field(None, description="script run last in <body>, after the app's own scripts")

    @model_validator(mode="after")
    def _some_script(self) -> Variant:
        scripts = [s for s in (self.inject_head, self.inject_body) if s is not None]
        if not scripts or not all(s.strip() for s in scripts):
            raise ValueError("a variant needs inject_head or inject_body")
        if any(re.search(r"</script", s, re.I) for s in scripts):
            raise ValueError("an injected script may not contain '</script'")
        return self


@dataclass(frozen=True)
class RealTask:
    task_id: str
    app: Path  # the app folder (source.json, variants.json, scripts/, and once materialised site/, LICENSE)
    page: str
    broken: tuple[str, ...]
    fails_at: dict = field(default_factory=dict, hash=False, compare=False)  # variant -> 0-based action it first fails at

    @property
    def site(self) -> Path:
        return self.app / "site"


def _model(path: Path, model):
    try:
        return model.model_validate_json(path.read_bytes())
    except OSError as e:
        raise CorpusError(f"{path}: {e.strerror}") from None
    except ValidationError as e:
        raise CorpusError(f"{path}: {e}") from None


def load_source(app: Path) -> Source:
    """The app's source.json."""
    return _model(app / "source.json", Source)


def load_variants(app: Path) -> dict[str, Variant]:
    """The app's broken variants by name (variants.json)."""
    path = app / "variants.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise CorpusError(f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise CorpusError(f"{path}: {e}") from None
    if not isinstance(raw, dict):
        raise CorpusError(f"{path}: expected an object of variants by name")
    out = {}
    for name, v in raw.items():
        try:
            out[name] = Variant.model_validate(v)
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(map(str, x['loc'])) or 'variant'}: {x['msg']}" for x in e.errors())
            raise CorpusError(f"{path}: variant {name!r}: {problems}") from None
    return out


def _entries(root: Path) -> list[RealTask]:
    path = root / "originals.json"
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
        return [RealTask(str(e["task"]), root / "apps" / e["app"], e.get("page", "index.html"), tuple(e["broken"]),
                         {str(k): int(v) for k, v in (e.get("fails_at") or {}).items()}) for e in entries]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CorpusError(f"{path}: {e}") from None


def real_tasks(root: Path = REAL_SUITE) -> list[RealTask]:
    """The corpus's tasks as originals.json lists them; the apps must have been materialised."""
    path = root / "originals.json"
    out = _entries(root)
    for t in out:
        if not (t.site / t.page).is_file():
            raise CorpusError(f"{path}: task {t.task_id}: no page {t.site / t.page}; the app files are not in the "
                              f"repository: {MATERIALISE_HINT}")
        defined = load_variants(t.app)
        for v in t.broken:
            if v not in defined:
                raise CorpusError(f"{path}: task {t.task_id}: no variant {v!r} in {t.app / 'variants.json'}")
    return out


def inject(html: str, variant: Variant) -> str:
    """The page with the variant's scripts: first in <head> and/or last in <body>."""
    if variant.inject_head is not None:
        head = re.search(r"<head\b[^>]*>", html, re.I)
        if head is None:
            raise CorpusError("the page has no <head> to inject a script into")
        html = f"{html[:head.end()]}\n<script>\n{variant.inject_head}\n</script>{html[head.end():]}"
    if variant.inject_body is not None:
        end = html.lower().rfind("</body>")
        end = len(html) if end < 0 else end
        html = f"{html[:end]}<script>\n{variant.inject_body}\n</script>\n{html[end:]}"
    return html


def variant_site(task: RealTask, variant: str, out: Path) -> Path:
    """Write the app with one broken variant injected into its entry page to out/<app>-<variant>/; returns it.

    A folder already there with the same page is reused (tasks of one app share their variants)."""
    defined = load_variants(task.app)
    if variant not in defined:
        raise CorpusError(f"{task.app / 'variants.json'}: no variant {variant!r}")
    page = task.site / task.page
    if not page.is_file():
        raise CorpusError(f"no page {page}: {MATERIALISE_HINT}")
    html = inject(page.read_bytes().decode("utf-8"), defined[variant]).encode("utf-8")
    folder = out / f"{task.app.name}-{variant}"
    if (folder / task.page).is_file() and (folder / task.page).read_bytes() == html:
        return folder
    part = folder.with_name(folder.name + ".part")
    shutil.rmtree(part, ignore_errors=True)
    shutil.copytree(task.site, part)
    (part / task.page).write_bytes(html)
    shutil.rmtree(folder, ignore_errors=True)
    part.rename(folder)
    return folder


# --- materialising the app files from the fetch mirror ----------------------------------------

def _git_dir(mirror: Path, repo: str) -> Path:
    snapshot = mirror / repo.replace("/", "+")
    for d in (snapshot / "repo.git", snapshot / "repo" / ".git", snapshot / "repo", snapshot):
        if (d / "HEAD").is_file() and (d / "objects").is_dir():
            return d
    raise CorpusError(f"no snapshot of {repo} in the fetch mirror: {snapshot} is missing or holds no git directory "
                      f"(bring github:{repo} with the fetch tool, then {MATERIALISE_HINT})")


def _blob(git: Path, commit: str, path: str) -> bytes:
    done = subprocess.run(["git", "--git-dir", str(git), "cat-file", "blob", f"{commit}:{path}"],
                          capture_output=True)
    if done.returncode != 0:
        raise CorpusError(f"{git}: cannot read {path} at {commit}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def _changed(data: bytes, change: Change, where: str) -> bytes:
    lines = data.splitlines(keepends=True)
    kept = [x for x in lines if change.drop_lines_containing.encode() not in x]
    if len(kept) == len(lines):
        raise CorpusError(f"{where}: no line of {change.file} contains {change.drop_lines_containing!r}")
    return b"".join(kept)


def _files(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"


def _sync(folder: Path, files: dict[str, bytes]) -> int:
    """Make `folder` hold exactly `files`; returns how many files were written or removed."""
    touched = 0
    for rel, data in files.items():
        dst = folder / rel
        if dst.is_file() and dst.read_bytes() == data:
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
        touched += 1
    if folder.is_dir():
        for p in sorted(folder.rglob("*"), reverse=True):  # deepest first, so emptied folders can go
            rel = p.relative_to(folder).as_posix()
            if p.is_file() and rel not in files:
                p.unlink()
                touched += 1
            elif p.is_dir() and not any(p.iterdir()):
                p.rmdir()
    folder.mkdir(parents=True, exist_ok=True)
    return touched


def _repository(src: Source, app: Path, mirror: Path, forge: str | None) -> Path:
    """The git directory holding the pinned commit: a snapshot in the mirror, else (with a forge) a
    shallow fetch of that commit into the mirror."""
    try:
        git = _git_dir(mirror, src.repo)
        if has_commit(git, src.commit):
            return git
        missing = CorpusError(f"{app / 'source.json'}: commit {src.commit} is not in the snapshot at {git} "
                              f"(bring a snapshot of github:{src.repo} that has it with the fetch tool)")
    except CorpusError as e:
        missing = e
    if forge is None:
        raise missing
    try:
        return fetch_commit(src.repo, src.commit, mirror / src.repo.replace("/", "+") / "repo.git", forge)
    except ForgeError as e:
        raise CorpusError(f"{app / 'source.json'}: {e}") from e


def _app_files(app: Path, mirror: Path, forge: str | None) -> tuple[Source, dict[str, bytes], bytes]:
    src = load_source(app)
    git = _repository(src, app, mirror, forge)
    prefix = f"{src.root.strip('/')}/" if src.root.strip("/") else ""
    files = {rel: _blob(git, src.commit, prefix + rel) for rel in src.files}
    for change in src.changes:
        if change.file not in files:
            raise CorpusError(f"{app / 'source.json'}: a change names {change.file!r}, which is not taken")
        files[change.file] = _changed(files[change.file], change, str(app / "source.json"))
    return src, files, _blob(git, src.commit, src.licence_file)


def materialise(root: Path = REAL_SUITE, mirror: Path = MIRROR, forge: str | None = FORGE) -> list[str]:
    """(Re)create every app's site/ and LICENSE, and every task's assets/, from the apps' repositories at
    their pinned commits: a snapshot in `mirror`, else fetched from `forge` into it (None: the mirror
    only); returns one line per app and per task with assets, saying what was written. Files already
    right are left alone."""
    if forge is None and not mirror.is_dir():
        raise CorpusError(f"no fetch mirror at {mirror}: the app files of {root} come from the snapshots "
                          f"`fetch` unpacks there")
    report = []
    apps = sorted(p for p in (root / "apps").iterdir() if (p / "source.json").is_file())
    if not apps:
        raise CorpusError(f"{root / 'apps'}: no app has a source.json")
    for app in apps:
        src, files, licence = _app_files(app, mirror, forge)
        touched = _sync(app / "site", files)
        if not ((app / "LICENSE").is_file() and (app / "LICENSE").read_bytes() == licence):
            (app / "LICENSE").write_bytes(licence)
            touched += 1
        state = f"{touched} written or removed" if touched else "already up to date"
        report.append(f"{app.name}: site/ ({_files(len(files))}) and LICENSE from {src.repo}@{src.commit[:12]}, "
                      f"{len(src.changes)} change(s): {state}")
    for t in _entries(root):
        report.extend(_task_assets(root, t))
    return report


def _task_assets(root: Path, task: RealTask) -> list[str]:
    folder = root / "data" / task.task_id
    mapping_file = folder / "assets.json"
    if not mapping_file.is_file():
        (folder / "assets").mkdir(parents=True, exist_ok=True)  # the recorder leaves an empty one
        return []
    try:
        mapping = json.loads(mapping_file.read_text(encoding="utf-8"))
        bad = [n for n, rel in mapping.items() if Path(n).name != n or ".." in Path(rel).parts]
        if bad:
            raise ValueError(f"asset names must be bare file names and sources stay in the site: {bad}")
        files = {name: (task.site / rel).read_bytes() for name, rel in mapping.items()}
    except (OSError, ValueError, AttributeError) as e:
        raise CorpusError(f"{mapping_file}: {e}") from None
    touched = _sync(folder / "assets", files)
    state = f"{touched} written or removed" if touched else "already up to date"
    return [f"task {task.task_id}: assets/ ({_files(len(files))} from {task.app.name}/site): {state}"]
