"""The agreement corpus (tasks/agreement): pages made outside the judge, each action labelled by a person.

Pages were written by coders who saw only an `iwr prepare` workspace (single-shot, iterative, and
realistically imperfect), or are the unchanged originals and broken variants of tasks recorded
blind from public apps (tasks/blind, and later batches, tasks/blind2 to tasks/blind6). A grader who never
saw the judge's code or output replayed each page in Chromium and labelled every action pass, fail or
unsure, with the reason. None of the pages, sentences or labels is changed after the judge has seen them
(README.md there).

Layout: `pages.json` (one entry a page), `pages/<id>/` (the page's own files; the task's assets are
added when the page is laid out for judging), `labels/<id>.json` (the grader's labels).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from iwr.evals.quality.real_corpus import CorpusError, real_tasks, variant_site
from iwr.tasks.defaults import AGREEMENT_CORPUS as AGREEMENT, BUNDLED_SUITE

__all__ = ["AGREEMENT", "CorpusError", "CorpusPage", "PageLabels", "lay_out", "load_labels", "load_pages"]
CORPORA = {"suite": BUNDLED_SUITE, "real": BUNDLED_SUITE.parent / "real", "blind": BUNDLED_SUITE.parent / "blind",
           "blind2": BUNDLED_SUITE.parent / "blind2", "blind3": BUNDLED_SUITE.parent / "blind3",
           "blind4": BUNDLED_SUITE.parent / "blind4", "blind5": BUNDLED_SUITE.parent / "blind5",
           "blind6": BUNDLED_SUITE.parent / "blind6"}


class Flaw(BaseModel):
    """What a coder says it made imperfect (never shown to the graders)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["missing", "reworded", "layout", "half"] = Field(description="the kind of imperfection asked for")
    what: str = Field(description="the coder's own sentence")
    actions: list[int] = Field(default_factory=list, description="1-based actions the coder expected it to affect")


class CorpusPage(BaseModel):
    """One page of the corpus and where it came from."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(description="the page's id (folder name under pages/ and labels/)")
    task: str = Field(description="the task's id in its corpus")
    corpus: Literal["suite", "real", "blind", "blind2", "blind3", "blind4", "blind5", "blind6"] = Field(
        description="tasks/suite, tasks/real or tasks/blind, blind2, blind3, blind4, blind5, blind6")
    mode: Literal["single", "iter", "flawed", "original", "variant"] = Field(
        description="single-shot, iterative, realistically imperfect, or a recorded app's original / broken variant")
    maker: str = Field(description="who made it (a helper's name, or the app's repository for originals)")
    made: str = Field(description="the day it was made (YYYY-MM-DD)")
    flaw: Flaw | None = Field(None, description="for imperfect pages: what the coder changed")
    variant: str | None = Field(None, description="for a broken variant: its name in the app's variants.json")


class Label(BaseModel):
    """A person's verdict on one action."""

    model_config = ConfigDict(extra="forbid")
    index: int = Field(ge=1, description="1-based action index")
    label: Literal["pass", "fail", "unsure"]
    reason: str = Field(description="what the grader saw")


class PageLabels(BaseModel):
    """Every action of one page, labelled by one grader."""

    model_config = ConfigDict(extra="forbid")
    page: str
    grader: str
    graded: str = Field(description="the day it was graded (YYYY-MM-DD)")
    labels: list[Label]


def _problems(e: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, x['loc'])) or 'entry'}: {x['msg']}" for x in e.errors())


def _read(path: Path, model):
    try:
        return model.model_validate_json(path.read_text())
    except ValidationError as e:
        raise CorpusError(f"{path}: {_problems(e)}") from None
    except (OSError, ValueError) as e:
        raise CorpusError(f"{path}: {e}") from None


def load_pages(root: Path = AGREEMENT) -> list[CorpusPage]:
    """Every page of the corpus, in file order; CorpusError naming the file and entry on a bad one."""
    path = root / "pages.json"
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise CorpusError(f"{path}: {e}") from None
    pages = []
    for n, entry in enumerate(raw if isinstance(raw, list) else [None]):
        try:
            pages.append(CorpusPage.model_validate(entry))
        except ValidationError as e:
            raise CorpusError(f"{path}: entry {n}: {_problems(e)}") from None
    ids = [p.id for p in pages]
    if len(set(ids)) != len(ids):
        raise CorpusError(f"{path}: page ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return pages


def load_labels(root: Path = AGREEMENT) -> dict[str, PageLabels]:
    """The graders' labels by page id (pages not yet graded have none)."""
    out = {}
    for f in sorted((root / "labels").glob("*.json")):
        labels = _read(f, PageLabels)
        if labels.page != f.stem:
            raise CorpusError(f"{f}: labels page {labels.page!r} in a file named {f.name}")
        out[labels.page] = labels
    return out


def lay_out(page: CorpusPage, out: Path, root: Path = AGREEMENT) -> tuple[Path, Path | None]:
    """Write the page as it is judged into `out/<id>/`: its own files plus the task's assets, or the
    recorded app's original or broken variant site; returns the entry page and, for an app, its site's
    top folder (the page may sit in a subfolder of it)."""
    corpus = CORPORA[page.corpus]
    if page.mode in ("original", "variant"):
        entry = next((rt for rt in real_tasks(corpus) if str(rt.task_id) == page.task), None)
        if entry is None:
            raise CorpusError(f"page {page.id}: no task {page.task} in {corpus / 'originals.json'}")
        site = entry.site if page.mode == "original" else variant_site(entry, page.variant or "", out)
        return site / entry.page, site
    own = root / "pages" / page.id
    if not (own / "index.html").is_file():
        raise CorpusError(f"page {page.id}: no {own / 'index.html'}")
    folder = out / page.id
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(own, folder)
    assets = corpus / "data" / page.task / "assets"
    if assets.is_dir():
        shutil.copytree(assets, folder / "assets", dirs_exist_ok=True)
    return folder / "index.html", None
