"""Question latency as a person meets it: ``magg ask`` in its own process, against ``magg serve``.

Every figure is a real process, started as a person starts it, on one graph (``--db``, or a seeded
synthetic graph of ``--concepts`` concepts and five edges each, written first):

- ``one-shot``: ``magg ask --db DB Q``, which reads the whole graph for its one question;
- ``server, first``: the first ``POST /api/ask`` to a fresh ``magg serve --db DB`` (it reads the
  graph then and keeps it);
- ``server, http``: each question posted to that server (what a program that asks it waits), the
  first time (a domain's question index is built when a question first reaches it, the lessons'
  excerpts when an open question first needs them) and again (everything kept);
- ``server, magg ask``: then ``magg ask --server URL Q``, the command a person types (the
  command's own start-up included).

The questions are those of ``magg bench perf`` (one kind in three: what comes before a concept, how
two joined concepts relate, an open question), drawn with ``--seed`` from the graph's edges. Medians
and p95 are printed as a table and written as JSON.

    python -m benchmarks.ask_server --concepts 100000 --questions 20 --one-shot 2 [--keep G.sqlite]
    python -m benchmarks.ask_server --db G.sqlite
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

from benchmarks.command import run_command
from governance.domain_rebuild import rebuild_domains
from magg_kg.clock import StepClock
from magg_kg.sqlite import SQLiteStore
from magg_kg.synthetic_graph import GraphShape, plan_graph, write_graph

__all__ = ["main", "measure", "questions_of"]

MAGG = [sys.executable, "-m", "magg_kg.cli"]


def questions_of(db: Path, count: int, seed: int) -> list[str]:
    """``count`` questions about the graph's active edges, as ``magg bench perf`` asks them."""
    connection = sqlite3.connect(db)
    try:
        names = dict(connection.execute("SELECT id, name FROM concepts").fetchall())
        edges = connection.execute(
            "SELECT src, dst FROM concept_edges WHERE status = 'active' ORDER BY edge_id"
        ).fetchall()
    finally:
        connection.close()
    rng = random.Random(seed)
    asked = []
    for number in range(count):
        src, dst = (names[c] for c in rng.choice(edges))
        asked.append(
            (
                f"What should I learn before {dst}?",
                f"How is {src} related to {dst}?",
                f"What is {src} used for?",
            )[number % 3]
        )
    return asked


def synthetic(path: Path, concepts: int, seed: int) -> Path:
    """Writes the seeded synthetic graph of ``magg bench perf`` (five edges per concept) and its
    domains to ``path``."""
    shape = GraphShape(concepts, concepts * 5, seed=seed)
    store = SQLiteStore.open(path)
    try:
        write_graph(store, plan_graph(shape), StepClock(shape.start, 1.0))
        rebuild_domains(store, seed, StepClock("2029-01-01T00:00:00.000000Z"))
    finally:
        store.close()
    return path


def _run(args: Sequence[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([*MAGG, *args], capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"magg {' '.join(args[:2])} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _post(url: str, question: str) -> float:
    started = time.perf_counter()
    reply = httpx.post(f"{url}/api/ask", json={"question": question}, timeout=900)
    elapsed = time.perf_counter() - started
    if reply.status_code != 200:
        raise SystemExit(f"the server answered {reply.status_code}: {reply.text}")
    return elapsed


def _summary(values: Sequence[float]) -> dict[str, object]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return {"n": len(values), "median_s": round(statistics.median(values), 3), "p95_s": round(p95, 3),
            "runs_s": [round(v, 3) for v in values]}  # fmt: skip


def measure(db: Path, questions: int, one_shot: int, seed: int) -> dict[str, object]:
    asked = questions_of(db, questions, seed)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [*MAGG, "serve", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{url}/api/ask", timeout=5)  # 405 (it takes POST), at once: it is up
                break
            except httpx.HTTPError:
                if server.poll() is not None or time.monotonic() > deadline:
                    said = server.stderr.read() if server.stderr else ""
                    raise SystemExit(f"magg serve did not start: {said}") from None
                time.sleep(0.2)
        first = _post(url, asked[0])
        fresh = [_post(url, question) for question in asked]  # each domain's index built when first reached
        kept = [_post(url, question) for question in asked]
        command = [_run(["ask", question, "--server", url]) for question in asked]
    finally:
        server.terminate()
        server.wait(timeout=60)
    alone = [_run(["ask", question, "--db", str(db)]) for question in asked[:one_shot]]
    return {
        "db": str(db),
        "questions": questions,
        "seed": seed,
        "one_shot": _summary(alone) if alone else None,
        "server_first_s": round(first, 3),
        "server_http_first": _summary(fresh),
        "server_http": _summary(kept),
        "server_magg_ask": _summary(command),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def table(result: dict[str, object]) -> str:
    lines = [f"{'how':<34}{'n':>4}{'median s':>11}{'p95 s':>9}", "-" * 58]
    for label, key in (
        ("magg ask --db (one-shot)", "one_shot"),
        ("POST /api/ask, first time", "server_http_first"),
        ("POST /api/ask, again", "server_http"),
        ("magg ask --server URL", "server_magg_ask"),
    ):
        entry = result[key]
        if isinstance(entry, dict):
            lines.append(f"{label:<34}{entry['n']:>4}{entry['median_s']:>11.3f}{entry['p95_s']:>9.3f}")
    lines.append(
        f"the server's first question (reads the graph): {result['server_first_s']} s; db {result['db']}"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--db", type=Path, help="an existing graph (default: a synthetic one, written first)")
    parser.add_argument("--concepts", type=int, default=100_000, help="synthetic graph size (default 100000)")
    parser.add_argument(
        "--questions", type=int, default=20, help="questions asked of the server (default 20)"
    )
    parser.add_argument("--one-shot", type=int, default=2, help="questions asked one-shot (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the graph and the questions (default 0)")
    parser.add_argument(
        "--keep", type=Path, help="write the synthetic graph to this new file and keep it (magg serve --db)"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("benchmarks/results/ask_server.json"), help="JSON result file"
    )
    args = parser.parse_args(argv)
    if args.questions < 1 or args.one_shot < 0 or args.concepts < 10:
        parser.error("--questions must be positive, --one-shot not negative, --concepts at least 10")
    if args.db is not None and not args.db.is_file():
        parser.error(f"--db {args.db}: no such file")
    if args.keep is not None and (args.db is not None or args.keep.exists()):
        parser.error("--keep writes a new synthetic graph: give a path that does not exist, and no --db")
    with tempfile.TemporaryDirectory() as folder:
        db = args.db
        if db is None:
            db = synthetic(args.keep or Path(folder) / "synthetic.sqlite", args.concepts, args.seed)
        result = measure(db, args.questions, args.one_shot, args.seed)
    print(table(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    run_command(main)
