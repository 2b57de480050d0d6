"""Names a sentence uses unquoted, found on the page or in the task; what is said of them is decided
and fails on a page where it is false (the blind tasks' broken apps: new to-dos on top, switches that
do not flip each other, an error list that piles up, a key highlighted by a renamed class)."""
from __future__ import annotations

from iwr.graphs.assertions import sentence_verdict
from iwr.graphs.sentence_names import ground_names, task_names
from iwr.graphs.sentences import compile_sentence

BLACK = "rgb(0, 0, 0)|rgb(255, 255, 255)|400|rgb(0, 0, 0)"


def view(*texts: dict, fields=()) -> dict:
    return {"texts": list(texts), "fields": list(fields), "states": [], "dialogs": [], "media": [], "style": 0,
            "canvas": 0, "url": ""}


def item(t: str, y: int, i: int | None = None, strike: bool = False) -> dict:
    return {"t": t, "item": y if i is None else i, "list": 0, "s": BLACK, "ctl": False, "strike": strike, "y": y}


def switch(label: str, on: bool) -> dict:
    return {"label": label, "type": "checkbox", "checked": on, "value": "on", "s": "on" if on else "off"}


def test_names_are_quoted_where_the_page_or_the_task_has_them():
    names = ("Call the bank", "Buy bread", "Good", "good news")
    assert ground_names("Call the bank is added below Buy bread", names) == "'Call the bank' is added below 'Buy bread'"
    assert ground_names("Good is on; the good news is here", names) == "'Good' is on; the 'good news' is here"
    # a single word only as written (a capital); a word before a reading stays a label; quotes stay
    assert ground_names("it is good", ("Good",)) == "it is good"
    assert ground_names("Score reads 4", ("Score",)) == "Score reads 4"
    assert ground_names("'Buy bread' shows", ("Buy bread",)) == "'Buy bread' shows"
    actions = [{"type": "Type", "parameters": {"description": "Type 'Pack lunch'"}, "logical_assertion": None},
               {"type": "Click", "parameters": {"description": "Click 'Add'"}, "logical_assertion": "'Done' shows"}]
    assert task_names(actions) == ("Pack lunch", "Add", "Done")


def test_where_a_named_item_sits_is_checked():
    one = view(item("Buy bread", 100))
    below = view(item("Buy bread", 100), item("Call the bank", 130))
    on_top = view(item("Call the bank", 100), item("Buy bread", 130))
    said = "Call the bank is added below Buy bread, so two todos are listed"
    assert [c.kind for c in compile_sentence(said, None, ("Call the bank", "Buy bread"))] == ["shown", "shown", "order", "count"]
    assert sentence_verdict(said, one, below)["passed"]
    assert not sentence_verdict(said, one, on_top)["passed"]
    top = "Eggs disappears and Apples is now at the top"
    assert sentence_verdict(top, view(item("Eggs", 100), item("Apples", 130)), view(item("Apples", 100)))["passed"]
    assert not sentence_verdict(top, view(item("Eggs", 100), item("Apples", 130)),
                                view(item("Milk", 100), item("Apples", 130)))["passed"]
    ordered = "The list has three entries: Eggs, Milk and Apples, in that order"
    three = [item("Eggs", 100), item("Milk", 130), item("Apples", 160)]
    assert sentence_verdict(ordered, view(), view(*three))["passed"]
    assert not sentence_verdict(ordered, view(), view(item("Milk", 100), item("Eggs", 130), item("Apples", 160)))["passed"]


def test_named_switches_are_each_on_or_off():
    labels = [{"t": n, "ctl": False, "s": BLACK} for n in ("Good", "Cheap", "Fast")]
    before = view(*labels, fields=[switch("Good", True), switch("Cheap", True), switch("Fast", False)])
    right = view(*labels, fields=[switch("Good", True), switch("Cheap", False), switch("Fast", True)])
    all_on = view(*labels, fields=[switch("Good", True), switch("Cheap", True), switch("Fast", True)])
    said = "Fast switches on and Cheap flips back off by itself, while Good stays on"
    assert [(c.kind, c.texts, c.negated) for c in compile_sentence(said, None, ("Good", "Cheap", "Fast"))] == \
        [("checked", ("Fast",), False), ("checked", ("Cheap",), True), ("checked", ("Good",), False)]
    assert sentence_verdict(said, before, right)["passed"]
    assert not sentence_verdict(said, before, all_on)["passed"]
    flips = "Cheap turns on, which switches Good off"
    assert [(c.texts, c.negated) for c in compile_sentence(flips, None, ("Good", "Cheap"))] == [(("Cheap",), False), (("Good",), True)]


