"""More wording the team did not write (issue 48): things named by their place among their peers ("the
left-hand button", "the seat just to its right", "the lone button underneath"), by what an earlier
action said of them ("Play rock again"), by a label before its note ("Amount (negative - expense)"), or
shown only under the mouse ("Hover over X and click the red square at its right end"); and assertions
that read a list of labelled numbers, the words a line reads, a list a note says, a placeholder, and
"all four fields are cleared". Each rule has a sentence that must compile to it and, on real pages, a
faithful page that must pass and a broken one that must fail."""
from __future__ import annotations

import pytest

from iwr.graphs.description import clears_first, clicked_after_hover, parse
from iwr.graphs.element_match import same_but_little_words
from iwr.graphs.sentences import compile_sentence
from iwr.tasks.names import names_agree
from tests.test_words_only_judge import act, chosen, passed, replay


def kinds(sentence: str, names=()) -> list[tuple]:
    return [(c.kind, c.texts) for c in compile_sentence(sentence, None, names)]


def test_a_list_of_labelled_numbers_is_a_reading_each():
    assert kinds("Character Count is now 26, Word Count 5, Sentences 2 and Spaces 4") == [
        ("reads", ("character", "26")), ("reads", ("word", "5")), ("reads", ("sentences", "2")), ("reads", ("spaces", "4"))]
    assert kinds("The list shows 21 characters, 4 words and 3 sentences, with 3 spaces") == [
        ("shown", ("21 characters",)), ("shown", ("4 words",)), ("shown", ("3 sentences",)), ("shown", ("3 spaces",))]
    assert kinds("'Pay rent' is left and the count drops back to 2") == [("shown", ("Pay rent",)), ("reads", ("count", "2"))]


def test_what_a_line_reads_or_says_is_shown_whole_and_a_list_of_texts_each():
    assert ("shown", ("You have selected 1 seats for a price of $10",)) in kinds(
        "The seat turns blue and the line under the seats reads You have selected 1 seats for a price of $10")
    assert kinds("Below the buttons it says Your Score -1, Rock VS Paper and You Lose") == [
        ("shown", ("Your Score -1",)), ("shown", ("Rock VS Paper",)), ("shown", ("You Lose",))]
    assert kinds("The score reads 4") == [("reads", ("score", "4"))]  # a number stays a reading
    assert kinds("The button says Add") == [("changed", ())]  # two words are no line of text


def test_going_grey_belongs_to_its_own_subject_and_i_is_no_name():
    (fast, _) = compile_sentence("'Fast' goes grey, leaving 'Cheap' as the only switch on")
    assert (fast.texts, fast.colour) == (("Fast",), "grey")
    (nxt,) = compile_sentence("The fourth circle turns grey again and 'Next' can be clicked again")
    assert nxt.colour is None  # the circle goes grey, not 'Next'
    assert compile_sentence("'Save' is grey")[0].colour is None  # being grey says too little
    assert parse("Click the first seat I picked in the front row again", "Click").phrases == []


def test_all_fields_cleared_is_every_one():
    (claim,) = compile_sentence("All four fields are cleared")
    assert claim.kind == "empty" and claim.exclusive
    assert not compile_sentence("The email field is cleared")[0].exclusive


def test_names_differ_by_their_numbers_and_not_by_little_words():
    assert not names_agree(["+1 to Player-1"], "+1 to Player-2")
    assert names_agree(["+1 to Player-1"], "+1 for Player 1")
    assert same_but_little_words("+1 to Player-1", "+1 for Player 1")
    assert not same_but_little_words("+1 to Player-1", "+1 for Player 2")
    assert not same_but_little_words("Reset", "Restart")


def test_places_among_peers_and_what_a_hover_reveals_are_read_from_the_words():
    assert parse("Tap the left-hand button to play rock", "Click").position == (0.0, -1.0)
    assert parse("Click the middle button", "Click").position == (0.5, -1.0)
    assert parse("Click the right arrow", "Click").position is None  # an arrow pointing right, no place
    assert parse("Tap the lone button underneath", "Click").alone
    assert parse("Click the square button to the right of the password", "Click").square
    assert clicked_after_hover("Hover over the Salary entry and click the red square at its right end") == \
        "click the red square at the right end of the Salary entry"
    assert clicked_after_hover("Click the Salary entry") == "Click the Salary entry"
    assert clears_first("Retype the confirmation as secret1") and not clears_first("Type secret1")


