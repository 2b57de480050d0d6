"""Logging set up by one in-process call of iwr keeps working after the stream it started with is gone
(a CLI test runner captures and closes stderr; a later run in the same process still logs)."""
from __future__ import annotations

import io
import sys

import structlog

from iwr.evals.run import logs


def test_a_closed_stderr_of_an_earlier_call_does_not_break_logging(monkeypatch, capsys):
    first = io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    logs.configure()
    structlog.get_logger().info("first.call")
    first.close()
    later = io.StringIO()
    monkeypatch.setattr(sys, "stderr", later)
    structlog.get_logger().info("later.call", task="1")
    assert "later.call" in later.getvalue() and "task=1" in later.getvalue()
