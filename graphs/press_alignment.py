"""Which of the recording's events belongs to which action.

The recording shows, in order, presses (a ring where the pointer pressed) and keys (the badge naming
a key); the task lists its actions, a Click or a Type pressing once, a Press showing its key. Some
events are not seen (a ring drawn on red) and some are not actions' (red content that looks like a
ring, the select-all badge before a field is emptied). The two sequences are aligned, a missing or an
extra event costing one, and an action keeps its event only where the earliest and the latest of the
best alignments agree on it: a gap the sequences cannot place leaves the actions around it without.
Where the recording is quiet for much longer than between most of its events, an action may have
happened unseen: such a gap holds a place an action can take (or none), at a quarter of the cost.
"""
from __future__ import annotations

import statistics

SHOWS = {"Click": "press", "Type": "press", "Press": "key"}
UNSEEN = "unseen"
QUIET = 1.6  # a gap this many times the usual one between events may hold an action not seen
UNSEEN_COST, MISS_COST = 0.25, 1.0


def with_gaps(events: list[tuple[str, float]]) -> list[str]:
    """The events' kinds, with UNSEEN where the recording is quiet much longer than usual."""
    gaps = [b[1] - a[1] for a, b in zip(events, events[1:])]
    usual = statistics.median(gaps) if gaps else 0.0
    out = [events[0][0]] if events else []
    for gap, (kind, _) in zip(gaps, events[1:]):
        out += [UNSEEN] if usual > 0 and gap > QUIET * usual else []
        out.append(kind)
    return out


def _cost(token: str, event: str) -> float | None:
    return 0.0 if token == event else UNSEEN_COST if event == UNSEEN else None


def _skip(event: str) -> float:
    return UNSEEN_COST if event == UNSEEN else MISS_COST


def _table(tokens: list[str], events: list[str]) -> list[list[float]]:
    n, m = len(tokens), len(events)
    d = [[0.0] * (m + 1) for _ in range(n + 1)]
    for j in range(1, m + 1):
        d[0][j] = d[0][j - 1] + _skip(events[j - 1])
    for i in range(1, n + 1):
        d[i][0] = d[i - 1][0] + MISS_COST
        for j in range(1, m + 1):
            c = _cost(tokens[i - 1], events[j - 1])
            d[i][j] = min(d[i - 1][j] + MISS_COST, d[i][j - 1] + _skip(events[j - 1]),
                          d[i - 1][j - 1] + c if c is not None else float("inf"))
    return d


def _walk(tokens: list[str], events: list[str], d: list[list[float]], late: bool) -> dict[int, int]:
    """One best alignment, walked back from the end: matching as soon as it can (the latest matches) or
    skipping first (the earliest)."""
    same = lambda a, b: abs(a - b) < 1e-9  # noqa: E731
    i, j, out = len(tokens), len(events), {}
    while i or j:
        c = _cost(tokens[i - 1], events[j - 1]) if i and j else None
        match = c is not None and same(d[i][j], d[i - 1][j - 1] + c)
        skips = [(i - 1, j)] if i and same(d[i][j], d[i - 1][j] + MISS_COST) else []
        skips += [(i, j - 1)] if j and same(d[i][j], d[i][j - 1] + _skip(events[j - 1])) else []
        if match and (late or not skips):
            out[i - 1] = j - 1
            i, j = i - 1, j - 1
        else:
            i, j = skips[-1] if late else skips[0]
    return out


def align(action_types: list[str], events: list[tuple[str, float]]) -> dict[int, int | None]:
    """Action index -> index of its event in `events` (None: it happened where the recording shows
    nothing), for each action that shows an event and whose place is certain."""
    shown = [(n, SHOWS[t]) for n, t in enumerate(action_types) if t in SHOWS]
    tokens, marks = [kind for _, kind in shown], with_gaps(events)
    real = [j - marks[:j].count(UNSEEN) if marks[j] != UNSEEN else None for j in range(len(marks))]
    d = _table(tokens, marks)
    late, early = _walk(tokens, marks, d, True), _walk(tokens, marks, d, False)
    return {shown[k][0]: real[j] for k, j in late.items() if early.get(k) == j}
