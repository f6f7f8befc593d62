"""The generated files are what their generators write today, and marked generated.

- ``magg_kg/protocol/batch.schema.json``: the JSON Schema of a batch, from the pydantic models of
  :mod:`magg_kg.operations` (:func:`batch_schema_text`); the Worker validates every batch with it.
- ``ts-apply/worker-configuration.d.ts``: the Worker's ``Env`` and runtime types, written by
  ``npm run types`` (``wrangler types --env-file .dev.vars.example``) from ``wrangler.jsonc``.

Each is regenerated here in memory (wrangler in a temporary copy of its inputs), never in the tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.local_worker import TS_APPLY, WRANGLER, worker_missing
from magg_kg.operations import batch_json_schema

ROOT = Path(__file__).resolve().parent.parent
BATCH_SCHEMA = ROOT / "magg_kg" / "protocol" / "batch.schema.json"
WORKER_TYPES = TS_APPLY / "worker-configuration.d.ts"
REGENERATE_SCHEMA = (
    ".venv/bin/python -c 'from tests.test_generated import BATCH_SCHEMA, batch_schema_text; "
    "BATCH_SCHEMA.write_text(batch_schema_text())'"
)


def batch_schema_text() -> str:
    """The text of ``batch.schema.json``: the schema of :class:`~magg_kg.operations.Batch`."""
    return json.dumps(batch_json_schema(), indent=1, sort_keys=True) + "\n"


def test_the_generated_files_are_marked_generated() -> None:
    marked = {
        line.split()[0]
        for line in (ROOT / ".gitattributes").read_text("utf-8").splitlines()
        if "linguist-generated=true" in line.split()[1:]
    }
    assert {"magg_kg/protocol/batch.schema.json", "ts-apply/worker-configuration.d.ts"} <= marked


def test_the_batch_schema_is_the_one_the_models_generate() -> None:
    assert BATCH_SCHEMA.read_text("utf-8") == batch_schema_text(), (
        f"{BATCH_SCHEMA.name} is stale: the operations changed. Regenerate it with\n  {REGENERATE_SCHEMA}"
    )


def test_the_worker_types_are_the_ones_wrangler_generates(tmp_path: Path) -> None:
    missing = worker_missing()
    if missing:
        pytest.skip(missing)
    for name in ("wrangler.jsonc", ".dev.vars.example"):
        shutil.copyfile(TS_APPLY / name, tmp_path / name)
    shutil.copytree(TS_APPLY / "src", tmp_path / "src")  # `mainModule` names the entry module
    done = subprocess.run(
        [str(WRANGLER), "types", "--env-file", ".dev.vars.example"],
        cwd=tmp_path,
        env={
            **os.environ,
            "CI": "true",
            "CLOUDFLARE_CF_FETCH_ENABLED": "false",
            "WRANGLER_SEND_METRICS": "false",
            "NO_COLOR": "1",
        },
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    generated = (tmp_path / "worker-configuration.d.ts").read_text("utf-8")
    assert WORKER_TYPES.read_text("utf-8") == generated, (
        f"{WORKER_TYPES.name} is stale (wrangler.jsonc or .dev.vars.example changed): run `npm run types` "
        "in ts-apply and commit the file"
    )
