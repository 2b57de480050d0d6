# `make run` runs the main job on the bundled suite; `make test` runs every test. Both set up first.
.PHONY: setup run test test-full test-easyocr
setup:
	@bash scripts/setup.sh

run: setup
	.venv/bin/iwr run --agent oracle --run-id oracle-bundled
	.venv/bin/iwr run --agent blank --run-id blank-bundled
	@echo "report: $$(.venv/bin/iwr report oracle-bundled --compare blank-bundled --out runs/report)"

# Only `make test` installs the test-only tools (scripts/setup.sh --test: pytest, Ray, bubblewrap, npm).
# The exploratory probe's test needs browser-use, which lives in its own venv (.venv-explore); the
# third-party agents' tests need Codex CLI and Claude Code from npm (.agents); the inspect task's test
# needs inspect_ai (.venv-inspect).
test:
	@bash scripts/setup.sh --test
	@bash scripts/setup_explore.sh
	@bash scripts/setup_agents.sh
	@bash scripts/setup_inspect.sh
	.venv/bin/python -m pytest -q

# The default run plus the two slow corpora it leaves out (the whole cheat corpus, the whole suite).
test-full: test
	.venv/bin/python -m pytest -q -m "cheats_full or whole_suite"

# EasyOCR (the paper profile's OCR) in its own venv: torchvision does not import beside .venv's CPU torch.
test-easyocr:
	@bash scripts/setup.sh --test
	.venv/bin/python -m pytest -q -m easyocr
