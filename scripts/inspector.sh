#!/usr/bin/env bash
# List the tools of every iwr MCP server and call one tool of each with the official MCP Inspector
# (CLI mode, fetched by npx from the npm registry; not part of the offline test suite).
# Usage: scripts/inspector.sh            (from the project root, after `make setup`)
set -euo pipefail
cd "$(dirname "$0")/.."
iwr=$PWD/.venv/bin/iwr
insp() { npx -y @modelcontextprotocol/inspector --cli "$iwr" mcp "$@"; }
summary() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(" ".join(t["name"] for t in j["tools"]) if "tools" in j else json.dumps(j)[:300])'; }
for s in browser metrics assets workspace bench; do
  echo "== $s: tools/list"
  insp "$s" --method tools/list | summary
done
echo "== browser: tools/call open";       insp browser --method tools/call --tool-name open --tool-arg target=tasks/sites/reviews | head -c 400; echo
echo "== metrics: tools/call list_metrics"; insp metrics --method tools/call --tool-name list_metrics | head -c 400; echo
echo "== assets: tools/call video_info";  insp assets --method tools/call --tool-name video_info --tool-arg task_id=1 | head -c 400; echo
echo "== workspace: tools/call list_files"; insp workspace --root tasks/sites/reviews --method tools/call --tool-name list_files | head -c 400; echo
echo "== bench: tools/call list_tasks";   insp bench --method tools/call --tool-name list_tasks | head -c 400; echo
