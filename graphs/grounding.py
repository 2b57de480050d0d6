"""Offline grounding: pick the element an action description means, without any model.

Pure functions over the element list the browser server returns (ref, role, name, text, value,
placeholder, alt, title, label, colours, region, bbox; with painted text leaves and images after the
controls). The description is read into a `Query` (graphs/description.py); each element is scored
on its names, kind, region, colour and relation to an anchor, ordinals pick within a kind in reading
order, and the plan records the chosen element, the runner-up and the margin between them.
"""
from __future__ import annotations

import dataclasses
import re

from iwr.graphs.description import (KIND_RE, KINDS, STOP as STOP_WORDS, Query, norm, parse, quote_bare_names, quoted, stem,
                                type_text_of, words_of)
from iwr.graphs.element_match import (LABEL_FIELDS, STRONG_KINDS, Plan, describe, fits_kind, hue_fits, phrase_score,
                                  symbol_score)
from iwr.tasks.names import names_agree
from iwr.graphs.words_left import named_by_verb, names_trimmed, unshown_dropped
from iwr.graphs.placement import (alone_plan, implicit_anchor, inside, only_of_kind, ordinal_plan, position_plan, reading_order,
                              related)

__all__ = ["Plan", "match_description", "plans_for", "key_for", "quoted", "type_text_of", "names_agree",
           "label_probe", "target_quotes"]

THRESHOLD = 0.5


def anchors_of(query: Query, elements: list[dict]) -> list[dict]:
    """Elements the relation's anchor names: by their labels, or for a plain kind ("left of the input
    box"), the elements of that kind."""
    rel = query.relation
    scored = [(phrase_score(e, rel.anchor)[0], e) for e in elements]
    best = max((s for s, _ in scored), default=0)
    floor = 0.5 if rel.quoted else 0.6  # an unquoted word in passing in a long text ('the calendar') is no name
    if best >= floor:
        return [e for s, e in scored if s >= floor]
    content = words_of(rel.anchor) - STOP_WORDS - {stem(k) for k in KINDS}
    if not rel.quoted and content:  # "under the balance card": what says 'balance'
        # what says it, as its name rather than in passing (a paragraph that mentions 'calendar' is none)
        said = [e for e in elements if content <= (own := words_of(f"{e.get('name', '')} {e.get('text', '')}"))
                and len(own - STOP_WORDS) <= 3 * len(content)]
        if said:
            return said
    kinds = {KINDS[m] for m in KIND_RE.findall(rel.anchor.lower())} if not rel.quoted else set()
    return [e for e in elements if e.get("interactive", True) and any(fits_kind(e, k) for k in kinds)]


def _path(el: dict) -> list[str]:
    return [p.strip() for p in str(el.get("css") or "").split(">")]


def _shared(a: dict, b: dict) -> int:
    """How many steps of their CSS paths two elements share (their lowest common ancestor's depth)."""
    n = 0
    for x, y in zip(_path(a), _path(b)):
        if x != y:
            break
        n += 1
    return n


def same_item(q: Query, elements: list[dict], anchors: list[dict]) -> set[int]:
    """'Remove' under the 'Granite' line, 'Delete' on the 'Milk' card: where the page's own structure
    puts one element of those the words name in the smallest block that holds the anchor (its line, its
    card), that element belongs to the anchor, wherever it is drawn. The refs of such elements."""
    # a glyph the words name ('the plus button under Kids') where they name nothing else
    symbols = q.symbols or ([] if q.phrases else q.glyphs)
    if not anchors or not (q.phrases or symbols):
        return set()
    named = [e for e in elements if e.get("interactive", True)
             and max([phrase_score(e, p)[0] for p in q.phrases] + [symbol_score(e, symbols)[0]]) >= 0.5]
    out = set()
    for a in anchors:
        depth = {e["ref"]: _shared(e, a) for e in named if e is not a}
        best = max(depth.values(), default=0)
        if best and list(depth.values()).count(best) == 1 and len(named) > 1:
            out |= {r for r, d in depth.items() if d == best}
    return out


