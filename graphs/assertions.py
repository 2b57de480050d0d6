"""Offline logical assertions: structured checks when the task has them (our recorder's hints), else
the sentence's claims (graphs/sentences.py) decided on what the page shows before and after.

Observations come from the browser's `observe` tool: text whose ink changes pixels (ink.py),
whether it sits inside a control or is struck through, field values, checked boxes and chosen
options, selected elements, open dialogs, the task's own images and canvases fed no pictures. A
sentence with nothing decidable is `unverifiable`: it passes only on a visible change that is no
picture (visible_change.py).
"""
from __future__ import annotations

import re
from collections import Counter

from iwr.agents.toolbox import Toolbox
from iwr.graphs.description import quoted, type_text_of
from iwr.graphs.sentence_names import ground_names
from iwr.graphs.chosen import checked_state, set_apart, stands_out
from iwr.graphs.element_match import hue_fits
from iwr.graphs.page_view import (capitals, fields_named, flat, items_of, lists_holding, moved, occurrences, page_changed,
                                  pattern)
from iwr.graphs.sentences import Claim, compile_clauses, compile_sentence



COUNTED = re.compile(r"(-?\$?\d[\d.,]*%?) ([a-z][a-z ]{2,30})", re.I)  # a number and what it counts


def _joined(view: dict) -> str:
    return " | ".join(flat(t["t"]) for t in view.get("texts", []))


def _reads(label: str, number: str, fresh: bool, before: dict, after: dict) -> tuple[bool, str]:
    """'the score reads 4': where the page shows the word ('Score') next to a number, the number next to
    it (a few characters either side); otherwise (the annotator's name for a display) the number alone,
    outside controls, or a field's value."""
    n, w = re.escape(number.lower()), re.escape(label.lower().rstrip("s"))
    num = rf"(?<![\d.]){n}(?![\d])"
    # the word labels some number on the page ('Score: 4', 'Word Count: 6', '4 points')
    labelled = rf"\b{w}[a-z]*(?:\W+[a-z]+)?\W{{0,24}}-?\$?\d|\d%?\W{{0,24}}{w}"
    # a field the word labels holding the number: "the amount field shows 500"
    held = lambda v: sum(1 for f in v.get("fields", []) if re.search(rf"\b{w}", flat(f.get("label", "")).lower())  # noqa: E731
                         and re.fullmatch(num, flat(f.get("value", "")).lower()))
    if label and re.search(labelled, _joined(after)):
        p = re.compile(rf"\b{w}[a-z]*.{{0,32}}?{num}|{num}\W{{0,24}}{w}")
        count = lambda v: len(p.findall(_joined(v))) + held(v)  # noqa: E731
    else:
        p = re.compile(rf"(?<![\w.]){n}(?![\w])")
        count = lambda v: (sum(1 for t in v.get("texts", []) if not t.get("ctl")  # noqa: E731
                               and p.search(flat(t["t"])))
                           + sum(1 for f in v.get("fields", []) if p.search(flat(f.get("value", "")))))
    was, now = count(before), count(after)
    if not now and label:  # "the quantity box now shows 3": the field the action set to the number, whatever labels it
        now = len(_set_to(num, before, after))
    effect = not fresh or now > was or page_changed(before, after)
    return now > 0 and effect, f"{label} {number}: {now} place(s) (before {was})"


def _set_to(num: str, before: dict, after: dict) -> list[dict]:
    """The fields (matched by their order, label and kind) whose value became the number in this action."""
    old = before.get("fields", [])
    same = lambda k, f: k < len(old) and (old[k].get("label"), old[k].get("type")) == (f.get("label"), f.get("type"))  # noqa: E731
    return [f for k, f in enumerate(after.get("fields", [])) if re.fullmatch(num, flat(f.get("value", "")).lower())
            and not (same(k, f) and flat(old[k].get("value", "")) == flat(f.get("value", "")))
            and (same(k, f) or len(old) == len(after.get("fields", [])))]  # an unlabelled box is named by its value


def _range(low: int | None, high: int, view: dict) -> tuple[bool, str]:
    """'the days run from 1 to 28': some list's numbered items start at low (any start when None) and end at high."""
    for items in items_of(view).values():
        nums = [int(t["t"]) for t in items if t["t"].isdigit()]
        if nums and (low is None or min(nums) == low) and max(nums) == high:
            return True, f"a list runs {min(nums)}..{high}"
    spans = [(min(n), max(n)) for n in ([int(t["t"]) for t in ts if t["t"].isdigit()] for ts in items_of(view).values()) if n]
    return False, f"numbered lists run {spans[:4]}"


