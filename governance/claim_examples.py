"""The labelled claims the judgment models learn from, each turned into the judge prompt it would get.

Each labelled claim is turned into the judge prompt it would get in the pipeline
(:func:`governance.claims.build_claim` over a :class:`~agents.support.GraphView` of the graph it
would be judged against), and :func:`agents.offline.features.claim_features` reads the features
from that prompt, so training (:mod:`governance.training`) and judging see claims the same way.
Sources:

- the replay candidate sets of a Metacademy-layout folder (:mod:`governance.evaluation.replay`) for several
  seeds: gold prerequisites against the established half of the graph, and their corruptions
  (reversed, wrong type, shortcut, unrelated, unknown concept, injected, contradiction);
- Metacademy's ``see_also`` links between two concepts as ``related`` claims (label 1), with
  unrelated pairs as ``related`` claims (label 0);
- for the reference model, the same claims drawn inside halves of the concepts (:data:`HALVES`):
  a graph the model judges is often smaller than the development folder (a held-out portion of a
  data set, a new course), and the graph's features (degrees, paths, established neighbours) read
  differently in a smaller graph. Trained on the whole folder alone, the model learned them at
  the whole folder's size: out of sample, its recall fell with the graph's size more than with
  the concepts being unseen. The names model is left without them: on AL-CPL and LectureBank they
  lowered its recall;
- for the names model, the same claims with the concepts' summaries, the edges' and links'
  sentences and the textbooks left out (:func:`names_only`): claims between bare names, as data
  sets of titles alone give them (AL-CPL, LectureBank);
- for the lessons model, the implicit claims among the labelled lesson claims (JSON lines written
  by ``magg model claims`` and labelled by a reader with ``REVIEW-RUBRIC.md``,
  :mod:`governance.labelled`): the judge prompt's payload and data, and the label.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from agents.findings import read_quote
from agents.judge import judge_prompt
from agents.offline.features import claim_features
from agents.support import GraphView
from governance.claims import build_claim
from governance.evaluation.replay import Candidate, Dataset, Link, build_candidates, load_dataset
from magg_kg.errors import InputError
from magg_kg.jsonlines import json_objects
from magg_kg.records import Concept, Proposal, Span

__all__ = [
    "COMMIT_AT",
    "HALVES",
    "REJECT_BELOW",
    "SEEDS",
    "ClaimExample",
    "concept_part",
    "lesson_examples",
    "metacademy_examples",
    "names_examples",
    "names_only",
]

SEEDS = (1, 2, 3)
"""The replay candidate sets a Metacademy-layout folder gives, one per seed."""
HALVES = ("a", "b")
"""The salts of the two ways of cutting a folder's concepts in halves (a hash of salt and tag);
each half, a closed graph of its own, gives the claims of the smallest seed."""
COMMIT_AT, REJECT_BELOW = 0.80, 0.50
_AT = "2026-01-01T00:00:00.000000Z"


@dataclass(frozen=True)
class ClaimExample:
    """One labelled claim: its features, its label, the concepts it touches and where it came from."""

    values: dict[str, float]
    label: int
    src: str
    dst: str
    kind: str


def _concepts(dataset: Dataset) -> list[Concept]:
    return [
        Concept(id=c.tag, name=c.title, type="concept", description=c.summary[:20_000], recorded_at=_AT)
        for c in sorted(dataset.concepts.values(), key=lambda c: c.tag)
    ]


def _example(view: GraphView, candidate: Candidate, dataset: Dataset, number: int) -> ClaimExample:
    evidence = tuple(
        Span(lesson_id="metacademy", start=0, end=len(text), quote=text, kind="implicit")
        for text in candidate.evidence
    )
    proposal = Proposal(
        id=f"p-train-{number}",
        src=candidate.src,
        type=candidate.type,
        dst=candidate.dst,
        confidence=candidate.confidence,
        evidence=evidence,
        origin="replay",
        created_at=_AT,
    )
    claim = build_claim(view, proposal, evidence, confidence=candidate.confidence)
    prompt = judge_prompt(claim, COMMIT_AT, REJECT_BELOW)
    return ClaimExample(
        claim_features(prompt.payload, prompt.data),
        candidate.label,
        candidate.src,
        candidate.dst,
        candidate.kind,
    )


def metacademy_examples(folder: Path, seeds: Sequence[int] = SEEDS) -> list[ClaimExample]:
    """Labelled claims from a Metacademy-layout folder (see the module docstring)."""
    dataset = load_dataset(folder)
    examples = _dataset_examples(dataset, seeds)
    for half in _halves(dataset):
        examples += _dataset_examples(half, (min(seeds),), len(examples))
    return examples


def names_examples(folder: Path, seeds: Sequence[int] = SEEDS) -> list[ClaimExample]:
    """The same labelled claims between bare names (:func:`names_only`): the names model's."""
    return _dataset_examples(names_only(load_dataset(folder)), seeds)


