"""What a replay remembers from one action to the next, as a person using the page does: which elements
were listed ("the new card" is one not seen before) and which elements the actions were done on ("the
same button", "the box" typed into two actions ago)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from iwr.graphs.description import Query, quoted
from iwr.graphs.element_match import Plan, describe, fits_kind, phrase_score
from iwr.tasks.names import names_agree, words_of

# Words by which a description points back at an element an earlier action used: "the same button",
# "again", "Click it" ("it" as the verb's object: in "to clear it" it is what the target acts on).
BACK = re.compile(r"\b(?:same|again|once more|one more time|that one|this one)\b|^\s*[a-z]+\s+(?:it|them)\b")


@dataclass
class ReplayMemory:
    """The judge's memory across the actions of one replay."""

    seen: set = field(default_factory=set)  # names of the elements listed so far
    used: list = field(default_factory=list)  # the elements acted on, oldest first: {css, type, kind, name}

    def remember(self, action_type: str, plan: Plan, words: set[str] = frozenset()) -> None:
        """An action was done on the element `plan` designates (a point on the page designates none); `words`
        are its description's content words ("play rock": what "Play rock again" means later)."""
        css = (plan.chosen or {}).get("css") or plan.args.get("selector")
        if css:
            self.used.append({"css": css, "type": action_type, "name": (plan.chosen or {}).get("name") or "",
                              "words": set(words)})


def points_back(description: str) -> bool:
    """Whether a description refers to an element an earlier action used ("Click the same button again")."""
    return bool(BACK.search(re.sub(r"'[^']*'|\"[^\"]*\"", " ", description.lower())))


def back_plan(q: Query, description: str, action_type: str, elements: list[dict], used: list[dict]) -> Plan | None:
    """The element an earlier action used that this one means: the most recent one still on the page that
    fits the description's kind (a field, for typing) and carries its quoted name, if it quotes one. A
    description that names neither a kind nor a name means an earlier element only where it points back."""
    said = [p for p in used if q.words & p.get("words", set())]  # "Tap paper" after "Tap the middle button (paper)"
    if not (q.typing or q.kinds or quoted(description) or points_back(description) or said):
        return None
    if not points_back(description) and (q.relation or q.position or q.alone or q.square or q.ordinal):
        return None  # "the square button to the right of the password": the words place it, not the past
    here = {e.get("css"): e for e in elements if e.get("css") and e.get("enabled", True) and not e.get("covered")}
    names = [n for n in quoted(description)[1 if q.typing else 0:]] or [p for p in q.phrases if len(p) > 1]  # 'the Cheap toggle'
    kinds = {"field"} if q.typing else q.kinds
    # the earlier element whose description said what this one says ("Play rock again"), else the latest;
    # words that name none of them ("Click the Cheap toggle again" after 'Fast') leave the latest aside
    named = [p for p in used if q.words & words_of(p.get("name", ""))] if not names else []
    # a quoted name: the earlier elements that carry it whole first ('Add item', not 'Enter a new item')
    exact = [p for p in used if names and any(phrase_score({"name": p.get("name", "")}, n)[0] >= 0.9 for n in names)]
    # what the elements carry first: a description that shared a word may have been grounded elsewhere
    order = exact[::-1] + named[::-1] + (said[-1:] if said and not names else [])
    if re.search(r"\bthe first [a-z]+ (?:i|we|you) (?:picked|chose|clicked|selected|tapped|added)\b", description.lower()):
        order = said[:1] + used  # "the first seat I picked": the earliest, not the latest
    if not (q.words and not names and not said and not named and any(  # (of the kind named: 'Date:' beside a
            q.words & words_of(f"{e.get('name') or ''} {e.get('text') or ''}") for e in here.values()  # field names no field)
            if not kinds or any(fits_kind(e, k) for k in kinds))):
        order += used[::-1]
    for past in order:
        el = here.get(past["css"])
        if el is None or (kinds and not any(fits_kind(el, k) for k in kinds)):
            continue
        if names and not any(names_agree(names, el.get(k) or "") for k in ("name", "text", "label", "placeholder")):
            continue
        if not kinds and not names and past["type"] != action_type:
            continue
        return Plan("memory", {"ref": el["ref"]}, 0.6, f"the {'/'.join(sorted(kinds)) or 'element'} an earlier "
                    f"action used ({past['name'][:40]!r})", chosen=describe(el, 0.6), margin=None)
    return None


def beside_last(elements: list[dict], used: list[dict], kind: str = "field", among: list[dict] | None = None) -> Plan | None:
    """The element of a kind (of `among`, when given) nearest to what the previous action used, when it is
    clearly the nearest (half the distance of any other): the box of the form a click just opened."""
    last = next((e for e in elements if used and e.get("css") == used[-1]["css"]), None)
    group = [e for e in (elements if among is None else among) if e.get("interactive", True) and not e.get("covered")
             and fits_kind(e, kind) and e is not last]
    if last is None or not group:
        return None
    lx, ly, lw, lh = last["bbox"]
    gap = lambda e: max(e["bbox"][0] - (lx + lw), lx - (e["bbox"][0] + e["bbox"][2]), 0) + \
        max(e["bbox"][1] - (ly + lh), ly - (e["bbox"][1] + e["bbox"][3]), 0)  # noqa: E731
    ranked = sorted(group, key=gap)
    if len(ranked) > 1 and gap(ranked[1]) < 2 * gap(ranked[0]) + 20:
        return None
    el = ranked[0]
    return Plan("memory", {"ref": el["ref"]}, 0.55, f"the {kind} beside what the previous action used",
                chosen=describe(el, 0.55), margin=None)


ITS_SIDE = re.compile(r"\b(?:to|on)\s+(?:its|their)\s+(right|left)\b|\b(right|left)\s+(?:of|beside|next\s+to)\s+it\b|"
                      r"\b(?:next\s+to|beside)\s+it\s+(?:on|to)\s+the\s+(right|left)\b")


def beside_previous(description: str, elements: list[dict], used: list[dict]) -> Plan | None:
    """"The seat just to its right": the nearest element alike in size on that side, in the row of the
    element the previous action used."""
    m = ITS_SIDE.search(description.lower())
    last = next((e for e in elements if used and e.get("css") == used[-1]["css"]), None)
    if m is None or last is None:
        return None
    said = next(g for g in m.groups() if g)
    side = 1 if said == "right" else -1
    lx, ly, lw, lh = last["bbox"]
    alike = lambda e: abs(e["bbox"][2] - lw) <= 0.3 * lw and abs(e["bbox"][3] - lh) <= 0.3 * lh  # noqa: E731
    row = [e for e in elements if e is not last and e.get("interactive", True) and not e.get("covered") and alike(e)
           and abs((e["bbox"][1] + e["bbox"][3] / 2) - (ly + lh / 2)) <= lh / 2
           and side * ((e["bbox"][0] + e["bbox"][2] / 2) - (lx + lw / 2)) > lw / 2]
    if not row:
        return None
    el = min(row, key=lambda e: abs((e["bbox"][0] + e["bbox"][2] / 2) - (lx + lw / 2)))
    return Plan("memory", {"ref": el["ref"]}, 0.7, f"the nearest alike to the {said} of what the "
                f"previous action used", chosen=describe(el, 0.7), margin=1.0)
