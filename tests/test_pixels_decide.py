"""The judge decides from pixels (issue 25): a text is shown only if taking its ink away changes the
pixels where it is; raster pixels whose source is not a task asset are pictures wherever the page
paints them; and 'something changed' needs a visible change outside pictures."""
from __future__ import annotations

import base64
import io
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageOps

from iwr.evals.judging.artifact import judge_servers
from iwr.agents.toolbox import Toolbox
from iwr.graphs.judge import JudgeConfig, judge
from iwr.graphs.pictures import asset_digests, asset_paths, bare_sheet, sort_rasters
from iwr.mcp_servers.browser import actions
from iwr.mcp_servers.browser.hub import BrowserHub

pytestmark = pytest.mark.slow

SHOWN = ["plain words", "x", "gradient text", "light grey", "below the fold"]
HIDDEN = ["fill transparent", "filter zero", "clip polygon", "scaled away", "covered words", "near white",
          "masked words", "opacity low", "behind a picture"]
WORDS = """<!doctype html><body style="margin:0;font:16px sans-serif">
<p>plain words</p>
<p style="-webkit-text-fill-color:transparent">fill transparent</p>
<p style="filter:opacity(0)">filter zero</p>
<p style="clip-path:polygon(0 0, 2px 0, 2px 2px)">clip polygon</p>
<p style="transform:scale(0.01)">scaled away</p>
<div style="position:relative;height:30px"><span>covered words</span>
  <div style="position:absolute;inset:0;background:#fff;z-index:2"></div></div>
<p style="color:#fefefe">near white</p>
<div style="display:flex;align-items:center;height:40px"><span style="line-height:0;font-size:30px">x</span></div>
<p style="background:linear-gradient(90deg,red,blue);-webkit-background-clip:text;color:transparent">gradient text</p>
<p style="color:#bbb">light grey</p>
<p style="-webkit-mask-image:linear-gradient(transparent,transparent)">masked words</p>
<p style="opacity:0.02">opacity low</p>
<div style="position:relative;height:40px"><span>behind a picture</span>
  <img src="look.png" style="position:absolute;left:0;top:0;width:300px;height:40px"></div>
<input value="typed here"><input value="typed unseen" style="-webkit-text-fill-color:transparent">
<p style="position:absolute;top:2000px">below the fold</p>
</body>"""


@pytest.fixture
def look(suite_dir, tmp_path) -> Path:
    """A folder with a picture of a page in it (a checkpoint of task 1, as a coder's frames look)."""
    page = tmp_path / "page"
    page.mkdir()
    shutil.copy(suite_dir / "data" / "1" / "checkpoints" / "step_0.png", page / "look.png")
    return page


async def test_words_count_where_taking_their_ink_away_changes_pixels(look):
    (look / "index.html").write_text(WORDS)
    async with BrowserHub() as hub:
        s = await hub.open(str(look / "index.html"), width=700, height=760)
        view = await actions.observe(s)
        texts, values = [t["t"] for t in view["texts"]], [f["value"] for f in view["fields"]]
        checks = [{"kind": "text_visible", "text": w} for w in SHOWN + HIDDEN]
        verdicts = [r["ok"] for r in await actions.run_checks(s, checks)]
    assert texts == SHOWN  # the 'x' of a box 0 px tall is seen; every hidden way is not
    assert values == ["typed here", ""]  # a value nobody can read is no value
    assert verdicts == [True] * len(SHOWN) + [False] * len(HIDDEN)



