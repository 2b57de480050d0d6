"""New names for ids and classes: one consistent mapping per site, and the selector translator.

Ids and classes share one namespace, so a name used as both gets one new name. A "family" is a
prefix that code completes at run time ("add-" + product id); its members keep their suffix. Id
families keep their length and the place of their hyphens, because pages cut ids apart again
(b.id.slice(4), b.id.split("-")[1]).
"""
from __future__ import annotations

import hashlib
import random

from iwr.evals.quality.equiv.selectors import rewrite_names

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def tag_for(seed: int) -> str:
    """The marker all new names start with, e.g. 'q7k2'."""
    h = hashlib.sha1(f"iwr-equivalent-{seed}".encode()).hexdigest()
    return "q" + h[:3]


class Renamer:
    """The mapping for one site; build it once every name is known."""

    def __init__(self, seed: int, ids: set[str], classes: set[str], id_prefixes: set[str],
                 class_prefixes: set[str], keep: set[str], keep_unless_family: set[str]):
        self.seed, self.tag = seed, tag_for(seed)
        self.ids, self.classes = set(ids), set(classes)
        self.keep, self.soft_keep = set(keep), set(keep_unless_family)
        self.families: dict[str, str] = {}
        taken = self.ids | self.classes
        rng = random.Random(f"{seed}:families")
        for p in sorted(id_prefixes | class_prefixes, key=lambda p: (len(p), p)):
            if not p or p in self.keep:
                continue
            for _ in range(200):
                new = self._scramble(p, rng) if p in id_prefixes else f"{self.tag}{self._hash(p)[:3]}-"
                clash = any(t.startswith(new) for t in taken) or any(
                    q.startswith(new) or new.startswith(q) for q in self.families.values())
                if new != p and not clash:
                    break
            self.families[p] = new
        self._cache: dict[str, str] = {}

    def _hash(self, s: str) -> str:
        return hashlib.sha1(f"{self.seed}:{s}".encode()).hexdigest()

    @staticmethod
    def _scramble(p: str, rng: random.Random) -> str:
        out = [rng.choice(LETTERS) if (c.isalnum() or c == "_") else c for c in p]
        return "".join(out)

    def family_of(self, name: str) -> str | None:
        """The longest family prefix `name` extends, if any."""
        best = None
        for p in self.families:
            if len(name) > len(p) and name.startswith(p) and (best is None or len(p) > len(best)):
                best = p
        return best

    def name(self, n: str) -> str:
        """The new name of a whole id or class name (itself when it is kept)."""
        if n in self._cache:
            return self._cache[n]
        new = n
        fam = self.family_of(n) if n not in self.keep else None
        if fam is not None:
            suffix = n[len(fam):]
            # Code that builds the member from a literal id ("err-" + "first") had that literal renamed too.
            if suffix in self.ids and suffix not in self.keep and self.family_of(suffix) is None:
                suffix = self._plain(suffix)
            new = self.families[fam] + suffix
        elif n not in self.keep and n not in self.soft_keep and (n in self.ids or n in self.classes):
            new = self._plain(n)
        self._cache[n] = new
        return new

    def _plain(self, n: str) -> str:
        return f"{self.tag}-{self._hash(n)[:6]}"

    def prefix(self, p: str) -> str:
        """The new text of a family prefix (itself when it is no family)."""
        return self.families.get(p, p)

    def renames(self) -> dict[str, str]:
        """old -> new for every changed name, plus 'prefix*' -> 'new-prefix*' for each family."""
        out = {n: self.name(n) for n in sorted(self.ids | self.classes) if self.name(n) != n}
        out.update({p + "*": q + "*" for p, q in sorted(self.families.items())})
        return out


def translate_selector(selector: str, renames: dict[str, str]) -> str:
    """A reference page's CSS selector rewritten for its equivalent (ids and classes renamed)."""
    families = sorted(((k[:-1], v[:-1]) for k, v in renames.items() if k.endswith("*")),
                      key=lambda kv: -len(kv[0]))

    def one(name: str) -> str:
        if name in renames:
            return renames[name]
        for p, q in families:
            if len(name) > len(p) and name.startswith(p):
                return q + name[len(p):]
        return name

    return rewrite_names(selector, one)
