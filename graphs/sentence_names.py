"""The names a sentence uses without quotes, found where a person finds them: on the page and in the task.

"Call the bank is added below Buy bread" names two to-dos; a reader knows because the page lists them
(or because the task typed them). Such a name is quoted before the sentence is compiled, so what is
said of it is checked of it: `ground_names(sentence, names)` with the page's texts and the task's own
words (`task_names`). Pure text processing.
"""
from __future__ import annotations

import re

from iwr.graphs.description import QUOTE_RE, quoted, type_text_of

# Single capitalised words that open or link a sentence, never a name on their own.
COMMON = {"the", "a", "an", "it", "its", "this", "that", "these", "those", "only", "both", "no", "now", "all",
          "and", "or", "but", "then", "one", "two", "three", "four", "five", "six", "each", "every", "there",
          "nothing", "none", "after", "before", "again", "yes", "ok", "on", "off", "in", "out", "up", "down"}
# 'Score reads 4' is a reading next to a word, not the word shown
# 'Tab Title 2', 'Menu item 4': a name that runs on with a number or a capitalised word is a longer name
RUNS_ON = re.compile(r"\s+(?:\d+|[A-Z][a-z]*)(?![\w.,:/%$])(?!\s+(?:and|or)\b)")
READING_AFTER = re.compile(r"\s+(?:now\s+|still\s+)?(?:reads|shows|is|says|displays|becomes|stays at|goes to|"
                           r"changes to|drops to|rises to)\s+(?:back to\s+|at\s+|now\s+)?-?\$?\d")


def nameable(text: str) -> bool:
    """Whether a page's or task's text can be a name in a sentence: words with letters in them (a whole row's
    words, 'Everything in between should also be set to checked', are a name when written out whole)."""
    words = text.split()
    return (3 <= len(text) <= 80 and 1 <= len(words) <= 12 and sum(c.isalpha() for c in text) >= 3
            and not (len(words) == 1 and (not text[0].isupper() or text.lower() in COMMON)))


def task_names(actions: list[dict]) -> tuple[str, ...]:
    """The words a task itself names: what its actions type, and what its descriptions and sentences quote."""
    out = []
    for a in actions:
        params = a.get("parameters") or {}
        if a.get("type") == "Type":
            out.append(type_text_of(params.get("description", ""), params.get("text")) or "")
        out += quoted(params.get("description", "")) + quoted(a.get("logical_assertion") or "")
    return tuple(dict.fromkeys(n for n in out if n))


def ground_names(sentence: str, names) -> str:
    """The sentence with the unquoted names it shares with `names` quoted, longest first. Several words
    match whatever the case of all but the first letter; a single word must be written as the name is
    (a capital: 'Good')."""
    candidates = sorted({" ".join(n.split()) for n in names if n and nameable(" ".join(n.split()))},
                        key=len, reverse=True)
    taken = [m.span() for m in QUOTE_RE.finditer(sentence)]
    hits: list[tuple[int, int]] = []
    for name in candidates:
        flags = 0 if len(name.split()) == 1 else re.IGNORECASE
        for m in re.finditer(rf"(?<![\w'\"]){re.escape(name)}(?![\w'\"])", sentence, flags):
            s, e = m.span()
            if any(s < b and a < e for a, b in taken + hits) or READING_AFTER.match(sentence[e:]) or \
                    RUNS_ON.match(sentence[e:]) and not READING_AFTER.match(sentence[e:]) or \
                    sentence[s] != name[0]:  # 'no suggestions are shown' says none are, whatever a page calls 'No suggestions'
                continue
            hits.append((s, e))
    for s, e in sorted(hits, reverse=True):
        sentence = f"{sentence[:s]}'{sentence[s:e]}'{sentence[e:]}"
    return sentence


# "the message No results to display! appears": the words a message shows, unquoted, up to its verb
MESSAGE = re.compile(r"\b((?:the |a )?(?:message|text|notice|error|banner|caption|heading|title)\s+)"
                     r"([A-Z][^;,'\"]*?[.!?]?)(?=\s+(?:appears?|is shown|shows up|comes up|pops up|is displayed)\b)")

