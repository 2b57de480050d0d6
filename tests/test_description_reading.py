"""Reading descriptions and assertions without a page: what the offline judge takes from the words."""
from __future__ import annotations

from iwr.graphs.description import clears_first, parse
from iwr.graphs.grounding import key_for, match_description
from iwr.graphs.sentences import compile_sentence


def el(ref: int, name: str, role: str = "button", tag: str = "button", bbox=(0, 0, 40, 20), **kw) -> dict:
    return {"ref": ref, "name": name, "text": name, "role": role, "tag": tag, "bbox": list(bbox), "css": f"#e{ref}", **kw}


def kinds_of(sentence: str) -> list[tuple[str, tuple]]:
    return [(c.kind, c.texts) for c in compile_sentence(sentence)]


def test_a_relation_makes_its_quote_an_anchor_not_a_name():
    q = parse("Click the round checkbox to the left of 'buy milk'", "Click")
    assert q.kinds == {"checkbox"} and q.phrases == []
    assert (q.relation.how, q.relation.anchor) == ("left", "buy milk")
    assert parse("Turn on the 'Push' switch", "Click").relation is None  # a phrasal verb, not "inside"


def test_ordinals_rows_positions_and_symbols():
    assert parse("Tap the third 250 ml glass", "Click").ordinal == (3, "glass")
    q = parse("Click the first card in the second row", "Click")
    assert q.ordinal == (1, "card") and q.line == ("row", 2)
    assert parse("Click the top-left square", "Click").position == (0.0, 0.0)
    assert parse("Click the '+' button", "Click").symbols == ["+"]
    assert parse("Add a second passenger", "Click").ordinal is None  # "a second" is not "the second"


def test_keys_named_in_words():
    assert key_for({"description": "Press Page Down"}) == "PageDown"
    assert key_for({"description": "Press the down arrow"}) == "ArrowDown"
    assert key_for({"description": "Press 'Escape' to close"}) == "Escape"
    assert key_for({"description": "Press Enter", "key": "Tab"}) == "Tab"


def test_the_official_element_index_breaks_a_tie():
    els = [el(0, "Delete"), el(1, "Delete", bbox=(0, 40, 40, 20))]
    assert match_description("Click 'Delete'", els, "Click", element_index=1).args == {"ref": 1}
    assert match_description("Click 'Delete'", els, "Click", element_index=0).args == {"ref": 0}


def test_a_close_call_has_a_small_margin_and_a_clear_one_a_large_one():
    close = match_description("Click 'Save'", [el(0, "Save"), el(1, "Save", bbox=(0, 40, 40, 20))], "Click")
    clear = match_description("Click 'Save'", [el(0, "Save"), el(1, "Cancel")], "Click")
    assert close.margin < 0.15 <= clear.margin and clear.chosen["css"] == "#e0"


def test_type_takes_its_text_from_the_quotes_and_replaces_only_when_told():
    field = el(0, "Title", role="textbox", tag="input")
    plan = match_description("Type 'good movie' into the 'Title' input", [el(1, "good movie"), field], "Type")
    assert plan.args == {"ref": 0}
    assert clears_first("Change the guess to '50'") and not clears_first("Type '50' into the guess field")


def test_sentences_compile_to_claims_a_page_can_decide():
    assert kinds_of("'Walk dog' disappears from the list") == [("absent", ("Walk dog",))]
    assert kinds_of("The help dialog closes") == [("closed", ())]
    assert kinds_of("'Buy milk' is struck through") == [("struck", ("Buy milk",))]
    assert kinds_of("Only 'Pay rent' is listed") == [("only", ("Pay rent",))]
    assert kinds_of("'Large' is selected") == [("selected", ("Large",))]
    assert kinds_of("'Prev' becomes clickable") == [("enabled", ("Prev",))]
    assert kinds_of("'A' disappears and 'B' appears") == [("absent", ("A",)), ("shown", ("B",))]
    assert kinds_of("The days run from 1 to 28")[0] == ("range", ("28",))
    assert kinds_of("The score reads 4") == [("reads", ("score", "4"))]
    assert kinds_of("Something nice happens") == [("changed", ())]
    assert kinds_of("Nothing happens: the first question is still shown") == [("unchanged", ())]
    shown = compile_sentence("The display shows '7'")[0]
    assert shown.display and not compile_sentence("The '7' button appears")[0].display


