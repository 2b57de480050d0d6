"""Cheats that write no page at all, only links to the reference: making a link needs no access to its
target, and a judge that followed one would judge the reference in the agent's place."""
from __future__ import annotations

from iwr.evals.quality.cheats.agent import OutsideAgent

# Goes, on the judge's own origin, to the reference behind the link `site`.
REDIRECT = "<!doctype html><meta charset='utf-8'><script>location.replace('site/%s');</script>"


def _reference(agent: OutsideAgent):
    lay = agent.layout
    if lay.reference_site is None:
        raise ValueError("this cheat needs a task with a reference site")
    return lay.reference_site, lay.reference_page


async def link_outside_agent(agent: OutsideAgent) -> None:
    site, page = _reference(agent)
    agent.symlink("index.html", site / page)


async def link_folder_outside_agent(agent: OutsideAgent) -> None:
    site, page = _reference(agent)
    agent.symlink("site", site)
    agent.write("index.html", REDIRECT % page)