def own_block_choice(tied: list[tuple], elements: list[dict], words: set[str] = frozenset(),
                     seen: set[str] | None = None) -> tuple | None:
    """Among elements named alike, the one whose own block of the page (the texts nearer to it in the
    page's structure than to any of the others: its card, its row) holds most of the description's
    other words, or with `seen`, most texts not listed before the previous action ("on the new card"),
    if one does; its (score, why, element) with the reason added."""
    if len(tied) < 2:
        return None
    counts = []
    for _, _, el in tied:
        others = [e for _, _, e in tied if e is not el]
        own = [t for t in elements if t is not el and _shared(t, el) > max(_shared(t, o) for o in others)]
        labels = [str(t.get("name") or t.get("text") or "") for t in own]
        counts.append(sum(1 for x in labels if x and x not in seen) if seen is not None
                      else len(words & words_of(" ".join(labels))))
    best = max(counts)
    if not best or counts.count(best) > 1:
        return None
    sc, why, el = tied[counts.index(best)]
    said = f"{best} text(s) new since the last action" if seen is not None else f"{best} of the other words"
    return sc + 0.05, f"{why}; its own block shows {said}", el


def column_heads(elements: list[dict]) -> dict:
    """For each control, the nearest words above it in its own column (a table's 'PUSH' header over the
    switches of that column, past the controls of the rows between)."""
    texts = [e for e in elements if e.get("interactive") is False and (e.get("text") or e.get("name"))]
    out = {}
    for el in elements:
        if el.get("interactive") is False or not el.get("bbox"):
            continue
        x, y, w, _ = el["bbox"]
        above = [t for t in texts if t["bbox"][1] + t["bbox"][3] <= y + 2 and x - 20 <= t["bbox"][0] + t["bbox"][2] / 2 <= x + w + 20
                 and len(str(t.get("text") or t.get("name"))) <= 30]
        if above:
            out[el.get("ref")] = str(max(above, key=lambda t: t["bbox"][1]).get("text") or "")
    return out


