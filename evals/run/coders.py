"""The one table of coders, by name. A run looks its coder up here; code outside the package adds
its own with `register_coder` (anything with `name`, `needs_model` and `async make(job)`)."""
from __future__ import annotations

from iwr.agents.baselines import Blank, Oracle, Static
from iwr.agents.coder import Coder
from iwr.graphs.iterative_coder import Iterative
from iwr.graphs.single_shot import SingleShot
from iwr.tasks.registry import Registry

CODERS: Registry[Coder] = Registry("agent")


def register_coder(coder: Coder) -> Coder:
    """Add (or replace) a coder under its name."""
    return CODERS.add(coder.name, coder)


def coder_named(name: str, sandbox: str = "bwrap", expose: list | None = None) -> Coder:
    """The coder called `name`, an outside agent (`cmd:<template>` or a preset such as claude-code, run
    in `sandbox` with `expose` readable), or ValueError listing the known ones."""
    from iwr.evals.workspace.command_coder import command_coder
    from iwr.evals.workspace.agent_presets import PRESETS

    outside = command_coder(name, sandbox, expose)
    if outside is not None:
        return outside
    if name not in CODERS:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join([*CODERS, *PRESETS])} or cmd:<command>")
    return CODERS[name]


for _coder in (Oracle(), Static(), Blank(), SingleShot(), Iterative()):
    register_coder(_coder)
