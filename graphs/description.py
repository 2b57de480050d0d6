"""Reading an action description the way a careful person does, into a `Query` the grounder scores.

"Click the round checkbox to the left of 'buy milk'" names a kind (checkbox), a relation (left of)
and an anchor ('buy milk'): the anchor is where to look, not the target's own label. Pure text
processing; nothing here sees the page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from iwr.tasks.names import WORD_RE, norm, stem, words_of  # noqa: F401  (the grounder's words, shared with the browser)

# A single quote opens after no letter and closes before none: "Okonkwo's songs" holds no quote, 'Don't' does.
QUOTE_RE = re.compile(r"(?<!\w)'((?:[^']|'(?=\w))+?)'(?!\w)|\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’")
SYMBOLS = "+−-–×x*÷/=❯❮›‹»«✓✔✕✖✗☆★♥♡⋯…←→↑↓<>▶◀▲▼☰⚙%.,?!#@&$€£"
SYMBOL_RE = re.compile(r"(?:^|\s)([+−–×÷=❯❮›‹»«✓✔✕✖✗☆★♥♡⋯…←→↑↓<>▶◀▲▼☰⚙])(?=\s|$)")
SYMBOL_WORDS = {"plus": "+", "minus": "−-–", "times": "×*x", "multiply": "×*x", "multiplication": "×*x",
                "divide": "÷/", "division": "÷/", "equals": "=", "equal": "=", "percent": "%",
                "decimal point": ".", "decimal": ".", "heart": "♥♡❤", "star": "★☆", "checkmark": "✓✔",
                "tick": "✓✔", "cross": "×✕✖✗x", "ellipsis": "⋯…"}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "last": -1}
ORDINAL_RE = re.compile(r"\bthe\s+(?:very\s+)?(?:(\d+)(?:st|nd|rd|th)|(" + "|".join(ORDINALS) + r"))\b")
NOUN_END = {"to", "in", "on", "of", "from", "at", "with", "and", "that", "which", "for", "so", "below", "above",
            "under", "next", "beside", "near", "inside", "after", "before", "again", "then", "once"}
# Role nouns: what kind of element the description names.
KINDS = {
    "button": "button", "btn": "button", "key": "button", "tab": "tab", "link": "link", "checkbox": "checkbox",
    "check box": "checkbox", "toggle": "checkbox", "switch": "checkbox", "radio": "radio", "field": "field",
    "input": "field", "textbox": "field", "text box": "field", "textarea": "field", "search box": "field",
    "box": "field", "search bar": "field", "dropdown": "dropdown", "drop-down": "dropdown", "select box": "dropdown",
    "select menu": "dropdown", "selector": "dropdown", "picker": "dropdown",
    "menu item": "menuitem", "image": "image", "thumbnail": "image", "picture": "image", "photo": "image",
    "img": "image", "icon": "icon", "option": "option", "card": "card", "item": "item", "entry": "item",
    "tile": "card", "arrow": "icon", "chevron": "icon", "caret": "icon",
}
# Kinds one types or clicks in, never a place that holds the target: "Type js in the 'user' box" names the box.
LEAF_KINDS = {"field", "button", "checkbox", "radio", "dropdown", "link"}
POINTERS = {"arrow", "chevron", "caret"}
KIND_RE = re.compile(r"\b(" + "|".join(sorted(KINDS, key=len, reverse=True)) + r")(?:s|es)?\b")
RELATIONS = [("left", r"(?:to the )?left (?:side )?of|on the left of"), ("right", r"(?:to the )?right (?:side )?of|on the right of"),
             ("above", r"above|over"), ("below", r"below|under(?:neath)?|beneath"),
             ("near", r"next to|beside|by|near|alongside|for|of|belonging to|on the same row as"),
             ("inside", r"inside|within|in|on")]
REGIONS = {"header": "header", "top bar": "header", "navbar": "nav", "navigation": "nav", "nav": "nav",
           "footer": "footer", "sidebar": "sidebar", "side bar": "sidebar", "dialog": "dialog", "modal": "dialog",
           "popup": "dialog", "pop-up": "dialog", "drawer": "dialog", "form": "form", "toolbar": "toolbar",
           "menu": "menu", "tab bar": "tabs"}
REGION_RE = re.compile(r"\b(?:in|inside|within|on|at|of)\s+the\s+(?:[a-z-]+\s+)?(" +
                       "|".join(sorted(REGIONS, key=len, reverse=True)) + r")\b")
COLOURS = {"red": (0, 30), "orange": (25, 45), "yellow": (45, 70), "green": (75, 178), "teal": (160, 195),
           "blue": (190, 250), "purple": (250, 300), "violet": (250, 300), "pink": (300, 345),
           "grey": None, "gray": None, "black": None, "white": None, "dark": None}
COLOUR_RE = re.compile(r"\b(" + "|".join(COLOURS) + r")(?:-coloured|-colored)?\b")
PHRASAL = re.compile(r"^\s*(turn|switch|click|tap|press|log|sign|zoom|put|toggle|check|fill|type|write)\s+(?:on|in|off|out)\b")
CROSS_X = (r"\b(?:the|that|this)\s+(?:(?:small|little|tiny|red|grey|gray)\s+){0,2}[Xx](?![\w'\"-])"
           r"(?!\s+(?:to|score|wins?|turn|player)\b)")
JUST_RIGHT = r"\bright\s+(?:under|above|below|next|beside|behind|after|before|by|at|in|on|over|there|here)\b"
TOGGLING = r"\s*(?:(?:turn|switch|toggle|flip)\s+(?:on|off)\b|(?:tick|untick)\b)"
SIDE_OF_KIND = re.compile(r"\bthe\s+(left|right|middle|centre|center)(?:-hand|most|\s+hand)?\s+([a-z]+)\b")
V_WORDS = {"top": 0.0, "upper": 0.0, "middle": 0.5, "centre": 0.5, "center": 0.5, "bottom": 1.0, "lower": 1.0}
H_WORDS = {"left": 0.0, "middle": 0.5, "centre": 0.5, "center": 0.5, "right": 1.0}
POSITION_RE = re.compile(r"\b(top|upper|middle|centre|center|bottom|lower)[- ](left|right|middle|centre|center)\b|"
                         r"\b(?:the\s+)(centre|center|middle|central)\s+(?!of\b)[a-z]+")
LEADING_VERB = re.compile(r"^\s*(switch|toggle|check|select|pick|choose|open|close|turn|tick|untick|uncheck|press|"
                          r"tap|hit|click|type|enter|put|write|fill|set|change|flip|mark|drag|move|expand|collapse)\b")
STOP = {"new", "newly", "added", "newest", "latest", "by", "turn", "tick", "untick", "check", "uncheck", "set", "big", "small", "large", "little", "round", "tiny",
        "square", "shaped", "button", "buttons", "corner", "side", "edge", "top", "bottom", "left", "right", "upper", "lower", "centre",
        "center", "middle", "central", "the", "a", "an", "on", "in", "into", "onto", "inside", "under", "below", "above", "to", "of", "and", "click", "type", "press", "tap", "select",
        "choose", "pick", "hit", "it", "that", "this", "then", "with", "at", "for", "from", "its", "is", "one",
        "again", "now", "button", "link", "field", "box", "input", "icon", "enter", "open", "go", "use", "new"}


def quoted(text: str) -> list[str]:
    """Every quoted string in a text, in order."""
    return [next(g for g in m.groups() if g) for m in QUOTE_RE.finditer(text or "")]


@dataclass
class Relation:
    how: str  # left, right, above, below, near, inside
    anchor: str  # the quoted or plain phrase naming the anchor
    quoted: bool


@dataclass
class Query:
    """What a description says about its target."""

    phrases: list[str] = field(default_factory=list)  # quoted names of the target itself
    symbols: list[str] = field(default_factory=list)  # symbols the target shows ('+', '×', '❯')
    glyphs: list[str] = field(default_factory=list)  # symbols named by words ("plus", "star")
    words: set[str] = field(default_factory=set)  # other content words
    kinds: set[str] = field(default_factory=set)  # role nouns, normalised (button, checkbox, image...)
    ordinal: tuple[int, str] | None = None  # (n, noun); n = -1 for 'last'
    relation: Relation | None = None
    regions: set[str] = field(default_factory=set)
    colours: set[str] = field(default_factory=set)
    index: int | None = None  # the official data's element_index
    ordinal_mods: str = ""  # words between the ordinal and its noun ("the third 250 ml glass")
    line: tuple[str, int] | None = None  # ("row" | "column", n): "the first card in the second row"
    new: bool = False  # "the new card": what appeared since the previous action
    size: str | None = None  # big or small: among near-equal matches, the largest or smallest
    position: tuple[float, float] | None = None  # (x, y) in 0..1 within a grid or kind: top-left (0, 0), centre (.5, .5)
    typing: bool = False
    alone: bool = False  # "the lone button underneath": the one of its kind with no peer in its row
    square: bool = False  # "the square button", "the round button": about as wide as high
    kind_by_verb: bool = False  # "Turn on shuffle": the kind is the verb's guess, not a word naming it

    def says_something(self) -> bool:
        return bool(self.phrases or self.symbols or self.words or self.kinds or self.ordinal or self.relation
                    or self.position)


def type_text_of(description: str, explicit: str | None) -> str | None:
    """The text a Type action enters: its `text` parameter, else the first quoted string."""
    if explicit:
        return explicit
    q = quoted(description)
    return q[0] if q else None


def clears_first(description: str) -> bool:
    """Whether a Type replaces what the field holds ("Change the guess to '50'") rather than adds to it."""
    return bool(re.search(r"\b(change|changes|replace|overwrite|clear|instead|update|edit|correct|set|retype|re-type|re-enter|reenter|redo)\b",
                          (description or "").lower()))


def _is_symbol(s: str) -> bool:
    return bool(s.strip()) and not norm(s) or (len(s.strip()) == 1 and s.strip() in SYMBOLS)


def _relation(masked: str, quotes: list[str]) -> tuple[Relation | None, str]:
    """The first relation phrase followed by an anchor; and the description with it removed."""
    for how, pattern in RELATIONS:
        # the anchor's own kind word goes with it: "at the right end of the Salary entry" names no entry
        m = re.search(rf"\b(?:{pattern})\s+(?:the\s+)?(?:(?:[a-z-]+\s+){{0,3}}?(?:[a-z-]+,\s+)?)?(Q(\d+)Q)(?:\s+(?:{KIND_RE.pattern}|"
                      rf"(?:row|line|column|section|panel|area)s?\b))?", masked)
        leaf = how == "inside" and KINDS.get(m.group(3) or "") in LEAF_KINDS if m else False
        if m and not leaf and (how != "inside" or not re.search(r"\b(?:in|on)\s+the\s*$", masked[:m.start()])):
            return Relation(how, quotes[int(m.group(2))], True), masked[:m.start()] + masked[m.end():]
    for how, pattern in RELATIONS[:4]:  # an unquoted anchor only after an unambiguous relation word
        m = re.search(rf"\b(?:{pattern})\s+(?:the\s+)?([a-z0-9][a-z0-9 -]{{1,40}}?)"
                      rf"(?=[,.;]|\s(?:to|so|and|for|which|that|then|in order)\s|$)", masked)
        if m:  # what follows the anchor ("to mark all as complete") still describes the target
            return Relation(how, m.group(1).strip(), False), masked[:m.start()] + " " + masked[m.end():]
    return None, masked


# A name a person writes without quotes: capitalised past the description's first word ("Tap Pack lunch",
# "Pick Meat in the category dropdown", "Tick the Musician checkbox"), running on in lower-case words
# that are no kind, link or place words.
NAME_STOP = (r"(?:a|an|the|and|or|to|in|into|on|of|at|for|from|with|without|by|next|again|once|twice|time|"
             r"times|second|now|then|so|that|which|as|back|off|up|down|title|heading|header|footer|panel|bar|area|section|word|text|button|buttons|switch|toggle|checkbox|box|field|input|dropdown|"
             r"menu|link|tab|icon|key|option|card|row|item|entry|tile|image|thumbnail|picture|label|list|"
             r"above|below|under|beside|near|left|right|top|bottom|it|its|is|are|to)")
NAME_STOP = NAME_STOP[:-1] + "|" + "|".join(k for k in KINDS if " " not in k) + ")"  # every kind word ends a name
BARE_NAME = re.compile(rf"(?<=\s)([A-Z][\w'&+-]*(?:\s+(?!{NAME_STOP}s?\b(?!\s+\d))[A-Za-z0-9][\w'&-]*){{0,2}})(?=[\s,.;:!?]|$)")


def quote_bare_names(description: str, outside: bool = False) -> str:
    """The description with its unquoted names quoted (only when it quotes nothing itself, or with `outside`,
    also beside what it quotes: "Under '2.) Select a shape', click Square" names Square)."""
    if not description.strip() or QUOTE_RE.search(description) and not outside:
        return description
    first = re.match(r"\s*\S+", description).end()
    out, last = [description[:first]], first
    for m in list(QUOTE_RE.finditer(description)) + [None]:
        start, end = (m.start(), m.end()) if m else (len(description), len(description))
        if start >= last:
            out.append(BARE_NAME.sub(  # a single letter is a player or a key, not a name; "I" a person
                lambda b: b.group(1) if len(b.group(1)) == 1 or b.group(1).split()[0] == "I" else f"'{b.group(1)}'",
                description[last:start]) + description[start:end])
            last = end
    return "".join(out)


HOVER_THEN = re.compile(r"^\s*(?:hover(?:\s+the\s+(?:mouse|pointer|cursor))?|move\s+the\s+(?:mouse|pointer|cursor))\s+"
                        r"(?:over|onto|on|across)\s+(.+?)\s*,?\s+(?:and\s+then|and|then)\s+((?:click|tap|press|hit)\b.*)$", re.I)


def clicked_after_hover(description: str) -> str:
    """"Hover over the Salary entry and click the red square at its right end": what is clicked is the
    target, and the hovered thing is where it is ("... at the right end of the Salary entry")."""
    m = HOVER_THEN.match(description)
    if m is None:
        return description
    where, then = m.group(1), m.group(2)
    if re.search(r"\bits\b", then):
        return re.sub(r"\bits\b", "the", then, count=1) + f" of {where}"
    if re.search(r"\bit\b", then):
        return re.sub(r"\bit\b", where, then, count=1)
    return f"{then} in {where}"


def parse(description: str, action_type: str, text: str | None = None, element_index: int | None = None,
          bare_names: bool = True) -> Query:
    """Read a description into a Query (with `bare_names`, its unquoted names read as quoted)."""
    description = quote_bare_names(description) if bare_names else description
    description = clicked_after_hover(description)
    # "Click 28, the last day of the month": the number a person clicks is its name; what follows says where
    description = re.sub(r"^(\s*(?:click|tap|pick|choose|select|press|hit)\s+(?:on\s+)?)(-?\d+(?:[.,]\d+)?)(?=\s*(?:,|$))",
                         r"\1'\2'", description, flags=re.I)
    q = Query(typing=action_type == "Type", index=element_index)
    quotes = quoted(description)
    typed = type_text_of(description, text) if q.typing else None
    masked = description
    for n, m in enumerate(QUOTE_RE.finditer(description)):
        masked = masked.replace(m.group(0), f"Q{n}Q", 1)
    masked = re.sub(r"q(\d+)q", r"Q\1Q", masked.lower())  # placeholders survive lowering
    masked = re.sub(PHRASAL, r"\1", masked)  # "turn on the switch" is not "inside the switch"
    masked = re.sub(r"^(\s*[a-z]+)\s+over\b", r"\1", masked)  # "Start over with 'New game'": nothing above it
    q.relation, rest = _relation(masked, quotes)
    own = [quotes[int(n)] for n in re.findall(r"Q(\d+)Q", rest)]
    if typed is not None and typed in own:
        own.remove(typed)
    q.symbols = [s.strip() for s in own if _is_symbol(s)]
    q.phrases = [s for s in own if not _is_symbol(s)]
    plain = re.sub(r"Q\d+Q", " ", LEADING_VERB.sub(" ", rest))  # "Switch the units to 'US'": a verb, not a switch
    q.symbols += SYMBOL_RE.findall(plain)
    if re.search(CROSS_X, re.sub(QUOTE_RE, " ", description)):  # "the X next to it": a cross (not "as player X")
        q.symbols += [x for x in ("X", "x") if x not in q.symbols]  # drawn either way
        q.glyphs += list(SYMBOL_WORDS["cross"])
    for word, chars in SYMBOL_WORDS.items():  # "the plus key": '+', but only as a weak alternative
        if re.search(rf"\b{word}s?\b", plain):
            q.glyphs += list(chars)
    q.regions = {REGIONS[m] for m in REGION_RE.findall(plain)}
    plain_kinds = re.sub(REGION_RE, " ", plain)
    q.kinds = {KINDS[m] for m in KIND_RE.findall(plain_kinds)}
    if not q.typing and not q.kinds and re.match(TOGGLING, description.lower()):  # "Turn on push notifications
        q.kinds, q.kind_by_verb = {"checkbox"}, True  # for 'Mentions'": what is turned on or ticked is a switch or a box
    q.colours = set(COLOUR_RE.findall(plain_kinds))  # "close in the corner of the pink header": the header is pink
    q.new = bool(re.search(r"\b(new|newly added|just added|newest|latest|added)\s+(?:[a-z-]+\s+)?[a-z]+", plain))
    sm = re.search(r"\b(big|bigger|biggest|large|larger|largest|huge|small|smaller|smallest|little|tiny)\b", plain)
    q.size = None if not sm else "small" if sm.group(1) in ("small", "smaller", "smallest", "little", "tiny") else "big"
    lm = re.search(r"\b(?:in|on|of|from)\s+the\s+(?:(\d+)(?:st|nd|rd|th)|(" + "|".join(ORDINALS) + r")|"
                   r"(top|bottom|middle|centre|center|left|right|front|back|rear))\s+(row|column|line)\b", plain)
    if lm:  # a theatre's front row is the one nearest the screen: the first a person reads
        word = lm.group(3)
        n = int(lm.group(1)) if lm.group(1) else ORDINALS.get(lm.group(2)) or {
            "top": 1, "left": 1, "front": 1, "bottom": -1, "right": -1, "back": -1, "rear": -1}.get(word, 0)
        q.line = ("column" if lm.group(4) == "column" else "row", n)  # n = 0: the middle one
        plain = plain[:lm.start()] + plain[lm.end():]
        hm = re.search(r"\b(left|right|middle|centre|center)(?:most)?\b", plain)
        if hm and hm.group(0) == "right" and re.search(JUST_RIGHT, masked):
            hm = None  # "the one right under the screen": 'right' as in 'just', not a side
        if hm and not q.position:
            q.position = (H_WORDS.get(hm.group(1), 0.5), -1.0)  # y < 0: along the chosen line only
    q.square = bool(re.search(r"\b(?:square|round|circular)\s+(?:[a-z]+\s+)?(?:button|icon|key|tile)s?\b", plain))
    lone = re.search(r"\bthe\s+(?:lone|solitary|single)\s+([a-z]+)\b", plain)
    q.alone = bool(lone and lone.group(1) in KINDS)
    sd = None if lm or q.position else SIDE_OF_KIND.search(plain)
    if sd and sd.group(2) in KINDS and sd.group(2) not in POINTERS:  # "the left-hand button", "the middle button":
        # a place along their row ("the right arrow" points right)
        q.position = (H_WORDS[sd.group(1)], -1.0)
        plain_kinds = plain_kinds.replace(sd.group(0), f" {sd.group(2)} ")
    pm = POSITION_RE.search(plain)
    vm, hm = re.search(r"\b(?:at|along|near|across) the (top|bottom)\b", plain), \
        re.search(r"\b(?:on|at|to) the (left|right)\b(?! of)|\bin the (middle|centre|center)\b(?! of)", plain)
    if pm and pm.group(1) and not q.position:
        q.position = (H_WORDS[pm.group(2)], V_WORDS[pm.group(1)])
    elif vm and hm and not q.position:  # "the photo in the middle at the top"
        q.position = (H_WORDS[hm.group(1) or hm.group(2)], V_WORDS[vm.group(1)])
    elif pm and not q.position:
        q.position = (0.5, 0.5)
    m = ORDINAL_RE.search(plain)
    if m:
        phrase = []
        for w in plain[m.end():].split()[:5]:
            word = w.strip(",.;:!?")
            if not word or word in NOUN_END:
                break
            phrase.append(word)
            if word != w or word in KINDS:
                break
        if phrase:
            q.ordinal = (int(m.group(1)) if m.group(1) else ORDINALS[m.group(2)], KINDS.get(phrase[-1], stem(phrase[-1])))
            q.ordinal_mods = " ".join(phrase[:-1])
        elif m.group(1) and not q.phrases:  # "Pick the 14th": a day of a calendar, named by its number
            q.phrases.append(m.group(1))
    content = words_of(re.sub(r"\bnext\s+to\b", " ", plain_kinds)) - STOP - set(ORDINALS) - set(KINDS) - set(COLOURS) - words_of(" ".join(SYMBOL_WORDS))
    if typed and typed not in quotes:  # "Enter 500 as the amount": what is typed is no name of the field
        content -= words_of(typed.lower()) - words_of(re.sub(re.escape(typed.lower()), " ", plain_kinds, count=1))
    q.words = {w for w in content if (len(w) > 2 or w.isdigit()) and not re.fullmatch(r"\d+(st|nd|rd|th)", w)}
    return q