async def test_the_veil_is_out_of_the_page_s_reach(tmp_path):
    """A page that rewrites every node added to it (the calibration's 'wrong value' mutant bumps digits,
    which would turn the veil's `:nth-child(2)` into `:nth-child(3)`) neither sees nor spoils the sheet
    that takes ink away: its typed value and its words are still seen, and it heard of nothing."""
    (tmp_path / "index.html").write_text(
        '<!doctype html><body style="margin:0;font:16px sans-serif"><p>first words</p><p>second words</p>'
        '<input value="typed here"><script>window.heard = [];'
        'new MutationObserver((rs) => { for (const r of rs) for (const n of r.addedNodes) {'
        '  heard.push(String(n.textContent)); n.textContent = String(n.textContent).replace(/\\d/g, "7"); } })'
        '.observe(document, {subtree: true, childList: true, characterData: true});</script></body>')
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "index.html"), width=600, height=300)
        view = await actions.observe(s)
        await actions.screenshot(s, "shot")
        heard = await s.page.evaluate("heard")
    assert [t["t"] for t in view["texts"]] == ["first words", "second words"]
    assert [f["value"] for f in view["fields"]] == ["typed here"]
    assert heard == []  # no node of ours: the veil and the caret's sheet are the inspector's


async def test_a_new_document_gets_a_new_veil_and_our_scripts_anew(tmp_path):
    """The veil's sheet and the functions our world keeps belong to one document: after the page
    replaced its document, hidden words are still unseen and shown ones seen (a stale sheet would
    take no ink away, so every word would look hidden; a stale function name would throw)."""
    (tmp_path / "index.html").write_text(
        '<!doctype html><body style="margin:0;font:16px sans-serif"><p>before the reload</p>'
        '<p style="-webkit-text-fill-color:transparent">ghost words</p></body>')
    (tmp_path / "next.html").write_text(
        '<!doctype html><body style="margin:0;font:16px sans-serif"><p>after the reload</p>'
        '<p style="filter:opacity(0)">hidden words</p></body>')
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "index.html"), width=600, height=300)
        first = await actions.observe(s)
        async with s.page.expect_navigation(wait_until="load"):  # the old document is loaded already: wait for the new one
            await s.page.evaluate("location.href = 'next.html'")
        second = await actions.observe(s)
        await s.page.reload()
        third = await actions.observe(s)
    assert [t["t"] for t in first["texts"]] == ["before the reload"]
    assert [t["t"] for t in second["texts"]] == [t["t"] for t in third["texts"]] == ["after the reload"]

DIALOGS = """<!doctype html><body style="margin:0;font:16px sans-serif">
<div role="dialog">Saved for later</div>
<div role="dialog" style="-webkit-text-fill-color:transparent">Ghost dialog</div>
<div class="modal" style="position:fixed;top:200px;filter:opacity(0)">Hidden modal</div>
<div role="dialog" aria-label="bare"><span style="display:inline-block;width:40px;height:40px;background:#345"></span></div>
<button class="active">Shown tab</button><button class="active" style="clip-path:polygon(0 0,1px 0,1px 1px)">Clipped tab</button>
</body>"""


async def test_dialogs_and_selected_elements_show_where_their_words_do(tmp_path):
    (tmp_path / "index.html").write_text(DIALOGS)
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "index.html"), width=700, height=500)
        view = await actions.observe(s)
    # a dialog whose words nobody sees is no dialog; one without words is judged by its styles
    assert view["dialogs"] == ["Saved for later", ""]
    assert view["states"] == ["Shown tab"]

PICTURES = {
    "pseudo_background": "<style>body::before{content:'';position:fixed;inset:0;background:url(look.png) 0 0/100% 100%}"
                         "</style><p>Reviews</p>",
    "img_under_glass": "<img src='look.png' style='position:fixed;inset:0;width:100%;height:100%'>"
                       "<div style='position:fixed;inset:0'>Post review Movie title</div>",
    "border_image": "<div style='position:fixed;inset:0;border:400px solid;border-image:url(look.png) 30% stretch'></div>",
    "content_url": "<style>div::after{content:url(look.png)}</style><div></div>",
    "svg_with_raster": "<img src='inside.svg' style='position:fixed;inset:0;width:100%;height:100%'>",
    "mask_of_a_picture": "<div style='position:fixed;inset:0;background:#234;mask-image:url(look.png);"
                         "mask-mode:luminance;mask-size:100% 100%'></div>",
}
CANVAS = ("<canvas id=c style='position:fixed;inset:0'></canvas><script>const c = document.getElementById('c');"
          "c.width = innerWidth; c.height = innerHeight; const g = c.getContext('2d'); const im = new Image();"
          "im.onload = () => {{ {draw} }}; im.src = '{src}';</script>")
