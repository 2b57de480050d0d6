"""An action sent with the quoted names of its target (`named`) is done only on an element that
carries one of them; otherwise it fails having done nothing, so the grounder can try its next plan."""
from __future__ import annotations

import pytest

from iwr.mcp_servers.browser import actions
from iwr.mcp_servers.browser.actions import ActionFailed
from iwr.mcp_servers.browser.hub import BrowserHub

PAGE = """<!doctype html><body style="margin:0">
<button id="save" style="position:absolute;left:10px;top:10px;width:100px;height:30px" onclick="n.textContent++">Save draft</button>
<button id="del" style="position:absolute;left:10px;top:60px;width:100px;height:30px" onclick="n.textContent+='x'">Delete</button>
<label style="position:absolute;left:10px;top:110px">Email <input id="mail" placeholder="you@example.com"></label>
<select id="month" style="position:absolute;left:10px;top:160px" aria-label="Month"><option>Jan</option><option>Feb</option></select>
<p id="n" style="position:absolute;left:10px;top:200px">0</p></body>"""


async def test_named_actions_act_only_on_what_carries_the_name(tmp_path):
    (tmp_path / "p.html").write_text(PAGE, encoding="utf-8")
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "p.html"), 400, 260)
        count = lambda: s.page.text_content("#n")  # noqa: E731
        with pytest.raises(ActionFailed, match="named like"):
            await actions.click(s, selector="#del", named=["Save draft"])
        with pytest.raises(ActionFailed, match="named like"):
            await actions.click(s, x=60, y=75, named=["save"])  # the point is on 'Delete'
        assert await count() == "0", "a refused click clicked"
        await actions.click(s, selector="#save", named=["Save draft"])
        await actions.click(s, x=60, y=25, named=["save"])  # folded words: 'save' meets 'Save draft'
        assert await count() == "2"
        with pytest.raises(ActionFailed, match="named like"):
            await actions.type_text(s, "a@b.c", selector="#mail", named=["Password"])
        assert await s.page.input_value("#mail") == ""
        await actions.type_text(s, "a@b.c", selector="#mail", named=["Email"])  # its label names it
        assert await s.page.input_value("#mail") == "a@b.c"
        with pytest.raises(ActionFailed, match="named like"):
            await actions.select_option(s, "Feb", selector="#month", named=["Year"])
        await actions.select_option(s, "Feb", selector="#month", named=["Month"])
        assert await s.page.input_value("#month") == "Feb"
        await actions.click(s, selector="#del")  # without names, as before
        assert await count() == "2x"


FAR = """<!doctype html><body style="margin:0">
<div style="height:1500px"></div><button id="far" onclick="n.textContent+='f'">Send invoice</button>
<div id="box" style="position:absolute;left:0;top:0;width:200px;height:60px;overflow:auto">
  <div style="height:300px"></div><button id="inner" onclick="n.textContent+='i'">Archive</button></div>
<p id="n" style="position:absolute;left:300px;top:10px">0</p></body>"""


async def test_a_named_action_scrolls_nothing_until_the_name_fits(tmp_path):
    """The name is read and the click point found in one evaluation only where nothing needs scrolling;
    an element below the fold or clipped by a scrolling box is scrolled to only once its name fits."""
    (tmp_path / "p.html").write_text(FAR, encoding="utf-8")
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "p.html"), 400, 300)
        scrolled = lambda: s.page.evaluate("() => [scrollY, document.getElementById('box').scrollTop]")  # noqa: E731
        for selector in ("#far", "#inner"):
            with pytest.raises(ActionFailed, match="named like"):
                await actions.click(s, selector=selector, named=["Delete everything"])
            with pytest.raises(ActionFailed, match="named like"):
                await actions.type_text(s, "x", selector=selector, named=["Delete everything"])
        assert await scrolled() == [0, 0], "a refused action scrolled the page"
        await actions.click(s, selector="#inner", named=["Archive"])
        await actions.click(s, selector="#far", named=["Send invoice"])
        assert await s.page.text_content("#n") == "0if"
        y, top = await scrolled()
        assert y > 0 and top > 0
