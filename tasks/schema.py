"""Pydantic models of the IWR-Bench `data.jsonl` schema plus our optional `iwr` extension.

Official objects accept unknown keys (the released data may carry more than the paper lists);
our own extension objects forbid them so typos in hand-written files are caught.
"""
from __future__ import annotations

import re
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from iwr.tasks import defaults

ActionType = Literal["Click", "Type", "Scroll", "Press"]
RESOLUTION_RE = re.compile(r"^\s*([0-9]{2,5})\s*[xX*]\s*([0-9]{2,5})\s*$")  # ASCII digits: \d takes any script


def parse_resolution(text: str) -> tuple[int, int] | None:
    """(width, height) from "WIDTHxHEIGHT" (also "W*H", spaces allowed); None when it does not read as one."""
    m = RESOLUTION_RE.match(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def size_of(record: dict) -> tuple[int, int]:
    """(width, height) of a task record given as JSON; the official default when it names none."""
    res = (record.get("recording_details") or {}).get("resolution") or defaults.RESOLUTION
    return parse_resolution(res) or parse_resolution(defaults.RESOLUTION)


class Official(BaseModel):
    """Base of the official objects: unknown keys are kept, never rejected."""

    model_config = ConfigDict(extra="allow")


class Ours(BaseModel):
    """Base of our extension objects: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid")


# --- our extension -------------------------------------------------------------------------

class TextVisible(Ours):
    """The page's visible text contains `text` (case-insensitive, whitespace-normalised)."""

    kind: Literal["text_visible"] = "text_visible"
    text: str


class TextAbsent(Ours):
    """The page's visible text does not contain `text`."""

    kind: Literal["text_absent"] = "text_absent"
    text: str


class ElementCount(Ours):
    """Exactly `equals` visible elements match the CSS `selector`."""

    kind: Literal["count"] = "count"
    selector: str
    equals: int


class InputValue(Ours):
    """The form control matched by `selector` holds the value `equals`."""

    kind: Literal["value"] = "value"
    selector: str
    equals: str


class UrlContains(Ours):
    """The page URL (including the hash) contains `text`."""

    kind: Literal["url_contains"] = "url_contains"
    text: str


class RegionChanges(Ours):
    """The pixels inside `bbox` [x, y, w, h] differ before and after the action."""

    kind: Literal["region_changes"] = "region_changes"
    bbox: tuple[int, int, int, int]


Check = Annotated[
    Union[TextVisible, TextAbsent, ElementCount, InputValue, UrlContains, RegionChanges],
    Field(discriminator="kind"),
]


class TargetHint(Ours):
    """Where the action's element was at recording time; every field is optional."""

    selector: str | None = None
    role: str | None = None
    name: str | None = None
    text: str | None = None
    bbox: tuple[float, float, float, float] | None = None
    crop: str | None = Field(None, description="path of a PNG crop of the element, relative to the task folder")


class ActionExtension(Ours):
    """Our per-action extension (key `iwr`), ignored by the official tools."""

    target: TargetHint | None = None
    checks: list[Check] = Field(default_factory=list)
    select: str | None = Field(None, description="label of the option this Click chooses in a native <select> "
                               "(the official types have no select; the description names the option too)")
    clear: bool = Field(False, description="this Type empties the field before typing")
    wait_ms: int = Field(0, ge=0, le=30_000, description="time the video shows passing after the action (timers, "
                         "animations); 0 when the page reacts at once, the judge settling by itself")


class Reference(Ours):
    """Where the reference site lives, for the oracle agent."""

    site: str | None = Field(None, description="folder of the site, relative to the suite root or absolute")
    url: str | None = Field(None, description="loopback URL the task was recorded from, when not a folder")
    page: str = "index.html"


class TaskExtension(Ours):
    """Our per-task extension (key `iwr`)."""

    version: int = 1
    reference: Reference | None = None
    seed: int = defaults.SEED
    clock: str | None = defaults.CLOCK  # where the replay's clock starts (ISO time); None: the real time


# --- the official schema ---------------------------------------------------------------------

class Classification(Official):
    interaction_complexity: Literal["L1", "L2", "L3", "L4"]
    visual_complexity: Literal["V1", "V2", "V3", "V4"]
    domain: str
    sub_domain: str = ""


class RecordingDetails(Official):
    resolution: str = defaults.RESOLUTION
    environment: str = ""

    @field_validator("resolution")
    @classmethod
    def _resolution(cls, v: str) -> str:
        size = parse_resolution(v)
        if size is None:
            raise ValueError(f"resolution must look like WIDTHxHEIGHT, got {v!r}")
        if 0 in size:
            raise ValueError(f"resolution must not be zero wide or high, got {v!r}")
        return v

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in CSS pixels."""
        size = parse_resolution(self.resolution)
        assert size
        return size


class ActionParameters(Official):
    description: str
    key: str | None = None
    direction: str | None = None
    scroll_page: str | None = None
    text: str | None = None
    element_index: int | None = None


class Action(Official):
    type: ActionType
    parameters: ActionParameters
    visual_evaluation_flag: bool = False
    logical_assertion: str | None = None
    iwr: ActionExtension | None = None


class TaskRecord(Official):
    """One line of `data.jsonl`."""

    # bounded so that `data/<id>` is always a legal folder name (a 300-digit id is ENAMETOOLONG)
    id: int = Field(ge=0, le=2**63 - 1)
    classification: Classification
    recording_details: RecordingDetails = Field(default_factory=RecordingDetails)
    source_website: str = ""
    action_sequence: list[Action]
    iwr: TaskExtension | None = None

    @property
    def flagged(self) -> list[int]:
        """1-based indices of the actions with a visual checkpoint."""
        return [i for i, a in enumerate(self.action_sequence, 1) if a.visual_evaluation_flag]