def _view(*texts: dict) -> dict:
    return {"texts": list(texts), "fields": [], "states": [], "dialogs": [], "media": [], "style": 0, "canvas": 0, "url": ""}


def _item(t: str, i: int, s: str = "rgb(0, 0, 0)|rgb(255, 255, 255)|400|rgb(0, 0, 0)") -> dict:
    return {"t": t, "item": i, "list": 0, "s": s, "ctl": False, "strike": False}


def test_counts_names_readings_and_colours_without_quotes():
    """Official sentences often quote nothing: a count in words, a list of names, an exact reading and a
    named colour are each decided, and each fails on the page where it is false."""
    from iwr.graphs.assertions import sentence_verdict

    cans = "Only three cans are left: Tomato soup, Pea soup and Chicken noodle"
    assert kinds_of(cans) == [("only", ("Tomato soup", "Pea soup", "Chicken noodle")),
                              ("count", ("cans", "Tomato soup", "Pea soup", "Chicken noodle"))]
    assert kinds_of("X and O alternate") == [("changed", ())]  # a sentence's first word is no name
    four = _view(*[_item(n, k) for k, n in enumerate(["Tomato soup", "Pea soup", "Chicken noodle", "Beef stew"])])
    three = _view(*four["texts"][:3])
    assert sentence_verdict(cans, four, three)["passed"] and not sentence_verdict(cans, four, four)["passed"]

    twelve = _view(*[_item(f"Tin {k}", k) for k in range(10)], _item("Garden peas", 10), _item("Mushy peas", 11))
    peas = "Two products are shown, 'Garden peas' and 'Mushy peas'"
    assert not sentence_verdict(peas, twelve, twelve)["passed"]  # both names are among twelve: no filter
    assert sentence_verdict(peas, twelve, _view(*twelve["texts"][10:]))["passed"]

    timer = "The timer reads 00:00:00 again"
    assert kinds_of(timer) == [("reads", ("timer", "00:00:00"))]
    running = _view({"t": "00:01:05", "ctl": False})
    assert sentence_verdict(timer, running, _view({"t": "00:00:00", "ctl": False}))["passed"]
    assert not sentence_verdict(timer, running, _view({"t": "00:00:05", "ctl": False}))["passed"]
    assert ("count", ("glasses",)) in kinds_of("The sixth glass empties, leaving five full glasses and 62.5%")
    assert ("shown", ("62.5%",)) in kinds_of("The sixth glass empties, leaving five full glasses and 62.5%")

    go = "The 'Go' button turns green"
    grey, green, red = ("rgb(0, 0, 0)|rgb(200, 200, 200)|400|rgb(0, 0, 0)", "rgb(0, 0, 0)|rgb(20, 180, 40)|400|rgb(0, 0, 0)",
                        "rgb(0, 0, 0)|rgb(200, 30, 40)|400|rgb(0, 0, 0)")
    before = _view({"t": "Go", "s": grey, "ctl": True})
    assert sentence_verdict(go, before, _view({"t": "Go", "s": green, "ctl": True}))["passed"]
    assert not sentence_verdict(go, before, _view({"t": "Go", "s": red, "ctl": True}))["passed"]


def test_a_named_kind_is_a_constraint_and_a_label_resolves_to_its_control():
    """'Click the round checkbox to the left of 'buy milk'': the label, however close on text and place,
    never wins over a checkbox that fits; a padded label holding its checkbox resolves to the checkbox."""
    named = [el(0, "buy milk", role="text", tag="label", bbox=(40, 100, 200, 24), interactive=True),
             el(1, "toggle", role="checkbox", tag="input", bbox=(10, 102, 20, 20))]
    padded = [el(0, "buy milk", role="text", tag="label", bbox=(0, 100, 300, 40), interactive=True),
              el(1, "", role="checkbox", tag="input", bbox=(10, 108, 24, 24)),
              el(2, "walk dog", role="text", tag="label", bbox=(0, 140, 300, 40), interactive=True),
              el(3, "", role="checkbox", tag="input", bbox=(10, 148, 24, 24))]
    words = "Click the round checkbox to the left of 'buy milk' to mark it completed"
    assert match_description(words, named, "Click").args == {"ref": 1}
    assert match_description(words, padded, "Click").args == {"ref": 1}
    assert match_description("Mark 'buy milk' as done by clicking its checkbox", padded, "Click").args == {"ref": 1}
    assert match_description("Click 'walk dog'", padded, "Click").args == {"ref": 2}  # no kind named: the label


