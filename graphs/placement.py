"""Where elements are on the page: relations to an anchor, reading order, rows and columns, boards of
same-sized cells; and the plans that pick by place (ordinals, positions, the only one of a kind)."""
from __future__ import annotations

import re

from iwr.graphs.description import Query, Relation, norm
from iwr.graphs.element_match import STRONG_KINDS, Plan, describe, fits_kind, phrase_score

def centre(el: dict) -> tuple[float, float]:
    x, y, w, h = el.get("bbox") or [0, 0, 0, 0]
    return x + w / 2, y + h / 2


def inside(a: list, b: list) -> bool:
    """Whether box a lies within box b."""
    return a[0] >= b[0] - 1 and a[1] >= b[1] - 1 and a[0] + a[2] <= b[0] + b[2] + 1 and a[1] + a[3] <= b[1] + b[3] + 1


def related(how: str, el: dict, anchor: dict) -> float:
    """How well an element stands in relation `how` to an anchor: 0 (not at all) to 1 (right there)."""
    if anchor is el:  # "the switch for 'Mentions'", "'Remove' under the 'Granite' line": labelled with the anchor
        return 1.0 if how in ("near", "inside") else 0.9
    b, a = el.get("bbox") or [0, 0, 0, 0], anchor.get("ink") or anchor.get("bbox") or [0, 0, 0, 0]
    (cx, cy), (ax, ay) = centre(el), (a[0] + a[2] / 2, a[1] + a[3] / 2)
    same_row = abs(cy - ay) <= max(a[3], b[3]) * 0.75
    same_col = abs(cx - ax) <= max(a[2], b[2]) * 0.75 or (a[0] <= cx <= a[0] + a[2])
    gap_x = max(a[0] - (b[0] + b[2]), b[0] - (a[0] + a[2]), 0)
    gap_y = max(a[1] - (b[1] + b[3]), b[1] - (a[1] + a[3]), 0)
    decay = 1 / (1 + (gap_x + gap_y) / 150)
    # Overlapping boxes (an arrow drawn over a field's left padding) count at half weight.
    if how == "left":
        return decay if same_row and cx < a[0] + 2 else 0.5 if same_row and cx < ax - a[2] / 4 else 0.0
    if how == "right":
        return decay if same_row and cx > a[0] + a[2] - 2 else 0.5 if same_row and cx > ax + a[2] / 4 else 0.0
    if how == "above":
        return decay if same_col and cy < a[1] + 2 else 0.5 if same_col and cy < ay - a[3] / 4 else 0.0
    if how == "below":
        return decay if same_col and cy > a[1] + a[3] - 2 else 0.5 if same_col and cy > ay + a[3] / 4 else 0.0
    if how == "inside":
        if inside(b, a):
            return 1.0
        if same_row:  # "'Delete' on 'Walk the dog'": on the line those words head (its row, its item)
            return 0.8 * decay
        return 0.7 * decay if same_col and cy > a[1] else 0.0
    return (1.0 if same_row else 0.6) * decay  # near, for, of



def lines_of(group: list[dict], axis: int) -> list[list[dict]]:
    """Rows (axis 1) top to bottom or columns (axis 0) left to right; each in reading order."""
    lines: list[list[dict]] = []
    for el in sorted(group, key=lambda e: centre(e)[axis]):
        if lines and abs(centre(lines[-1][0])[axis] - centre(el)[axis]) <= (el["bbox"][2 + axis] or 1) * 0.5:
            lines[-1].append(el)
        else:
            lines.append([el])
    return [sorted(line, key=lambda e: centre(e)[1 - axis]) for line in lines]


def reading_order(group: list[dict]) -> list[dict]:
    """Rows top to bottom (boxes overlapping vertically share a row), left to right within a row."""
    return [el for row in lines_of(group, 1) for el in row]


def leaves(group: list[dict]) -> list[dict]:
    """Drop containers (a star rating widget) whose box holds other members (its stars)."""
    return [e for e in group if not any(o is not e and inside(o["bbox"], e["bbox"]) and o["bbox"] != e["bbox"]
                                        for o in group)]


def ordinal_plan(q: Query, elements: list[dict], anchors: list[dict]) -> Plan | None:
    nth, noun = q.ordinal
    group = [e for e in elements if e.get("enabled", True) and not e.get("covered") and fits_kind(e, noun)]
    if len(group) < abs(nth) and q.ordinal_mods:  # "the third 250 ml glass": nothing says glass, eight say 250 ml
        mods = norm(q.ordinal_mods)
        group = [e for e in elements if e.get("enabled", True) and not e.get("covered")
                 and mods and re.search(rf"\b{re.escape(mods)}\b", norm(f"{e.get('name', '')} {e.get('text', '')}"))]
    if len(group) < abs(nth):  # "the sixth glass" where nothing says glass: the largest run of same-sized controls
        sizes: dict[tuple, list[dict]] = {}
        for e in elements:
            if e.get("interactive", True) and e.get("enabled", True):
                sizes.setdefault((round(e["bbox"][2]), round(e["bbox"][3])), []).append(e)
        runs = [g for g in sizes.values() if len(g) >= max(3, abs(nth))]
        # "the first dot below the gallery": the run by the anchor, not the longest one further down
        near = lambda g: round(max((related(q.relation.how, e, a) for e in g for a in anchors), default=0.0), 2)  # noqa: E731
        group = max(runs, key=lambda g: (near(g) if anchors else 0.0, len(g)), default=group)
    controls = [e for e in group if e.get("interactive", True)]
    group = leaves(controls if len(controls) >= abs(nth) else group)
    if anchors:
        group = [e for e in group if max(related(q.relation.how, e, a) for a in anchors) > 0] or group
    if q.regions:
        group = [e for e in group if q.regions & set(e.get("region") or [])] or group
    if q.line:
        lines = lines_of(group, 1 if q.line[0] == "row" else 0)
        n = q.line[1]
        group = lines[n - 1 if n > 0 else n] if 0 < abs(n) <= len(lines) else []
    group = reading_order(group)
    if not group or abs(nth) > len(group):
        return None
    el = group[nth - 1 if nth > 0 else nth]
    return Plan("text.ordinal", {"ref": el["ref"]}, 0.9, f"{'last' if nth < 0 else nth} of {len(group)} '{noun}' elements",
                chosen=describe(el, 0.9), margin=1.0)


