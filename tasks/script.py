"""The recorder's action script (YAML): a site, its classification and the actions to perform."""
from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator

from iwr.tasks.defaults import RECORDING_RESOLUTION
from iwr.tasks.schema import Check, Classification, parse_resolution


class ScriptError(ValueError):
    """The script file cannot be used; the message names the file and field."""


class ScriptAction(BaseModel):
    """One step: what to do, how a human would describe it, and what must hold afterwards.

    `Select` chooses an option of a native <select>; the official format has no such type, so the
    written task holds it as a Click whose description names the option."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["Click", "Type", "Scroll", "Press", "Select"]
    description: str
    target: str | None = Field(None, description="CSS selector of the element (Click, Type and Select)")
    text: str | None = Field(None, description="text to type (Type)")
    clear: bool = Field(False, description="empty the field before typing (Type); filmed as select-all and delete")
    option: str | None = Field(None, description="visible label of the option to choose (Select)")
    key: str | None = Field(None, description="Playwright key name (Press)")
    direction: Literal["up", "down"] = "down"
    amount: int | None = Field(None, description="scroll distance in pixels (default half the viewport)")
    visual: bool = Field(False, description="take a checkpoint screenshot after this action")
    assertion: str | None = Field(None, description="natural-language logical assertion")
    checks: list[dict] = Field(default_factory=list, description="structured checks that hold after the action")
    wait_ms: int = Field(0, ge=0, le=10_000, description="time to let pass after the action, only where the page "
                         "changes by itself (timers, animations); settling covers the rest")

    @model_validator(mode="after")
    def _needs(self, info: ValidationInfo):
        if self.type in ("Click", "Type", "Select") and not self.target:
            raise ValueError(f"{self.type} needs a target selector")
        if self.type == "Type" and self.text is None:
            raise ValueError("Type needs text")
        if self.type == "Select" and not self.option:
            raise ValueError("Select needs an option (the label of the option to choose)")
        if self.clear and self.type != "Type":
            raise ValueError("clear applies to Type only")
        if self.type == "Press" and not self.key:
            raise ValueError("Press needs a key")
        # our extension carries the checks to the judge; the official layout has only the sentence
        if self.assertion and not self.checks and not (info.context or {}).get("official"):
            raise ValueError("an assertion needs structured checks (or record with --official)")
        return self


class Script(BaseModel):
    """A whole recording script."""

    model_config = ConfigDict(extra="forbid")

    id: int
    source_website: str
    resolution: str = RECORDING_RESOLUTION
    environment: str = "desktop"
    page: str = "index.html"
    classification: Classification
    actions: list[ScriptAction] = Field(min_length=1)

    @property
    def size(self) -> tuple[int, int]:
        size = parse_resolution(self.resolution)
        if size is None:
            raise ScriptError(f"resolution {self.resolution!r} must look like WIDTHxHEIGHT")
        return size


def normalise_check(raw: dict) -> dict:
    """Accept the short YAML forms ({text_visible: "x"}, {count: sel, equals: n}) and return a Check dict."""
    from pydantic import TypeAdapter

    if "kind" in raw:
        data = raw
    elif "text_visible" in raw:
        data = {"kind": "text_visible", "text": raw["text_visible"]}
    elif "text_absent" in raw:
        data = {"kind": "text_absent", "text": raw["text_absent"]}
    elif "count" in raw:
        data = {"kind": "count", "selector": raw["count"], "equals": raw.get("equals")}
    elif "value" in raw:
        data = {"kind": "value", "selector": raw["value"], "equals": str(raw.get("equals"))}
    elif "url_contains" in raw:
        data = {"kind": "url_contains", "text": raw["url_contains"]}
    else:
        raise ValueError(f"unknown check {raw}")
    return TypeAdapter(Check).validate_python(data).model_dump()


def load_script(path: Path, official: bool = False) -> Script:
    """Parse and validate a script file; ScriptError names the file and the field.

    With `official`, assertions may come without structured checks (they are verified when given)."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise ScriptError(f"{path}: cannot read YAML: {e}") from e
    try:
        script = Script.model_validate(data, context={"official": official})
        for i, a in enumerate(script.actions):
            try:
                a.checks = [normalise_check(c) for c in a.checks]
            except (ValueError, ValidationError) as e:
                raise ScriptError(f"{path}: actions.{i}.checks: {e}") from e
        return script
    except ValidationError as e:
        msg = "; ".join(f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors())
        raise ScriptError(f"{path}: {msg}") from e
