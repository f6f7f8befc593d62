"""Blind review of two versions' answers: which answers "What is X?", "How does X work?" and "Why
is X important?" better, on a graph nobody tuned for.

Three steps, each a subcommand:

1. ``ask --db G --concepts N --seed S --out F``: the questions over N concepts of the graph drawn
   at random (the concept ids sorted, then shuffled with ``random.Random(S)``), each asked routed
   with the offline provider; one JSON line per question ``{question, concept, answer}``. Run it
   once per version (a worktree of the older commit, with the same virtual environment).
   ``--form`` (repeated) asks other templates: ``{name}`` over concepts, or ``{x}`` and ``{y}``
   over the two ends of ``--edges N`` active edges drawn the same way ("What is {x} in {y}?");
   ``--questions FILE`` asks the questions of a JSON-lines file (``{"question"}`` a line) as they
   are written, for questions a person or an agent wrote from the graph's names.
2. ``pair OLD NEW --n N --seed S --out PREFIX``: of the questions whose answers differ, N drawn at
   random, each shown as ``answer_1`` and ``answer_2`` in random order and numbered ``a-0001``...
   in shuffled order: ``PREFIX.blind.jsonl`` is what the reviewer reads (id, question, the two
   answers, each cut at 700 characters), ``PREFIX.key.jsonl`` which answer is the new one, kept
   from the reviewer.
3. ``score PREFIX LABELS``: the reviewer's labels (``{"id", "better": 1 | 2 | "tie"}``, one a
   line) against the key: how often the new answer, the old one, or neither was better, in all
   and by the question's form. Prints a table and writes JSON (``--out``).

    python -m benchmarks.answer_review ask --db old.sqlite --concepts 80 --seed 2026 --out new.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import string
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from agents.offline.handlers import offline_handlers
from benchmarks.command import positive, run_command
from benchmarks.lesson_size import write_figures
from governance.qa import answer_routed, bridges_of
from magg_kg.errors import UserError
from magg_kg.graph_index import build_graph_index
from magg_kg.jsonlines import json_objects
from magg_kg.llm.offline import OfflineLLM
from magg_kg.sqlite import SQLiteStore

__all__ = ["FORMS", "ask", "main", "pair", "score"]

FORMS = ("What is {name}?", "How does {name} work?", "Why is {name} important?")
"""The questions asked of each concept drawn."""
SHOWN = 700
"""The most characters of an answer the reviewer is shown."""


def ask(
    db: Path,
    concepts: int,
    seed: int,
    forms: Sequence[str] = FORMS,
    edges: int = 0,
    questions: Sequence[str] = (),
) -> list[dict[str, str]]:
    """The questions of every form over ``concepts`` concepts (forms with ``{name}``) or over the
    ends of ``edges`` active edges (forms with ``{x}`` and ``{y}``) of the graph in ``db`` drawn at
    random, and ``questions`` as written, answered routed with the offline provider."""
    store = SQLiteStore.open(str(db), create=False)  # StoreError (a UserError) for no database
    try:
        graph = build_graph_index(store)
        llm, bridges = OfflineLLM(offline_handlers()), bridges_of(store.domains())
        asked: list[tuple[str, str]] = []
        ids = sorted(graph.concepts)
        random.Random(seed).shuffle(ids)
        for concept in ids[:concepts]:
            name = graph.concepts[concept].name
            asked += [(form.format(name=name), concept) for form in forms if "{name}" in form]
        drawn = sorted(graph.edges)
        random.Random(seed).shuffle(drawn)
        for edge in (graph.edges[e] for e in drawn[:edges]):
            x, y = graph.concepts[edge.src].name, graph.concepts[edge.dst].name
            asked += [(form.format(x=x, y=y), edge.edge_id) for form in forms if "{x}" in form]
        asked += [(question, "") for question in questions]
        return [
            {"question": q, "concept": about, "answer": answer_routed(llm, graph, q, bridges).answer}
            for q, about in asked
        ]
    finally:
        store.close()


def pair(
    old: Sequence[Mapping[str, object]], new: Sequence[Mapping[str, object]], count: int, seed: int
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The blind rows and the key of ``count`` questions (all, when fewer) whose answers differ
    between the two versions; the questions are matched by their text and, for a question asked
    more than once (the same concept drawn from two graphs whose files were put together), by how
    many times it was asked before: the n-th asking in one file with the n-th in the other."""
    before = dict(_numbered(old))
    changed = [
        (key[0], before[key], answer)
        for key, answer in _numbered(new)
        if key in before and before[key] != answer
    ]
    rng = random.Random(seed)
    rng.shuffle(changed)
    blind, key = [], []
    for number, (question, old_answer, new_answer) in enumerate(changed[:count], start=1):
        new_first = rng.random() < 0.5
        first, second = (new_answer, old_answer) if new_first else (old_answer, new_answer)
        review = f"a-{number:04d}"
        blind.append(
            {"id": review, "question": question, "answer_1": first[:SHOWN], "answer_2": second[:SHOWN]}
        )
        key.append({"id": review, "question": question, "new": 1 if new_first else 2})
    return blind, key