def _numbered_alike(low: int, high: int, view: dict) -> tuple[bool, str]:
    """'Circles 1 to 3 are blue': the places numbered low..high are painted alike, the other numbers not."""
    looks = {int(t["t"]): t.get("s") for t in view.get("texts", []) if t["t"].isdigit()}
    inside = {looks.get(n) for n in range(low, high + 1)}
    outside = {v for n, v in looks.items() if not low <= n <= high and n <= high + 5}
    ok = None not in inside and len(inside) == 1 and not inside & outside
    return ok, f"{low}..{high} {'alike' if len(inside) == 1 else 'differ'}, others {'differ' if not inside & outside else 'alike'}"


def _styled(qs: tuple[str, ...], before: dict, after: dict, colour: str | None = None, fresh: bool = True) -> tuple[bool, str]:
    """'X turns red': a place showing X (or a box named X) is painted differently now (unquoted: any
    text or box is); a named colour must be its ink's, its background's or its border's. 'X is red'
    (not `fresh`): how a place showing X looks now, changed or not."""
    def looks(view: dict) -> Counter:  # texts, and boxes by how they (or the switch drawn for them) look
        named = lambda t: not qs or any(pattern(q).search(flat(t)) for q in qs)  # noqa: E731
        return Counter([(t["t"], t.get("s")) for t in view.get("texts", []) if named(t["t"])] +
                       [(f["label"], f["s"]) for f in view.get("fields", []) if f.get("s") and named(f["label"])])
    b, a = looks(before), looks(after)
    restyled = a - b if fresh or not colour else a
    if colour:
        restyled = Counter({k: v for k, v in restyled.items()
                            if any(hue_fits(colour, c) for c in (k[1] or "").split("|")[:4] if c)})
    changed = bool(restyled) and bool(a)
    return changed, f"{sum(a.values())} place(s), restyled{' ' + colour if colour else ''}: {changed}"


def _count(n: int, noun: str, before: dict, after: dict, names: tuple[str, ...] = ()) -> tuple[bool, str]:
    """'4 tasks are left', 'the log holds 1 entry': a list of n items, or n shown by the noun; else n
    newly shown, else the page changed at all (what an annotator counts is often not a list). With the
    names ('two are shown: A and B'), each is shown and a list holding them has n items."""
    sizes = lambda v: sorted(len({t["item"] for t in ts}) for ts in items_of(v).values())  # noqa: E731
    if names and n == 0:  # "reads 'No tasks yet.' with no tasks": the words shown, the lists shrank
        missing = [q for q in names if occurrences(after, q) == 0]
        return not missing and (not sizes(after) or sum(sizes(after)) < sum(sizes(before))), \
            f"missing {missing}; lists of sizes {sizes(after)[:6]} (before {sizes(before)[:6]})"
    if names:
        missing = [q for q in names if occurrences(after, q) == 0]
        holding = {lid: len({t["item"] for t in ts}) for lid, ts in lists_holding(after, names).items()}
        pats = [pattern(q) for q in names]  # "its three coloured tabs, the yellow 'Instant Transfers' one": a row
        runs = {t["run"][0] for t in after.get("texts", []) if t.get("run") and any(p.search(flat(t["t"])) for p in pats)}
        holding.update({f"run{r}": len({tuple(t["run"]) for t in after.get("texts", []) if t.get("run") and t["run"][0] == r})
                        for r in runs})  # of buttons side by side counts as a list
        ok = not missing and (not holding or n in holding.values())
        return ok, f"missing {missing}; lists holding them have {sorted(holding.values())[:4]} item(s)"
    if n == 0:  # "no cans are shown": no list holds items now, or the lists shrank, or fewer texts show
        shown = lambda v: sum(1 for t in v.get("texts", []) if t.get("v", True))  # noqa: E731
        ok = not sizes(after) or sum(sizes(after)) < sum(sizes(before)) or shown(after) < shown(before)
        return ok, f"lists of sizes {sizes(after)[:6]}; {shown(after)} texts shown (before {shown(before)})"
    stem = re.escape(noun.rstrip("s")[:5])
    near = re.compile(rf"(?<![\d.]){n}\s+(?:[a-z0-9-]+\s+){{0,2}}{stem}|{stem}[a-z]*\W{{1,3}}{n}(?![\d.])|\({n}\)")
    shown = [t["t"] for t in after.get("texts", []) if near.search(flat(t["t"]))]
    if n in sizes(after) or n == sum(sizes(after)) or shown:
        return True, f"lists of sizes {sizes(after)[:6]}, shown: {shown[:2]}"
    if sizes(after) and sizes(after) != sizes(before):  # the action changed a list: that is what is counted
        return False, f"lists of sizes {sizes(after)[:6]} (before {sizes(before)[:6]}); none of {n}"
    newly = occurrences(after, str(n)) > occurrences(before, str(n))
    return newly or page_changed(before, after), f"{n} {'newly shown' if newly else 'not shown'}; no list of {n}"


