"""Offline grounding from descriptions: quotes, element kinds, ordinals, Type text, Press keys."""
from iwr.graphs.grounding import key_for, match_description, plans_for, quoted, type_text_of


def el(ref, role, name, text="", tag="button", **kw):
    return {"ref": ref, "role": role, "name": name, "text": text or name, "tag": tag, "id": kw.get("id", ""),
            "classes": kw.get("classes", ""), "bbox": [0, 0, 10, 10], "enabled": kw.get("enabled", True)}


PAGE = [el(0, "link", "Films", tag="a"), el(1, "textbox", "Sum it up in a few words", "", tag="input", id="title"),
        el(2, "button", "Post review"), el(3, "button", "Cancel"),
        el(4, "textbox", "What did you think?", "", tag="textarea", id="body")]
STARS = [el(10 + i, "button", f"{i} stars", "\u2605", classes="star btn") for i in range(1, 11)]


def test_quoted_strings_in_any_quote_style():
    assert quoted("Type 'good movie' into the \"Title\" input") == ["good movie", "Title"]


def test_click_by_quoted_button_name():
    p = match_description("Click the 'Post review' button", PAGE, "Click")
    assert p.args == {"ref": 2} and p.strategy == "text"


def test_type_uses_first_quote_as_text_and_the_rest_for_the_target():
    d = "Type 'The last scene stayed with me.' into the 'What did you think?' box"
    assert type_text_of(d, None) == "The last scene stayed with me."
    assert match_description(d, PAGE, "Type").args == {"ref": 4}


def test_type_never_picks_a_button():
    p = match_description("Type 'x' into the 'Post review' field", PAGE, "Type")
    assert p is None or PAGE[p.args["ref"]]["role"] == "textbox"


def test_ordinal_picks_the_ninth_star():
    p = match_description("Click the 9th star to set the rating to 9/10", PAGE + STARS, "Click")
    assert p is not None and p.args == {"ref": 19} and p.strategy == "text.ordinal"


def test_unmatched_description_gives_no_plan():
    assert match_description("Click the 'Checkout' button", PAGE, "Click") is None


def test_plans_order_hint_then_text_then_position():
    action = {"type": "Click", "parameters": {"description": "Click the 'Cancel' button"},
              "iwr": {"target": {"selector": "#cancel", "bbox": [100, 200, 40, 20]}}}
    plans = plans_for(action, PAGE, (640, 400), (1280, 800))
    assert [p.strategy for p in plans] == ["hint.selector", "text", "hint.position"]
    assert plans[2].args == {"x": 60.0, "y": 105.0}


def test_press_key_from_parameter_or_description():
    assert key_for({"key": "ArrowLeft", "description": "x"}) == "ArrowLeft"
    assert key_for({"description": "Press Enter to search"}) == "Enter"
    assert key_for({"description": "Press the Escape key to close the dialog"}) == "Escape"
    assert key_for({"description": "Wiggle the mouse"}) is None


def test_ordinals_need_a_definite_article_and_symbols_are_names():
    from iwr.graphs.grounding import names_agree

    passengers = [el(0, "button", "Fewer passengers \u2212"), el(1, "button", "More passengers +"),
                  el(2, "textbox", "Passengers", tag="input")]
    p = match_description("Click the '+' button to add a second passenger", passengers, "Click")
    assert p is None or p.strategy != "text.ordinal"
    assert names_agree(["+"], "More passengers +") and not names_agree(["+"], "Fewer passengers \u2212")
    assert names_agree(["Post review"], "Post review") and not names_agree(["Checkout"], "Post review")


def test_ordinal_ignores_the_container_of_the_group():
    stars = [dict(el(10 + i, "button", f"{i} stars", "\u2605", id=f"star-{i}"), bbox=[100 + 30 * i, 50, 28, 28])
             for i in range(1, 11)]
    box = dict(el(9, "radiogroup", "Rating", id="stars"), bbox=[100, 50, 400, 28])
    p = match_description("Click the 9th star", [box, *stars], "Click")
    assert p.args == {"ref": 19}
