"""The offline provider's model files (``judgment.json``, ``injection.json``, ``terms.json``,
``questions.json`` beside its modules): a damaged one (cut short, not UTF-8, not JSON, missing a
field) is a :class:`~magg_kg.errors.RunError` of one line that names the file and the remedy, not a
traceback from deep inside a command that happens to read it."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TypeVar

from magg_kg.errors import RunError

__all__ = ["REMEDY", "read_model_file"]

REMEDY = "rebuild it with magg model build or reinstall magg-kg"
T = TypeVar("T")


def read_model_file(path: Path | Traversable, what: str, parse: Callable[[str], T]) -> T:
    """``parse`` of the file's text; anything wrong with the file is a :class:`RunError` naming it
    (``what`` says which model it is: ``judgment``, ``injection``, ...)."""
    try:
        return parse(path.read_text("utf-8"))
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError) as error:
        raise RunError(f"{path} is not a readable {what} model ({_reason(error)}): {REMEDY}") from None


def _reason(error: Exception) -> str:
    """What is wrong with a model file, in a few words."""
    if isinstance(error, FileNotFoundError):
        return "not found"
    if isinstance(error, UnicodeDecodeError):
        return f"not UTF-8 text, byte {error.start}"
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg} at char {error.pos}"
    if isinstance(error, KeyError):
        return f"no field {error.args[0]!r}" if error.args else "a field is missing"
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text.removeprefix("model file: ").removeprefix("model file ")
