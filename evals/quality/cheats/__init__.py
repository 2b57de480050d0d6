"""The cheat corpus (`iwr selftest cheats`): strategies an outside coding agent could use to read the
answers, steer the judge or game the score, each run as such an agent would run it and judged as an
operator judges one (see harness.py)."""
