"""structlog set-up, once per entry point: readable text on stderr (stdout is for results)."""
from __future__ import annotations

import logging
import sys

import structlog


class StderrLogger:
    """Writes each line to sys.stderr as it is when the line is logged: whoever calls iwr in-process (a
    test runner's captured stream, a notebook) may swap and close the stream it had at set-up."""

    def msg(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    debug = info = warning = warn = error = critical = exception = fatal = log = msg


def configure(verbose: bool = False) -> None:
    level = logging.DEBUG if verbose else logging.INFO
    structlog.configure(
        processors=[structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="%H:%M:%S"),
                    structlog.dev.ConsoleRenderer(colors=False)],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=lambda *args: StderrLogger())
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    for noisy in ("LiteLLM", "litellm", "httpx", "mcp"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def task_logger(f, **bound):
    """A structlog logger writing JSON lines to an open per-task log file, bound with run/task/role."""
    return structlog.wrap_logger(structlog.WriteLogger(f), processors=[
        structlog.processors.TimeStamper(fmt="iso"), structlog.processors.add_log_level,
        structlog.processors.JSONRenderer()]).bind(**bound)
