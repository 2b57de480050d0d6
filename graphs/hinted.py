"""What of our recorder's hints may be held against a candidate page.

The hints describe the original page: its selectors, ids and classes are evidence about the original
alone, since a coder never sees them. Of a task's structured checks, only those of the words a person
reads reach a candidate (where its words show, visible as the ink test decides); a check that names the
original's structure (a count of its class, a field's value by its id, a part of its URL) is not used,
and an assertion left with no usable check is decided from its sentence, as with hints off. (A field's
value read on the element the judge typed into would be no evidence either: any page that takes the
typing holds it, seen or not.)
"""
from __future__ import annotations

WORD_KINDS = ("text_visible", "text_absent")  # what a person reads, wherever the page shows it


def candidate_checks(checks: list[dict] | None) -> list[dict]:
    """The checks that apply to a candidate page, in order: those of words a person reads."""
    return [c for c in checks or [] if c.get("kind") in WORD_KINDS]


def judged_form(action: dict, hints: bool) -> tuple[dict, dict]:
    """The action as the judge may see it, and the hints held back (with hints off: the words alone)."""
    ext = action.get("iwr") or {}
    if hints or not ext:
        return action, {}
    return ({k: v for k, v in action.items() if k != "iwr"},
            {"selector": (ext.get("target") or {}).get("selector"), "checks": ext.get("checks") or []})
