"""Which controls look chosen: a named box or switch on or off, a list item or a key painted unlike its
peers (a highlighted tab, the chosen answer), a key set apart from the keys it looked like."""
from __future__ import annotations

from collections import Counter

from iwr.graphs.page_view import fields_named, flat, pattern


def checked_state(qs: tuple[str, ...], want: bool, before: dict, after: dict) -> tuple[bool, str]:
    """A named box (or, unnamed, any box or switch) is in the wanted state (or turned to it)."""
    states = lambda v: Counter(v.get("states", []))  # noqa: E731
    if qs:  # each named one: its box, else whether it is among the selected/checked elements
        said = []
        for q in qs:
            boxes = fields_named(after, q, ("checkbox", "radio"))
            if boxes:
                said.append((q, want in [f.get("checked") for f in boxes]))
                continue
            # else the switches that say they are on ('aria-checked'); two may share the name (push and email
            # 'Mentions'): off means fewer of them on than before
            lit = lambda v: sum(1 for s in v.get("states", []) if pattern(q).search(flat(s)))  # noqa: E731
            said.append((q, lit(after) > 0 if want else lit(after) == 0 or lit(after) < lit(before)))
        return all(ok for _, ok in said), f"{'on' if want else 'off'}: {said[:4]}"
    b = [f.get("checked") for f in before.get("fields", []) if f.get("checked") is not None]
    a = [f.get("checked") for f in after.get("fields", []) if f.get("checked") is not None]
    flipped = sum(1 for x, y in zip(b, a) if x != y and y == want)
    switched = (states(after) - states(before)) if want else (states(before) - states(after))
    return flipped > 0 or bool(switched), f"{flipped} box(es), {sum(switched.values())} switch(es) turned {'on' if want else 'off'}"


def stands_out(view: dict, q: str) -> bool | None:
    """Whether the list item showing q is painted unlike the other items of its list, which look alike
    (a highlighted tab, the chosen answer), or the control among a run of its kind (a pad's key); None
    when that cannot be told (no list or run, peers differ)."""
    p = pattern(q)
    verdict = None
    groups = [(t.get("list"), t.get("item")) for t in view.get("texts", [])]
    runs = [tuple(t["run"]) if t.get("run") else (None, None) for t in view.get("texts", [])]
    for way in (groups, runs):  # a list's items, else a run of controls side by side
        seen: Counter = Counter()
        rank = []  # each text's place within its item: a title is compared with titles, a byline with bylines
        for key in way:
            rank.append(seen[key])
            seen[key] += 1
        for t, (g, me), r in zip(view.get("texts", []), way, rank):
            if g is None or not p.search(flat(t["t"])):
                continue
            peers = [o.get("s") for o, (og, other), orank in zip(view["texts"], way, rank)  # one under the mouse shows its hover, not its state
                     if og == g and other != me and orank == r and not o.get("h")]
            if peers and len(set(peers)) == 1:
                if peers[0] != t.get("s"):
                    return True
                verdict = False
        if verdict is not None:
            return verdict
    return verdict


def set_apart(before: dict, after: dict, q: str) -> bool:
    """'The '×' key is highlighted' where a run's members differ among themselves (digits, operators): it
    looked like two or more of its run or list before (the other operators) and now looks unlike them,
    while they look as they did."""
    p = pattern(q)
    def members(v: dict) -> dict:  # (group, text) -> style, for texts in a run of controls or a list
        out = {}
        for t in v.get("texts", []):
            group = ("run", t["run"][0]) if t.get("run") else ("list", t["list"]) if t.get("list") is not None else None
            if group is not None:
                out.setdefault((group, t["t"]), t.get("s"))
        return out
    b, a = members(before), members(after)
    for (group, text), was in b.items():
        if not p.search(flat(text)) or (group, text) not in a or a[(group, text)] == was:
            continue
        alike = [k for k, s in b.items() if k[0] == group and k[1] != text and s == was]
        if len(alike) >= 2 and all(a.get(k) == was for k in alike):
            return True
    return False