def _order(how: str, qs: tuple[str, ...], view: dict) -> tuple[bool, str]:
    """'X is added under Y', 'X is now at the top' (of its list), 'A, B and C, in that order': where the
    named texts first show (a list's items before other places: the list is what the words order)."""
    def first(q: str) -> dict | None:
        p = pattern(q)
        hits = [t for t in view.get("texts", []) if "y" in t and p.search(flat(t["t"]))]
        hits = [t for t in hits if flat(t["t"]) == flat(q)] or hits
        hits = [t for t in hits if t.get("list") is not None] or hits
        return min(hits, key=lambda t: t["y"]) if hits else None
    found = [first(q) for q in qs]
    if None in found:
        return False, f"not shown: {[q for q, t in zip(qs, found) if t is None]}"
    ys = [t["y"] for t in found]
    if how in ("first", "last"):  # its item's top against the tops of the other items (a card holds several texts)
        tops: dict = {}
        for t in view.get("texts", []):
            if found[0].get("list") is not None and t.get("list") == found[0]["list"] and "y" in t:
                tops[t["item"]] = min(tops.get(t["item"], t["y"]), t["y"])
        mine = tops.get(found[0].get("item"), ys[0])
        edge = (min if how == "first" else max)(tops.values(), default=mine)
        return mine == edge, f"{qs[0]!r}'s item at y {mine}, items start {sorted(tops.values())[:6]}"
    ok = ys[0] > ys[1] if how == "below" else ys[0] < ys[1] if how == "above" else ys == sorted(ys)
    return ok, f"{how}: y {ys}"


def only_highlighted(before: dict, after: dict) -> bool:
    """Whether all that changed is how one text is painted (and maybe its being marked chosen): the
    highlight of what was just clicked, which a person reading "nothing changes" looks past."""
    looks = lambda v: Counter((t["t"], t.get("s")) for t in v.get("texts", []))  # noqa: E731
    words = lambda v: Counter(t["t"] for t in v.get("texts", []))  # noqa: E731
    restyled = {t for t, _ in (looks(after) - looks(before)) + (looks(before) - looks(after))}
    states = set(before.get("states", [])) ^ set(after.get("states", []))
    same = all(before.get(k) == after.get(k) for k in ("fields", "dialogs", "media", "url", "canvas"))
    return same and words(before) == words(after) and len(restyled) == 1 and \
        all(any(flat(t) in flat(x) or flat(x) in flat(t) for t in restyled) for x in states)