def _numbered(rows: Sequence[Mapping[str, object]]) -> list[tuple[tuple[str, int], str]]:
    """Each row's answer, keyed by its question and how many times the question was asked before."""
    seen: Counter[str] = Counter()
    numbered = []
    for row in rows:
        question = str(row["question"])
        numbered.append(((question, seen[question]), str(row["answer"])))
        seen[question] += 1
    return numbered


def score(
    key: Sequence[Mapping[str, object]], labels: Sequence[Mapping[str, object]]
) -> dict[str, dict[str, int]]:
    """``{form: {"new", "old", "tie", "unlabelled"}}`` and ``all``; a form is a question's first
    two words ("What is", "How does", "Why is")."""
    said = {str(label["id"]): label.get("better") for label in labels}
    unknown = sorted(set(said) - {str(row["id"]) for row in key})
    if unknown:
        raise UserError(f"labels for reviews the key does not hold: {', '.join(unknown[:5])}")
    counts: dict[str, Counter[str]] = {}
    for row in key:
        better = said.get(str(row["id"]))
        if better in (1, 2, "1", "2"):
            verdict = "new" if int(str(better)) == row["new"] else "old"
        elif better == "tie":
            verdict = "tie"
        else:
            verdict = "unlabelled"
        form = " ".join(str(row["question"]).split()[:2])
        for kind in (form, "all"):
            counts.setdefault(kind, Counter())[verdict] += 1
    return {
        kind: {v: tally[v] for v in ("new", "old", "tie", "unlabelled")}
        for kind, tally in sorted(counts.items())
    }


def _lines(path: Path) -> list[dict[str, object]]:
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    return [row for _, row in json_objects(path)]


def _write(path: Path, rows: Sequence[Mapping[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), "utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    asking = steps.add_parser("ask", help="answer the questions with this version")
    asking.add_argument("--db", type=Path, required=True)
    asking.add_argument("--concepts", type=positive(int, zero=True), default=80)
    asking.add_argument("--edges", type=int, default=0)
    asking.add_argument("--form", action="append", help="a template: {name}, or {x} and {y}")
    asking.add_argument("--questions", type=Path, help="JSON lines, {question} a line")
    asking.add_argument("--seed", type=int, default=2026)
    asking.add_argument("--out", type=Path, required=True)
    pairing = steps.add_parser("pair", help="the blind file and its key")
    pairing.add_argument("old", type=Path)
    pairing.add_argument("new", type=Path)
    pairing.add_argument("--n", type=int, default=100)
    pairing.add_argument("--seed", type=int, default=2026)
    pairing.add_argument("--out", type=Path, required=True, help="the prefix of the two files")
    scoring = steps.add_parser("score", help="the labels against the key")
    scoring.add_argument("prefix", type=Path)
    scoring.add_argument("labels", type=Path)
    scoring.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.step == "ask":
            written = [str(row["question"]) for row in _lines(args.questions)] if args.questions else []
            forms = args.form or FORMS
            for form in forms:
                fields = {field for _, field, _, _ in string.Formatter().parse(form) if field is not None}
                if not fields or not (fields <= {"name"} or fields <= {"x", "y"}):
                    raise UserError(f"{form!r}: a form names {{name}}, or {{x}} and {{y}}, and nothing else")
            _write(args.out, ask(args.db, args.concepts, args.seed, forms, args.edges, written))
            print(f"answers written to {args.out}")
        elif args.step == "pair":
            blind, key = pair(_lines(args.old), _lines(args.new), args.n, args.seed)
            _write(Path(f"{args.out}.blind.jsonl"), blind)
            _write(Path(f"{args.out}.key.jsonl"), key)
            print(f"{len(blind)} pairs written to {args.out}.blind.jsonl (key: {args.out}.key.jsonl)")
        else:
            figures = score(_lines(Path(f"{args.prefix}.key.jsonl")), _lines(args.labels))
            print(f"{'form':10} {'new':>5} {'old':>5} {'tie':>5} {'unlabelled':>10}")
            for form, tally in figures.items():
                print(
                    f"{form:10} {tally['new']:5} {tally['old']:5} {tally['tie']:5} {tally['unlabelled']:10}"
                )
            if args.out:
                write_figures(args.out, {"prefix": str(args.prefix), "figures": figures})
    except UserError as error:
        print(f"error: {error}")
        return 2
    return 0


if __name__ == "__main__":
    run_command(main)
