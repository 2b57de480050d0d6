"""Wording the team did not write (issue 48): how annotators say what changed, read as a person reads it.
Each case states a reading rule (a change 'from A to B' is what it reads now, a kind word is no name,
a thing placed by a name is not the name, a part that stays the same says nothing of the rest, a colour
is what the pixels are), with a sentence that must compile to it and, on real pages, a faithful page
that must pass and a broken one that must fail."""
from __future__ import annotations

import pytest
from PIL import Image

from iwr.graphs.description import parse
from iwr.graphs.element_match import fits_kind
from iwr.graphs.grounding import target_quotes
from iwr.graphs.painted import highlighted, painted, rows_of
from iwr.graphs.sentences import compile_sentence
from iwr.mcp_servers.browser.actions import named_in
from tests.test_words_only_judge import act, passed, replay


def kinds(sentence: str, names=()) -> list[tuple]:
    return [(c.kind, c.texts) for c in compile_sentence(sentence, None, names)]


def test_a_change_from_one_number_to_another_is_what_it_reads_now():
    assert kinds("Adults goes from 1 to 2 and its minus button is no longer greyed out") == [("reads", ("adults", "2"))]
    assert kinds("The price jumps from $8 to $16") == [("reads", ("price", "$16"))]
    assert kinds("The days run from 1 to 28") == [("range", ("28",))]  # a run of numbered things stays a run


def test_a_kind_word_is_no_name_the_word_before_it_is():
    assert kinds("The amount field shows 500") == [("reads", ("amount", "500"))]
    assert kinds("The quantity box holds 3") == [("reads", ("quantity", "3"))]
    assert kinds("The box shows 3") == [("reads", ("", "3"))]  # a kind alone names no label: the number, where it shows
    assert parse("Enter 500 as the amount", "Type", "500").words == {"amount"}  # what is typed is no name
    assert parse("Put -4 in the amount", "Type", "-4").words == {"amount"}


def test_a_number_clicked_is_its_name_and_what_follows_says_where():
    assert parse("Click 28, the last day of the month", "Click").phrases == ["28"]
    assert parse("Click 7", "Click").phrases == ["7"]
    assert parse("Click the third 250 ml glass", "Click").phrases == []  # a number inside the words is no name


def test_a_thing_placed_by_a_name_is_not_the_name():
    names = ("Last Name", "Milk", "Groceries")
    assert ("absent", ("Last Name",)) not in kinds("The arrow by Last Name is gone", names)
    assert kinds("'Milk' is removed from 'Groceries'") == [("absent", ("Milk",))]
    assert kinds("'Milk' is gone") == [("absent", ("Milk",))]


def test_a_part_that_stays_the_same_says_nothing_of_the_rest():
    assert kinds("A box slides up saying you tried that letter, and the drawing stays the same") == [("changed", ())]
    assert kinds("Nothing happens") == [("unchanged", ())]
    assert [c.kind for c in compile_sentence("The page stays the same")] == ["unchanged"]


def test_filled_into_a_field_is_a_value_and_is_red_is_a_state():
    assert all(k != "styled" for k, _ in kinds("'New York' is filled into the 'State' field"))
    (turns,) = compile_sentence("'Email' turns green")
    (state,) = compile_sentence("Only 'Confirm' is red")
    assert (turns.kind, turns.colour, turns.fresh) == ("styled", "green", True)
    assert (state.kind, state.colour, state.fresh) == ("styled", "red", False)


def test_a_wordless_pill_is_a_switch_and_a_cross_is_the_x_a_person_names():
    pill = {"tag": "button", "role": "button", "text": "", "bbox": [0, 0, 80, 40]}
    assert fits_kind(pill, "checkbox")
    assert not fits_kind({**pill, "bbox": [0, 0, 200, 40]}, "checkbox")  # a wide bar is no switch
    assert not fits_kind({**pill, "text": "Save"}, "checkbox")
    assert parse("Tap the X next to 'Milk'", "Click").symbols == ["X", "x"]  # drawn either way
    assert "x" in parse("Click the small red x on its left", "Click").symbols
    assert parse("Click the centre square as player X", "Click").symbols == []  # X names a player here


