#!/usr/bin/env bash
# Set up .venv-explore: browser-use for the exploratory probe (evals/judging/explore.py). It lives in its
# own venv because it pins ~30 exact versions (mcp, pydantic, ...) that conflict with .venv's.
# Safe and fast to run again. `make test` runs it; `make run` does not need it.
set -euo pipefail
cd "$(dirname "$0")/.."

BROWSER_USE=browser-use==0.13.14
PY=${PYTHON:-python3}
venv=.venv-explore
stamp=$venv/.iwr-setup
want=$(echo "$BROWSER_USE" | cat - scripts/setup_explore.sh | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x $venv/bin/python ]; then
  exit 0
fi
[ -x $venv/bin/python ] || "$PY" -m venv $venv
log=$venv/setup.log
: > "$log"
started=$(date +%s)
$venv/bin/pip install -q --upgrade pip >>"$log" 2>&1 \
  && $venv/bin/pip install -q "$BROWSER_USE" >>"$log" 2>&1 \
  || { tail -25 "$log" >&2; echo "setup_explore: pip install $BROWSER_USE failed (log: $log)" >&2; exit 1; }
# Importing browser-use makes a downloads folder in $TMPDIR: give it one that goes away.
tmp=$(mktemp -d)
ANONYMIZED_TELEMETRY=false BROWSER_USE_CLOUD_SYNC=false BROWSER_USE_VERSION_CHECK=false BROWSER_USE_SETUP_LOGGING=false \
  TMPDIR=$tmp $venv/bin/python -c "from browser_use import Agent, BrowserProfile; from browser_use.llm.openai.chat import ChatOpenAI" \
  || { rm -rf "$tmp"; echo "setup_explore: browser-use does not import (log: $log)" >&2; exit 1; }
rm -rf "$tmp"
echo "$want" > "$stamp"
echo "setup_explore: ready ($venv, $(( $(date +%s) - started )) s)" >&2
