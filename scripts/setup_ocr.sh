#!/usr/bin/env bash
# Set up .venv-ocr: iwr with EasyOCR, the paper's OCR engine (pip install -e .[easyocr]). Its own venv
# because EasyOCR needs torchvision, which does not import beside .venv's CPU torch 2.13.0; on x86_64
# the torch that has a matching torchvision on this machine's disk is 2.14.1 (a CUDA build, ~5.5 GB).
# Only the tests marked `easyocr` use it (`make test-easyocr`); safe and fast to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/side_venv.sh
case "$(uname -m)" in
  aarch64|arm64) torch="torch==2.9.1 torchvision==0.24.1" ;;
  *) torch="torch==2.14.1 torchvision==0.29.1" ;;
esac
side_venv .venv-ocr "$torch -e .[easyocr,test]" scripts/setup_ocr.sh || exit 0
.venv-ocr/bin/python -c "import easyocr, torchvision, iwr" \
  || { echo "setup_ocr: easyocr does not import (log: $log)" >&2; exit 1; }
done_side_venv