def decide(claim: Claim, before: dict, after: dict) -> tuple[bool, str]:
    """Whether one claim holds, and what was observed."""
    k, qs = claim.kind, claim.texts
    if k == "shown":
        q = qs[0]
        caps = capitals(q, (before, after))
        was, now = occurrences(before, q, claim.display, exact=caps), occurrences(after, q, claim.display, exact=caps)
        effect = not claim.fresh or now > was or page_changed(before, after)
        counted = COUNTED.fullmatch(q)
        if not now and counted:  # '6 words' where the page reads 'Word Count: 6': the number at its word
            tries = [_reads(w, counted[1], claim.fresh, before, after) for w in counted[2].split() if len(w) > 2]
            if any(ok for ok, _ in tries):
                return next(t for t in tries if t[0])
        return now > 0 and effect, f"{q!r} shown in {now} place(s) (before {was}){'' if effect else '; nothing changed'}"
    if k == "absent":
        counts = [(occurrences(before, q, values=False, exact=capitals(q, (before, after))),
                   occurrences(after, q, values=False, exact=capitals(q, (before, after)))) for q in qs]
        ok = all(now == 0 or now < was for was, now in counts)
        return ok, "; ".join(f"{q!r} shown in {now} place(s) (before {was})" for q, (was, now) in zip(qs, counts))
    if k == "only":
        missing = [q for q in qs if occurrences(after, q) == 0]
        pats = [pattern(q) for q in qs]
        extra, holding = [], lists_holding(after, qs)
        if not holding and not page_changed(before, after):  # no list to tell the others gone by: something went
            return False, f"missing {missing}; no list holds them and nothing changed"
        for ts in holding.values():
            by_item: dict[int, str] = {}
            for t in ts:
                by_item[t["item"]] = by_item.get(t["item"], "") + " " + flat(t["t"])
            extra += [s.strip() for s in by_item.values() if not any(p.search(s) for p in pats)]
        return not missing and not extra, f"missing {missing}, also listed {extra[:3]}"
    if k in ("closed", "opened"):
        b, a = before.get("dialogs", []), after.get("dialogs", [])
        if qs:
            inside = lambda v: any(pattern(q).search(flat(d)) for d in v for q in qs)  # noqa: E731
            # closed: the named words were in a dialog and are no more; in none a person could tell (a drawer
            # that no class names), shown before and gone now
            ok = (inside(b) and not inside(a) or not inside(b) and all(occurrences(before, q) and not occurrences(after, q) for q in qs)) \
                if k == "closed" else inside(a) or occurrences(after, qs[0]) > occurrences(before, qs[0])
        elif k == "closed":
            gone = set(t["t"] for t in before.get("texts", [])) - set(t["t"] for t in after.get("texts", []))
            ok = len(a) < len(b) or (not b and bool(gone))
        else:
            new = set(t["t"] for t in after.get("texts", [])) - set(t["t"] for t in before.get("texts", []))
            ok = len(a) > len(b) or (not a and bool(new))
        if claim.negated and k == "closed":
            ok = not ok
        return ok, f"dialogs before {len(b)}, after {len(a)}"
    if k == "struck":
        if not qs:  # "the task is crossed out": some text became struck (or stopped being struck)
            struck = lambda v: Counter(t["t"] for t in v.get("texts", []) if t["strike"])  # noqa: E731
            flipped = (struck(before) - struck(after)) if claim.negated else (struck(after) - struck(before))
            if not claim.fresh and not claim.negated:  # "... still crossed out": some text is struck now
                flipped = struck(after)
            return bool(flipped), f"{'un' if claim.negated else ''}struck now: {list(flipped)[:3]}"
        hits = [t for t in after.get("texts", []) for q in qs if pattern(q).search(flat(t["t"]))]
        each = [[t for t in after.get("texts", []) if pattern(q).search(flat(t["t"]))] for q in qs]
        # "three rows are crossed out: A, B and C": each of them
        ok = bool(hits) and (all(not t["strike"] for t in hits) if claim.negated else
                             all(any(t["strike"] for t in ts) for ts in each))
        others = [t["t"] for t in after.get("texts", []) if t["strike"] and t not in hits] if claim.exclusive else []
        return ok and not others, f"{len(hits)} place(s), struck: {[t['strike'] for t in hits][:4]}" + \
            (f"; also struck: {others[:3]}" if others else "")
    if k == "checked" and claim.how == "stays":
        on, why = checked_state((), True, before, after)
        return not on, why
    if k == "focused":  # the element the keyboard is on shows the name (its own text, label or row)
        now = flat(after.get("focus") or "")
        if claim.how == "words":  # words the page never writes ("the search box", unlabelled): that focus moved
            qs = tuple(q for q in qs if occurrences(after, q) or pattern(q).search(now))
        ok = any(pattern(q).search(now) for q in qs) if qs else bool(now) and now != flat(before.get("focus") or "")
        return ok, f"focus on {now[:60]!r} (before {flat(before.get('focus') or '')[:60]!r})"
    if k == "checked" and not qs and not claim.fresh:  # "still only the second row is ticked": as it was
        on, why = checked_state((), not claim.negated, before, after)
        now = [f.get("checked") for f in after.get("fields", []) if f.get("checked") is not None]
        return (not claim.negated) in now and not on, f"{now.count(True)} of {len(now)} box(es) on; {why}"
    if k == "checked":
        return checked_state(qs, not claim.negated, before, after)
    if k == "count":
        return _count(claim.number, qs[0], before, after, qs[1:])
    if k == "selected" and claim.exclusive and all(stands_out(after, q) is not None for q in qs):
        ok = all(stands_out(after, q) for q in qs)
        return ok, "only it looks chosen" if ok else "it looks like its peers, or they unlike each other"
    if k == "selected":
        ok = all(any(pattern(q).search(flat(s)) for s in after.get("states", [])) or
                 any(flat(f.get("value", "")) == flat(q) for f in after.get("fields", [])) or
                 any(f.get("checked") for f in fields_named(after, q, ("checkbox", "radio"))) or
                 bool(stands_out(after, q)) or set_apart(before, after, q) or
                 bool(after.get("focus") and pattern(q).search(flat(after["focus"])))
                 for q in qs)
        return ok, f"selected now: {after.get('states', [])[:5]}"
    if k == "enabled" and not qs:  # "the spinner is greyed out": some control or field turned off (or on)
        off = lambda v: sum(1 for t in v.get("texts", []) if t.get("ctl") and t.get("off")) + \
            sum(1 for f in v.get("fields", []) if f.get("off"))  # noqa: E731
        ok = off(after) > off(before) if claim.negated else off(after) < off(before)
        return ok, f"{off(after)} control(s) disabled (before {off(before)})"
    if k == "enabled":
        hits = [t for q in qs for t in after.get("texts", []) if t.get("ctl") and pattern(q).search(flat(t["t"]))]
        if not hits and claim.negated:  # "Renew passport is greyed out": words no control carries, repainted
            return _styled(qs, before, after)
        ok = bool(hits) and all(t.get("off") == claim.negated for t in hits)
        return ok, f"{len(hits)} control(s) so named, disabled: {[t.get('off') for t in hits][:4]}"
    if k == "styled":
        return _styled(qs, before, after, claim.colour, claim.fresh)
    if k == "reads":
        return _reads(qs[0], qs[1], claim.fresh, before, after)
    if k == "range":
        return _range(claim.number, int(qs[0]), after)
    if k == "numbered_alike":
        return _numbered_alike(int(qs[0]), int(qs[1]), after)
    if k == "order":
        return _order(claim.how, qs, after)
    if k == "unchanged" and claim.how in ("added", "removed"):
        many = lambda v: (sum(len({t["item"] for t in ts}) for ts in items_of(v).values()), len(v.get("fields", [])))  # noqa: E731
        (bi, bf), (ai, af) = many(before), many(after)
        grew = ai > bi or af > bf if claim.how == "added" else ai < bi or af < bf
        ok = not grew and not moved(before, after)
        return ok, f"{ai} item(s), {af} field(s) (before {bi}, {bf}){'' if ok or grew else '; texts moved'}"
    if k == "unchanged":  # "Nothing happens": the page a person sees is as it was
        if moved(before, after):
            return False, "texts moved"
        if not page_changed(before, after):
            return True, "nothing visible changed"
        lit = only_highlighted(before, after)
        return lit, "only one text was repainted (a highlight of what was clicked)" if lit else "the page changed"
    if k == "none_checked":
        boxes = [f for f in after.get("fields", []) if f.get("checked") is not None]
        on = sum(1 for f in boxes if f["checked"])
        return bool(boxes) and on == 0, f"{on} of {len(boxes)} box(es) checked"
    if k == "empty":
        fields = fields_named(after, qs[0] if qs else None, None)
        fields = [f for f in fields if f.get("checked") is None]
        if not qs and not fields:  # "the board is cleared": nothing to read it on
            changed = page_changed(before, after)
            return changed, "no field; the page " + ("changed" if changed else "did not change")
        if qs and not fields:  # "the 'Done' list is empty": no list holds items (but the one naming it: the filters)
            naming = lists_holding(after, qs[:1])
            return occurrences(after, qs[0]) > 0 and all(lid in naming for lid in items_of(after)), "no field named so"
        emptied = [f for f in fields if f.get("value", "") == ""]
        was = [f for f in fields_named(before, None, None) if f.get("checked") is None]
        # "both transfer fields are cleared": the ones the action emptied (other forms keep their words)
        cleared = sum(1 for a, b in zip(was, fields) if a.get("value") and not b.get("value")) if len(was) == len(fields) else 0
        # "all four fields are cleared" counts four, on this page's fields or among those emptied now
        ok = (len(emptied) == len(fields) or not qs and claim.number is not None and cleared >= claim.number
              and len(emptied) >= claim.number) if claim.exclusive else bool(emptied)
        return ok, f"{len(emptied)} of {len(fields)} field(s) empty, {cleared} emptied now"
    if k == "in_view":  # where the viewport shows them, not below the fold
        missing = [q for q in qs if not any(t.get("v", True) and pattern(q).search(flat(t["t"]))
                                            for t in after.get("texts", []))]
        return not missing, f"not in view: {missing}" if missing else f"{list(qs)} in view"
    if k == "url":
        return any(q in after.get("url", "") for q in qs), after.get("url", "")
    changed = page_changed(before, after)
    return changed, "the page changed" if changed else "nothing visible changed"


