"""Plug-ins: modules outside the package that add coders, metrics or judge profiles to the tables
(`register_coder`, `register_metric`, `register_profile`) when imported.

A plug-in is named by an entry point in the group `iwr.plugins` of an installed distribution, by
`$IWR_PLUGINS` (module names, comma-separated), or by `iwr --plugin MODULE`, which adds it to
`$IWR_PLUGINS` so that the MCP servers a run starts (the metrics server among them) import it too.
"""
from __future__ import annotations

import importlib
import os
from importlib import metadata

from iwr.settings import env_name, settings

ENV = env_name("plugins")
GROUP = "iwr.plugins"
_loaded: set[str] = set()


class PluginError(ImportError):
    """A named plug-in could not be imported."""


def named_plugins() -> list[str]:
    """The plug-in modules named by entry points and by $IWR_PLUGINS, in that order, each once."""
    names = [ep.value.split(":")[0] for ep in metadata.entry_points(group=GROUP)]
    names += settings().plugin_names()
    return list(dict.fromkeys(names))


def add_plugins(modules: list[str]) -> None:
    """Name more plug-ins for this process and every process it starts."""
    names = list(dict.fromkeys([*settings().plugin_names(), *modules]))
    if names:
        os.environ[ENV] = ",".join(names)


def load_plugins() -> list[str]:
    """Import every named plug-in not imported yet; PluginError naming the one that fails."""
    new = []
    for name in named_plugins():
        if name in _loaded:
            continue
        try:
            importlib.import_module(name)
        except Exception as e:
            raise PluginError(f"plug-in {name!r} could not be imported: {type(e).__name__}: {e}") from e
        _loaded.add(name)
        new.append(name)
    return new