def _dataset_examples(dataset: Dataset, seeds: Sequence[int], number: int = 0) -> list[ClaimExample]:
    concepts = _concepts(dataset)
    examples: list[ClaimExample] = []
    for seed in seeds:
        examples += _candidate_examples(dataset, concepts, seed, number + len(examples))
    return examples + _link_examples(dataset, concepts, min(seeds), number + len(examples))


def concept_part(tag: str, parts: int, salt: str = "") -> int:
    """The part of ``parts`` a concept falls in: a hash of ``salt`` and its tag, the same on every
    machine (the folds of concept-disjoint validation, the training halves, the replay's parts)."""
    return int(hashlib.sha256(f"{salt}{tag}".encode()).hexdigest()[:8], 16) % parts


def _halves(dataset: Dataset) -> list[Dataset]:
    """``dataset`` cut in halves by each salt of :data:`HALVES`; each half keeps its concepts, the
    edges and links between two of them, its links to tags that are no concept and the textbooks'
    order of its concepts. A half with fewer than two prerequisite edges is left out."""
    halves = []
    for salt in HALVES:
        for side in (0, 1):
            tags = {tag for tag in dataset.concepts if concept_part(tag, 2, salt) == side}
            gold = tuple(edge for edge in dataset.gold if edge.src in tags and edge.dst in tags)
            if len(gold) < 2:
                continue
            links = tuple(
                link
                for link in dataset.links
                if link.src in tags and (link.dst in tags or not link.both_concepts)
            )
            halves.append(
                replace(
                    dataset,
                    concepts={tag: concept for tag, concept in dataset.concepts.items() if tag in tags},
                    gold=gold,
                    links=links,
                    courses=_orders_within(dataset.courses, tags),
                )
            )
    return halves


def _orders_within(courses: Sequence[Mapping[str, int]], tags: set[str]) -> tuple[dict[str, int], ...]:
    """The textbooks' orders of the concepts in ``tags``, ranked again; an order that no longer
    places two concepts in two sections is left out (as
    :func:`governance.evaluation.textbooks.course_orders` leaves it out)."""
    orders = []
    for order in courses:
        kept = {tag: at for tag, at in order.items() if tag in tags}
        rank = {at: number for number, at in enumerate(sorted(set(kept.values())))}
        if len(kept) >= 2 and len(rank) >= 2:
            orders.append({tag: rank[at] for tag, at in sorted(kept.items())})
    return tuple(orders)


def _candidate_examples(
    dataset: Dataset, concepts: Sequence[Concept], seed: int, number: int
) -> list[ClaimExample]:
    """The replay candidates of one seed, each judged against that seed's established graph and
    the textbooks, as replay's judge sees them."""
    candidate_set = build_candidates(dataset, seed)
    edges = [(e.src, "prerequisite", e.dst) for e in candidate_set.established]
    view = GraphView(concepts, edges, courses=dataset.courses)
    return [
        _example(view, candidate, dataset, number + n) for n, candidate in enumerate(candidate_set.candidates)
    ]


def _link_examples(
    dataset: Dataset, concepts: Sequence[Concept], seed: int, number: int
) -> list[ClaimExample]:
    """See-also links as typed claims where their sentence states a type, and as ``related``
    claims, each with an unrelated pair as a ``related`` claim (label 0)."""
    established = build_candidates(dataset, seed).established
    full = GraphView(concepts, [(e.src, "prerequisite", e.dst) for e in established], courses=dataset.courses)
    rng = random.Random(seed)
    tags = sorted(dataset.concepts)
    linked = {(link.src, link.dst) for link in dataset.links} | {
        (link.dst, link.src) for link in dataset.links
    }
    related = [link for link in dataset.links if link.relation == "see_also" and link.both_concepts]
    examples = _typed_links(full, dataset, related, number)
    number += len(examples)
    for link in related:
        candidate = Candidate(
            link.src,
            "related",
            link.dst,
            dataset.evidence(link.src, link.dst, context=link.context),
            1,
            "see_also",
        )
        examples.append(_example(full, candidate, dataset, number))
        number += 1
        while True:
            a, b = rng.sample(tags, 2)
            if (a, b) not in linked:
                break
        negative = Candidate(a, "related", b, dataset.evidence(a, b), 0, "unrelated_related")
        examples.append(_example(full, negative, dataset, number))
        number += 1
    return examples


