"""Descriptions that point back at what earlier actions used (graphs/replay_memory.py): "the same button
again", "the box" typed into before, named by a purpose no label spells. Words only (hints off)."""
from __future__ import annotations

import pytest

from iwr.graphs.description import parse
from iwr.graphs.replay_memory import back_plan, points_back
from tests.test_words_only_judge import act, passed, replay

pytestmark = pytest.mark.slow

TODO = """<!doctype html><meta charset="utf-8"><body>
<input id="q" placeholder="Search"> <button id="go">Go</button>
<h2>My list</h2><input id="t" placeholder="What needs doing?"> <button id="add">Add</button>
<ul id="list"></ul><p id="n">0 items</p>
<script>let clicks = 0;
add.onclick = () => { clicks++; if (!t.value || clicks > {limit}) return;
  const li = document.createElement('li'); li.textContent = t.value; list.append(li); t.value = '';
  n.textContent = list.children.length + ' items'; };</script></body>"""

ACTIONS = [act("Type", "Type 'Milk' into the 'What needs doing?' field", None, text="Milk"),
           act("Click", "Click 'Add'", "'Milk' appears in the list"),
           act("Type", "Type 'Bread' into the new-entry box", None, text="Bread"),
           act("Click", "Press the same button again", "The list now shows '2 items'")]


async def test_the_box_and_the_same_button_are_the_ones_used_before(tmp_path):
    j = await replay(tmp_path, {"good": TODO.replace("{limit}", "99"), "once": TODO.replace("{limit}", "1")}, ACTIONS)
    good = j["good"]["actions"]
    assert passed(j["good"]) == 4, [(a["index"], a.get("error")) for a in good]
    assert good[2]["grounding"]["chosen"]["css"] == "#t" and good[3]["grounding"]["chosen"]["css"] == "#add"
    assert passed(j["once"]) == 3  # the button works once only: the second click adds nothing


def test_what_points_back():
    assert points_back("Click the same button again") and points_back("Tap it once more")
    assert not points_back("Click 'Add'") and not points_back("Type 'same again' into the box")
    els = [{"ref": 0, "css": "#q", "tag": "input", "role": "textbox", "name": "Search", "bbox": [0, 0, 9, 9]},
           {"ref": 1, "css": "#t", "tag": "input", "role": "textbox", "name": "What needs doing?", "bbox": [0, 9, 9, 9]},
           {"ref": 2, "css": "#add", "tag": "button", "role": "button", "name": "Add", "bbox": [9, 9, 9, 9]}]
    used = [{"css": "#t", "type": "Type", "name": "What needs doing?"}, {"css": "#add", "type": "Click", "name": "Add"}]
    typing = back_plan(parse("Type 'x' into the box", "Type", "x"), "Type 'x' into the box", "Type", els, used)
    assert typing.chosen["css"] == "#t"
    again = back_plan(parse("Click it again", "Click"), "Click it again", "Click", els, used)
    assert again.chosen["css"] == "#add"
    # a quoted name the used element does not carry rules it out
    assert back_plan(parse("Click 'Go' again", "Click"), "Click 'Go' again", "Click", els, used) is None
