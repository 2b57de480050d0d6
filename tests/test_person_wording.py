"""Wording a person understands on pages built otherwise (words only): a box that looks like a checkbox
is one, a control belongs to the line or card its words name, a day cell answers to the date it shows
in part, numbered things said to be visible are in view, and a scroll is a change a person sees."""
from __future__ import annotations

import pytest

from tests.test_words_only_judge import act, chosen, passed, replay

pytestmark = pytest.mark.slow

LIST = """<!doctype html><meta charset="utf-8"><style>li{display:flex;gap:8px;align-items:center;margin:6px}
.chk{width:20px;height:20px;border-radius:50%;border:2px solid #888;background:none;padding:0}
.done span{text-decoration:line-through}</style><body><ul id="l">
<li><button class="chk" aria-label="Toggle"><svg width="12" height="12"></svg></button><span>Milk</span>
<button class="del" aria-label="Delete">✕</button></li>
<li><button class="chk" aria-label="Toggle"><svg width="12" height="12"></svg></button><span>Eggs</span>
<button class="del" aria-label="Delete">✕</button></li></ul><p id="n">2 left</p>
<script>l.onclick = e => { const li = e.target.closest('li'); if (e.target.closest('.chk')) {{toggle}}
  if (e.target.closest('.del')) li.remove(); n.textContent = l.querySelectorAll('li:not(.done)').length + ' left'; };</script>"""


async def test_a_round_box_before_an_item_is_its_checkbox_and_the_cross_on_its_line_deletes_it(tmp_path):
    actions = [act("Click", "Tick the checkbox next to 'Eggs'", "'Eggs' is crossed out and '1 left' is shown"),
               act("Click", "Click the '✕' delete button on 'Milk'", "'Milk' disappears")]
    j = await replay(tmp_path, {"good": LIST.replace("{toggle}", "li.classList.toggle('done');"),
                                "dead": LIST.replace("{toggle}", "")}, actions)
    assert passed(j["good"]) == 2, j["good"]["actions"]
    assert chosen(j["good"], 1) == "#l > li:nth-of-type(2) > button:nth-of-type(1)"
    assert chosen(j["good"], 2) == "#l > li:nth-of-type(1) > button:nth-of-type(2)"
    assert passed(j["dead"]) == 0  # the box does nothing


CART = """<!doctype html><meta charset="utf-8"><style>.line{display:grid;grid-template-columns:300px 80px;margin:8px}
.name{grid-column:1}.rm{grid-column:2;grid-row:2}</style><body><div id="items">
<div class="line"><div class="name">Trail Runner GTX</div><div>$189.00 each</div><button class="rm">Remove</button></div>
<div class="line"><div class="name">Granite Approach Shoe</div><div>$149.00 each</div><button class="rm">Remove</button></div>
</div><p id="sum">Subtotal: $338.00</p><div id="flights">
<div class="f"><b>7:40 am</b> SL 210 <span>$352</span> <button class="sel">Select</button></div>
<div class="f"><b>1:05 pm</b> SL 426 <span>$281</span> <button class="sel">Select</button></div></div><p id="pick"></p>
<script>items.onclick = e => { if (e.target.closest('.rm')) { e.target.closest('.line').remove();
  sum.textContent = 'Subtotal: $' + (document.querySelectorAll('.line').length === 1 ?
  document.querySelector('.line').textContent.match(/\\$(\\d+)/)[1] + '.00' : '338.00'); } };
flights.onclick = e => { const f = e.target.closest('.f'); if (e.target.closest('.sel')) pick.textContent = 'Chosen: ' + f.querySelector('b').textContent; };
</script>"""


async def test_a_control_belongs_to_the_line_or_card_its_words_name(tmp_path):
    actions = [act("Click", "Click 'Remove' under the 'Granite Approach Shoe' line", "The subtotal drops to '$189.00'"),
               act("Click", "Click 'Select' on the 1:05 pm flight SL 426", "'Chosen: 1:05 pm' is shown")]
    j = await replay(tmp_path, {"cart": CART}, actions)
    assert passed(j["cart"]) == 2, j["cart"]["actions"]
    assert chosen(j["cart"], 2) == "#flights > div:nth-of-type(2) > button:nth-of-type(1)"


DAYS = """<!doctype html><meta charset="utf-8"><body><p>Departure date · July</p><div id="d">
<button>Sun 14 from $120</button><button>Mon 15 from $116</button><button>Tue 16 from $99</button></div>
<p id="err">Choose a departure date.</p><p id="out"></p>
<script>d.onclick = e => { const b = e.target.closest('button'); if (b) { out.textContent = 'Leaving ' + b.textContent.slice(0, 6); err.remove(); } };</script>"""


async def test_a_day_cell_answers_to_the_date_it_shows_in_part(tmp_path):
    j = await replay(tmp_path, {"days": DAYS}, [act("Click", "Pick Monday 15 July as the departure date", "'Leaving Mon 15' is shown")])
    assert passed(j["days"]) == 1 and chosen(j["days"], 1) == "#d > button:nth-of-type(2)"


MONTH = """<!doctype html><meta charset="utf-8"><style>.g{display:grid;grid-template-columns:repeat(7,80px);gap:6px}
.g div{height:{h}px;border:1px solid #ccc}</style><body><h1>June</h1><div class="g">{days}</div>"""


async def test_numbers_said_to_be_visible_are_in_view_and_a_scroll_is_a_change(tmp_path):
    days = "".join(f"<div>{n}</div>" for n in range(1, 31))
    actions = [act("Scroll", "Scroll down to the end of the month", "The last row with days 29 and 30 is visible",
                   direction="down", scroll_page="0.5"),
               act("Scroll", "Scroll back up to the top", "The month picker is visible again at the top",
                   direction="up", scroll_page="0.5")]
    # a short page scrolls only a little: the last row shows and coming back up is a change all the same;
    # a tall one leaves the last row below the fold after half a screen
    j = await replay(tmp_path, {"short": MONTH.replace("{days}", days).replace("{h}", "110"),
                                "tall": MONTH.replace("{days}", days).replace("{h}", "400")}, actions)
    assert passed(j["short"]) == 2, j["short"]["actions"]
    assert passed(j["tall"]) == 0
