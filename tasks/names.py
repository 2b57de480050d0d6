"""How the words of a task name a thing on a page: words folded alike ('Entries' meets 'entry',
'Monday' meets 'Mon'), and whether an element's label fits a quoted name. The grounder reads
descriptions with them, and the browser checks, before acting, that the element it was sent to
carries the name the words gave it.
"""
from __future__ import annotations

import re
from collections import Counter

WORD_RE = re.compile(r"[a-z0-9]+")


def stem(word: str) -> str:
    """Crude plural folding so 'star' meets 'stars', 'glass' meets 'glasses' and 'entry' meets 'entries'."""
    if len(word) <= 3:
        return word
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


CALENDAR = {"monday": "mon", "tuesday": "tue", "tues": "tue", "wednesday": "wed", "thursday": "thu", "thur": "thu",
            "thurs": "thu", "friday": "fri", "saturday": "sat", "sunday": "sun", "january": "jan", "february": "feb",
            "march": "mar", "april": "apr", "june": "jun", "july": "jul", "august": "aug", "september": "sep",
            "sept": "sep", "october": "oct", "november": "nov", "december": "dec"}


def words_of(text: str) -> set[str]:
    """Folded words: split at camelCase (and a number drawn against a word, '03Instant'), '-' and '_',
    plurals and day/month names shortened alike."""
    split = re.sub(r"([a-z\d])([A-Z])", r"\1 \2", text or "").replace("_", " ").replace("-", " ")
    return {CALENDAR.get(w, stem(w)) for w in WORD_RE.findall(split.lower())}


def norm(s: str) -> str:
    return " ".join(WORD_RE.findall((s or "").lower()))


def names_agree(quotes: list[str], label: str) -> bool:
    """Whether an element's label (name, text, label, placeholder) fits any quoted target name."""
    if not quotes:
        return True
    lab = norm(label)
    for q in quotes:
        nq = norm(q)
        if not nq:  # a symbol such as '+' or '×': compare the characters themselves
            if q.strip() and q.strip() in label:
                return True
            continue
        if nq in lab or (len(lab) >= 3 and lab in nq):
            return True
        qw, lw = words_of(q), words_of(label)
        if qw and len(qw & lw) / len(qw) >= 0.5 and _numbers_fit(q, label):
            return True
    return False


def _numbers_fit(quote: str, label: str) -> bool:
    """Every number the name holds is on the label as often: '+1 to Player-1' is not '+1 to Player-2'."""
    nums = lambda t: Counter(re.findall(r"\d+", t))  # noqa: E731
    return not nums(quote) - nums(label)