# The frame at 97 %, a few pixels off, with noise on every pixel: no longer the frame's pixels, still a picture.
DISTORT = ("g.drawImage(im, 7, 5, c.width * 0.97, c.height * 0.97); const d = g.getImageData(0, 0, c.width, c.height);"
           "for (let i = 0; i < d.data.length; i += 4) {{ const n = (i * 7919 % 13) - 6; d.data[i] += n; d.data[i + 1] += n;"
           " d.data[i + 2] += n; }} g.putImageData(d, 0, 0);")
PICTURES["canvas_distorted"] = CANVAS.format(draw=DISTORT, src="look.png")


def _cells(colours: list[list[str]], size: int) -> str:
    rows = "".join("<div style='display:flex'>" + "".join(
        f"<div style='width:{size}px;height:{size}px;background:{c}'></div>" for c in row) + "</div>" for row in colours)
    return f"<div style='position:fixed;inset:0'>{rows}</div>"


def _mosaic(path: Path, size: int = 16) -> str:
    """The picture as solid-colour cells, sampled in Python as a coder could: no raster at all."""
    im = Image.open(path).convert("RGB").resize((800 // size, 600 // size))
    return _cells([[f"rgb{im.getpixel((x, y))}" for x in range(im.width)] for y in range(im.height)], size)
HONEST = {
    "canvas_of_an_asset": CANVAS.format(draw="g.fillStyle = '#eee'; g.fillRect(0, 0, 300, 200);"
                                             "g.drawImage(im, 20, 20, 200, 150); g.fillText('Board', 30, 190);", src="hero.png"),
    "canvas_drawn": CANVAS.format(draw="", src="hero.png").replace("const im", "g.fillRect(10, 10, 300, 200); const im"),
    "asset_background": "<div style='position:fixed;inset:0;background:url(hero.png) 0 0/100% 100%'></div><p>Hi</p>",
    "own_svg": "<img src='drawn.svg' style='width:400px;height:300px'><p>Hello</p>",
    "gradient": "<div style='position:fixed;inset:0;background:linear-gradient(red,blue)'></div>",
    "board_of_cells": _cells([["#222" if (x * 7 + y * 3) % 5 else "#eee" for x in range(40)] for y in range(30)], 20),
}


@pytest.mark.parametrize("name", sorted([*PICTURES, "css_mosaic"]) + sorted(HONEST))
async def test_pictures_are_found_by_where_their_pixels_come_from(look, tmp_path, name):
    task = tmp_path / "task"
    (task / "assets").mkdir(parents=True)
    shutil.copy(look / "look.png", task / "assets" / "1.png")
    (look / "hero.png").write_bytes((look / "look.png").read_bytes())  # the task's asset under another name
    (look / "look.png").write_bytes((look / "look.png").read_bytes() + b"\0")  # a copy that is no asset
    b64 = base64.b64encode((look / "look.png").read_bytes()).decode()
    (look / "inside.svg").write_text(f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>"
                                     f"<image href='data:image/png;base64,{b64}' width='10' height='10'/></svg>")
    (look / "drawn.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>"
                                    "<rect width='10' height='10' fill='#c33'/><circle cx='5' cy='5' r='3'/></svg>")
    html = _mosaic(look / "look.png") if name == "css_mosaic" else {**PICTURES, **HONEST}[name]
    (look / "index.html").write_text("<!doctype html><body style='margin:0'>" + html + "</body>")
    async with BrowserHub() as hub:
        s = await hub.open(str(look / "index.html"), width=800, height=600)
        await actions.settle(s)
        assets = asset_digests(task)
        # the listing a screenshot brings (read while its capture waits for the frame) is the rasters tool's
        _, _, listed = await actions.checked_screenshot(s, "shot", assets=asset_paths(look.resolve(), assets))
        seen = await actions.rasters(s, asset_paths(look.resolve(), assets))
        assert listed == seen and seen["rasters"] == listed["rasters"]
        sheet = bare_sheet(sort_rasters(seen, look.resolve(), assets), [])
        got = await actions.bare(s, sheet, "bare") if sheet else {"share": 0.0}
    if name in HONEST:
        assert sheet == "" and got["share"] == 0.0
    else:
        assert got["share"] > 0.1, sheet  # (a white page's picture changes only where it has ink)


CLICK = {"type": "Click", "parameters": {"description": "Click the 'Next' button"}, "visual_evaluation_flag": False,
         "logical_assertion": "The page updates."}
SWAP = """<!doctype html><body style="margin:0"><button onclick="{js}">Next</button><p id="t">first words</p>
<img id="i" src="a.png" style="width:600px;height:400px"></body>"""


async def test_something_changed_only_where_a_person_sees_it_outside_pictures(look, tmp_path):
    task = {"id": 901, "classification": {"interaction_complexity": "L1", "visual_complexity": "V1", "domain": "test",
                                          "sub_domain": "test"},
            "recording_details": {"resolution": "800x600", "environment": "desktop"}, "source_website": "http://x.test",
            "action_sequence": [CLICK]}
    pages = {"text": "document.getElementById('t').textContent = 'second words'",
             "picture": "document.getElementById('i').src = 'b.png'", "nothing": ""}
    out = {}
    async with Toolbox(judge_servers(tmp_path / "run", tmp_path)) as tools:
        for name, js in pages.items():
            folder = tmp_path / name
            folder.mkdir()
            shutil.copy(look / "look.png", folder / "a.png")
            (folder / "b.png").write_bytes(_flipped(folder / "a.png"))
            (folder / "index.html").write_text(SWAP.replace("{js}", js))
            out[name] = await judge(tools, task, str(tmp_path), str(folder / "index.html"),
                                    JudgeConfig(hints=False, visual=False, probes=False))
    verdict = {n: j["actions"][0].get("assertion", {}) for n, j in out.items()}
    assert out["text"]["successful_actions"] == 1, verdict["text"]
    assert verdict["text"]["decided_by"] == "undecided" and verdict["text"]["method"] == "unverifiable"
    assert verdict["text"]["changed_share"] > 0  # no recording here: the pixels outside pictures decided
    assert out["picture"]["successful_actions"] == 0, verdict["picture"]  # one picture for the next is no change
    assert out["nothing"]["successful_actions"] == 0
    assert out["picture"]["unverifiable_assertions"] == 1


def _flipped(path: Path) -> bytes:
    buf = io.BytesIO()
    ImageOps.invert(Image.open(path).convert("RGB")).save(buf, "PNG")
    return buf.getvalue()


async def test_a_submit_input_without_a_value_is_named_as_the_browser_labels_it(tmp_path):
    """`<input type=submit>` shows 'Submit' though it has no value: a person reads that label, and
    'Click the Submit button' finds it."""
    from iwr.graphs.grounding import match_description

    (tmp_path / "index.html").write_text('<!doctype html><form><input name="who"><input type="submit"><input type="reset">'
                                         '<input type="submit" value="Send"></form>')
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "index.html"), width=500, height=300)
        els = await actions.list_elements(s)
    assert [e["name"] for e in els if e["tag"] == "input"][1:] == ["Submit", "Reset", "Send"]
    plan = match_description("Click the Submit button without filling anything in", els, "Click")
    assert els[plan.args["ref"]]["name"] == "Submit"