def test_names_written_without_quotes_are_read_as_names():
    """'Tap Pack lunch', 'Tick the Musician checkbox': a capitalised name past the first word is a quoted
    name; a single letter (a player, a key) and a description that quotes already are left alone."""
    from iwr.graphs.description import quote_bare_names

    assert quote_bare_names("Tap Pack lunch a second time") == "Tap 'Pack lunch' a second time"
    assert quote_bare_names("Tick the Musician checkbox") == "Tick the 'Musician' checkbox"
    assert quote_bare_names("Pick Monday 15 July as the departure date") == "Pick 'Monday 15 July' as the departure date"
    assert quote_bare_names("Click the centre square as player X") == "Click the centre square as player X"
    assert quote_bare_names("Click 'Save' in the Settings panel") == "Click 'Save' in the Settings panel"
    els = [el(0, "Submit"), el(1, "Reset"), el(2, "Musician", role="checkbox", tag="input")]
    assert match_description("Click the Submit button without filling anything in", els, "Click").args == {"ref": 0}
    assert match_description("Tick the Musician checkbox", els, "Click").args == {"ref": 2}


def test_what_is_left_and_what_is_gone():
    """'Milk is removed, leaving Eggs and Apples': what is left must still show; 'no cans are shown': no list
    holds items any more (or the lists shrank)."""
    from iwr.graphs.assertions import sentence_verdict

    assert kinds_of("Milk is removed, leaving Eggs and Apples") == [("shown", ("Eggs",)), ("shown", ("Apples",))]
    three = _view(_item("Eggs", 0), _item("Milk", 1), _item("Apples", 2))
    assert sentence_verdict("Milk is removed, leaving Eggs and Apples", three, _view(_item("Eggs", 0), _item("Apples", 2)))["passed"]
    assert not sentence_verdict("Milk is removed, leaving Eggs and Apples", three, _view(_item("Milk", 1)))["passed"]
    none = "No cans are shown"
    assert sentence_verdict(none, three, _view({"t": "No results to display!", "ctl": False}))["passed"]
    assert not sentence_verdict(none, three, three)["passed"]


def test_what_a_value_was_the_messages_and_the_strikes_of_the_reworded_suite():
    kinds = lambda s: [(c.kind, c.texts, c.negated) for c in compile_sentence(s)]  # noqa: E731
    # the old value of a change is no claim; 'drops' is a verb of its own clause
    assert kinds("Only 2 lines remain and the subtotal drops from '$756.00' to '$607.00'") == \
        [("count", ("lines",), False), ("shown", ("$607.00",), False)]
    assert kinds("The balance reads '$4,782.41' instead of '$4,827.91'") == [("shown", ("$4,782.41",), False)]
    # a possessive holds no quote
    assert kinds("Only Mira Okonkwo's 2 songs are listed and 'Neon Harbour' is no longer shown")[-1] == \
        ("absent", ("Neon Harbour",), False)
    # 'shows 14 daily points' is a count, not the chart's reading
    assert [c.kind for c in compile_sentence("The chart shows 14 daily points, 7 on each line")] == ["count"]
    # an unquoted message up to its verb; the message beside an empty list
    assert kinds("No cans are shown; the message No results to display! appears in their place")[1] == \
        ("shown", ("No results to display!",), False)
    assert [c.kind for c in compile_sentence("The area is empty apart from the text 'No results'")] == ["shown", "count"]
    # a line through the words, and the line going away
    assert kinds("'Milk' has a line through it") == [("struck", ("Milk",), False)]
    assert kinds("The line through 'Milk' goes away") == [("struck", ("Milk",), True)]


def test_a_dot_is_what_looks_like_one():
    """'The first dot below the gallery' where no class says 'dot': the small, wordless, square controls,
    not the longer run of same-sized buttons further down."""
    dots = [el(i, "", bbox=(600 + 20 * i, 500, 12, 12), text="") for i in range(3)]
    questions = [el(10 + i, f"Question {i} +", bbox=(100, 900 + 50 * i, 600, 40)) for i in range(4)]
    assert match_description("Click the first dot below the gallery", questions + dots, "Click").args == {"ref": 0}