def score_element(el: dict, q: Query, anchors: list[dict], kin: set[int] = frozenset(), column: str = "",
                  drawn_in: set = frozenset()) -> tuple[float, str]:
    parts, whys = [], []
    for p in q.phrases:
        s, w = phrase_score(el, p)
        parts.append(s)
        whys.append(w)
    if q.symbols:
        s, w = symbol_score(el, q.symbols)
        parts.append(s)
        whys.append(w)
    glyph = symbol_score(el, q.glyphs)[0] * 0.6 if q.glyphs else 0.0
    named = max(parts) + 0.1 * (sum(parts) - max(parts)) / len(parts) if parts else 0.0
    if q.words:
        have = words_of(" ".join(str(el.get(k) or "") for k in (*LABEL_FIELDS, "id", "classes")))
        label = str(el.get("name") or el.get("text") or "")
        own = words_of(label) - STOP_WORDS
        head = words_of(re.split(r"\s[(\[]|:|\s[-–—]\s", label)[0]) - STOP_WORDS  # 'Amount (-100 = expense)'
        overlap = len(q.words & have) / len(q.words)
        mentioned = q.words | (words_of(q.relation.anchor) if q.relation else set())
        # the description names all of its label, or all of the label before a note in brackets
        covered = max(len(own & mentioned) / len(own) if own else 0.0, len(head & mentioned) / len(head) if head else 0.0)
        by_words = 0.35 * overlap + 0.45 * covered
        if parts:  # a quoted name outweighs loose words, which only break ties ('Select' on flight SL 426)
            named += 0.15 * by_words
        else:
            named = max(by_words, glyph)
        if overlap:
            whys.append(f"shares words {sorted(q.words & have)}")
    elif not parts:
        named = glyph
    score = named
    kinds = q.kinds - ({q.ordinal[1]} if q.ordinal else set())
    if kinds:
        if any(fits_kind(el, k) for k in kinds):
            score += 0.25 if not parts else 0.1
            whys.append("kind " + "/".join(sorted(kinds)))
        elif kinds & STRONG_KINDS:
            score *= 0.6
    if column and q.words & words_of(column):  # "push notifications for 'Mentions'": the switch under 'PUSH'
        score += 0.15
        whys.append(f"under the column {column!r}")
    if anchors:
        rel = max((related(q.relation.how, el, a) for a in anchors), default=0.0)
        if el.get("ref") in kin:  # in the anchor's own block (its line, its card), by the page's structure
            rel = max(rel, 0.7)
        if any(a is not el and inside(a["bbox"], el["bbox"]) and el.get("interactive") is False for a in anchors):
            rel = 0.0  # a plain container around the anchor is not the target
        score = score + 0.45 * rel if rel else score * (0.3 if q.relation.quoted else 0.6)
        whys.append(f"{q.relation.how} of {q.relation.anchor!r} ({rel:.2f})")
    if q.regions:
        score = score + 0.1 if q.regions & set(el.get("region") or []) or el.get("ref") in drawn_in else score * 0.5
    if q.colours:
        fits = any(hue_fits(c, el.get("bg", "")) or hue_fits(c, el.get("color", "")) for c in q.colours)
        score = score + 0.1 if fits else score * 0.7
    if q.square and el.get("bbox"):  # "the square button": a shape a person sees
        w, h = el["bbox"][2], el["bbox"][3]
        score = score + 0.1 if h and 0.75 <= w / h <= 1.33 else score * 0.7
    if q.index is not None and el.get("interactive", True) and el.get("ref") == q.index:
        score += 0.05
    if q.new and el.get("new"):
        score += 0.2
        whys.append("new since the previous action")
    if not el.get("interactive", True):
        score *= 0.85
    if el.get("covered"):
        score *= 0.5
    if q.typing and not fits_kind(el, "field") and el.get("tag") not in ("input", "textarea"):
        return 0.0, "cannot take text"
    return score, "; ".join(w for w in whys if w)


REGION_OF_TAG = {"header": "header", "footer": "footer", "nav": "nav", "aside": "sidebar", "form": "form", "dialog": "dialog",
                 "banner": "header", "contentinfo": "footer", "navigation": "nav", "complementary": "sidebar",
                 "alertdialog": "dialog", "toolbar": "toolbar", "menu": "menu", "menubar": "menu", "tablist": "tabs"}


def drawn_in_regions(regions: set[str], elements: list[dict]) -> set:
    """The refs of elements drawn inside a region the words name ("close in the corner of the pink header"):
    where a person sees them, whatever the page's structure says (a button laid over the header)."""
    boxes = [e["bbox"] for e in elements if e.get("bbox") and
             regions & {REGION_OF_TAG.get(e.get("tag") or ""), REGION_OF_TAG.get(e.get("role") or "")}]
    return {e.get("ref") for e in elements if e.get("bbox") and any(inside(e["bbox"], b) for b in boxes)}


def match_description(description: str, elements: list[dict], action_type: str,
                      hint_name: str | None = None, hint_text: str | None = None, text: str | None = None,
                      element_index: int | None = None, threshold: float = THRESHOLD,
                      seen: set[str] | None = None) -> Plan | None:
    """Best element for a description; None when nothing reaches the threshold. `seen`: the names of
    the elements listed before the previous action, for "the new card". Unquoted names ('Tap Pack
    lunch') are read as quoted first; when that finds nothing ('Pick Thursday 18 July' names a date
    cell labelled '18'), the words are read as they are."""
    args = (description, elements, action_type, hint_name, hint_text, text, element_index, threshold, seen)
    if quote_bare_names(description) != description:
        plan = _best_element(*args, bare_names=True)
        if plan is not None:
            return plan
    plan = _best_element(*args, bare_names=False)
    beside = quote_bare_names(description, outside=True)
    if plan is None and beside != description:  # "Under '2.) Select a shape', click Square": the target's own
        plan = _best_element(beside, *args[1:], bare_names=False)  # name beside the anchor's quoted one
    if plan is None and action_type == "Click":
        plan = named_by_verb(description, elements)
    return plan


