"""Every IWR_* environment variable, read in one place: its meaning and its default.

`settings()` reads the environment afresh at each call: `--plugin` adds to IWR_PLUGINS for the
servers a run starts, a run points IWR_STATE_DIR elsewhere for its workspaces, and tests set them
case by case. An empty variable counts as unset. The README's table of them is `table()`'s output
(a test keeps the two the same). Two readers stay outside: `evals/workspace/inspect_task.py` reads
IWR_BIN itself, since it runs in inspect_ai's environment and imports nothing of iwr, and
`scripts/setup.sh` reads IWR_TORCH_INDEX before there is a Python environment to read it.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PREFIX = "IWR_"


def _home(*parts: str) -> Path:
    return Path.home().joinpath(*parts)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=PREFIX, env_ignore_empty=True, extra="ignore", frozen=True)

    chromium: str | None = Field(None, description="the Chromium to launch; default: Debian's `/usr/bin/chromium`, "
                                                   "else the one on PATH, else Playwright's own")
    outside_proxy: str = Field("http://127.0.0.1:9", description="where Chromium sends any request that is not to "
                                                                 "loopback: a proxy that answers nothing")
    state_dir: Path = Field(default_factory=lambda: _home(".local", "state", "iwr"),
                            description="registers and judgements of outside workspaces (`iwr prepare`, `iwr judge`)")
    response_cache: str | None = Field(None, description="the model-response cache file, or `off`; default: "
                                                         "RUNS_DIR/cache/responses.db for runs, none elsewhere")
    plugins: str = Field("", description="plug-in modules to import, comma-separated (`iwr --plugin` adds to it)")
    judge_model: str | None = Field(None, description="the judge's litellm model where `--judge-model` is not given")
    judge_api_base: str | None = Field(None, description="the judge model's API base where `--judge-api-base` is not given")
    dinov2_path: Path | None = Field(None, description="a local DINOv2 folder; overrides the Hub")
    dinov2_id: str = Field("facebook/dinov2-base", description="the DINOv2 model's Hub id, fetched once into the Hub cache")
    lpips_path: Path | None = Field(None, description="a folder with the LPIPS weights (`alexnet.pth`, `alex.pth`)")
    easyocr_path: Path | None = Field(None, description="a folder with EasyOCR's model files (`craft_mlt_25k.pth`, "
                                      "`english_g2.pth`); overrides the Hub and EasyOCR's own folder")
    easyocr_id: str | None = Field(None, description="a Hub repository holding EasyOCR's model files, fetched once into "
                                   "the Hub cache; default: EasyOCR's own folder (`~/.EasyOCR/model`)")
    metric_store: Path | None = Field(None, description="where computed metric inputs are kept; default: "
                                                        "`$XDG_CACHE_HOME/iwr/metrics` (or `~/.cache/iwr/metrics`)")
    fetch_mirror: Path = Field(default_factory=lambda: _home(".cache", "iwr", "mirror"),
                               description="a folder of git snapshots `iwr tasks materialise-real` reads before the forge")
    forge: str = Field("https://github.com", description="the forge the real apps' repositories are fetched from")
    explore_python: Path | None = Field(None, description="the interpreter of the browser-use explorer; default: "
                                                          "the checkout's `.venv-explore/bin/python`")
    bin: str | None = Field(None, description="the `iwr` the inspect_ai task drives; default: the checkout's "
                                              "`.venv/bin/iwr` (read by the task itself)")
    torch_index: str = Field("https://download.pytorch.org/whl/cpu", description="the wheel index `scripts/setup.sh` "
                             "takes CPU torch from where it answers (read by the script)")
    scripted_seen: Path | None = Field(None, description="tests: a file the scripted model appends what it was shown to")
    selftest_case: str | None = Field(None, description="set by `iwr selftest` in the environment of what it starts, "
                                                        "to find and stop those processes; never read")

    def plugin_names(self) -> list[str]:
        """IWR_PLUGINS as a list, blanks dropped."""
        return [n.strip() for n in self.plugins.split(",") if n.strip()]


def settings() -> Settings:
    """The IWR_* variables as the environment has them now."""
    return Settings()


def env_name(field: str) -> str:
    """The environment variable of a setting: `env_name("state_dir")` is IWR_STATE_DIR."""
    if field not in Settings.model_fields:
        raise KeyError(f"no setting {field!r}")
    return PREFIX + field.upper()


def table() -> str:
    """The README's table of the variables: name, meaning, default."""
    rows = ["| Variable | Meaning | Default |", "|---|---|---|"]
    for name, f in Settings.model_fields.items():
        if f.default_factory is not None:
            default = "`" + str(f.default_factory()).replace(str(Path.home()), "~") + "`"
        else:
            default = f"`{f.default}`" if f.default not in (None, "") else "unset"
        rows.append(f"| `{env_name(name)}` | {f.description} | {default} |")
    return "\n".join(rows)