def test_a_dropdown_option_named_in_the_words_whole():
    options = ["Avengers: Endgame ($10)", "Joker ($12)", "Toy Story 4 ($8)"]
    assert named_in("Open the 'Pick a movie' dropdown and choose Joker ($12)", options) == "Joker ($12)"
    assert named_in("Switch the movie to Toy  Story 4 ($8)", options) == "Toy Story 4 ($8)"
    assert named_in("Pick the jokers' table", options) is None  # inside another word is no option


def _shot(path, colour=None, box=(20, 20, 60, 40)):
    img = Image.new("RGB", (200, 120), "white")
    if colour:
        img.paste(colour, box)
    img.save(path)
    return str(path)


def test_a_colour_is_what_the_changed_pixels_are(tmp_path):
    before = _shot(tmp_path / "b.png")
    purple = _shot(tmp_path / "p.png", (128, 60, 200))
    grey = _shot(tmp_path / "g.png", (150, 150, 150))
    assert painted("purple", before, purple)[0] is True
    assert painted("green", before, purple)[0] is False
    assert painted("purple", before, grey)[0] is False
    assert painted("purple", before, purple, bands=[(80, 120)])[0] is False  # not near the named words
    assert painted("purple", purple, purple)[0] is False  # nothing changed
    assert painted("purple", purple, purple, bands=[(0, 60)], fresh=False)[0] is True  # "is purple": how it looks


def test_a_highlight_is_a_repainted_row_of_the_named_words(tmp_path):
    before = _shot(tmp_path / "b.png")
    row = _shot(tmp_path / "r.png", (220, 230, 250), box=(0, 40, 200, 64))
    view = {"texts": [{"t": "The Time Machine", "y": 44, "v": True}, {"t": "Dune", "y": 90, "v": True}]}
    assert highlighted(before, row, rows_of(view, ("The Time Machine",), below=24))[0] is True
    assert highlighted(before, row, rows_of(view, ("Dune",), below=24))[0] is False  # another row was lit
    assert highlighted(before, before, rows_of(view, ("The Time Machine",), below=24))[0] is False


SWITCH = """<!doctype html><meta charset="utf-8"><style>
label{display:flex;gap:12px;align-items:center;margin:10px;font:16px sans-serif}
.sw{width:44px;height:24px;border-radius:12px;background:#ccc;position:relative}
.sw::before{content:'';position:absolute;inset:0;border-radius:12px;background:{on};opacity:0}
input:checked+.sw::before{opacity:1} #good{opacity:0;width:0;height:0;margin:0}</style><body>
<label><input type="checkbox" id="good"><span class="sw"></span>Good</label>
<p><label for="amt">Amount (negative - expense)</label><input id="amt" type="number"></p>
<p><label for="txt">Text</label><input id="txt"></p>
<select id="movie" aria-label="Pick a movie"><option>Avengers ($10)</option><option>Joker ($12)</option></select>
<p id="sum">0 seats for $0</p>
<script>movie.onchange = () => sum.textContent = '0 seats for $0 (' + movie.value + ')';</script>"""


@pytest.mark.slow
async def test_a_switch_painted_by_a_pseudo_element_a_field_named_by_its_purpose_and_an_option_in_the_words(tmp_path):
    actions = [act("Click", "Click the switch by Good", "The switch turns purple"),
               act("Type", "Write Salary in the Text box", "The text box reads Salary", text="Salary"),
               act("Type", "Enter 500 as the amount", "The amount field shows 500", text="500"),
               act("Click", "Open the 'Pick a movie' dropdown and choose Joker ($12)", "The dropdown shows Joker ($12)")]
    j = await replay(tmp_path, {"good": SWITCH.replace("{on}", "#8e44ad"), "green": SWITCH.replace("{on}", "#2ecc71")},
                     actions)
    assert passed(j["good"]) == 4, j["good"]["actions"]
    assert passed(j["green"]) == 0  # the switch turns green: not what the sentence says