def weak_candidates(description: str, elements: list[dict], action_type: str, text: str | None = None) -> list[dict]:
    """The elements the words point at too weakly to choose alone ("Enter an amount of 200" where two
    fields are labelled 'Amount'): the best scored alike, for the recording's order to decide among."""
    q = parse(description, action_type, text)
    usable = [e for e in elements if e.get("enabled", True) and e.get("interactive", True) and not e.get("covered")]
    anchors = anchors_of(q, [e for e in elements if e.get("enabled", True)]) if q.relation else []
    scored = sorted(((score_element(e, q, anchors)[0], e) for e in usable), key=lambda x: -x[0])
    return [e for sc, e in scored if sc > 0 and sc >= scored[0][0] - 0.05] if scored and scored[0][0] > 0 else []


def _best_element(description: str, elements: list[dict], action_type: str, hint_name: str | None, hint_text: str | None,
                  text: str | None, element_index: int | None, threshold: float, seen: set[str] | None,
                  bare_names: bool) -> Plan | None:
    q = parse(description, action_type, text, element_index, bare_names=bare_names)
    if q.new and seen:
        for e in elements:
            e["new"] = e.get("interactive", True) and (e.get("name") or e.get("text")) not in seen
    plan = _best_for(q, elements, hint_name, hint_text, threshold, seen)
    if plan is None and bare_names and (cut := names_trimmed(q, elements)) is not None:
        plan = _best_for(cut, elements, hint_name, hint_text, threshold, seen)
    if plan is None and q.kind_by_verb:  # "Turn on shuffle" where shuffle is a button that stays pressed
        plan = _best_for(dataclasses.replace(q, kinds=set(), kind_by_verb=False), elements, hint_name, hint_text,
                         threshold, seen)
    fewer = unshown_dropped(q, elements) if plan is None else None
    return _best_for(fewer, elements, hint_name, hint_text, threshold, seen) if fewer is not None else plan