def names_only(dataset: Dataset) -> Dataset:
    """``dataset`` with its concepts' titles alone: no summary, no sentence on an edge or a link,
    no textbook order."""
    return replace(
        dataset,
        concepts={tag: replace(concept, summary="") for tag, concept in dataset.concepts.items()},
        gold=tuple(replace(edge, context="") for edge in dataset.gold),
        links=tuple(replace(link, context="") for link in dataset.links),
        courses=(),
    )


_TYPED = ("part_of", "builds_on", "contrasts_with", "prerequisite", "applies_to")


def _typed_links(view: GraphView, dataset: Dataset, links: Sequence[Link], number: int) -> list[ClaimExample]:
    """See-also links whose sentence states a typed relation between the two concepts ("X is a
    special case of Y", "X is an alternative to Y"), as claims of that type and direction (label 1)."""
    found: list[ClaimExample] = []
    for link in links:
        if not link.context:
            continue
        names = (_names(dataset, link.src), _names(dataset, link.dst))
        for type_ in _TYPED:
            claim = (link.src, type_, link.dst)
            reading = read_quote(0, "metacademy", "implicit", link.context, claim, names)
            if reading.stated in ("forward", "reverse"):
                src, dst = (link.src, link.dst) if reading.stated == "forward" else (link.dst, link.src)
                evidence = dataset.evidence(src, dst, context=link.context)
                candidate = Candidate(src, type_, dst, evidence, 1, "see_also_typed")
                found.append(_example(view, candidate, dataset, number + len(found)))
                break
    return found


def _names(dataset: Dataset, tag: str) -> list[str]:
    concept = dataset.concepts.get(tag)
    words = tag.replace("_", " ")
    return [concept.title, words] if concept is not None else [words]


def lesson_examples(path: Path) -> list[ClaimExample]:
    """Labelled lesson claims: JSON lines with ``payload``, ``data`` and ``label`` (0 or 1); a claim
    id written twice is refused (the claim would count twice)."""
    examples = []
    seen: dict[str, str] = {}
    for where, row in json_objects(path):
        if isinstance(claim := row.get("id"), str):
            if claim in seen:
                raise InputError(f"{where}: claim {claim!r} already on line {seen[claim].rsplit(':', 1)[1]}")
            seen[claim] = where
        payload, data, label = row.get("payload"), row.get("data"), row.get("label")
        proposal = payload.get("proposal") if isinstance(payload, dict) else None
        if (
            not isinstance(payload, dict)
            or not isinstance(proposal, dict)
            or not isinstance(data, str)
            or isinstance(label, bool)
            or label not in (0, 1)
            or not isinstance(label, int)
        ):
            raise InputError(f"{where}: expected a labelled claim (payload.proposal, data, label 0 or 1)")
        if problem := _claim_problem(proposal, data):
            raise InputError(f"{where}: {problem}")
        src, dst = str(proposal.get("src")), str(proposal.get("dst"))
        examples.append(ClaimExample(claim_features(payload, data), int(label), src, dst, "lesson"))
    return examples


def _claim_problem(proposal: dict[str, object], data: str) -> str:
    """What makes a labelled claim unreadable as the judge would read it ("" when nothing): its
    proposal's ends and type are names, its data the evidence quotes as a judge prompt holds them.

    >>> _claim_problem({"src": "a", "type": "related", "dst": "b"}, '[{"index": 0, "quote": "A and b."}]')
    ''
    >>> _claim_problem({"src": 1, "type": "related", "dst": "b"}, "[]")
    'payload.proposal.src is not a name'
    >>> _claim_problem({"src": "a", "type": "related", "dst": "b"}, "not json")
    'data is not JSON: the evidence quotes, as a judge prompt holds them'
    """
    for key in ("src", "type", "dst"):
        value = proposal.get(key)
        if not isinstance(value, str) or not value.strip():
            return f"payload.proposal.{key} is not a name"
    try:
        quotes = json.loads(data)
    except ValueError:
        return "data is not JSON: the evidence quotes, as a judge prompt holds them"
    if not isinstance(quotes, list) or not all(
        isinstance(quote, dict) and isinstance(quote.get("quote"), str) for quote in quotes
    ):
        return 'data is not a list of quotes ({"index": 0, "quote": "..."})'
    if not quotes:
        return "data holds no evidence quote: a lesson claim is judged on its quotes"
    return ""
