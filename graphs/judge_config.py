"""How the judge replays and scores: the one configuration every judging command and the cache key share."""
from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from iwr.agents.models import ModelConfig
from iwr.graphs.profiles import Profile, profile_named
from iwr.mcp_servers.metrics.ocr import OcrEngine


class JudgeConfig(BaseModel):
    """How the judge replays and scores."""

    profile: str = Field("offline", description="judging profile, a name in graphs.profiles.PROFILES; offline uses no LLM")
    paper_compat: bool = Field(False, description="reproduce the reference code's quirks (iwr-bench.md section 5)")
    model: ModelConfig | None = Field(None, description="the judge's model (paper and hybrid profiles)")
    lvs_metrics: list[str] | None = Field(None, description="low-level visual metrics, averaged into LVS "
                                          "(default: the profile's)")
    hvs_metric: str | None = Field(None, description="the high-level visual metric, HVS (default: the profile's)")
    ocr_engine: OcrEngine | None = Field(None, description="what reads the ocr metric's text; auto: EasyOCR where it "
                                         "is installed, else Tesseract (default: the profile's)")
    chance_corrected: bool | None = Field(None, description="rescale similarities so a blank page of the task's size "
                                          "scores 0 and the reference 1, raw values kept (default: the profile's)")
    default_wait_ms: int = Field(150, description="time to let pass after an action when the task records none (what a "
                                 "person sees in the moment after it: an animation that starts after a short delay is "
                                 "under way by then); the browser settles (network idle, DOM quiet) after it either way")
    scroll_min_px: float = Field(5.0, description="a scroll succeeds when the position moved more than this")
    visual: bool = Field(True, description="score checkpoints; off for a coder replaying its own page")
    screenshots: bool = Field(True, description="a screenshot on opening and after each action; off (with visual off and a verdict "
                              "that reads the page, not pictures: the offline profile) the page is only settled")
    hints: bool = Field(True, description="use our recorder's per-action hints (target selectors, crops, structured "
                        "checks); off judges from the words alone, as on official data, and records how the "
                        "words-only choices compare with the hints where a task has them")
    probes: bool = Field(True, description="after judging, replay with changed typed texts (reported apart)")
    explore_model: ModelConfig | None = Field(None, description="with probes, an LLM agent (browser-use) explores the page "
                                              "and reports what works (evals/judging/explore.py; reported apart)")

    @model_validator(mode="after")
    def _known_and_equipped(self) -> "JudgeConfig":
        p = profile_named(self.profile)
        if p.needs_model and self.model is None:
            raise ValueError(f"the {self.profile} profile needs a judge model (--judge-model)")
        for name in ("lvs_metrics", "hvs_metric", "chance_corrected", "ocr_engine"):  # unset: the profile's
            if getattr(self, name) is None:
                setattr(self, name, list(p.lvs_metrics) if name == "lvs_metrics" else getattr(p, name))
        if not self.screenshots and (self.visual or self.profile != "offline"):
            raise ValueError("screenshots may be off only with visual off and the offline profile")
        return self

    @property
    def judging(self) -> Profile:
        """The profile's strategies."""
        return profile_named(self.profile)

    @classmethod
    def for_profile(cls, profile: str = "offline", model: ModelConfig | None = None, **kw) -> "JudgeConfig":
        """A profile's configuration; a profile that needs no model is given none."""
        return cls(profile=profile, model=model if profile_named(profile).needs_model else None, **kw)
