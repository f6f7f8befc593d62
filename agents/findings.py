"""Findings: what the evidence, the owners and the graph say for or against one claim.

The offline judge, advocate, critic and moderator all reason from the same findings, computed from
a prompt's payload (the proposal, the votes, the supporting subgraph) and its data (the quotes).
Each finding is a signed log-odds weight with a note in words and the concept ids it rests on.
The weights are documented in :mod:`agents.judge`.

Reading a quote. The cue statements of :func:`agents.cues.cue_statements` of the claimed type are
located, and the endpoint mentions (by name or alias) in the phrases on either side tell the
direction stated: "X is a prerequisite for Y" states (X, prerequisite, Y); "Y requires X" the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from agents.cues import cue_statements
from agents.offline.injection import instruction_like
from agents.payload import as_list, as_mapping, as_strings, quotes_of
from agents.stance import hedged
from agents.text import find_mentions, normalize_name

__all__ = ["BIAS", "Finding", "Reading", "findings", "read_evidence", "read_quote"]

BIAS = -0.5
"""The prior log-odds of any claim: skeptical, so that evidence has to carry it."""

Stance = Literal["for", "against"]
Topic = Literal["integrity", "evidence", "graph", "votes"]
Stated = Literal["forward", "reverse", "undirected", "unnamed", "none"]

_KIND_WEIGHT = {"explicit": 1.0, "implicit": 0.6, "inferred": 0.2}
_NEGATION = re.compile(r"\b(?:is not|are not|isn't|aren't|never|does not|do not|no longer)\b", re.IGNORECASE)
_SYMMETRIC = ("related", "contrasts_with")


@dataclass(frozen=True)
class Finding:
    """One argument about a claim; ``judged`` findings count in the judge's score, the others
    (absences) only in a debate."""

    side: Stance
    topic: Topic
    kind: str
    weight: float
    note: str
    cites: tuple[str, ...]
    judged: bool = True


@dataclass(frozen=True)
class Reading:
    """What one quote says about the claim."""

    index: int
    lesson_id: str
    kind: str
    stated: Stated
    cue: str
    hedged: bool
    negated: bool
    instruction: bool
    other_types: tuple[str, ...]
    named: bool = False
    """Whether the quote names both endpoints."""

    def strength(self) -> tuple[int, int, float]:
        """How directly the quote supports the claim, larger first: it states the claim (in its
        direction, then undirected), names both endpoints, and is explicit rather than implicit or
        inferred; a quote that states the claim the other way round, denies it or hedges it comes
        last."""
        stated = {"forward": 4, "undirected": 3, "unnamed": 2, "none": 1, "reverse": 0}[self.stated]
        doubted = self.negated or self.hedged or self.stated == "reverse"
        return (0 if doubted else stated, int(self.named), _KIND_WEIGHT.get(self.kind, 0.0))


def read_quote(
    index: int,
    lesson_id: str,
    kind: str,
    quote: str,
    claim: tuple[str, str, str],
    names: tuple[Sequence[str], Sequence[str]],
) -> Reading:
    """How one quote bears on ``claim`` (src, type, dst), given the endpoints' names.

    The cue statements are read by :func:`agents.cues.cue_statements` (the extractor's reader), so
    the judge and the extractor agree on what a sentence says.
    """
    type_ = claim[1]
    keys: dict[str, str] = {}
    for role, group in (("src", names[0]), ("dst", names[1])):
        for name in group:
            key = normalize_name(name)
            if key and key not in keys:
                keys[key] = role
    mentions = find_mentions(quote, keys) if keys else []
    named = _mentions_both(mentions)
    stated: Stated = "none"
    cue_text = ""
    is_hedged = hedged(quote)
    others: set[str] = set()
    for statement in cue_statements(quote):
        if statement.cue.type != type_:
            others.add(statement.cue.type)
            continue
        left = _roles(mentions, statement.left)
        right = _roles(mentions, statement.right)
        found = _direction(left, right, statement.cue.forward, type_, named)
        if _rank(found) > _rank(stated):
            stated, cue_text = found, quote[statement.cue_start : statement.cue_end]
            is_hedged = statement.hedged  # the hedge of the statement read, not of the sentence
    negated = stated == "none" and _NEGATION.search(quote) is not None and _mentions_both(mentions)
    return Reading(
        index=index,
        lesson_id=lesson_id,
        kind=kind,
        stated=stated,
        cue=cue_text,
        hedged=is_hedged,
        negated=negated,
        instruction=instruction_like(quote),
        other_types=tuple(sorted(others - {type_})),
        named=named,
    )


def _roles(mentions: Sequence[tuple[int, int, str]], span: tuple[int, int]) -> set[str]:
    return {role for start, end, role in mentions if start >= span[0] and end <= span[1]}


def _mentions_both(mentions: Sequence[tuple[int, int, str]]) -> bool:
    return {m[2] for m in mentions} >= {"src", "dst"}


def _rank(stated: str) -> int:
    return {"none": 0, "unnamed": 1, "undirected": 2, "reverse": 3, "forward": 4}[stated]


def _direction(left: set[str], right: set[str], forward: bool, type_: str, named: bool) -> Stated:
    if left == right or not left or not right or left | right != {"src", "dst"}:
        return "undirected" if named else "unnamed"
    if type_ in _SYMMETRIC:
        return "forward"
    return "forward" if (left == {"src"}) == forward else "reverse"


def read_evidence(
    payload: Mapping[str, object], data: str, names: tuple[list[str], list[str]] | None = None
) -> list[Reading]:
    """How each evidence quote of a judge-layout prompt bears on its proposal (:func:`read_quote`);
    ``names`` are the endpoints' names, by default the proposal's own."""
    proposal = as_mapping(payload.get("proposal"))
    claim = (str(proposal.get("src")), str(proposal.get("type")), str(proposal.get("dst")))
    if names is None:
        names = (as_strings(proposal.get("src_names")), as_strings(proposal.get("dst_names")))
    quotes = quotes_of(data)
    readings = []
    for item in as_list(payload.get("evidence")):
        span = as_mapping(item)
        index = int(str(span.get("index", -1)))
        if index in quotes:
            kind, lesson = str(span.get("kind")), str(span.get("lesson_id"))
            readings.append(read_quote(index, lesson, kind, quotes[index], claim, names))
    return readings


def findings(payload: Mapping[str, object], data: str) -> list[Finding]:
    """Every finding for and against the proposal in ``payload`` (judge/debate payload layout)."""
    proposal = as_mapping(payload.get("proposal"))
    src, type_, dst = str(proposal.get("src")), str(proposal.get("type")), str(proposal.get("dst"))
    ends = (src, dst)
    readings = read_evidence(payload, data)
    found = _evidence_findings(readings, ends, type_)
    found += _vote_findings(payload, proposal, ends)
    found += _graph_findings(as_mapping(payload.get("subgraph")), ends, type_)
    return found


def _evidence_findings(readings: Sequence[Reading], ends: tuple[str, str], type_: str) -> list[Finding]:
    found: list[Finding] = []
    suspect = [r for r in readings if r.instruction]
    if suspect:
        lessons = sorted({r.lesson_id for r in suspect})
        found.append(
            Finding(
                "against",
                "integrity",
                "instruction",
                -3.0,
                f"instruction-like text in the quotes of {', '.join(lessons)}",
                ends,
            )
        )
    usable = [r for r in readings if not r.instruction]
    if not usable:
        found.append(Finding("against", "evidence", "unsupported", -1.5, "no usable evidence quote", ends))
        return found
    best, weight, note = _best(usable, type_)
    found.append(
        Finding(
            "for" if weight > 0 else "against",
            "evidence",
            best.stated if best.cue else best.kind,
            weight,
            note,
            ends,
        )
    )
    sources = {r.lesson_id for r in usable if r.stated in ("forward", "undirected") or r.kind != "inferred"}
    lessons = sorted(sources)
    if len(lessons) > 1:
        extra = min(3, len(lessons) - 1)
        found.append(
            Finding(
                "for",
                "evidence",
                "corroborated",
                0.4 * extra,
                f"{len(lessons)} independent lessons support it",
                ends,
            )
        )
    else:
        found.append(
            Finding(
                "against",
                "evidence",
                "single-source",
                -0.3,
                "one lesson is the only source",
                ends,
                judged=False,
            )
        )
    if best.hedged:
        found.append(
            Finding(
                "against",
                "evidence",
                "hedged",
                -1.2,
                f"the best quote (lesson {best.lesson_id}) is hedged",
                ends,
            )
        )
    if all(r.negated for r in usable):
        found.append(Finding("against", "evidence", "negated", -2.0, "the quotes deny the relation", ends))
    if best.stated not in ("forward", "undirected"):
        found.append(
            Finding(
                "against",
                "evidence",
                "not-stated",
                -0.5,
                f"no quote states {type_} in so many words",
                ends,
                judged=False,
            )
        )
    others = sorted({t for r in usable for t in r.other_types} - {type_})
    if others and best.stated != "forward":
        found.append(
            Finding(
                "against",
                "evidence",
                "other-type",
                -0.8,
                f"the quotes state {', '.join(others)}, not {type_}",
                ends,
                judged=False,
            )
        )
    return found


def _best(readings: Sequence[Reading], type_: str) -> tuple[Reading, float, str]:
    def weigh(r: Reading) -> tuple[float, str]:
        where = f"lesson {r.lesson_id}"
        if r.stated == "forward":
            return 2.0, f"stated: '{r.cue}' in {where} states {type_} in this direction"
        if r.stated == "undirected":
            return 1.4, f"stated: '{r.cue}' in {where} names both, direction unclear"
        if r.stated == "unnamed":
            return 0.6, f"'{r.cue}' in {where} does not name both endpoints (a pronoun or another phrase)"
        if r.stated == "reverse":
            return -1.5, f"reversed: '{r.cue}' in {where} states it the other way round"
        return _KIND_WEIGHT.get(r.kind, 0.2), f"{r.kind} evidence in {where}"

    scored = sorted(((weigh(r), r) for r in readings), key=lambda item: (-item[0][0], item[1].index))
    (weight, note), best = scored[0]
    return best, weight, note


def _vote_findings(
    payload: Mapping[str, object], proposal: Mapping[str, object], ends: tuple[str, str]
) -> list[Finding]:
    votes = [as_mapping(v) for v in as_list(payload.get("votes"))]
    weighted = [(float(str(v.get("weight", 1.0))), float(str(v.get("score", 0.5)))) for v in votes]
    total = sum(w for w, _ in weighted)
    if total > 0:
        tally = sum(w * s for w, s in weighted) / total
        rejecting = sorted(str(v.get("owner")) for v in votes if v.get("verdict") == "reject")
        note = f"owners' tally {tally:.2f} over {len(votes)} votes"
        if rejecting:
            note += f" (rejected by {', '.join(rejecting)})"
        weight = round(3.0 * (tally - 0.5), 4)
    else:
        confidence = proposal.get("confidence")
        if not isinstance(confidence, int | float):
            return []
        weight = round(2.0 * (float(confidence) - 0.5), 4)
        note = f"pipeline confidence {float(confidence):.2f}, no owner vote"
    if weight == 0:
        return []
    return [Finding("for" if weight > 0 else "against", "votes", "votes", weight, note, ends)]


def _curriculum_findings(subgraph: Mapping[str, object]) -> list[Finding]:
    """Whether the teaching order (the lessons', or a course's: :mod:`agents.teaching`) has the
    claimed learning order the other way round."""
    order = as_strings(subgraph.get("order"))
    taught = as_list(subgraph.get("first_taught"))
    if len(order) != 2 or len(taught) != 2 or not isinstance(taught[1], int):
        return []
    first, later = order
    at_first, at_later = taught[0], int(taught[1])
    if isinstance(at_first, int) and at_first > at_later:
        note = f"the teaching order has {later} (#{at_later + 1}) before {first} (#{at_first + 1})"
        return [Finding("against", "graph", "curriculum-order", -2.0, note, (first, later))]
    if at_first is None:
        note = f"the curriculum teaches {later} (lesson #{at_later + 1}) and has not taught {first} yet"
        return [Finding("against", "graph", "curriculum-order", -0.8, note, (first, later))]
    return []


def _graph_findings(subgraph: Mapping[str, object], ends: tuple[str, str], type_: str) -> list[Finding]:
    found: list[Finding] = []
    paths = [as_strings(p) for p in as_list(subgraph.get("paths"))]
    if paths and type_ not in _SYMMETRIC and type_ != "applies_to":
        found.append(
            Finding(
                "for",
                "graph",
                "path",
                0.8,
                f"the graph already orders them this way: {' -> '.join(paths[0])}",
                tuple(paths[0]),
            )
        )
    shared = as_strings(subgraph.get("shared_neighbors"))
    if shared:
        found.append(
            Finding(
                "for",
                "graph",
                "shared",
                round(min(0.75, 0.25 * len(shared)), 4),
                f"{len(shared)} shared neighbors ({', '.join(shared[:4])})",
                (*ends, *shared[:4]),
            )
        )
    similarity = float(str(subgraph.get("similarity", 0.0)))
    if similarity > 0:
        found.append(
            Finding(
                "for",
                "graph",
                "similar",
                round(min(0.6, 2.0 * similarity), 4),
                f"descriptions similar (TF-IDF cosine {similarity:.2f})",
                ends,
            )
        )
    reverse = [as_strings(p) for p in as_list(subgraph.get("reverse_paths"))]
    if reverse:
        found.append(
            Finding(
                "against",
                "graph",
                "reverse-path",
                -2.5,
                f"the graph orders them the other way: {' -> '.join(reverse[0])}",
                tuple(reverse[0]),
            )
        )
    contradicting = [as_strings(t) for t in as_list(subgraph.get("contradicting"))]
    if contradicting:
        shown = "; ".join(" ".join(t) for t in contradicting[:2])
        found.append(
            Finding(
                "against",
                "graph",
                "contradicting",
                -min(2.0, 1.0 * len(contradicting)),
                f"conflicting active edges: {shown}",
                ends,
            )
        )
    between = [as_strings(t) for t in as_list(subgraph.get("between"))]
    others = [t for t in between if t not in contradicting]
    if others:
        found.append(
            Finding(
                "against",
                "graph",
                "already-related",
                -0.4,
                f"the graph already joins them as {', '.join(sorted({t[1] for t in others}))}",
                ends,
                judged=False,
            )
        )
    found += _curriculum_findings(subgraph)
    lonely = not paths and not shared and not reverse
    if lonely and as_list(subgraph.get("src_neighbors")) and as_list(subgraph.get("dst_neighbors")):
        found.append(
            Finding(
                "against",
                "graph",
                "unconnected",
                -0.4,
                "both concepts have neighbors, none shared, no path between them",
                ends,
                judged=False,
            )
        )
    return found