TOGGLES = """<!doctype html><body style="margin:0;font:16px sans-serif">
<style>.toggle{visibility:hidden}.label{display:inline-block;width:80px;height:40px;background:#d0d0d0;border-radius:40px}
.toggle:checked + .label{background:#8e44ad}</style>
<div><input type="checkbox" id="good" class="toggle"><label for="good" class="label"></label><span>Good</span></div>
<div><input type="checkbox" id="fast" class="toggle"><label for="fast" class="label"></label><span>Fast</span></div>
</body>"""


async def test_a_label_drawn_as_a_toggle_is_the_box_named_by_the_words_beside_it(tmp_path):
    """A hidden box with a label drawn in its place (a styled toggle): a person sees a switch named
    'Fast' by the word beside it, and sees it turn purple; the judge lists and observes it so."""
    (tmp_path / "index.html").write_text(TOGGLES)
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "index.html"), width=600, height=300)
        listed = {e["name"]: e for e in await actions.list_elements(s) if e["tag"] == "label"}
        before = await actions.observe(s)
        await s.page.click("label[for=fast]")
        after = await actions.observe(s)
    assert set(listed) == {"Good", "Fast"} and listed["Fast"]["role"] == "checkbox"
    look = lambda v: {f["label"]: (f["checked"], f["s"].split("|")[1]) for f in v["fields"]}  # noqa: E731
    assert look(before)["Fast"] == (False, "rgb(208, 208, 208)")
    assert look(after)["Fast"] == (True, "rgb(142, 68, 173)") and look(after)["Good"][0] is False