def test_contractions_are_read_as_written_out_and_it_reads_a_number_where_it_shows():
    assert kinds("The trailing 0 is deleted and it's back to 25") == [("reads", ("", "25"))]
    assert kinds("It reads 12 now") == [("reads", ("", "12"))]
    assert kinds("The list doesn't change") == kinds("The list does not change")
    assert kinds("'Nancy's' row isn't struck") == kinds("'Nancy's' row is not struck")  # a quote keeps its apostrophe


def test_messages_listed_after_a_colon_are_each_shown_whole():
    said = ("All four boxes get a red border with a red message under each: Username must be at least 3 "
            "characters, Email is not valid, Password must be at least 6 characters and Password2 is required")
    assert kinds(said) == [("shown", (m,)) for m in ("Username must be at least 3 characters", "Email is not valid",
                                                     "Password must be at least 6 characters", "Password2 is required")]
    # after 'reads', a name that goes on with a verb of its own ends the list of texts shown
    said = "The button reads Clear 2 completed items and Mark all as complete is unchecked again"
    assert ("shown", ("Clear 2 completed items",)) in kinds(said)
    assert not any("unchecked" in " ".join(t) for _, t in kinds(said))
    # a list of names (no message before the colon) is still cut to the names
    assert ("shown", ("Pea soup",)) in kinds("Three cans are left: Tomato soup, Pea soup and Chicken noodle")


DIGITS = """<!doctype html><meta charset="utf-8"><body style="font:20px sans-serif">
<div id="d" style="font-size:40px;margin:20px">250</div>
<div><button onclick="d.textContent='2'">2</button><button onclick="d.textContent='5'">5</button>
<button onclick="d.textContent={del}">DEL</button></div>"""


@pytest.mark.slow
async def test_it_is_back_to_a_number_the_display_must_show(tmp_path):
    actions = [act("Click", "Click DEL to undo the last digit", "The trailing 0 is deleted and it's back to 25")]
    j = await replay(tmp_path, {"good": DIGITS.replace("{del}", "d.textContent.slice(0, -1)"),
                                "wrong": DIGITS.replace("{del}", "d.textContent.slice(1)")}, actions)
    assert passed(j["good"]) == 1, j["good"]["actions"]
    assert passed(j["wrong"]) == 0, j["wrong"]["actions"]  # 50 shows; the keys 2 and 5 are no reading of 25



def test_a_name_the_target_is_placed_by_is_not_its_name():
    """The browser acts at a point (the recording's press) only on an element carrying the names the
    words give the target: the name it is placed by is not one of them."""
    assert target_quotes("Click the circle to the left of 'Renew passport'", "Click") == []
    assert target_quotes("Hover over the 'Salary' entry and click the red square that shows up at its right end", "Click") == []
    assert target_quotes("Click 'Delete' for 'Milk'", "Click") == ["Delete"]
    assert target_quotes("Click the checkbox on the 'Check one item' row", "Click") == ["Check one item"]  # its row names it


DONE = """<!doctype html><meta charset="utf-8"><style>li{font:18px sans-serif;margin:8px} .done label{color:#aaa;{strike}}</style>
<ul><li><input type="checkbox" id="a" onchange="this.parentElement.classList.toggle('done')"><label for="a">Renew passport</label></li>
<li><input type="checkbox" id="b"><label for="b">Buy milk</label></li></ul>"""


@pytest.mark.slow
async def test_words_no_control_carries_are_greyed_out_when_repainted_and_crossed_through_is_struck(tmp_path):
    said = "'Renew passport' is greyed out and crossed through"
    assert ("struck", ("Renew passport",)) in kinds(said)
    actions = [act("Click", "Tick the 'Renew passport' checkbox", said)]
    j = await replay(tmp_path, {"good": DONE.replace("{strike}", "text-decoration:line-through"),
                                "grey": DONE.replace("{strike}", "")}, actions)
    assert passed(j["good"]) == 1, j["good"]["actions"]
    assert passed(j["grey"]) == 0, j["grey"]["actions"]  # greyed, not crossed through
