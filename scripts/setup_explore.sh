#!/usr/bin/env bash
# Set up .venv-explore: browser-use for the exploratory probe (evals/judging/explore.py). It lives in its
# own venv because it pins ~30 exact versions (mcp, pydantic, ...) that conflict with .venv's.
# Safe and fast to run again. `make test` runs it; `make run` does not need it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/side_venv.sh
side_venv .venv-explore "browser-use==0.13.14" scripts/setup_explore.sh || exit 0
# Importing browser-use makes a downloads folder in $TMPDIR: give it one that goes away.
tmp=$(mktemp -d)
ANONYMIZED_TELEMETRY=false BROWSER_USE_CLOUD_SYNC=false BROWSER_USE_VERSION_CHECK=false BROWSER_USE_SETUP_LOGGING=false \
  TMPDIR=$tmp .venv-explore/bin/python -c "from browser_use import Agent, BrowserProfile; from browser_use.llm.openai.chat import ChatOpenAI" \
  || { rm -rf "$tmp"; echo "setup_explore: browser-use does not import (log: $log)" >&2; exit 1; }
rm -rf "$tmp"
done_side_venv
