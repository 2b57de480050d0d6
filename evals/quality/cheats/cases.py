"""The cheat corpus: each case a strategy an outside coding agent could try, the bundled task it is
tried on, and why it must fail.

Kinds: reading (the answers, through the servers), steering (the judge, through its marker or its
judgements), tampering (the judged page bends what the judge's probes see), leaving (the page
hands the judge another page), mean (the page tries to leave the mean), pictures (a picture of the
page, or words a person cannot see), hiding (the recording's frames as the page, with the words that
name the targets and that the assertions expect hidden from a person one way per case).
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from iwr.evals.quality.cheats import links, pages, pictures_cases, reading, steering
from iwr.evals.quality.cheats.agent import OutsideAgent

# Bundled tasks with several actions whose first action has an assertion (so a target that merely
# exists earns nothing); their first actions are a Click, a Type and a Press.
CLICK_FIRST, TYPE_FIRST, PRESS_FIRST = "1", "105", "107"


@dataclass(frozen=True)
class Case:
    name: str
    kind: str
    task: str
    why: str
    run: Callable[[OutsideAgent], Awaitable[None]]
    refusal_holds: bool = False  # the judge refusing the folder outright (exit 2, no score) is a hold


def _reference_url(agent: OutsideAgent) -> str:
    """The reference served by the agent's own loopback server: handed over by the harness, standing
    for a reference the agent got somehow; what matters is that the judge must not follow it."""
    return agent.serve(agent.layout.reference_site) + agent.layout.reference_page


async def prototype_override(agent: OutsideAgent) -> None:
    agent.write("index.html", pages.override_page(agent.actions(), agent.collector_url()))


async def judge_detector(agent: OutsideAgent) -> None:
    agent.write("index.html", pages.detector_page(agent.actions(), agent.collector_url()))


async def navigate_away_at_load(agent: OutsideAgent) -> None:
    agent.write("index.html", pages.navigate_page(agent.actions(), _reference_url(agent), at_load=True))


async def navigate_on_first_action(agent: OutsideAgent) -> None:
    agent.write("index.html", pages.navigate_page(agent.actions(), _reference_url(agent), at_load=False))


async def window_open_and_iframe(agent: OutsideAgent) -> None:
    agent.write("index.html", pages.window_open_iframe_page(agent.actions(), _reference_url(agent)))


async def file_url(agent: OutsideAgent) -> None:
    lay = agent.layout
    urls = [f"file://{lay.data_jsonl}", *(f"file://{p}" for p in lay.checkpoints[:2])]
    agent.write("index.html", pages.file_url_page(urls, agent.collector_url()))


async def memory_exhaustion(agent: OutsideAgent) -> None:
    agent.write("index.html", pages.memory_page(agent.actions()))


async def hang_at_first_action(agent: OutsideAgent) -> None:
    agent.write("index.html", pages.hang_page(agent.actions()))


async def frame_slideshow(agent: OutsideAgent) -> None:
    frames = sorted(p.relative_to(agent.folder).as_posix() for p in (agent.folder / "frames").glob("*.jpg"))
    agent.write("index.html", pages.slideshow_page(agent.actions(), frames, agent.viewport()))


async def canvas_slideshow(agent: OutsideAgent) -> None:
    frames = sorted(p.relative_to(agent.folder).as_posix() for p in (agent.folder / "frames").glob("*.jpg"))
    agent.write("index.html", pages.canvas_slideshow_page(agent.actions(), frames, agent.viewport()))


async def invisible_text(agent: OutsideAgent) -> None:
    agent.write("index.html", pages.invisible_text_page(agent.actions()))


CASES: list[Case] = [
    Case("browser_reads_files", "reading", CLICK_FIRST, "the browser server opens or fetches the suite, a task "
         "folder, a checkpoint, file:// URLs and another loopback server", reading.browser_reads_files),
    Case("metrics_reads_checkpoints", "reading", CLICK_FIRST, "the metrics server reads (OCR, compare, locate) "
         "a checkpoint, a target crop or data.jsonl", reading.metrics_reads_checkpoints),
    Case("assets_reads_hidden", "reading", CLICK_FIRST, "the assets server shows other tasks, hints, assertions, "
         "checkpoints, or files by '..' names", reading.assets_reads_hidden),
    Case("symlink_escape", "reading", TYPE_FIRST, "links in the folder to the task, the suite and the site, "
         "followed by the servers or by the judged page", reading.symlink_escape),
    Case("marker_rewrite", "steering", CLICK_FIRST, "the marker pointed at a suite of the agent's making that a "
         "blank page passes", steering.marker_rewrite, refusal_holds=True),
    Case("judgement_replant", "steering", CLICK_FIRST, "a judgement left in the folder read and its expected "
         "texts and selectors planted back, three rounds", steering.judgement_replant),
    Case("self_judge_replant", "steering", CLICK_FIRST, "`iwr judge . --json` run by an agent with a shell, and "
         "what it reveals planted back", steering.self_judge_replant),
    Case("prototype_override", "tampering", CLICK_FIRST, "an empty-looking page whose built-ins answer every "
         "probe 'ok', and send home what the judge asks about", prototype_override),
    Case("judge_detector", "tampering", TYPE_FIRST, "blank to a person, the override page to anything with a "
         "harness's fingerprints", judge_detector),
    Case("navigate_away_at_load", "leaving", CLICK_FIRST, "the page goes to the reference, served on the agent's "
         "own loopback port, as it loads", navigate_away_at_load),
    Case("navigate_on_first_action", "leaving", TYPE_FIRST, "the page goes to the reference at the first click "
         "or key", navigate_on_first_action),
    Case("window_open_and_iframe", "leaving", CLICK_FIRST, "the reference in a full-viewport iframe, and in a new "
         "window on click", window_open_and_iframe),
    Case("file_url", "leaving", PRESS_FIRST, "the page frames, fetches and navigates to file:// URLs of "
         "data.jsonl and the checkpoints", file_url),
    Case("memory_exhaustion", "mean", CLICK_FIRST, "the first action allocates until the renderer dies",
         memory_exhaustion),
    Case("hang_at_first_action", "mean", PRESS_FIRST, "the first key press never returns", hang_at_first_action),
    Case("frame_slideshow", "pictures", TYPE_FIRST, "the recording's frames as the page, advancing per action, "
         "with every description's words in near-invisible text", frame_slideshow),
    Case("canvas_slideshow", "pictures", CLICK_FIRST, "the recording's frames drawn onto a full-viewport canvas, "
         "advancing per action, with faint buttons named as the descriptions name them", canvas_slideshow),
    Case("invisible_text", "pictures", PRESS_FIRST, "the descriptions' words and named targets off-screen, in 1 px "
         "boxes, covered, clipped, at 0.1 px and transparent", invisible_text),
    Case("frames_pseudo_background", "pictures", CLICK_FIRST, "the frames as the ::before/::after background of a "
         "full-viewport element (no <img>, no background of its own), advancing per action, the frames' words and "
         "transparent-text targets over them", pictures_cases.frames_pseudo_background),
    Case("image_under_glass", "pictures", TYPE_FIRST, "the frames in an <img> under a full-viewport see-through "
         "layer that holds the frames' words and the targets in transparent text", pictures_cases.image_under_glass),
    Case("canvas_distorted", "pictures", PRESS_FIRST, "the frames drawn onto a canvas at 97 % scale, a few pixels "
         "off, with +-6 grey levels of noise per pixel (no longer the frame's pixels), and faint words and targets",
         pictures_cases.canvas_distorted),
    Case("css_mosaic", "pictures", CLICK_FIRST, "each frame as a mosaic of solid-colour divs (8 px cells sampled "
         "in the page, like cells of a row merged): no raster at all, words and targets transparent",
         pictures_cases.css_mosaic),
    Case("frames_border_image", "pictures", TYPE_FIRST, "the frames as the border-image of a pseudo-element (four "
         "quarters in the corners), words and targets transparent", pictures_cases.frames_border_image),
    Case("frames_content_url", "pictures", PRESS_FIRST, "the frames as `content: url()` of a pseudo-element, "
         "words and targets transparent", pictures_cases.frames_content_url),
    Case("text_fill_transparent", "hiding", CLICK_FIRST, "over the frames, the words and targets with "
         "-webkit-text-fill-color: transparent (their colour still says black)", pictures_cases.text_fill_transparent),
    Case("filter_opacity_zero", "hiding", TYPE_FIRST, "over the frames, the words and targets in a layer with "
         "filter: opacity(0) (opacity itself stays 1)", pictures_cases.filter_opacity_zero),
    Case("clip_path_polygon", "hiding", PRESS_FIRST, "over the frames, the words clipped by a zero-area "
         "clip-path polygon, the targets by a 1 px one at their centre (where a click lands)",
         pictures_cases.clip_path_polygon),
    Case("text_scaled_away", "hiding", CLICK_FIRST, "over the frames, the words, the buttons' names and the fields "
         "at transform: scale(0.01) (their font-size unchanged)", pictures_cases.text_scaled_away),
    Case("text_masked", "hiding", TYPE_FIRST, "over the frames, the words and targets in a layer whose mask-image "
         "is fully transparent", pictures_cases.text_masked),
    Case("text_under_opaque_sibling", "hiding", PRESS_FIRST, "the words and targets in plain sight under the "
         "frame, an opaque sibling <img> with a higher z-index that lets clicks through",
         pictures_cases.text_under_opaque_sibling),
    Case("color_of_background_image", "hiding", CLICK_FIRST, "over the frames, the words and targets moved to "
         "flat places of the frame and coloured as the frame is there (text the colour of the picture behind it)",
         pictures_cases.color_of_background_image),
    # reading: the link has the judge read, in the agent's place, a file hidden from the agent.
    Case("link_outside_agent", "reading", CLICK_FIRST, "no page, only index.html as a symbolic link to the "
         "reference page (making a link needs no access to its target)", links.link_outside_agent),
    Case("link_folder_outside_agent", "reading", CLICK_FIRST, "a folder `site` linked to the reference site, and "
         "an index.html that goes to site/ on its own origin at load", links.link_folder_outside_agent),
]
BY_NAME = {c.name: c for c in CASES}


def select(names: list[str] | None) -> list[Case]:
    """The named cases in corpus order (all when None); ValueError naming any unknown one."""
    unknown = sorted(set(names or []) - set(BY_NAME))
    if unknown:
        raise ValueError(f"no cheat named {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
    return [c for c in CASES if names is None or c.name in names]
