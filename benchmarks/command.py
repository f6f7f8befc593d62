"""A benchmark module run as a command (``python -m benchmarks.NAME``): what its ``main`` returns
is the exit code, and bad input is one line, never a traceback; its counts, sizes and times are
numbers above zero (:func:`positive`).

A benchmark reads files a person names: a path that does not exist or cannot be read, a file that
is not UTF-8 or not JSON, or input the project refuses (:class:`magg_kg.errors.UserError`) ends the
command with ``error: ...`` on stderr and exit 2, as ``magg`` does.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from magg_kg.errors import UserError

__all__ = ["positive", "run_command", "run_converter"]


def run_command(main: Callable[[], object]) -> NoReturn:
    """Runs ``main`` and exits with its code (an int; 0 for anything else).

    >>> def missing() -> None:
    ...     open("/no/such/file")
    >>> try:
    ...     run_command(missing)
    ... except SystemExit as done:
    ...     print(done.code)
    2
    """
    try:
        code = main()
    except (UserError, OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


def positive(kind: type[int] | type[float], *, zero: bool = False) -> Callable[[str], int | float]:
    """An argparse type: a number of ``kind`` above zero (a count, a size, a time), or not below
    zero when ``zero`` is allowed (a count that may leave a kind out), else a usage error.

    >>> positive(int)("3"), positive(float)("0.5"), positive(int, zero=True)("0")
    (3, 0.5, 0)
    """

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value < 0 or (value == 0 and not zero):
            raise argparse.ArgumentTypeError(f"{text} is not {'zero or more' if zero else 'above zero'}")
        return value

    return parse


def run_converter(convert: Callable[[Path, Path], Sequence[Path]], description: str) -> NoReturn:
    """Runs a converter of a data set's JSON lines into a folder of lessons as a command
    (``python -m benchmarks.NAME JSONL OUT_DIR``), as :func:`run_command` runs it."""

    def main() -> None:
        parser = argparse.ArgumentParser(description=description)
        parser.add_argument("jsonl", type=Path)
        parser.add_argument("out", type=Path)
        args = parser.parse_args()
        files = convert(args.jsonl, args.out)
        print(f"wrote {len(files)} lessons to {args.out}")

    run_command(main)
