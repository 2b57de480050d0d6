"""`python -m evals.cli`: the same as `iwr`."""
from evals.cli.app import app

app()
