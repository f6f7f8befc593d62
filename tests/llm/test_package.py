"""The package surface: its ``__all__``, and no LlamaIndex import unless deepseek is used."""

from __future__ import annotations

import subprocess
import sys

import magg_kg.llm


def test_all_names_each_export_once() -> None:
    # The order is ruff's (RUF022, isort-style); here: no duplicates, nothing missing.
    names = magg_kg.llm.__all__
    assert len(names) == len(set(names))
    assert all(hasattr(magg_kg.llm, name) for name in names)


def test_the_offline_stack_does_not_import_llama_index() -> None:
    code = (
        "import sys; from magg_kg.clock import StepClock; from magg_kg.config import LLMConfig; "
        "from magg_kg.sqlite import SQLiteStore; from magg_kg.llm import build_llm; "
        "build_llm(LLMConfig(), SQLiteStore.open(':memory:'), StepClock('2026-01-01T00:00:00Z'), {}); "
        "print(any(name.startswith(('llama_index', 'openai')) for name in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
