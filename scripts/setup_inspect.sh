#!/usr/bin/env bash
# Set up .venv-inspect: inspect_ai, for the suite as an inspect Task (evals/workspace/inspect_task.py).
# Its own venv because inspect pins versions (fsspec, boto3) below .venv's; the task drives iwr through
# .venv's `iwr` command, so it imports nothing of the project. `make test` runs it (or, in one venv:
# pip install -e .[inspect]).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/side_venv.sh
side_venv .venv-inspect "inspect_ai==0.3.285 mcp==2.3.0" scripts/setup_inspect.sh || exit 0
.venv-inspect/bin/python -c "import inspect_ai, mcp" \
  || { echo "setup_inspect: inspect_ai does not import (log: $log)" >&2; exit 1; }
done_side_venv