GAME = """<!doctype html><meta charset="utf-8"><style>button{width:60px;height:60px;margin:6px}</style><body>
<div><button id="rock" onclick="play('Rock')"></button><button id="paper" onclick="play('Paper')"></button>
<button id="scissors" onclick="play('Scissors')"></button></div>
<div><button id="end" onclick="out.textContent='Game over'"></button></div><p id="out">Pick one</p>
<script>let n = 0; function play(m) { n += 1; out.textContent = m + ' played ' + n + (m === '{beats}' ? ' You Win' : ''); }</script>"""


@pytest.mark.slow
async def test_wordless_buttons_named_by_their_place_and_by_what_was_said_of_them(tmp_path):
    actions = [act("Click", "Tap the left-hand button to play rock", "It says Rock played 1"),
               act("Click", "Tap the middle button (paper)", "It says Paper played 2"),
               act("Click", "Play rock again", "It says Rock played 3"),
               act("Click", "Tap paper", "It says Paper played 4"),
               act("Click", "Tap the lone button underneath to end the game", "It says Game over")]
    j = await replay(tmp_path, {"good": GAME.replace("{beats}", "x"),
                                "swapped": GAME.replace("play('Rock')", "play('Paper')", 1)}, actions)
    assert passed(j["good"]) == 5, j["good"]["actions"]
    assert [chosen(j["good"], i) for i in (1, 2, 3, 4, 5)] == ["#rock", "#paper", "#rock", "#paper", "#end"]
    assert passed(j["swapped"]) == 0  # the left-hand button plays paper


LEDGER = """<!doctype html><meta charset="utf-8"><style>li .del{opacity:0} li:hover .del{opacity:1}
.del{background:#c0392b;color:#fff;border:0;width:28px;height:28px}</style><body>
<label>Description <input id="d" placeholder="Enter text..."></label>
<label>Amount (negative - expense, positive - income) <input id="a" type="number" placeholder="0.00"></label>
<button id="add" onclick="add()">Add transaction</button><ul id="list"></ul>
<p>Entries: <span id="n">0</span></p><button id="reset" onclick="d.value='';a.value='';{clear}">Reset</button>
<script>function add() { const li = document.createElement('li'); li.innerHTML = d.value + ' ' + a.value +
' <button class="del">x</button>'; li.querySelector('.del').onclick = () => { li.remove(); n.textContent = list.children.length; };
list.append(li); n.textContent = list.children.length; d.value = ''; a.value = ''; }</script>"""


@pytest.mark.slow
async def test_a_field_named_before_its_note_a_button_shown_under_the_mouse_and_placeholders(tmp_path):
    actions = [act("Type", "Type Salary in the Description box", None, text="Salary"),
               act("Type", "Enter 1200 as the amount", "The amount field shows 1200", text="1200"),
               act("Click", "Click the 'Add transaction' button", "Salary 1200 is listed and the count goes to 1"),
               act("Click", "Hover over the Salary entry and click the red square that shows up at its right end",
                   "Salary is deleted and the count drops back to 0"),
               act("Type", "Type Rent in the Description box", None, text="Rent"),
               act("Type", "Put 50 in the amount field", None, text="50"),
               act("Click", "Click 'Reset'", "Both fields are cleared and only their grey placeholders Enter text... "
                   "and 0.00 are left")]
    j = await replay(tmp_path, {"good": LEDGER.replace("{clear}", ""),
                                "kept": LEDGER.replace("a.value='';{clear}", "")}, actions)
    assert passed(j["good"]) == 7, j["good"]["actions"]
    assert chosen(j["good"], 2) == "#a"
    assert passed(j["kept"]) == 6  # Reset leaves the amount: not every field is cleared
