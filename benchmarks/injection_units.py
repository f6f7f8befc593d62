"""The injection detector on its own: what its two bars catch, and what they cost on real lessons,
without ingesting anything (:mod:`benchmarks.injection` measures what gets committed).

- **Caught**: the held-out instruction texts (``tests/data/injection_heldout.jsonl``, never
  trained on) scored alone, at the suspicion bar and the instruction bar; and each of them placed
  at the benchmark's seven positions around a claim (:func:`benchmarks.injection.lesson_markdown`):
  the share of those lessons whose claim sentence the taint rule holds for a person.
- **Cost**: every unit of the real courses (the d2l sections, the genai lessons), each lesson read
  whole and repeats counted: the share of units at or above each bar, the sections held whole
  (those with a unit at the instruction bar), and the share of the text the suspicion bar holds
  (:meth:`agents.offline.injection.Scan.held`).
  The shipped model was trained on these lessons as negatives (all but genai lesson 13), so these
  rates are in-sample: ``magg model build`` prints the out-of-fold ones.

    python -m benchmarks.injection_units [--model agents/offline/injection.json] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from agents.offline.injection import (
    INSTRUCTION_THRESHOLD,
    MODEL_PATH,
    InjectionModel,
    Scan,
    read_injection_model,
    scan_score,
)
from agents.offline.injection_features import text_features
from agents.offline.lesson_units import sections, units
from benchmarks.command import run_command
from benchmarks.injection import (
    CLAIMS,
    DEFAULT_DATA,
    POSITIONS,
    ROOT,
    Injection,
    lesson_markdown,
    load_injections,
    poisoned_cases,
)
from magg_kg.lessons import normalize_text

__all__ = ["CourseRow", "UnitReport", "course_lessons", "main", "unit_report"]


@dataclass(frozen=True)
class CourseRow:
    """One real course at the model's two bars."""

    course: str
    lessons: int
    units: int
    suspicious_units: int
    instruction_units: int
    sections: int
    held_sections: int
    held_text: float
    flagged: tuple[str, ...]
    """The distinct units at or above the suspicion bar."""


@dataclass(frozen=True)
class UnitReport:
    suspicion: float
    threshold: float
    texts: int
    caught_suspicion: float
    caught_threshold: float
    held_by_position: Mapping[str, float]
    courses: tuple[CourseRow, ...]

    def lines(self) -> Iterator[str]:
        yield f"bars: suspicion {self.suspicion:.2f}, instruction {self.threshold:.2f}"
        yield (
            f"held-out instruction texts: {self.texts}; recall at suspicion {self.caught_suspicion:.3f}, "
            f"at instruction {self.caught_threshold:.3f}"
        )
        yield "claim held for a person, by position: " + ", ".join(
            f"{p} {v:.3f}" for p, v in self.held_by_position.items()
        )
        yield "course   lessons   units  suspicious (rate)  instruction  sections held whole  text held"
        for c in self.courses:
            yield (
                f"{c.course:<8}{c.lessons:>8}{c.units:>8}{c.suspicious_units:>7} "
                f"({c.suspicious_units / max(1, c.units):.4f})"
                f"{c.instruction_units:>13}{c.held_sections:>14} / {c.sections:<5}{c.held_text:>10.4f}"
            )
        for c in self.courses:
            yield from (f"suspicious in {c.course}: {text[:90]!r}" for text in c.flagged)


def course_lessons(data: Path) -> dict[str, list[str]]:
    """The real courses' lesson texts, normalized: d2l sections, genai lessons."""
    d2l = [
        json.loads(line)["text"]
        for line in (data / "d2l-lessons" / "sections.jsonl").read_text("utf-8").splitlines()
    ]
    genai = [path.read_text("utf-8") for path in sorted((data / "genai-lessons").glob("[0-9]*.md"))]
    return {"d2l": [normalize_text(t) for t in d2l], "genai": [normalize_text(t) for t in genai]}


def _score(model: InjectionModel, unit: str) -> float:
    """A unit's score by ``model``, as a scan reads it (:func:`agents.offline.injection.scan_score`)."""
    return scan_score(unit, model.probability(text_features(unit)))


def _course(model: InjectionModel, course: str, texts: Sequence[str]) -> CourseRow:
    n_units = n_sections = suspicious = instruction = held_sections = held = total = 0
    flagged: dict[str, None] = {}
    for text in texts:
        scored = [(s, e, _score(model, text[s:e])) for s, e in units(text)]
        found = tuple(u for u in scored if u[2] >= model.suspicion)
        parts = sections(text)
        n_units, n_sections, total = n_units + len(scored), n_sections + len(parts), total + len(text)
        suspicious += len(found)
        instruction += sum(p >= model.threshold for _, _, p in scored)
        whole = [s for s, _, p in found if p >= INSTRUCTION_THRESHOLD]
        held_sections += sum(any(a <= s < b for s in whole) for a, b in parts)
        held += sum(b - a for a, b in Scan(text, tuple(parts), found, ()).held())
        flagged.update(dict.fromkeys(" ".join(text[s:e].split()) for s, e, _ in found))
    return CourseRow(
        course, len(texts), n_units, suspicious, instruction, n_sections, held_sections,
        held / max(1, total), tuple(flagged),
    )  # fmt: skip


def _claim_held(model: InjectionModel, markdown: str, claim: str) -> bool:
    text = normalize_text(markdown)
    scored = ((s, e, _score(model, text[s:e])) for s, e in units(text))
    found = Scan(text, tuple(sections(text)), tuple(u for u in scored if u[2] >= model.suspicion), ())
    at = text.index(claim)
    return bool(found.taint(at, at + len(claim)))


def unit_report(model: InjectionModel, injections: Sequence[Injection], data: Path) -> UnitReport:
    """The figures of the module docstring for ``model`` (read with its own bars)."""
    scores = [_score(model, i.text) for i in injections]
    cases = poisoned_cases(injections)
    held: dict[str, float] = {
        position: sum(
            _claim_held(model, lesson_markdown(c), CLAIMS[c.claim].claim)
            for c in cases
            if c.position == position
        )
        / max(1, sum(c.position == position for c in cases))
        for position in POSITIONS
    }
    return UnitReport(
        model.suspicion, model.threshold, len(scores),
        sum(p >= model.suspicion for p in scores) / max(1, len(scores)),
        sum(p >= model.threshold for p in scores) / max(1, len(scores)),
        held, tuple(_course(model, c, texts) for c, texts in course_lessons(data).items()),
    )  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--model", type=Path, default=MODEL_PATH, help="the detector's JSON file")
    parser.add_argument("--texts", type=Path, default=DEFAULT_DATA, help="the injection texts (JSON lines)")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data", help="the shared data")
    args = parser.parse_args(argv)
    report = unit_report(read_injection_model(args.model), load_injections(args.texts), args.data)
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    run_command(main)