def _best_for(q: Query, elements: list[dict], hint_name: str | None, hint_text: str | None, threshold: float,
              seen: set[str] | None) -> Plan | None:
    usable = [e for e in elements if e.get("enabled", True)]
    implicit_anchor(q, usable)
    anchors = anchors_of(q, usable) if q.relation else []
    if anchors and not q.kinds:  # "Roll for Player 2": what the words place by a thing is not that thing (a kind
        # named decides that already, and a label holding its box resolves to the box below), unless it also
        # carries the target's own name ('Remove' named 'Remove Granite Approach Shoe'); a control named by a
        # label apart from it (the radio by 'Hyperloop Machine Language') is not the words it is placed by
        said = norm(q.relation.anchor or "")
        bare = [a for a in anchors if said and said in norm(str(a.get("text") or ""))
                and not any(phrase_score(a, p)[0] >= 0.5 for p in q.phrases)
                and not q.words & words_of(f"{a.get('name') or ''} {a.get('text') or ''}")]
        usable = [e for e in usable if not any(e is a for a in bare)]
    if (q.position or q.line and not q.ordinal) and not q.phrases and not q.symbols and not q.typing:
        plan = position_plan(q, elements)  # the board a person sees includes the cells already played
        if plan is not None:
            return plan
    if not (q.phrases or q.symbols or q.words or q.relation or q.ordinal or q.line):  # a place among one is that one
        plan = only_of_kind(q, usable)  # "Type 'Walk the dog'", "Click the checkbox"
        if plan is not None:
            return plan
    named = bool(q.phrases or q.symbols)
    if q.alone and q.kinds and not named:
        plan = alone_plan(q, usable)
        if plan is not None:
            return plan
    if q.ordinal is not None and not q.typing and not named:
        plan = ordinal_plan(q, usable, anchors)
        if plan is not None:
            return plan
    kin = same_item(q, usable, anchors)
    # the recorded target's names (hints: the original's, maybe an invisible label) help the scores only:
    # the places, kinds and ordinals the words give are tried first
    hinted = [p for p in (hint_name, hint_text) if p and p not in q.phrases]
    q.phrases += [p for p in hinted if norm(p)]
    q.symbols += [p.strip() for p in hinted if not norm(p) and p.strip() not in q.symbols]
    headed = column_heads(usable) if q.words and anchors else {}
    drawn = drawn_in_regions(q.regions, elements) if q.regions else set()
    scored = sorted(((*score_element(e, q, anchors, kin, headed.get(e.get("ref"), ""), drawn), e) for e in usable),
                    key=lambda x: -x[0])
    strong = (q.kinds - ({q.ordinal[1]} if q.ordinal else set())) & STRONG_KINDS
    kin = [x for x in scored if any(fits_kind(x[2], k) for k in strong)]
    if kin and kin[0][0] >= threshold:  # the kind the words name is a constraint, not a bonus: a label
        scored = kin  # beside the checkbox never wins on its text or place alone
    if not scored or scored[0][0] < threshold:
        return None
    if q.ordinal is not None and named:  # "'Add to cart' on the first product": the nth of the equally named
        tied = reading_order([e for sc, _, e in scored if sc >= scored[0][0] - 0.1])
        nth = q.ordinal[0]
        if len(tied) > 1 and abs(nth) <= len(tied):
            el = tied[nth - 1 if nth > 0 else nth]
            return Plan("text.ordinal", {"ref": el["ref"]}, scored[0][0], f"{nth} of {len(tied)} elements named alike",
                        [describe(e, 0) for e in tied[:3] if e is not el], chosen=describe(el, scored[0][0]), margin=1.0)
    if named and (q.words or q.new and seen) and not q.relation and len(scored) > 1:  # "'Select' on the 1:05 pm
        # flight SL 426", "On the new card, click 'In progress'"
        tied = [x for x in scored if x[0] >= scored[0][0] - 0.05]
        held = own_block_choice(tied, elements, seen=seen) if q.new and seen else None
        held = held or own_block_choice(tied, elements, q.words)
        if held is not None:
            scored = [held] + [x for x in scored if x is not held]
    if not named and q.words and not q.relation and len(scored) > 1:  # "Add the coffee cup to the cart": of the
        # controls named alike, the one whose own block (its card, its row) shows the words its name does not
        tied, rest = [x for x in scored if x[0] >= scored[0][0] - 0.05], q.words - words_of(str(scored[0][2].get("name") or ""))
        alike = len({norm(str(x[2].get("name") or "")) for x in tied}) == 1
        held = own_block_choice(tied, elements, rest) if len(tied) > 1 and alike and rest else None
        if held is not None:
            scored = [held] + [x for x in scored if x is not held]
    if q.size and len(scored) > 1:  # "the big play button": among near-equals, the largest (or smallest)
        area = lambda e: e["bbox"][2] * e["bbox"][3] * (1 if q.size == "big" else -1)  # noqa: E731
        tied = [x for x in scored if x[0] >= scored[0][0] - 0.05]
        best = max(tied, key=lambda x: area(x[2]))
        scored = [(best[0] + 0.05, best[1] + f"; the {'largest' if q.size == 'big' else 'smallest'}", best[2])] + [x for x in scored if x is not best]
    s, why, el = scored[0]
    held = [x for x in kin if inside(x[2]["bbox"], el["bbox"])] if kin and not any(fits_kind(el, k) for k in strong) else []
    if held:  # a label around the named control (a padded row's label holds its checkbox) resolves to it
        s, why, el = s, f"{why}; the {'/'.join(sorted(strong))} inside it", held[0][2]
        scored = [(s, why, el)] + [x for x in scored if x[2] is not el]
    runner = scored[1][0] if len(scored) > 1 else 0.0
    alts = [describe(e, sc) for sc, _, e in scored[1:4]]
    return Plan("text", {"ref": el["ref"]}, s, why, alts, chosen=describe(el, s), margin=round(s - runner, 3))