async def judge_assertion(tools: Toolbox, sid: str, action: dict, before_view: dict | None,
                          assets: list[str] = (), names=(), checked: tuple = ()) -> dict:
    """Verdict for the action's assertion: {passed, method, reason, checks|claims}; `assets`, where the
    page's server serves the task's assets (images elsewhere are pictures, no change of the page);
    `names`, what the task names (typed and quoted texts), which its sentences may use unquoted;
    `checked`, checks already decided with the screenshot and their results (structured_verdict)."""
    checks = (action.get("iwr") or {}).get("checks") or []
    if checks:
        return await structured_verdict(tools, sid, checks, checked)
    after = await tools.call("browser", "observe", session=sid, assets=list(assets))
    params = action["parameters"]
    typed = type_text_of(params.get("description", ""), params.get("text")) if action["type"] == "Type" else None
    return sentence_verdict(action.get("logical_assertion") or "", before_view or {}, after, typed, names)


async def structured_verdict(tools: Toolbox, sid: str, checks: list[dict], checked: tuple = ()) -> dict:
    """The checks' verdict; their results as `checked` gives them when it decided these very checks (the
    screenshot did, on the page it shows), else from the check tool."""
    results = checked[1] if checked and checked[0] == checks else \
        await tools.call("browser", "check", session=sid, checks=checks)
    failed = [(c, r) for c, r in zip(checks, results) if not r["ok"]]
    reason = "; ".join(f"{c['kind']} {c.get('text') or c.get('selector')!r} observed {r['observed'][:80]!r}"
                       for c, r in failed) or f"{len(checks)} check(s) hold"
    return {"passed": not failed, "method": "structured", "decided_by": "checks", "reason": reason,
            "checks": [{**c, **r} for c, r in zip(checks, results)]}


