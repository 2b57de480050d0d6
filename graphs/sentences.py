"""Compiling a natural-language assertion into claims a machine can decide.

"'Buy milk' disappears and 'Walk dog' is struck through" becomes two claims, `absent('Buy milk')`
and `struck('Walk dog')`. graphs/assertions.py decides each claim on what the page shows before
and after the action. A sentence with nothing decidable compiles to one `changed` claim, which is
reported as unverifiable. Pure text processing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from iwr.graphs.description import QUOTE_RE
from iwr.graphs.sentence_names import ground_names, quote_read_words, spelled_out

NUMBERS = {"no": 0, "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
VERB = (r"\b(appears?|disappears?|vanish(?:es)?|shows?|reads?|displays?|becomes?|changes?|updates?|is|are|closes?|"
        r"opens?|lists?|contains?|says|turns?|gets?|goes|remains?|stays?|has|have|runs?|holds?|fills?|moves?|"
        r"drops?|rises?|falls?|climbs?|increases?|decreases?|tops?|jumps?|resets?)\b")
SHOWING = (r"\b(appears?|shows?|reads?|displays?|becomes?|changes?|updates?|says|is|are|lists?|contains?|holds?|"
           r"has|have|turns? (?:in)?to|replaced|added|listed|shown|displayed|printed|written|highlighted|pops? up|comes? up|shows? up|joins?|"
           r"lands?|enters?|slides? in|fades? in|lights? up|flips?|reveals?|revealed|greets?|welcomes?)\b")
CONTAINER = r"(dialog|modal|pop-?up|overlay|drawer|lightbox|menu|dropdown|panel|banner|toast|window|sheet|tooltip)"
CLOSES = r"\b(closes|closed|is dismissed|disappears|goes away|is hidden|collapses|hides|vanishes)\b"
KEPT_OPEN = (r"\b(?:does not|did not|never|will not)\s+(?:close|shut|collapse)\b|"
             r"\b(?:stays?|remains?|is still|are still|keeps?)\s+(?:open|opened|expanded)\b")
OPENS = r"\b(opens|is opened|appears|pops up|is shown|shows up|is displayed|expands|slides (?:in|out|open)|is visible)\b"
GONE = (r"\b(disappears?|vanish(?:es)?|(?:has|have) (?:now )?(?:gone|disappeared|vanished|been removed)|(?:is|are) (?:now )?(?:removed|deleted|gone|hidden|cleared away)|goes away|"
        r"(?:is|are) no longer|no longer (?:appears?|shows?|listed|visible|displayed|present|shown)|"
        r"(?:is|are) not (?:shown|visible|listed|displayed|present))\b")
STRUCK = (r"\b(struck|strike[ -]?through|crossed[ -](?:out|off|through)|line[ -]through|marked (?:as )?(?:done|complete|completed))\b")
CHECKED = r"\b(un)?(checked|ticked|toggled (?:on|off)|switched (?:on|off)|turned (?:on|off))\b"
FOCUS = (r"\b(?:has|gets|receives|takes|with)\s+(?:the\s+)?(?:keyboard\s+)?focus\b|\b(?:is|now)\s+focused\b|\bfocus(?:ed)?(?:\s+(?:ring|outline|highlight|indicator))?\s+(?:now\s+)?(?:moves?|goes|jumps|lands?|shifts?|"
         r"returns?|is|sits|comes?|passes|has\s+(?:now\s+)?(?:moved|gone|jumped|landed|shifted|returned))\b")
UNTICKED_STILL = (r"\b(?:is|are|stays?|remains?)\s+(?:still\s+)?not\s+(?:ticked|checked)\b|"
                  r"\b(?:nothing|none|no (?:other|new|more) [a-z]+)\s+(?:new\s+|else\s+)?(?:is\s+|are\s+|gets?\s+)?(?:ticked|checked)\b")
SELECTED = r"\b(selected|chosen|active|highlighted|current(?!\s+[a-z])|pressed)\b"  # not "the current score"
EMPTY = r"\b(?:is|are|becomes?|now) (?:now )?(empty|cleared|blank)\b|\b(?:clears|cleared)\b"
COUNT = (r"\b(\d+|" + "|".join(NUMBERS) + r")\s+(?:[a-z-]+\s+)?(items?|results?|cards?|rows?|tasks?|entries|entry|"
         r"products?|todos?|tiles?|songs?|tracks?|messages?|notes?|files?|books?|flights?|reviews?|events?|"
         r"people|users?|comments?|options?|days?|boxes|box|questions?|answers?|photos?|images?|pictures?|"
         r"[a-z]{3,}s)\b(?!\s*Q)")
STYLED = (r"\b(?:turns?|becomes?|goes|is now|are now|changes? to|lights? up|is|are)\s+(?:still )?(?:dark |light |bright |pale )?"
          r"(red|green|blue|yellow|orange|purple|pink|grey|gray|white|black|bold|coloured|colored|filled(?!\s+(?:in|into|with|out)\b))\b")
HUES = ("red", "green", "blue", "yellow", "orange", "purple", "pink")  # a person's grey, white or black is too loose
# A list of names a person writes without quotes: 'Tomato soup, Pea soup and Chicken noodle'. Each name
# starts with a capital (or is a number) and runs on in lower-case words that are no verbs or links.
LINK = (r"(?:is|are|was|were|and|or|but|the|a|an|now|still|to|in|on|of|with|at|for|left|remain|remains|"
        r"shown|listed|appear|appears|stay|stays|only|both)")
NAME = rf"(?:[A-Z][\w'&-]*|\d[\w'-]*)(?:\s+(?!{LINK}\b|{VERB})[a-z][\w'&-]*){{0,3}}"
NAME_LIST = re.compile(rf"(?<![\w'])({NAME})((?:,\s*{NAME})*,?\s+(?:and|or)\s+{NAME})(?![\w'])")
AFTER_COLON = re.compile(rf"(?<!\d):\s+((?=[A-Z]){NAME})(?=\s*(?:[.;]|$))")
# A reading written out: an amount, a percentage, a time, a decimal ('62.5%', '$4.50', '00:00:00').
READING = (r"(?<!from )(?<![\w.$:/])(-?\$?\d+(?:[.,:/]\d+)+%?|-?\$?\d+%|\$\d+)(?![\w%/])"  # not what a change starts from:
           r"(?!\s+(?:[a-z]+\s+)?(?:becomes?|changes?|turns?|goes|drops?|rises?|falls?|is replaced)\b)")
ENABLED = r"\b(?:becomes?|is|are|gets?|turns?)\s+(?:now\s+)?(clickable|enabled|active|available|usable)\b"
DISABLED = r"\b(greyed out|grayed out|disabled|not clickable|unclickable|inactive|dimmed)\b"
NONE_CHECKED = (r"\bno (?:answer|option|choice|box|item|radio|checkbox)e?s? (?:is |are )?(?:picked|selected|checked|chosen|ticked)\b|"
                r"\ball (?:[a-z]+ )?(?:options|answers|choices|boxes|checkboxes) (?:are )?(?:unselected|unchecked|unticked|cleared)\b|"
                r"\bnone (?:of them )?(?:is|are) (?:selected|picked|checked|chosen|ticked)\b")
RANGE = r"\b(?:run|runs|count|counts|numbered)\s+from\s+(\d+)\s+(?:to|through|until)\s+(\d+)\b"
NOTHING_ADDED = r"\bnothing (?:new )?(?:is|gets|was) (added|removed)\b"
NOTHING = r"\bnothing (?:happens|changes|is placed|is added|is removed|moves|else happens)\b|\bno change\b"
# "the drawing stays the same": a part of the page; beside a change the same sentence states, it says nothing
# of the whole page (alone, "the page stays the same", it says the page is as it was)
SAME = r"\b(?:stays|remains|looks) (?:exactly )?the same\b|\b(?:does not|did not) change\b|\bremains? unchanged\b"
# "Adults goes from 1 to 2": what it reads now (the value it had is no claim)
CHANGE = (r"\b([a-z]+)\s+(?:goes|went|changes|changed|jumps|moves|rises|drops|falls|climbs|increases|decreases)\s+"
          r"(?:up\s+|down\s+|back\s+)?from\s+-?\$?\d[\d.,]*%?\s+to\s+(-?\$?\d(?:[\d.,]*\d)?%?)(?![\w.])")
# a kind of thing is no name: "the amount field shows 500" reads the amount
KIND_WORDS = {"field", "box", "input", "display", "value", "number", "figure", "total"}
NUMBERED = r"\b[a-z]+?s? (\d+) (?:to|through|-) (\d+) (?:are|is|turn|become|look|light up|are now)\b"
LAST = r"\bthe last (?:[a-z-]+ ){0,2}(?:is|reads|shows|says) (?:now )?(\d+)\b"
READS = (r"\b([a-z]+)\s+(?:now\s+|still\s+)?(?:reads|shows|is|becomes|says|displays|holds|stays at|is back to|"
         r"(?:goes|changes|drops|rises|climbs|falls|increases|decreases|comes|jumps|moves|resets|counts)\s+(?:back\s+|up\s+|down\s+)?to)"
         r"\s+(?:back to\s+|at\s+|now\s+)?(-?\$?\d(?:[\d.,]|:\d)*%?)(?![\w./])")
# a list of readings, each a label and its number
READINGS_LIST = (r"(?:^|,|\band\b)\s*(?:the\s+)?([a-z]+)(?:\s+[a-z]+)?\s+(?:is\s+(?:now\s+)?|reads\s+|of\s+)?"
                 r"(-?\$?\d[\d.,]*%?)(?=\s*(?:,|\band\b|$|[.;]))")
LOOKS = {"empty", "blank", "same", "new", "small", "big", "little", "large", "first", "last", "top", "bottom", "left",
         "right", "white", "grey", "gray", "black", "red", "green", "blue", "other", "only", "main", "whole"}
PRONOUNS = {"it", "that", "this", "which"}
STOP_LABELS = {"it", "there", "that", "this", "which", "what", "box", "row", "column", "step", "tile", "day", "circle"}
STILL = r"\b(still|remains?|stays?|unchanged|no change|does not change|keeps?)\b"
# "The display shows '7'" is not made true by the label of the 7 key: text inside controls does not count.
DISPLAY = (r"\b(display|screen|result|total|score|counter|output|readout|heading|message|panel|field|box|badge|"
           r"status|summary|amount|balance|price|timer|clock)\b.*\b(shows?|reads?|displays?|says|is|becomes?|changes? to)\b")
CONTROL_WORDS = r"\b(button|link|tab|label|option|key|menu item|placeholder|heading|title)\b"
TYPED = r"\b(typed|entered) (text|value|word|query|name)|\bwhat was typed\b|\bthe text\b"


@dataclass
class Claim:
    kind: str  # shown, absent, only, closed, opened, empty, struck, checked, selected, enabled, styled, count,
    # range, reads, numbered_alike, none_checked, url, order, unchanged, in_view, changed, focused
    texts: tuple[str, ...] = ()
    negated: bool = False
    fresh: bool = True  # shown: the action must have had an effect (not "still")
    display: bool = False  # shown: text inside buttons and other controls does not count
    number: int | None = None
    exclusive: bool = False  # selected: only this one looks chosen
    colour: str | None = None  # styled: the colour it turns
    how: str | None = None  # order: below, above, first, last or sequence


def quote_names(sentence: str) -> str:
    """The sentence with its unquoted lists of names quoted, as a careful annotator would have:
    "Only three cans are left: Tomato soup, Pea soup and Chicken noodle" names three texts. A list
    counts when it follows a colon or holds three or more names; a single name counts after a colon."""
    out, last = [], 0
    for m in NAME_LIST.finditer(sentence):
        names = [n.strip() for n in re.split(r",\s*|\s+(?:and|or)\s+", m.group(0)) if n.strip()]
        colon = sentence[:m.start()].rstrip().endswith(":")
        if any(QUOTE_RE.search(n) for n in names) or not (colon or len(names) >= 3) or \
                all(n.isdigit() for n in names) or any(len(n) == 1 and n not in "AIXO" for n in names):
            continue
        joined = ", ".join(f"'{n}'" for n in names[:-1]) + f" and '{names[-1]}'"
        out.append(sentence[last:m.start()] + joined)
        last = m.end()
    text = "".join(out) + sentence[last:]
    parts, at = [], 0  # a colon inside a quote ('Brand: QUnit') is part of the quoted text
    for q in QUOTE_RE.finditer(text):
        parts += [AFTER_COLON.sub(lambda m: f": '{m.group(1)}'", text[at:q.start()]), q.group(0)]
        at = q.end()
    return "".join(parts) + AFTER_COLON.sub(lambda m: f": '{m.group(1)}'", text[at:])


def _clauses(masked: str) -> list[str]:
    """Split at ';', ', and', ' and ', ' but ', ' while ' where both sides have a verb of their own."""
    parts = re.split(r";|(?<![\d.])\.\s+(?=[A-Z]|Q\d)|,\s*(?:and|but|while|which)\s+|\s+(?:but|while|whereas)\s+", masked)
    out: list[str] = []
    for part in parts:
        pieces = re.split(r"(\s+and\s+|,\s+)", part)
        current, n = pieces[0], 1
        while n < len(pieces):
            piece = pieces[n + 1]
            # "The popup closes and Jane Smith, jane@smith.com, xxxxxxx is added": a list of names runs on to
            # the verb it is the subject of
            run = next((k for k in range(n + 1, len(pieces), 2) if re.search(VERB, pieces[k])), None)
            if re.search(VERB, current) and not re.search(VERB, piece) and run is not None and \
                    re.match(r"\s*(?:Q\d+Q|[A-Z0-9])", piece) and not re.match(r"\s*(?:the|a|an|it|its)\b", pieces[run], re.I):
                out.append(current)
                current = "".join(pieces[n + 1:run + 1])
                n = run + 1
                continue
            if re.search(VERB, current) and re.search(VERB, piece):
                out.append(current)
                current = piece
            else:
                current = f"{current} and {piece}"
            n += 2
        out.append(current)
    return [c.strip() for c in out if c.strip()]


# Numbered things said to be in view: "the last row with days 29 and 30 is visible"
IN_VIEW = (r"\b(?:days?|numbers?|dates?|cells?|squares?|rows?|items?|lines?|steps?|pages?|questions?|levels?)\s+"
           r"(\d+(?:\s*(?:,|and|&)\s*\d+)*)\b[^;]*?\b(?:visible|in view|on screen|can be seen|come into view)\b")


def _side_claims(low: str, names: tuple[str, ...]) -> list[Claim]:
    """Claims a clause makes besides what it says of its quoted texts: none checked, a numbered run,
    a count, a number read next to a word, numbered things in view."""
    out = []
    m = re.search(IN_VIEW, low)
    if m:
        out.append(Claim("in_view", tuple(re.findall(r"\d+", m.group(1)))))
    m = re.search(NOTHING_ADDED, low)
    if m:  # "nothing is added": no item, row or box more than before (a message may show)
        out.append(Claim("unchanged", how=m.group(1)))
    elif re.search(NOTHING, low):
        out.append(Claim("unchanged"))
    elif re.search(SAME, low):
        out.append(Claim("unchanged", how="part"))
    if re.search(NONE_CHECKED, low):
        out.append(Claim("none_checked"))
    m = re.search(RANGE, low)
    if m:
        out.append(Claim("range", (m.group(2),), number=int(m.group(1))))
    m = re.search(NUMBERED, low)
    if m and not out:  # "Circles 1 to 3 are blue": those look alike, the other numbers do not
        out.append(Claim("numbered_alike", (m.group(1), m.group(2))))
    m = re.search(LAST, low)
    if m and not out:
        out.append(Claim("range", (m.group(1),)))  # "the last day box is 30": a run that ends there
    m = re.search(COUNT, low)
    said = m and (re.search(r"\b(there (?:are|is)|holds?|has|have|shows?|lists?|with|contains?|now|only|leaving|leaves)\s+"
                            r"(?:[a-z]+\s+)?$",
                            low[:m.start()]) or re.match(r"\s*(?:are|is)?\s*(?:left|listed|shown|remaining|displayed|remain)\b",
                                                         low[m.end():]))
    readings = bool(names) and all(re.fullmatch(r"-?\$?\d[\d.,]*%? [a-z ]+", x) for x in names)
    if said and not out and readings:  # "shows 21 characters, 4 words, with 3 spaces": one more reading
        out.append(Claim("shown", (f"{m.group(1)} {m.group(2)}",), display=True))
    elif said and not out:  # with names, the list holding them has that many: "Two products are shown: 'A', 'B'"
        n = m.group(1)
        out.append(Claim("count", (m.group(2), *names), number=int(n) if n.isdigit() else NUMBERS[n]))
    counted = {str(c.number) for c in out if c.kind == "count"}
    pairs = re.findall(READINGS_LIST, low)
    if len(pairs) >= 2 and not names:  # "Character Count is now 26, Word Count 5, Sentences 2": each at its label
        out += [Claim("reads", (w, n), fresh=not re.search(STILL, low)) for w, n in pairs if w not in STOP_LABELS]
        return out
    # every reading the clause says, in order ("the score jumps from 4 to 20 and the current box is 0 again");
    # 'the chart shows 14 daily points' is the count above
    found = sorted([*re.finditer(READS, low), *re.finditer(CHANGE, low)], key=lambda x: x.start())
    for m in [m for n, m in enumerate(found) if not any(o.start() <= m.start() < o.end() for o in found[:n])]:
        if re.match(r"\s+holds\b", low[m.end(1):]) and re.match(r"\s*[a-z]", low[m.end():]):
            continue  # "the board holds 2 Xs" counts things; "the amount box holds -45" reads a value
        label = _label(low, m, names)
        # beside names, a reading said after all of them: "'Pay rent' is left and the count drops back to 2"
        apart = not names or m.start(1) > max((q.end() for q in re.finditer(r"q\d+q", low)), default=-1)
        if apart and label is not None and m.group(2) not in counted:
            out.append(Claim("reads", (label, m.group(2)), fresh=not re.search(STILL, low)))
    read = {c.texts[1] for c in out if c.kind == "reads"}
    out += [Claim("shown", (r,), fresh=not re.search(STILL, low), display=True)
            for r in dict.fromkeys(re.findall(READING, low)) if r not in read and not names]
    return out


def _label(low: str, m: re.Match, names: tuple[str, ...] = ()) -> str | None:
    """The word a reading is labelled by: the word before a kind word ('the amount field'), or the name
    before it ("the 'Amount' box"), else the word itself; None for a word that names nothing ('it', 'there')."""
    word = m.group(1)
    named = re.search(r"\bq(\d+)q\s*$", low[:m.start(1)])
    if word in KIND_WORDS and named and len(re.findall(r"\bq\d+q", low[:m.start(1)])) <= len(names):
        return names[len(re.findall(r"\bq\d+q", low[:m.start(1)])) - 1].lower()
    if word in KIND_WORDS:
        before = re.findall(r"[a-z]+", low[:m.start(1)])
        word = before[-1] if before and before[-1] not in ("the", "a", "an", "this", "that", "its", "their") else word
        if word == "total":
            return word  # "the total is 5": the page's Total
        if word in LOOKS or word in KIND_WORDS:  # "the (empty) box shows 1": the box the annotator means, by
            return ""  # how it looked or by its kind, not by what labels it
    if word in PRONOUNS:  # "it is back to 25": the number, where it shows
        return ""
    return None if word in STOP_LABELS or word in KIND_WORDS else word


# Where named things sit: "'Milk' is added under 'Eggs'", "'Apples' is now at the top", "..., in that order".
ORDER = re.compile(r"q(\d+)q\b[^;]*?\b(below|under|underneath|beneath|above)\s+(?:the\s+)?q(\d+)q")
EDGE = re.compile(r"q(\d+)q\b[^;]*?\b(?:at the (top|bottom)|as the (first|last|top|bottom) (?:row|item|entry|line|one|todo|task)|"
                  r"(?:is|comes) (?:now )?(first|last))\b")
# A named switch on or off: "'Fast' switches on", "'Good' and 'Cheap' are both switched on", "which turns 'Good' off"
ON_OFF = (r"\b(?:switch(?:es|ed)?|turns?|turned|flips?|flipped|goes|went|comes?|came|is|are|stays?|remains?|"
          r"toggles?|toggled|back|now|still|both|again)\s+(on|off)\b(?!\s+(?:the|a|an|its|their|top|screen|page|list|it|to)\b)")
ON_OFF_OBJECT = r"\b(?:switch(?:es|ed)?|turns?|turned|flips?|flipped|toggles?|toggled)\s+q(\d+)q\s+(on|off)\b"


def _order_claims(low: str, quotes: list[str]) -> list[Claim]:
    m = ORDER.search(low)
    if m:
        how = "above" if m.group(2) == "above" else "below"
        return [Claim("order", (quotes[int(m.group(1))], quotes[int(m.group(3))]), how=how)]
    m = EDGE.search(low)
    if m:
        edge = next(g for g in m.groups()[1:] if g)
        return [Claim("order", (quotes[int(m.group(1))],), how="first" if edge in ("top", "first") else "last")]
    named = [quotes[int(n)] for n in re.findall(r"q(\d+)q", low)]
    if re.search(r"\bin (?:that|this|the same) order\b", low) and len(named) >= 2:
        return [Claim("order", tuple(named), how="sequence")]
    return []


def _switch_claims(low: str, quotes: list[str]) -> list[Claim]:
    """A named switch turned on or off (the names before the words 'on'/'off', or after 'turns ... off')."""
    m = re.search(ON_OFF_OBJECT, low)
    if m:
        return [Claim("checked", (quotes[int(m.group(1))],), negated=m.group(2) == "off")]
    out, start = [], 0
    for m in re.finditer(ON_OFF, low):  # "'Fast' switches on and 'Cheap' flips back off": each its own
        named = tuple(quotes[int(n)] for n in re.findall(r"q(\d+)q", low[start:m.start()]))
        out += [Claim("checked", named, negated=m.group(1) == "off")] if named else []
        start = m.end()
    return out


def _clause_claims(clause: str, quotes: list[str], typed: str | None) -> list[Claim]:
    # what a value was ('drops from Q to Q', 'instead of Q') is no claim about what the page shows now
    clause = re.sub(r"\b(from|instead of|rather than|in place of|replacing)\s+Q\d+Q", r"\1 it", clause)
    swap = re.search(r"Q(\d+)Q[^;]*?\b(?:is|are|gets?)\s+replaced\s+(?:by|with)\s+(?:[a-z]+\s+){0,2}?Q(\d+)Q", clause)
    if swap:  # "the 'A' hint is replaced by a red 'B'": A went, B is shown
        gone, new = quotes[int(swap.group(1))], quotes[int(swap.group(2))]
        rest = clause[:swap.start()] + clause[swap.end():]
        return [Claim("absent", (gone,)), Claim("shown", (new,))] + (_clause_claims(rest, quotes, typed) if "Q" in rest else [])
    qs = tuple(quotes[int(n)] for n in re.findall(r"Q(\d+)Q", clause))
    # "the arrow by 'Last Name' is gone": what went is the arrow, not the name the sentence places it by
    placed = {quotes[int(n)] for n in re.findall(rf"\bthe [a-z]+(?: [a-z]+)? {PLACED}\s+(?:the\s+)?Q(\d+)Q", clause, re.I)}
    # "is now dark purple with the 'QUnit' logo on it": what it is shown with is not what turns purple
    placed |= {quotes[int(n)] for n in re.findall(r"\bwith\s+(?:the\s+|a\s+|an\s+|its\s+)?Q(\d+)Q", clause, re.I)}
    # "the 'Amount' box shows 200": the name labels the box read, it is no text said to appear
    labels = {quotes[int(n)] for n in re.findall(rf"Q(\d+)Q\s+(?:{'|'.join(KIND_WORDS)})\s+(?:now\s+|still\s+)?"
                                                 r"(?:reads|shows|says|displays|holds|is)\s+-?\$?\d", clause, re.I)}
    low = re.sub(r"Q\d+Q", " Q ", clause.lower())
    switched = _switch_claims(low, quotes)
    return (switched or _main_claims(low, qs, typed, placed | labels, labels)) + _order_claims(low, quotes) + _side_claims(low, qs)


PLACED = r"(?:by|next to|beside|near|on|in|under|above|below|behind|in front of|of|for)"


def _main_claims(low: str, qs: tuple[str, ...], typed: str | None, placed: set = frozenset(),
                 labels: set = frozenset()) -> list[Claim]:
    if qs and re.search(r"\bempty (?:apart from|except(?: for)?|but for|save for)\b", low):
        return [Claim("shown", qs), Claim("count", ("items",), number=0)]  # the message, and no items
    if re.search(r"\b(url|address bar|navigates? to|goes to the page)\b", low) and qs:
        return [Claim("url", qs)]
    if re.search(KEPT_OPEN, low) or re.search(rf"\b{CONTAINER}\b", low) and re.search(
            r"\b(?:stays?|remains?|is still|are still)\s+(?:visible|shown|up)\b|\bdoes not (?:go away|disappear)\b", low):
        return [Claim("closed", qs, negated=True)]
    if re.search(rf"\b{CONTAINER}\b", low) and re.search(CLOSES, low):
        return [Claim("closed", qs)]
    if re.search(STRUCK, low):  # "the line through X goes away" takes the strike away
        return [Claim("struck", qs, negated=bool(re.search(r"\b(no longer|not|no|un-?struck)\b", low) or re.search(GONE, low)),
                      fresh=not re.search(STILL, low), exclusive=bool(re.search(r"\bonly\b", low)))]
    if re.search(FOCUS, low):  # "the focus moves down to the next row's checkbox": where the keyboard is now
        # "the Instruments played field gets the focus": unquoted, the words before the kind name the field
        named = re.search(r"\bthe ((?:[a-z]+ ){1,4}?)(?:field|box|input|checkbox|button|link|area|textarea|menu)\b", low)
        said = named.group(1).strip() if named and not qs else ""
        if qs or said in ("", "next", "first", "last", "same", "new"):
            return [Claim("focused", qs)]
        return [Claim("focused", (said,), how="words")]
    m = re.search(CHECKED, low)
    if m and not qs and re.search(UNTICKED_STILL, low):  # "that row is not ticked", "nothing new is ticked": no box
        return [Claim("checked", (), negated=True, how="stays")]  # turned on; none need turn off
    if m and not re.search(r"\b(check|checks)\b", low):
        off = bool(m.group(1)) or bool(re.search(r"\b(off|no longer|not)\b", low))
        return [Claim("checked", qs, negated=off, fresh=not re.search(STILL, low))]
    if re.search(DISABLED, low) and (qs or re.search(r"\b(?:is|are|gets?|becomes?|turns?)\s+(?:now\s+)?(?:greyed|grayed|disabled)\b", low)):
        return [Claim("enabled", qs, negated=True)]  # "the spinner is greyed out": some control is, now
    if re.search(ENABLED, low) and qs:
        return [Claim("enabled", qs)]
    if re.search(SELECTED, low) and qs and not re.search(r"\bselected (?:items?|rows?|files?)\b", low):
        return [Claim("selected", qs, exclusive=bool(re.search(r"\bonly\b", low)))]
    m = re.search(STYLED, low)
    if m:  # "X is red" says how it looks now, "X turns red" what the action changed
        state = re.search(rf"\b(?:is|are|stays?|remains?)\s+(?:still\s+)?(?:dark |light |bright |pale )?{m.group(1)}\b", low)
        # going grey is a change the pixels show (a switch turned off); being grey says too little
        hue = m.group(1) in HUES or m.group(1) in ("grey", "gray") and not state and bool(
            re.search(r"\bq\d*q\s+(?:[a-z]+\s+)?(?:turns?|goes|went|becomes?)\s+(?:grey|gray)\b", low)
            or not qs and re.search(r"\b(?:turns?|goes|went|becomes?)\s+(?:grey|gray)\b", low))
        return [Claim("styled", tuple(q for q in qs if q not in placed), colour=m.group(1) if hue else None, fresh=not state)]
    if re.search(r"\bonly\b", low) and qs:
        return [Claim("only", qs)]
    if re.search(GONE, low) and (qs or re.search(CONTAINER, low)):
        if qs and set(qs) <= placed:  # only something placed by the names went: the words do not decide it
            return []
        return [Claim("absent", qs)] if qs else [Claim("closed", ())]
    if re.search(rf"\b{CONTAINER}\b", low) and re.search(OPENS, low):
        return [Claim("opened", qs)]
    if re.search(SELECTED, low) and qs and not re.search(r"\bselected (?:items?|rows?|files?)\b", low):
        return [Claim("selected", qs)]
    if re.search(EMPTY, low):  # "all four fields are cleared": every one of them
        said = re.search(r"\b(all|every|each|both)\b(?:\s+(?:the\s+)?(\d+|" + "|".join(NUMBERS) + r")\b)?", low)
        n = said.group(2) if said else None
        number = (int(n) if n.isdigit() else NUMBERS[n]) if n else 2 if said and said.group(1) == "both" else None
        return [Claim("empty", qs, exclusive=bool(said), number=number)]
    if qs:
        # "Player 2 rolls a 1", "the turn passes back to Player 1": a name in a clause with no verb of showing or
        # changing is there to be seen; that it changed is not said
        still = bool(re.search(STILL, low)) or not re.search(SHOWING, low)
        display = bool(re.search(DISPLAY, low)) and not re.search(CONTROL_WORDS, low)
        return [Claim("shown", (q,), fresh=not still, display=display) for q in qs if q not in labels]
    if typed and re.search(TYPED, low):
        return [Claim("shown", (typed,), fresh=False)]
    return []


def compile_sentence(sentence: str, typed: str | None = None, names=()) -> list[Claim]:
    """The claims of an assertion; [Claim('changed')] when nothing in it is decidable. `names`: the
    texts the page shows and the task names, which the sentence may use unquoted (sentence_names.py)."""
    return compile_clauses(sentence, typed, names)[0]


def compile_clauses(sentence: str, typed: str | None = None, names=()) -> tuple[list[Claim], list[str]]:
    """The claims of an assertion, and the clauses of three words or more that gave none ("the account is
    not created"): what the words alone leave to the recording."""
    sentence = ground_names(quote_read_words(spelled_out(sentence or "")), names)
    # "Milk is removed, leaving Eggs and Apples": what is left is still shown, a claim of its own
    sentence = quote_names(re.sub(r",?\s+(?:leaving|leaves)\s+(?=(?:only\s+)?['\"A-Z])", "; still shown: ", sentence or ""))
    quotes = [next(g for g in m.groups() if g) for m in QUOTE_RE.finditer(sentence)]
    masked = sentence
    for n, m in enumerate(QUOTE_RE.finditer(sentence)):
        masked = masked.replace(m.group(0), f"Q{n}Q", 1)
    clauses = _clauses(masked)
    each = [_clause_claims(clause, quotes, typed) for clause in clauses]
    claims = [c for got in each for c in got]
    if len(clauses) > 1:  # a part stays the same beside what the sentence says of the rest
        claims = [c for c in claims if c.how != "part"]
    unsaid = [re.sub(r"Q(\d+)Q", lambda m: f"'{quotes[int(m.group(1))]}'", clause) for clause, got in zip(clauses, each)
              if not got and len(re.findall(r"[A-Za-z]+", clause)) >= 3]
    return (claims, unsaid) if claims else ([Claim("changed")], [])
