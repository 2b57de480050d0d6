"""How a long measurement (calibrate, bench) reports its progress: it says how many steps it expects
as it learns of them, and each step as it ends. The command line shows them as a bar; the Python API
and the tests pass nothing."""
from __future__ import annotations

from typing import Protocol


class Steps(Protocol):
    def expect(self, n: int) -> None:
        """n more steps are to come."""

    def step(self, label: str) -> None:
        """One step ended; `label` says which."""


class Silent:
    """Steps nobody watches."""

    def expect(self, n: int) -> None:
        pass

    def step(self, label: str) -> None:
        pass
