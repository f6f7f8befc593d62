"""Running the ``magg`` command in process, as a test sees it: exit code, stdout, stderr."""

from __future__ import annotations

import sys

import pytest

from magg_kg.cli import main


def magg(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Runs ``magg ARGS`` in this process and returns (exit code, stdout, stderr)."""
    argv = sys.argv
    sys.argv = ["magg", *args]
    try:
        main()
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    finally:
        sys.argv = argv
    out, err = capsys.readouterr()
    return code, out, err
