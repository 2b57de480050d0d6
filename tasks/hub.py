"""The official data set from the Hugging Face Hub (`IWR-Bench/IWR-Bench`), fetched the way the
ecosystem does: huggingface_hub, resumable, with the revision resolved to a commit first so that what
was judged can be named exactly. The files land as plain files in a folder per commit beside the Hub
cache ($HF_HOME/iwr/), or in a folder the user names: the Hub cache proper keeps each file as a link
into its blobs, and the loader refuses task files that lead out of their task folder."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

OFFICIAL_REPO = "IWR-Bench/IWR-Bench"
# The data set's branch; a run records the commit it resolved to, and --revision COMMIT pins one.
DEFAULT_REVISION = "main"
HOW_BY_HAND = (f"hf download {OFFICIAL_REPO} --repo-type dataset --local-dir DIR, then pass --tasks DIR "
               "(or set HF_ENDPOINT to a mirror of the Hub)")


class HubError(RuntimeError):
    """The data set could not be fetched; the message says why and what to do instead."""


@dataclass(frozen=True)
class Downloaded:
    folder: Path  # the folder holding data.jsonl: what --tasks takes
    commit: str  # the revision it was fetched at
    endpoint: str


# huggingface_hub reads its settings once, at import; these read them when asked, so that a setting
# made after the import (a plug-in, a test) is the one used.
def hf_home() -> Path:
    from huggingface_hub import constants

    return Path(os.environ.get("HF_HOME") or constants.HF_HOME).expanduser()


def hub_cache() -> Path:
    return Path(os.environ["HF_HUB_CACHE"]).expanduser() if os.environ.get("HF_HUB_CACHE") else hf_home() / "hub"


def model_files(repo: str, patterns: list[str]) -> Path:
    """The files of model `repo` matching `patterns`, fetched once into the Hub cache (later read from it,
    even without a network); HubError says why they could not be had."""
    from huggingface_hub import snapshot_download

    try:
        return Path(snapshot_download(repo, allow_patterns=patterns, endpoint=endpoint(), cache_dir=hub_cache()))
    except Exception as e:  # noqa: BLE001 - the Hub client's HTTP, cache and not-found errors alike
        raise HubError(f"from the Hub at {endpoint()} ({type(e).__name__}: {(str(e) or '-').splitlines()[0]})") from e


def endpoint() -> str:
    from huggingface_hub import constants

    return os.environ.get("HF_ENDPOINT") or constants.ENDPOINT


def default_folder(repo: str, commit: str) -> Path:
    return hf_home() / "iwr" / f"datasets--{repo.replace('/', '--')}" / commit


def download(revision: str = DEFAULT_REVISION, out: Path | None = None, repo: str = OFFICIAL_REPO) -> Downloaded:
    """Fetch `repo` (a dataset) at `revision` into `out`, by default a folder per commit beside the Hub
    cache; a partial download resumes where it stopped. HubError when the Hub cannot be reached or
    has no such revision."""
    from huggingface_hub import HfApi, snapshot_download
    from huggingface_hub.errors import RepositoryNotFoundError, RevisionNotFoundError

    where = endpoint()
    try:
        commit = HfApi(endpoint=where).repo_info(repo, repo_type="dataset", revision=revision).sha
        into = out if out is not None else default_folder(repo, commit)
        path = Path(snapshot_download(repo, repo_type="dataset", revision=commit, endpoint=where, local_dir=str(into)))
    except RevisionNotFoundError as e:
        raise HubError(f"{repo} has no revision {revision!r} on {where}") from e
    except RepositoryNotFoundError as e:
        raise HubError(f"no data set {repo} on {where} (or it needs a token: HF_TOKEN)") from e
    except Exception as e:  # noqa: BLE001 - HfHubHTTPError, OSError, and the transport errors of the Hub's HTTP client
        raise HubError(f"cannot fetch {repo}@{revision} from {where}: {type(e).__name__}: {(str(e) or '-').splitlines()[0]}; "
                       f"by hand: {HOW_BY_HAND}") from e
    return Downloaded(folder=data_folder(path), commit=commit or revision, endpoint=where)


def data_folder(root: Path) -> Path:
    """The folder of the download that holds data.jsonl (the top, else the shallowest one below)."""
    found = sorted(root.rglob("data.jsonl"), key=lambda p: (len(p.parts), str(p)))
    if not found:
        raise HubError(f"the download at {root} holds no data.jsonl: not the official layout")
    return found[0].parent
