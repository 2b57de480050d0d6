"""`python -m iwr.evals.cli`: the same as `iwr`."""
from iwr.evals.cli.app import app

app()
