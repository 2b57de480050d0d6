"""The offline judge on data it did not record (hints off): each kind of failure found when official-
layout tasks were judged, on a small page of its own, with a faithful page that must pass and a
broken one that must fail."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_servers
from iwr.graphs.judge import JudgeConfig, judge

pytestmark = pytest.mark.slow

WORDS_ONLY = JudgeConfig(hints=False, visual=False, probes=False)


def act(kind: str, description: str, assertion: str | None = None, **params) -> dict:
    return {"type": kind, "parameters": {"description": description, **params}, "visual_evaluation_flag": False,
            "logical_assertion": assertion}


async def replay(tmp_path: Path, pages: dict[str, str], actions: list[dict]) -> dict[str, dict]:
    """Judge each page (name -> HTML) on the same actions, words only; name -> judgement."""
    task = {"id": 900, "classification": {"interaction_complexity": "L2", "visual_complexity": "V1", "domain": "test",
                                          "sub_domain": "test"},
            "recording_details": {"resolution": "800x600", "environment": "desktop"}, "source_website": "http://x.test",
            "action_sequence": actions}
    out = {}
    async with Toolbox(judge_servers(tmp_path / "run", tmp_path)) as tools:
        for name, html in pages.items():
            folder = tmp_path / name
            folder.mkdir()
            (folder / "index.html").write_text(html)
            out[name] = await judge(tools, task, str(folder), str(folder / "index.html"), WORDS_ONLY)
    return out


def passed(j: dict) -> int:
    return j["successful_actions"]


def chosen(j: dict, index: int) -> str | None:
    return ((j["actions"][index - 1].get("grounding") or {}).get("chosen") or {}).get("css")


COUNTER = """<!doctype html><meta charset="utf-8"><body><button id="minus" onclick="n.textContent=+n.textContent-1">−</button>
<span id="n">0</span><button id="plus" onclick="n.textContent=+n.textContent+{step}">+</button>
<button id="reset" onclick="n.textContent=0">Reset</button></body>"""


async def test_a_quoted_symbol_names_its_button(tmp_path):
    actions = [act("Click", "Click the '+' button", "The counter shows '1'"),
               act("Click", "Click the '−' button", "The counter shows '0'")]
    j = await replay(tmp_path, {"good": COUNTER.format(step=1), "broken": COUNTER.format(step=2)}, actions)
    assert passed(j["good"]) == 2 and chosen(j["good"], 1) == "#plus" and chosen(j["good"], 2) == "#minus"
    assert passed(j["broken"]) == 0  # '+' adds 2: the counter shows '2'


TODO = """<!doctype html><meta charset="utf-8"><style>li{list-style:none;padding:4px 0 4px 40px;position:relative;font:16px sans-serif}
.toggle{position:absolute;left:4px;top:4px;width:24px;height:24px;border-radius:50%}
li label{display:block}.done label{text-decoration:line-through;color:#999}</style><ul>
<li><input class="toggle" type="checkbox"><label>pay rent</label></li>
<li><input class="toggle" type="checkbox"><label>buy milk</label></li>
<li><input class="toggle" type="checkbox"><label>walk dog</label></li></ul>
<script>document.querySelectorAll('.toggle').forEach((t, i) => t.addEventListener('change', () =>
  document.querySelectorAll('li')[{target}].classList.toggle('done', t.checked)));</script>"""


async def test_a_relation_picks_the_checkbox_not_the_label_it_points_at(tmp_path):
    actions = [act("Click", "Click the round checkbox to the left of 'buy milk'", "'buy milk' is struck through")]
    j = await replay(tmp_path, {"good": TODO.replace("{target}", "i"), "broken": TODO.replace("{target}", "0")},
                     actions)
    assert passed(j["good"]) == 1
    assert chosen(j["good"], 1).endswith("li:nth-of-type(2) > input:nth-of-type(1)")
    assert passed(j["broken"]) == 0  # the wrong row is struck through


GALLERY = """<!doctype html><meta charset="utf-8"><style>.thumbs img{width:80px;height:60px;cursor:pointer;margin:4px}</style>
<div class="thumbs">{imgs}</div><p id="caption">Nothing chosen</p>
<script>document.querySelectorAll('.thumbs img').forEach((im, i) => im.addEventListener('click', () =>
  caption.textContent = {shown}.alt));</script>"""
IMGS = "".join(f'<img alt="{a}" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
               for a in ("Blue lake", "Green hill", "Red barn", "Grey city"))


async def test_an_ordinal_and_a_picture_find_the_third_thumbnail(tmp_path):
    actions = [act("Click", "Click the third thumbnail, the one showing a red barn", "The caption reads 'Red barn'")]
    pages = {"good": GALLERY.replace("{imgs}", IMGS).replace("{shown}", "im"),
             "broken": GALLERY.replace("{imgs}", IMGS).replace("{shown}", "document.querySelectorAll('.thumbs img')[0]")}
    j = await replay(tmp_path, pages, actions)
    assert passed(j["good"]) == 1 and passed(j["broken"]) == 0


FORM = """<!doctype html><meta charset="utf-8"><label for="name">Name</label> <input id="name"> <p id="hello"></p>
<script>const f = document.getElementById('name');
f.addEventListener('input', () => hello.textContent = 'Hello, ' + {value});</script>"""


async def test_a_type_whose_text_is_only_quoted_in_the_description(tmp_path):
    actions = [act("Type", "Type 'Ada' into the 'Name' field", "The greeting reads 'Hello, Ada'")]
    j = await replay(tmp_path, {"good": FORM.replace("{value}", "f.value"),
                                "broken": FORM.replace("{value}", "f.value.slice(1)")}, actions)
    assert passed(j["good"]) == 1 and passed(j["broken"]) == 0


TABS = """<!doctype html><meta charset="utf-8"><style>.panel{position:absolute;top:60px;left:10px;width:300px;height:100px;background:#fff}
.panel.on{z-index:2}</style><button id="t1">Overview</button><button id="t2">Specs</button>
<div class="panel on" id="p1">A light tent for two.</div><div class="panel" id="p2">Weight: 2 kg</div>
<script>t2.onclick = () => {{handler}};</script>"""


async def test_text_under_another_panel_is_not_seen(tmp_path):
    actions = [act("Click", "Click the 'Specs' tab", "The panel shows 'Weight: 2 kg'")]
    j = await replay(tmp_path, {"good": TABS.replace("{handler}", "p1.classList.remove('on'); p2.classList.add('on')"),
                                "broken": TABS.replace("{handler}", "")}, actions)
    assert passed(j["good"]) == 1
    assert passed(j["broken"]) == 0  # 'Weight: 2 kg' is in the DOM all along, covered by the first panel


CALC = """<!doctype html><meta charset="utf-8"><input id="display" readonly value="0"><div>
<button>7</button><button>8</button><button>9</button></div>
<script>document.querySelectorAll('button').forEach(b => b.onclick = () => {{handler}});</script>"""


async def test_the_display_is_not_the_label_of_a_key(tmp_path):
    actions = [act("Click", "Click the '7' key", "The display shows '7'")]
    j = await replay(tmp_path, {"good": CALC.replace("{handler}", "display.value = b.textContent"),
                                "broken": CALC.replace("{handler}", "0")}, actions)
    assert passed(j["good"]) == 1 and passed(j["broken"]) == 0


SELECT = """<!doctype html><meta charset="utf-8"><label for="size">Size</label> <select id="size"><option>Small</option>
<option>Medium</option><option>Large</option></select><script>size.onchange = () => {{handler}};</script>"""


async def test_the_chosen_option_of_a_dropdown_is_seen(tmp_path):
    actions = [act("Click", "Choose 'Large' from the 'Size' dropdown", "'Large' is selected")]
    j = await replay(tmp_path, {"good": SELECT.replace("{handler}", "0"),
                                "broken": SELECT.replace("{handler}", "size.selectedIndex = 1")}, actions)
    assert passed(j["good"]) == 1 and passed(j["broken"]) == 0


LIST = """<!doctype html><meta charset="utf-8"><style>.done{text-decoration:line-through}#help{display:none;position:fixed;top:20px;
left:20px;background:#fff;border:1px solid}#help.open{display:block}</style>
<ul id="items"><li><input type="checkbox" aria-label="done"><span>Pay rent</span> <button class="x">×</button></li>
<li><input type="checkbox" aria-label="done"><span>Walk dog</span> <button class="x">×</button></li>
<li><input type="checkbox" aria-label="done"><span>Buy milk</span> <button class="x">×</button></li></ul>
<button id="active-filter">Active</button> <button id="open-help">Open help</button>
<div id="help" role="dialog"><p>Tick what you did.</p><button id="close-help">Close</button></div>
<script>
const B = {broken: "NONE"};
items.addEventListener('click', e => { if (!e.target.classList.contains('x')) return;
  const li = B.broken === 'remove' ? items.firstElementChild : e.target.closest('li'); li.remove(); });
items.addEventListener('change', e => { if (B.broken !== 'strike') e.target.closest('li').classList.toggle('done', e.target.checked); });
const $ = (id) => document.getElementById(id);
$('active-filter').onclick = () => { if (B.broken !== 'filter') items.querySelectorAll('li.done').forEach(li => li.hidden = true); };
$('open-help').onclick = () => help.classList.add('open');
$('close-help').onclick = () => { if (B.broken !== 'close') help.classList.remove('open'); };
</script>"""
LIST_ACTIONS = [act("Click", "Click the × next to 'Walk dog'", "'Walk dog' disappears from the list"),
                act("Click", "Click 'Open help'", "The help dialog opens"),
                act("Click", "Click 'Close'", "The dialog closes"),
                act("Click", "Tick the checkbox next to 'Buy milk'", "'Buy milk' is struck through"),
                act("Click", "Click the 'Active' filter", "Only 'Pay rent' is listed")]


async def test_disappears_closes_struck_through_and_only_listed(tmp_path):
    pages = {name: LIST.replace("NONE", name) for name in ("NONE", "remove", "close", "strike", "filter")}
    j = await replay(tmp_path, pages, LIST_ACTIONS)
    assert passed(j["NONE"]) == 5
    # Each broken page fails exactly at the step whose claim it breaks.
    assert [passed(j[n]) for n in ("remove", "close", "strike", "filter")] == [0, 2, 3, 4]
    assert [c["kind"] for c in j["NONE"]["actions"][0]["assertion"]["claims"]] == ["absent"]


HOVER = """<!doctype html><meta charset="utf-8"><style>button:hover{background:#ffd54f}</style><button id="go">Go</button>
<p id="out">Waiting</p><script>go.onclick = () => {{handler}};</script>"""


async def test_a_sentence_with_nothing_decidable_needs_more_than_hover(tmp_path):
    actions = [act("Click", "Click 'Go'", "Something happens on the page")]
    j = await replay(tmp_path, {"good": HOVER.replace("{handler}", "out.textContent = 'Started'"),
                                "broken": HOVER.replace("{handler}", "0")}, actions)
    assert j["good"]["actions"][0]["assertion"]["method"] == "unverifiable"
    assert passed(j["good"]) == 1 and j["good"]["unverifiable_assertions"] == 1
    assert passed(j["broken"]) == 0  # only the hover colour changed


TWINS = """<!doctype html><meta charset="utf-8"><button id="a" onclick="out.textContent='Saved draft'">Save</button>
<button id="b" onclick="out.textContent='Saved for later'">Save</button><p id="out"></p>"""


async def test_hybrid_asks_its_model_when_two_elements_fit_the_words_equally(tmp_path, fake_openai):
    from iwr.agents.models import ModelConfig

    fake_openai.replies = [json.dumps({"index": 1})]
    model = ModelConfig(model="openai/judge", api_base=fake_openai.base_url, cache_path="off")
    config = JudgeConfig.for_profile("hybrid", model, hints=False, visual=False, probes=False)
    folder = tmp_path / "twins"
    folder.mkdir()
    (folder / "index.html").write_text(TWINS)
    task = {"id": 901, "classification": {"interaction_complexity": "L1", "visual_complexity": "V1", "domain": "t",
                                          "sub_domain": "t"},
            "recording_details": {"resolution": "800x600", "environment": "desktop"}, "source_website": "http://x.test",
            "action_sequence": [act("Click", "Click 'Save'", "The page shows 'Saved for later'")]}
    async with Toolbox(judge_servers(tmp_path / "run", tmp_path)) as tools:
        j = await judge(tools, task, str(folder), str(folder / "index.html"), config)
    grounding = j["actions"][0]["grounding"]
    assert len(fake_openai.requests) == 1 and grounding["strategy"].startswith("llm")
    assert grounding["offline"]["margin"] < 0.15 and j["successful_actions"] == 1
