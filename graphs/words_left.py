"""What the words still say when, read whole, they find no element: the query without the words no
element carries, each name cut to what the page shows of it, or the verb naming the one control that
says it. Pure functions over the browser server's element list, used by graphs/grounding.py."""
from __future__ import annotations

import dataclasses
import re

from iwr.graphs.description import Query, norm, stem, words_of
from iwr.graphs.element_match import LABEL_FIELDS, Plan, describe, phrase_score


def unshown_dropped(q: Query, elements: list[dict]) -> Query | None:
    """The query without the words and symbols no element on the page carries ("the photo of the old cars":
    what a picture shows, which no text says), when that leaves a kind or a place to go by; else None."""
    have = words_of(" ".join(str(e.get(k) or "") for e in elements for k in LABEL_FIELDS))
    shown = " ".join(str(e.get(k) or "") for e in elements for k in ("name", "text"))
    words = {w for w in q.words if w in have}
    symbols = [x for x in q.symbols if x in shown]
    # a name no element comes near ("the 'Check!' button under the box" on a page whose button says
    # 'Guess') leaves its kind and its place to go by, when the words give both
    placed = bool(q.kinds and (q.relation or q.position or q.regions))
    phrases = [p for p in q.phrases if not placed or max((phrase_score(e, p)[0] for e in elements), default=0) >= 0.3]
    if (words, symbols, phrases) == (q.words, q.symbols, q.phrases) or not (q.kinds or q.position) or phrases:
        return None
    return dataclasses.replace(q, words=words, symbols=symbols, glyphs=[], phrases=[])


def names_trimmed(q: Query, elements: list[dict]) -> Query | None:
    """The query with each name cut to its longest start that some element shows whole ("the IN column":
    a name read on into a word for its shape that the page never writes); None when nothing is cut."""
    labels = [" " + norm(str(e.get(k) or "")) + " " for e in elements for k in LABEL_FIELDS if e.get(k)]
    phrases = []
    for p in q.phrases:
        words = norm(p).split()
        keep = next((n for n in range(len(words), 0, -1) if any(" " + " ".join(words[:n]) + " " in lab for lab in labels)), 0)
        phrases.append(p if keep in (0, len(words)) else " ".join(p.split()[:keep]))
    return dataclasses.replace(q, phrases=phrases) if phrases != q.phrases else None


def named_by_verb(description: str, elements: list[dict]) -> Plan | None:
    """"Check the new number" where one control reads 'Check!', "Roll for Player 2" where one reads 'Roll
    dice': what the person did is the name of the one control they did it with."""
    verb = re.match(r"\s*([A-Za-z]+)", description or "")
    if not verb or verb.group(1).lower() in ("click", "tap", "press", "hit", "select", "choose", "pick", "open", "go"):
        return None
    said = stem(verb.group(1).lower())
    named = [e for e in elements if e.get("interactive", True) and e.get("enabled", True) and not e.get("covered")
             and e.get("bbox") and e.get("role") in ("button", "link", "tab", "menuitem")
             and (words := re.findall(r"[a-z]+", str(e.get("name") or e.get("text") or "").lower()))
             and stem(words[0]) == said]
    if len(named) != 1:
        return None
    el = named[0]
    return Plan("text", {"ref": el["ref"]}, 0.6, f"the one control named by the verb {verb.group(1)!r}", [],
                chosen=describe(el, 0.6), margin=1.0)
