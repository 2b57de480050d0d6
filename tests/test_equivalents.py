"""Equivalent sites (evals/quality/equivalents.py) behave exactly like their references.

Every bundled action script is replayed on the reference and on its equivalent side by side, with
the project's browser functions, seeded Math.random and the recorder's clock. After every step the visible
text, every field's value and every structured check (selectors translated) must agree, and the
class/id structure of the live DOM must be the reference's, renamed. The equivalent must also
really differ: renamed names, other HTML, another body font, other colours.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from iwr.evals.quality.equivalents import make_equivalent, translate_selector
from iwr.mcp_servers.browser import actions
from iwr.mcp_servers.browser.hub import BrowserHub, Session
from iwr.tasks import defaults
from iwr.tasks.script import ScriptAction, load_script

SITES = Path(__file__).resolve().parent.parent / "tasks" / "sites"
SCRIPTED = sorted(p.name for p in SITES.iterdir() if p.is_dir() and any((p / "tasks").glob("*.yaml")))
MIN_RENAMED = 0.75  # share of the ids and classes in the loaded page that get a new name

STATE = """() => ({
  text: (document.body ? document.body.innerText : '').replace(/\\s+/g, ' ').trim(),
  values: Array.from(document.querySelectorAll('input, textarea, select')).map(
    (e) => (e.type === 'checkbox' || e.type === 'radio') ? e.type + ':' + e.checked : e.value),
  hash: location.hash,
  names: Array.from(document.querySelectorAll('[id], [class]')).map(
    (e) => [e.id, Array.from(e.classList).sort().join(' ')]),
})"""

LOOK = """() => {
  const colours = new Set();
  for (const el of document.querySelectorAll('body, body *')) {
    const s = getComputedStyle(el);
    colours.add(s.color); colours.add(s.backgroundColor); colours.add(s.borderTopColor);
  }
  return {font: getComputedStyle(document.body).fontFamily, colours: Array.from(colours).sort()};
}"""


def rename(name: str, renames: dict[str, str]) -> str:
    return translate_selector("." + name, renames)[1:] if name else name


def translate_check(check: dict, renames: dict[str, str]) -> dict:
    out = dict(check)
    if out.get("selector"):
        out["selector"] = translate_selector(out["selector"], renames)
    if out.get("kind") == "url_contains" and re.fullmatch(r"#[\w-]+", out.get("text") or ""):
        out["text"] = translate_selector(out["text"], renames)
    return out


async def act(s: Session, a: ScriptAction, target: str | None) -> None:
    """One script step, as the recorder performs it."""
    if a.type in ("Click", "Type"):
        await actions.click(s, selector=target)
        if a.type == "Type":
            await s.page.keyboard.type(a.text or "")
    elif a.type == "Press":
        await actions.press(s, a.key or "")
    else:
        await actions.scroll(s, a.direction, a.amount)
    await actions.settle(s, a.wait_ms)


async def compare(ref: Session, alt: Session, renames: dict[str, str], where: str) -> None:
    r, e = await ref.page.evaluate(STATE), await alt.page.evaluate(STATE)
    assert e["text"] == r["text"], f"{where}: visible text differs"
    assert e["values"] == r["values"], f"{where}: field values differ"
    assert e["hash"] == r["hash"], f"{where}: URL fragment differs"
    # As a multiset: reordered flex/grid items change the DOM order on purpose.
    expected = sorted([rename(i, renames), " ".join(sorted(rename(c, renames) for c in cls.split()))]
                      for i, cls in r["names"])
    assert sorted(e["names"]) == expected, f"{where}: the DOM's ids/classes are not the reference's, renamed"


def test_translate_selector_and_determinism(tmp_path: Path) -> None:
    a = make_equivalent(SITES / "shop", tmp_path / "a", seed=3)
    b = make_equivalent(SITES / "shop", tmp_path / "b", seed=3)
    c = make_equivalent(SITES / "shop", tmp_path / "c", seed=4)
    assert a.renames == b.renames and a.renames != c.renames
    assert (tmp_path / "a" / "index.html").read_text() == (tmp_path / "b" / "index.html").read_text()
    sel = translate_selector("#cart-drawer:not([hidden]) .cart-line", a.renames)
    assert "cart-drawer" not in sel and ":not([hidden]) ." in sel
    # Ids completed at run time keep their family's new prefix, which keeps its length (code slices ids).
    new = translate_selector("#add-merino-socks", a.renames)
    assert new.endswith("merino-socks") and len(new) == len("#add-merino-socks") and new != "#add-merino-socks"
    assert not (tmp_path / "a" / "tasks").exists() and (tmp_path / "a" / "assets" / "ridge-tent.jpg").is_file()
    with pytest.raises(FileExistsError):
        make_equivalent(SITES / "shop", tmp_path / "a")


@pytest.mark.slow
@pytest.mark.parametrize("site", SCRIPTED)
async def test_equivalent_replays_like_reference(site: str, tmp_path: Path) -> None:
    eq = make_equivalent(SITES / site, tmp_path / "equivalent", seed=0)
    assert (eq.folder / eq.page).read_text() != (SITES / site / eq.page).read_text()
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        for path in sorted((SITES / site / "tasks").glob("*.yaml")):
            script = load_script(path)
            w, h = script.size
            ref = await hub.open(str(SITES / site / script.page), w, h, seed=defaults.SEED, clock=defaults.RECORDING_CLOCK)
            alt = await hub.open(str(eq.folder / script.page), w, h, seed=defaults.SEED, clock=defaults.RECORDING_CLOCK)
            assert not ref.page_errors and not alt.page_errors, (ref.page_errors, alt.page_errors)
            await actions.settle(ref)
            await actions.settle(alt)
            await compare(ref, alt, eq.renames, f"{path.name} on load")

            look_r, look_e = await ref.page.evaluate(LOOK), await alt.page.evaluate(LOOK)
            assert look_e["font"] != look_r["font"]
            assert look_e["colours"] != look_r["colours"]
            names = {n for i, cls in (await ref.page.evaluate(STATE))["names"] for n in [i, *cls.split()] if n}
            renamed = sum(rename(n, eq.renames) != n for n in names)
            assert renamed >= MIN_RENAMED * len(names), f"only {renamed} of {len(names)} names renamed"

            for i, a in enumerate(script.actions, 1):
                where = f"{path.name} step {i} ({a.type} {a.target or a.key or a.direction})"
                await act(ref, a, a.target)
                await act(alt, a, translate_selector(a.target, eq.renames) if a.target else None)
                await compare(ref, alt, eq.renames, where)
                if a.checks:
                    got_r = await actions.run_checks(ref, a.checks)
                    got_e = await actions.run_checks(alt, [translate_check(c, eq.renames) for c in a.checks])
                    assert all(x["ok"] for x in got_r), f"{where}: the reference fails its own checks {got_r}"
                    assert [x["ok"] for x in got_e] == [x["ok"] for x in got_r], f"{where}: checks differ {got_e}"
            assert not alt.page_errors, alt.page_errors
            await hub.close(ref.id)
            await hub.close(alt.id)


def test_script_tokens_come_from_a_real_javascript_parser():
    from iwr.evals.quality.equiv.jstokens import tokenize

    src = "if (ok) /it's/.test(s); el.id = 'main'; n = a / b / c; t = `x${ `y${id}` }z`"
    toks = tokenize(src)
    # after `)` a slash starts a regular expression here, so the quote inside it opens no string
    assert [t.text for t in toks if t.kind == "regex"] == ["/it's/"]
    assert [t.value(src) for t in toks if t.kind == "str"] == ["main", "x", "y", "", "z"]
    assert [t.text for t in toks if t.kind == "punct" and t.text == "/"] == ["/", "/"]
    assert tokenize("é = 'ü'; x = 'ß'")[-1].value("é = 'ü'; x = 'ß'") == "ß"  # offsets in characters, not bytes