def test_the_only_crossed_out_item_and_a_list_that_grew_wrong():
    only = "Take out the bins is now the only crossed-out item"
    before = view(item("Pack lunch", 100), item("Take out the bins", 130))
    assert sentence_verdict(only, before, view(item("Pack lunch", 100), item("Take out the bins", 130, strike=True)))["passed"]
    assert not sentence_verdict(only, before, view(item("Pack lunch", 100, strike=True),
                                                   item("Take out the bins", 130, strike=True)))["passed"]
    # a name typed after the field kept its old text is no name on the page: 'Pack lunchTake out the bins'
    glued = view(item("Pack lunch", 100), item("Pack lunchTake out the bins", 130))
    assert not sentence_verdict("A second row, Take out the bins, appears below Pack lunch", view(item("Pack lunch", 100)),
                                glued, names=("Take out the bins",))["passed"]
    errors = "Three errors are listed now"
    two = view(item("name is empty", 10), item("age is empty", 20))
    three = view(*two["texts"], item("instruments are empty", 30))
    piled = view(*two["texts"], *[item(f"{w} again", 40 + i) for i, w in enumerate(("name", "age", "instruments"))])
    assert sentence_verdict(errors, two, three)["passed"]
    assert not sentence_verdict(errors, two, piled)["passed"]  # the list changed, and not to three


def test_a_key_set_apart_from_the_keys_it_looked_like():
    """The highlighted operator of a key pad whose class names say nothing: the digits look one way, the
    operators another; the clicked one now looks unlike the other operators, which look as before."""
    op, hot, digit = "pink|white|700|pink", "white|pink|700|white", BLACK
    def pad(times_style: str) -> dict:
        keys = [("7", digit), ("8", digit), ("÷", op), ("×", times_style), ("−", op), ("+", op)]
        return view(*[{"t": k, "ctl": True, "s": s, "run": [0, i], "y": 0} for i, (k, s) in enumerate(keys)])
    said = "The '×' key is highlighted"
    assert sentence_verdict(said, pad(op), pad(hot))["passed"]
    assert not sentence_verdict(said, pad(op), pad(op))["passed"]


def test_calibration_counts_which_means_decided_the_references_sentences():
    from types import SimpleNamespace

    from iwr.evals.quality.calibrate_more import agreement
    said = [{"method": "sentence", "decided_by": "words", "claims": [{"kind": "count"}, {"kind": "order"}], "unquoted": ["Eggs"]},
            {"method": "sentence", "decided_by": "words", "claims": [{"kind": "checked"}]},
            {"method": "recording", "decided_by": "recording", "claims": [{"kind": "changed"}]},
            {"method": "structured", "decided_by": "checks"}]
    ref = SimpleNamespace(judge={"actions": [{"assertion": v} for v in said]})
    out = agreement([("reference", ref), ("blank", ref)])
    assert out["sentences"] == 3  # hints' checks and mutants' sentences are not the references' words
    assert out["sentence_evidence"] == {"counts": 0.3333, "places": 0.3333, "recording": 0.3333, "states": 0.3333,
                                        "unquoted_names": 0.3333}


def test_validate_warns_only_where_neither_the_words_nor_the_task_name_anything():
    from iwr.evals.cli.tasks import undecidable_sentences
    from iwr.evals.quality.real_corpus import REAL_SUITE
    from iwr.tasks.loader import load_suite

    warned = "\n".join(undecidable_sentences(load_suite(REAL_SUITE)))
    assert "'Take out the bins is now the only crossed-out item'" not in warned  # the task typed that name
    assert "task 222 action 2: the words alone cannot decide 'Good and Fast are on now'" in warned  # only the page names them


def test_two_switches_of_one_name_off_means_fewer_on():
    """Push 'Mentions' and email 'Mentions' drawn as role=switch: 'the Mentions push switch is off again'
    holds when fewer of them are on than before, not when both stay on."""
    said = "The 'Mentions' push switch is off again"
    both, one = {**view(), "states": ["Mentions", "Mentions"]}, {**view(), "states": ["Mentions"]}
    assert sentence_verdict(said, both, one)["passed"]
    assert not sentence_verdict(said, both, both)["passed"]
    assert sentence_verdict("The 'Mentions' switch is on", one, both)["passed"]


def test_a_card_at_the_bottom_and_a_negated_name():
    """A card holds several texts (title, id): 'sits at the bottom' compares where items start. 'No
    suggestions are shown' says none are, although the page may call a message 'No suggestions'."""
    def card(title: str, y: int, i: int) -> list[dict]:
        return [{**item(title, y, i)}, {**item(f"ORB-{i}", y + 30, i)}]
    cards = view(*card("Fix login", 100, 0), *card("Localise errors", 200, 1))
    assert sentence_verdict("The new card 'Localise errors' sits at the bottom of the Backlog", view(), cards)["passed"]
    assert not sentence_verdict("The new card 'Fix login' sits at the bottom of the Backlog", view(), cards)["passed"]
    assert ground_names("6 results are listed and no suggestions are shown", ("No suggestions",)) == \
        "6 results are listed and no suggestions are shown"