HELD = """<!doctype html><body style="margin:0;font:16px sans-serif">
<p>plain words</p><p style="-webkit-text-fill-color:transparent">fill transparent</p>
<p style="filter:opacity(0)">filter zero</p><input id="f" value="typed here">
<div id="spin" style="width:20px;height:20px;background:#345;animation:spin 1s linear infinite"></div>
<style>@keyframes spin { to { transform: rotate(360deg) } }</style>{extra}</body>"""
HELD_CHECKS = [{"kind": "text_visible", "text": "plain words"}, {"kind": "text_visible", "text": "fill transparent"},
               {"kind": "text_absent", "text": "filter zero"}, {"kind": "value", "selector": "#f", "equals": "typed here"}]


def _count_holds(monkeypatch) -> list:
    """Every time the judge's world holds the page still (the PREPARE script), recorded."""
    from iwr.mcp_servers.browser import capture, world
    holds, call = [], world.call

    async def counting(session, fn, arg=None):
        if fn == capture.PREPARE:
            holds.append(fn)
        return await call(session, fn, arg)
    monkeypatch.setattr(world, "call", counting)
    return holds


@pytest.mark.parametrize("extra,holds_expected", [("", 1), ('<img src="look.png" style="position:absolute;left:95px;top:18px;width:10px;height:10px">', 3)],
                         ids=["held", "picture_near"])
async def test_a_screenshot_decides_its_checks_on_the_page_it_shows(look, monkeypatch, extra, holds_expected):
    """Checks sent with a screenshot are decided while the page is still held as it was shot: the verdicts
    the check tool gives, at one hold of the page instead of two. Where a picture lies in the words'
    region (it may move with no DOM change, so the pixels need the page let go for a third capture) they
    are decided after it, as the check tool does. Either way the page is let go afterwards: its animation
    runs and the words' ink is back."""
    (look / "index.html").write_text(HELD.replace("{extra}", extra))
    async with BrowserHub() as hub:
        s = await hub.open(str(look / "index.html"), width=500, height=300)
        await actions.click(s, selector="#f")  # a field takes typing: the caret's sheet is laid for the shot too
        holds = _count_holds(monkeypatch)
        _, together, _ = await actions.checked_screenshot(s, "shot", checks=HELD_CHECKS)
        held = len(holds)
        s.ink_memo = s.last_shot = None  # the check tool decides afresh
        alone = await actions.run_checks(s, HELD_CHECKS)
        running = await s.page.evaluate("document.getAnimations().map((a) => a.playState)")
        ink = await s.page.evaluate("getComputedStyle(document.querySelector('p')).color")
    assert [r["ok"] for r in together] == [r["ok"] for r in alone] == [True, False, True, True]
    assert held == holds_expected  # with the picture: the shot's, the check's and its third capture's
    assert running == ["running"] and ink == "rgb(0, 0, 0)"


