"""The metrics: screenshots compared by named, versioned metrics (compare.py), and their MCP server."""
import os

# OpenMP reads its thread limit once, when its runtime starts (torch's import starts it): Tesseract in
# process (tesseract_lib.py) needs the limit of one thread the program gets, or a page-sized read on
# two cores takes 2 s instead of 0.2 s. Torch runs one thread here anyway (features.py).
os.environ.setdefault("OMP_THREAD_LIMIT", "1")