def plans_for(action: dict, elements: list[dict], viewport: tuple[int, int],
              recorded_size: tuple[int, int], seen: set[str] | None = None) -> list[Plan]:
    """Grounding plans in the order the offline judge tries them."""
    params = action["parameters"]
    hint = ((action.get("iwr") or {}).get("target")) or {}
    out: list[Plan] = []
    if hint.get("selector"):
        out.append(Plan("hint.selector", {"selector": hint["selector"]}, 1.0, "structured target hint"))
    m = match_description(params.get("description", ""), elements, action["type"], hint.get("name"), hint.get("text"),
                          params.get("text"), params.get("element_index"), seen=seen)
    if m is not None:
        out.append(m)
    if hint.get("bbox"):
        x, y, w, h = hint["bbox"]
        sx, sy = viewport[0] / recorded_size[0], viewport[1] / recorded_size[1]
        out.append(Plan("hint.position", {"x": (x + w / 2) * sx, "y": (y + h / 2) * sy}, 0.3, "recorded position"))
    return out


KEY_WORDS = [("enter", "Enter"), ("return", "Enter"), ("escape", "Escape"), ("esc", "Escape"), ("tab", "Tab"),
             ("space", " "), ("backspace", "Backspace"), ("delete", "Delete"), ("up", "ArrowUp"),
             ("down", "ArrowDown"), ("left", "ArrowLeft"), ("right", "ArrowRight"), ("home", "Home"),
             ("end", "End"), ("page down", "PageDown"), ("page up", "PageUp"), ("pagedown", "PageDown"),
             ("pageup", "PageUp"), ("arrowup", "ArrowUp"), ("arrowdown", "ArrowDown"), ("arrowleft", "ArrowLeft"),
             ("arrowright", "ArrowRight"), ("spacebar", " "), ("space bar", " "), ("up arrow", "ArrowUp"),
             ("down arrow", "ArrowDown"), ("left arrow", "ArrowLeft"), ("right arrow", "ArrowRight")]
KEY_NAMES = {k.lower(): k for _, k in KEY_WORDS if k.strip()}


def key_for(params: dict) -> str | None:
    """The key a Press action means: its `key` parameter, else a key name found in the description."""
    if params.get("key"):
        return params["key"]
    for q in quoted(params.get("description", "")):
        if q.strip().lower() in KEY_NAMES or len(q) == 1:
            return KEY_NAMES.get(q.strip().lower(), q)
    words = " " + norm(params.get("description", "")) + " "
    for word, key in sorted(KEY_WORDS, key=lambda wk: -len(wk[0])):
        if f" {word} " in words:
            return key
    return None


def target_quotes(description: str, action_type: str) -> list[str]:
    """Quoted strings that name the target (a Type description's first quote is the text); a name the
    target is placed by ("the circle to the left of 'Renew passport'") is not the target's."""
    q = quoted(description)
    q = q[1:] if action_type == "Type" else q
    rel = parse(description, action_type).relation
    if rel is not None and rel.quoted and rel.how != "inside":
        q = [x for x in q if norm(x) != norm(rel.anchor)]
    return q


def label_probe(args: dict) -> str:
    """A read-only JS expression giving the label of the element a selector or point plan designates
    (what the browser's `named` check reads)."""
    import json

    from iwr.mcp_servers.browser.targets import LABEL_OF

    where = {"x": float(args["x"]), "y": float(args["y"])} if "x" in args else {"selector": args["selector"]}
    return f"({LABEL_OF})({json.dumps(where)})"