def _frames_page(folder: Path, n: int) -> None:
    """A page whose picture is a pseudo-element's background, swapped for the next frame (fetched from
    the page's server) on each click, with words kept transparent over it."""
    for k in range(n):
        im = Image.new("RGB", (400, 300), (40 + 15 * k, 200 - 12 * k, 120))
        for x in range(0, 400, 7):  # texture, so frames differ everywhere
            im.paste((255 - 10 * k, 20 * k % 255, x % 255), (x, 0, x + 2, 300))
        im.save(folder / f"f{k}.png")
    rules = "".join(f"#pic[data-s='{k}']::{('before', 'after')[k % 2]}{{background-image:url(f{k}.png)}} "
                    f"#pic[data-s='{k}']::{('after', 'before')[k % 2]}{{display:none}} " for k in range(n))
    (folder / "index.html").write_text(
        "<!doctype html><style>body{margin:0} #pic{position:fixed;inset:0 auto auto 0;width:400px;height:300px}"
        "#pic::before,#pic::after{content:'';position:absolute;inset:0;background-size:400px 300px} " + rules +
        "#w{position:absolute;left:40px;top:120px;color:transparent;font:16px sans-serif;z-index:2}"
        "#go{position:absolute;left:300px;top:250px;z-index:2}</style><div id=pic data-s=0></div>"
        "<span id=w>Please add a title</span><button id=go>Next</button>"
        f"<script>let k = 0; go.onclick = () => {{ k = (k + 1) % {n}; pic.dataset.s = String(k); }};</script>")


async def test_words_over_a_picture_that_arrives_late_stay_unseen(tmp_path):
    """A picture named by a style rule arrives after the click that names it, changing pixels with no
    change to the DOM. A verdict made while it was on its way compared a capture from before it came
    with one from after, and was remembered for the settled page: transparent words counted as shown
    in about one round in ten. Now such a shot is taken again and no verdict made on it is kept."""
    _frames_page(tmp_path, 12)
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        s = await hub.open(str(tmp_path / "index.html"), 400, 300)
        await actions.checked_screenshot(s, "s0")
        seen = []
        for i in range(40):
            await actions.click(s, selector="#go")
            _, (result,), _ = await actions.checked_screenshot(s, f"s{i}", checks=[{"kind": "text_visible",
                                                                               "text": "Please add a title"}])
            seen.append(result["ok"])
        assert not any(seen), f"transparent words counted as shown in {sum(seen)} of 40 rounds"


MARK = """<!doctype html><style>button:hover{background:#222;color:#fff} #c{width:90px;height:90px;border:2px solid #999;position:relative}
#c.x::before,#c.x::after{content:'';position:absolute;left:40px;top:5px;width:10px;height:80px;background:#000;transform:rotate(45deg)}
#c.x::after{transform:rotate(-45deg)}</style><body><button onclick="{js}">Mark</button><div id="c"></div></body>"""


async def test_a_mark_drawn_without_words_is_a_change_and_a_hover_is_not(tmp_path):
    """The cell gets a class that draws an X (no text, no picture): the page's own change, which its
    pixels show. The button darkening under the mouse is a hover, not a change."""
    mark = {"type": "Click", "parameters": {"description": "Click the 'Mark' button"}, "visual_evaluation_flag": False,
            "logical_assertion": "A black X is drawn in the box."}
    task = {"id": 902, "classification": {"interaction_complexity": "L1", "visual_complexity": "V1", "domain": "test",
                                          "sub_domain": "test"},
            "recording_details": {"resolution": "800x600", "environment": "desktop"}, "source_website": "http://x.test",
            "action_sequence": [mark]}
    out = {}
    async with Toolbox(judge_servers(tmp_path / "run", tmp_path)) as tools:
        for name, js in {"drawn": "document.getElementById('c').className = 'x'", "hover": ""}.items():
            folder = tmp_path / name
            folder.mkdir()
            (folder / "index.html").write_text(MARK.replace("{js}", js))
            out[name] = await judge(tools, task, str(tmp_path), str(folder / "index.html"),
                                    JudgeConfig(hints=False, visual=False, probes=False))
    verdict = {n: j["actions"][0].get("assertion", {}) for n, j in out.items()}
    assert verdict["drawn"]["decided_by"] == "undecided", verdict["drawn"]
    assert out["drawn"]["successful_actions"] == 1, verdict["drawn"]
    assert out["hover"]["successful_actions"] == 0, verdict["hover"]