def grid(elements: list[dict]) -> list[dict]:
    """The largest set of same-sized controls laid out in at least two rows and two columns (a board)."""
    groups: dict[tuple, list[dict]] = {}
    for e in elements:
        if e.get("interactive", True) and e["bbox"][2] > 4 and e["bbox"][3] > 4:
            groups.setdefault((round(e["bbox"][2] / 4), round(e["bbox"][3] / 4)), []).append(e)
    boards = [g for g in groups.values() if len(g) >= 4 and len({round(e["bbox"][0]) for e in g}) >= 2
              and len({round(e["bbox"][1]) for e in g}) >= 2]
    return max(boards, key=len, default=[])


def position_plan(q: Query, elements: list[dict]) -> Plan | None:
    nouns = ({q.ordinal[1]} if q.ordinal else set()) | q.kinds
    group = [e for e in elements if any(fits_kind(e, k) for k in nouns)] if nouns else []
    group = (grid(group) or group) if len(group) >= 4 else group if len(group) >= 2 else grid(elements)
    if q.line and group:  # "the left square of the middle row"
        lines = lines_of(group, 1 if q.line[0] == "row" else 0)
        n = q.line[1]
        group = lines[len(lines) // 2] if n == 0 else lines[n - 1 if n > 0 else n] if abs(n) <= len(lines) else []
        if q.position is None or q.position[1] < 0:
            along = q.position[0] if q.position else 0.5
            q = Query(position=(along, 0.5) if q.line[0] == "row" else (0.5, along))
    if not q.line and q.position and q.position[1] < 0 and group:  # "the left button": along the widest row
        rows = lines_of(group, 1)
        widest = [r for r in rows if len(r) == max(map(len, rows))]
        if len(widest) != 1:
            return None
        group, q = widest[0], Query(position=(q.position[0], 0.5))
    if len(group) < 2 or q.position is None:
        return None
    xs = [centre(e)[0] for e in group]
    ys = [centre(e)[1] for e in group]
    fx, fy = q.position
    corner = (min(xs) + fx * (max(xs) - min(xs)), min(ys) + fy * (max(ys) - min(ys)))
    dist = sorted(((abs(centre(e)[0] - corner[0]) + abs(centre(e)[1] - corner[1]), e) for e in group),
                  key=lambda x: x[0])
    el = dist[0][1]
    margin = min(1.0, (dist[1][0] - dist[0][0]) / 50) if len(dist) > 1 else 1.0
    return Plan("text.position", {"ref": el["ref"]}, 0.8, f"at {q.position} of {len(group)} elements laid out together",
                dist and [describe(e, 0.0) for _, e in dist[1:3]], chosen=describe(el, 0.8), margin=round(margin, 3))


def alone_plan(q: Query, usable: list[dict]) -> Plan | None:
    """"The lone button underneath": of the elements of the kind, laid out in rows, the only one with no
    peer in its row."""
    group = leaves([e for e in usable if e.get("interactive", True) and not e.get("covered")
                    and any(fits_kind(e, k) for k in q.kinds)])
    rows = lines_of(group, 1)
    single = [r[0] for r in rows if len(r) == 1]
    if len(rows) < 2 or len(single) != 1:
        return None
    el = single[0]
    return Plan("text.position", {"ref": el["ref"]}, 0.8, f"the only one of {len(group)} alone in its row",
                chosen=describe(el, 0.8), margin=1.0)


def only_of_kind(q: Query, usable: list[dict]) -> Plan | None:
    """A description naming no more than a kind: the focused element of that kind, else the only one,
    else (for typing) the first empty field in reading order, with no margin."""
    kinds = {"field"} if q.typing else q.kinds
    group = reading_order([e for e in usable if e.get("interactive", True) and not e.get("covered")
                            and any(fits_kind(e, k) for k in kinds)]) if kinds else []
    if not group:
        return None
    focused = [e for e in group if e.get("focused")]
    if focused or len(group) == 1:
        el, why, margin = (focused or group)[0], "the focused one" if focused else "the only one", 1.0
    elif q.typing:
        el = next((e for e in group if not e.get("value")), group[0])
        why, margin = "the first empty one", 0.0
    else:
        return None
    return Plan("text.kind", {"ref": el["ref"]}, 0.7, f"{why} of kind {'/'.join(sorted(kinds))}",
                [describe(e, 0) for e in group if e is not el][:3], chosen=describe(el, 0.7), margin=margin)


def implicit_anchor(q: Query, usable: list[dict]) -> None:
    """'Turn on the "Push" switch': when no element of the named kind carries the quoted name, the
    name labels something next to it, so it becomes the anchor of a 'near' relation."""
    kinds = q.kinds & STRONG_KINDS
    if q.relation or not kinds or not q.phrases:
        return
    fitting = [e for e in usable if any(fits_kind(e, k) for k in kinds)]
    if not fitting or any(phrase_score(e, p)[0] >= 0.5 for e in fitting for p in q.phrases):
        return
    q.relation = Relation("near", q.phrases.pop(0), True)


