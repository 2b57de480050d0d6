#!/usr/bin/env bash
# Set up .venv-inspect: inspect_ai, for the suite as an inspect Task (evals/workspace/inspect_task.py).
# Its own venv because inspect pins versions (fsspec, boto3) below .venv's; the task drives iwr through
# .venv's `iwr` command, so it imports nothing of the project. `make test` runs it (or, in one venv:
# pip install -e .[inspect]).
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS="inspect_ai==0.3.285 mcp==2.3.0"
PY=${PYTHON:-python3}
venv=.venv-inspect
stamp=$venv/.iwr-setup
want=$(echo "$PKGS" | cat - scripts/setup_inspect.sh | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x $venv/bin/inspect ]; then
  exit 0
fi
[ -x $venv/bin/python ] || "$PY" -m venv $venv
log=$venv/setup.log
: > "$log"
started=$(date +%s)
# shellcheck disable=SC2086
$venv/bin/pip install -q --upgrade pip >>"$log" 2>&1 && $venv/bin/pip install -q $PKGS >>"$log" 2>&1 \
  || { tail -25 "$log" >&2; echo "setup_inspect: pip install $PKGS failed (log: $log)" >&2; exit 1; }
$venv/bin/python -c "import inspect_ai, mcp" || { echo "setup_inspect: inspect_ai does not import (log: $log)" >&2; exit 1; }
echo "$want" > "$stamp"
echo "setup_inspect: ready ($venv, $(( $(date +%s) - started )) s)" >&2
