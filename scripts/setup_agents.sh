#!/usr/bin/env bash
# Third-party coding agents for the tests that drive them (tests/test_third_party_agents.py), from the
# npm registry at pinned versions, into .agents/ (gitignored). Safe and fast to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
want="@openai/codex@0.171.0 @anthropic-ai/claude-code@2.1.328"
stamp=.agents/.iwr-setup
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x .agents/node_modules/.bin/codex ]; then
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "setup_agents: npm is missing (Debian: apt-get install npm)" >&2; exit 1; }
t0=$(date +%s)
mkdir -p .agents
# shellcheck disable=SC2086
npm install --prefix .agents --no-audit --no-fund --loglevel=error $want >.agents/setup.log 2>&1 \
  || { tail -20 .agents/setup.log >&2; echo "setup_agents: npm install failed (log: .agents/setup.log)" >&2; exit 1; }
echo "$want" > "$stamp"
echo "setup_agents: ready (.agents, $(( $(date +%s) - t0 )) s)" >&2
