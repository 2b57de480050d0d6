"""What of our recorder's hints may be held against a candidate page.

The hints describe the original page: its selectors, ids and classes are evidence about the original
alone, since a coder never sees them. A structured check reaches a candidate only through what the
judge grounded there: a check of the words a person reads stays as it is; a field's value is read
on the element the judge typed into (or chose) for the action whose hinted target was that
selector; a check that names the original's structure otherwise (a count of its class, a value of a
field never grounded, a part of its URL) is not used. An assertion left with no usable check is
decided from its sentence, as with hints off.
"""
from __future__ import annotations

WORD_KINDS = ("text_visible", "text_absent")  # what a person reads, wherever the page shows it


def usable(check: dict, grounded: dict[str, str]) -> dict | None:
    """The check as it applies to the candidate, or None where only the original's structure names it;
    `grounded`: the original's selector -> the candidate element the judge grounded for it (a CSS path)."""
    if check.get("kind") in WORD_KINDS:
        return check
    if check.get("kind") == "value" and check.get("selector") in grounded:
        return {**check, "selector": grounded[check["selector"]]}
    return None


def candidate_checks(checks: list[dict] | None, grounded: dict[str, str]) -> list[dict]:
    """The checks that apply to the candidate, in order (see `usable`)."""
    return [c for c in (usable(c, grounded) for c in checks or []) if c is not None]


def surely_usable(checks: list[dict] | None, grounded: dict[str, str]) -> bool:
    """Whether some check applies before the action is grounded (then its sentence needs no 'before')."""
    return bool(candidate_checks(checks, grounded))