def sentence_verdict(sentence: str, before: dict, after: dict, typed: str | None = None, names=()) -> dict:
    """Decide a sentence's claims on two observations; the names it uses unquoted are the texts either
    shows, and `names` (the task's)."""
    names = (*names, *(t["t"] for v in (before, after) for t in v.get("texts", [])))
    claims, unsaid = compile_clauses(sentence, typed, names)
    unquoted = [q for q in quoted(ground_names(sentence, names)) if q not in quoted(sentence)]
    decided = [(c, *decide(c, before, after)) for c in claims]
    method = "unverifiable" if [c.kind for c in claims] == ["changed"] else "sentence"
    failed = [f"{c.kind} {list(c.texts)}: {why}" for c, ok, why in decided if not ok]
    return {"passed": not failed, "method": method, "decided_by": "words" if method == "sentence" else "undecided",
            "reason": "; ".join(failed) or "; ".join(f"{c.kind} {list(c.texts)}: {why}" for c, _, why in decided),
            "claims": [{"kind": c.kind, "texts": list(c.texts), "negated": c.negated, "ok": ok, "observed": why,
                        **({"colour": c.colour, "fresh": c.fresh} if c.colour else {})} for c, ok, why in decided], **({"unquoted": unquoted} if unquoted else {}),
            **({"unsaid": unsaid} if unsaid and method == "sentence" else {})}


def offline_checks(action: dict) -> list[dict]:
    """The structured checks an action carries (our recorder's hints); none on official data."""
    return (action.get("iwr") or {}).get("checks") or []
