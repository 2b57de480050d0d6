#!/usr/bin/env bash
# Set up what iwr needs on a Debian machine: system packages (when missing, as root), the .venv with
# CPU torch and the project. `--test` adds what only the tests need (the test extras, Ray, ffmpeg,
# bubblewrap and npm for the outside agents' sandbox and CLIs, iproute2 for their loopback-only network).
# Safe and fast to run again. Elsewhere: README, "Install without root".
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
fc-list 2>/dev/null | grep -qi "liberation" || need+=(fonts-liberation)
fc-list 2>/dev/null | grep -qi "dejavu" || need+=(fonts-dejavu-core)
if [ "$mode" = --test ]; then
  command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)  # a test converts a recording to .webm as a user would
  command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)  # the sandbox of outside agents (evals/workspace/sandbox.py)
  command -v npm >/dev/null 2>&1 || need+=(npm)
  command -v ip >/dev/null 2>&1 || need+=(iproute2)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup: missing system packages: ${need[*]} (run as root, or: sudo apt-get install ${need[*]})" >&2
    exit 1
  fi
  echo "setup: installing ${need[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" fontconfig >/dev/null
fi

PY=${PYTHON:-python3}
stamp=.venv/.iwr-setup
code=$(cat pyproject.toml setup.py scripts/setup.sh | sha256sum | cut -c1-16)
want="$code $mode"
# A test setup holds everything a run setup does.
if [ -f "$stamp" ] && [ -x .venv/bin/iwr ] && { [ "$(cat "$stamp")" = "$want" ] || [ "$(cat "$stamp")" = "$code --test" ]; }; then
  exit 0
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
log=.venv/setup.log
pip_() { .venv/bin/pip install -q "$@" >>"$log" 2>&1 || { tail -25 "$log" >&2; echo "setup: pip install $* failed (log: $log)" >&2; exit 1; }; }
: > "$log"
pip_ --upgrade pip
# Torch's CPU build on purpose, before anything asks for torch: from PyTorch's CPU wheel index where
# it answers (on Linux the public index's torch is a multi-GB CUDA build); else the default index
# (which a machine may point at a CPU file); either way, say which build came.
cpu_index=${IWR_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}
if .venv/bin/python -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=8)" "$cpu_index/torch/" 2>/dev/null; then
  pip_ --index-url "$cpu_index" "torch==2.13.0"
else
  echo "setup: $cpu_index does not answer; torch 2.13.0 from the default index" >&2
  pip_ "torch==2.13.0"
fi
.venv/bin/python -c "import torch; c = torch.version.cuda; print('setup: torch', torch.__version__, 'CUDA ' + c + ' build (large)' if c else 'CPU build')" >&2
if [ "$mode" = --test ]; then pip_ -e ".[test,ray]"; else pip_ -e .; fi
pip_ --no-deps "rapidocr-onnxruntime==1.4.4"
LITELLM_LOCAL_MODEL_COST_MAP=True .venv/bin/python -c \
  "import torch, playwright, mcp, langgraph, litellm, iwr.evals.cli; assert torch.__version__.startswith('2.13.0'), torch.__version__" \
  || { echo "setup: the environment is incomplete (log: $log)" >&2; exit 1; }
# Each judgement starts Python servers; where PYTHONDONTWRITEBYTECODE is set (as on some CI images),
# every one of them would compile iwr's own modules anew (0.2 s of CPU a process): compiled once here.
.venv/bin/python -m compileall -q -x '/(real|suite)/' agents evals graphs iwr mcp_servers tasks >/dev/null \
  || echo "setup: iwr's modules did not all compile ahead (they compile on import)" >&2
echo "$want" > "$stamp"
echo "setup: ready (.venv)" >&2
