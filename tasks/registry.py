"""A table of named things (coders, metrics, judge profiles) that code outside the package can add to."""
from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(dict[str, T], Generic[T]):
    """Name -> thing, in the order added; `named` fails with the names that exist."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what  # what one entry is called in messages, e.g. "agent"

    def add(self, name: str, thing: T) -> T:
        """Add (or replace) `thing` under `name`; returns it."""
        self[name] = thing
        return thing

    def named(self, name: str) -> T:
        """The entry called `name`; ValueError listing the known names otherwise."""
        if name not in self:
            raise ValueError(f"unknown {self.what} {name!r}; choose one of {', '.join(self)}")
        return self[name]