# "the line under the seats reads You have selected 1 seats for a price of $10": the words it reads, whole
# (a run of three words or more, no list: "it says Your Score -1, Rock VS Paper and You Lose" names three)
READS_TEXT = re.compile(r"\b((?:reads|says)\s+)([A-Z](?:[^;,'\"](?!\band\b))*?)(?=[.!?]?\s*(?:[;.]\s|[;.]?$))")


READS_LIST = re.compile(r"\b((?:reads|says|shows)\s+)([A-Z][^;'\"]*?(?:,|\band\b)[^;'\"]*?)(?=[.!?]?\s*(?:[;.]\s|[;.]?$))")
# "a red message under each: Username must be at least 3 characters, Email is not valid and Password2 is
# required": after a colon that follows messages, each entry is a message, shown whole
MESSAGES_LIST = re.compile(r"(\b(?:messages?|errors?|warnings?|texts?|notes?|hints?)\b[^:;'\"]{0,40}:\s+)"
                           r"([A-Z][^;'\"]*?(?:,|\band\b)[^;'\"]*?)(?=[.!?]?\s*(?:[;.]\s|[;.]?$))")


def _quote_read_text(m: re.Match) -> str:
    return f"{m.group(1)}'{m.group(2)}'" if len(m.group(2).split()) >= 3 else m.group(0)


def _quote_read_list(m: re.Match, clauses: bool = True) -> str:
    """"it says Your Score -1, Rock VS Paper and You Lose": three texts it shows, each quoted. With
    `clauses`, an item that goes on with a verb of its own ("... and Mark all as complete is unchecked
    again") ends the list: it says something of a text, it is not one."""
    items = [i.strip() for i in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group(2)) if i.strip()]
    said = next((k for k, i in enumerate(items) if k and clauses and CLAUSE.search(i)), len(items))
    if said == 1 and len(items) > 1:
        return f"{m.group(1)}'{items[0]}' and {', '.join(items[1:])}"
    texts = items[:said]
    if len(texts) < 2 or not all(re.match(r"[A-Z0-9$-]", i) for i in texts):
        return m.group(0)
    rest = f" and {', '.join(items[said:])}" if items[said:] else ""
    return m.group(1) + ", ".join(f"'{i}'" for i in texts[:-1]) + f" and '{texts[-1]}'" + rest


# a verb of its own after a name: "Mark all as complete is unchecked again"
CLAUSE = re.compile(r"\s(?:is|are|gets?|turns?|becomes?|goes|stays?|remains?|was|were|has|have)\s+"
                    r"(?:now\s+|still\s+|not\s+|no longer\s+)?[a-z]")


def quote_read_words(sentence: str) -> str:
    """The sentence with the words a message or a reading shows quoted ("the message No results to
    display! appears", "it says Your Score -1, Rock VS Paper and You Lose")."""
    sentence = READS_TEXT.sub(_quote_read_text, MESSAGE.sub(lambda m: f"{m.group(1)}'{m.group(2)}'", sentence))
    sentence = MESSAGES_LIST.sub(lambda m: _quote_read_list(m, clauses=False), sentence)
    return READS_LIST.sub(_quote_read_list, sentence)


# Contractions a person writes, said out so the rules read one form: "it's back to 25", "doesn't change"
SPELLED = ((re.compile(r"\b(it|that|there|here|what|who|he|she)['’]s\b", re.I), r"\1 is"),
           (re.compile(r"\b(can)['’]t\b", re.I), r"\1not"), (re.compile(r"\b(w)on['’]t\b", re.I), r"\1ill not"),
           (re.compile(r"\b([a-z]+)n['’]t\b", re.I), r"\1 not"), (re.compile(r"\b([a-z]+)['’]re\b", re.I), r"\1 are"),
           (re.compile(r"\b([a-z]+)['’]ll\b", re.I), r"\1 will"), (re.compile(r"\b([a-z]+)['’]ve\b", re.I), r"\1 have"))


def spelled_out(sentence: str) -> str:
    """The sentence with its contractions written out, outside what it quotes."""
    parts, at = [], 0
    for q in QUOTE_RE.finditer(sentence):
        parts += [sentence[at:q.start()], q.group(0)]
        at = q.end()
    parts.append(sentence[at:])
    for n in range(0, len(parts), 2):
        for pat, repl in SPELLED:
            parts[n] = pat.sub(repl, parts[n])
    return "".join(parts)
