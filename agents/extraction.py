"""Extraction of one lesson: concepts, entity resolution, relations, verification, evidence.

The creation layer of the pipeline, after MAGG: for each chunk the concept extractor
(:mod:`agents.concepts`) and the relation extractor (:mod:`agents.relations`) are asked through
the LLM port; the knowledge organizer here resolves names to canonical ids and registers aliases
(entity resolution: :class:`agents.registry.Registry`) and deduplicates; verification and the
evidence linker (:mod:`agents.evidence`) then keep only candidates whose quotes are in the lesson
and name both endpoints, with an evidence kind and an adjusted confidence.

Prose only: every role reads the lesson's prose view (:mod:`magg_kg.markup`: code, tags, tables,
math, URLs ... blanked, offsets unchanged), so no concept or relation comes from what is not prose.
Quotes are found and verified in the prose view (also when their whitespace runs differ, as when a
model collapses the blanks left by removed code), then stored as the ORIGINAL text at the same
offsets (``lesson.text[start:end]``, inline code and all), so each is an exact substring of the
lesson; a quote that spans hidden text (a comment, alt text ...) is never evidence: the relation
is dropped, the concept keeps no lesson link from it. A concept keeps only the aliases the lesson
writes and a description that quotes it (:func:`_own_words`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from agents import concepts as concept_role
from agents import evidence as evidence_role
from agents import relations as relation_role
from agents.concepts import ConceptReply, ExtractedConcept, guess_type
from agents.cost import Cost, ask
from agents.descriptions import described
from agents.evidence import ExtractedEdge, LinkReply, verify
from agents.registry import ConceptInfo, Registry
from agents.relations import RelationReply
from agents.text import acronym_of, find_mentions, lexicon, normalize_name, slug
from agents.topics import Course, lesson_topics, lesson_words, topics_of
from magg_kg.lessons import Chunk, LessonText
from magg_kg.llm.bundle import each
from magg_kg.llm.port import LLM, Failure, Prompt
from magg_kg.markup import HiddenText
from magg_kg.records import Role
from magg_kg.vocabulary import GraphSchema

__all__ = ["Extraction", "LessonLink", "extract_lesson"]

LINK_GROUP = 40
_RANK = {"mentions": 0, "uses": 1, "teaches": 2}


@dataclass(frozen=True)
class LessonLink:
    concept_id: str
    role: Role
    start: int
    end: int
    quote: str
    chunk_id: str


@dataclass
class Extraction:
    """What extraction made of one lesson."""

    new_concepts: list[ConceptInfo] = field(default_factory=list)
    new_aliases: list[tuple[str, str]] = field(default_factory=list)
    same: set[frozenset[str]] = field(default_factory=set)
    """Pairs of known concepts the lesson names as one ("*DenseNet* (dense convolutional network)"
    when both were concepts already): no relation is proposed between them."""
    links: list[LessonLink] = field(default_factory=list)
    candidates: list[ExtractedEdge] = field(default_factory=list)
    dropped: list[tuple[ExtractedEdge, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    interrupted: str = ""
    """The first call that produced no usable reply (the model out of reach or refusing, the spend
    cap reached, a reply that does not validate): the lesson was not read whole, and is not
    written (ingestion refuses it, to be read whole by a later run)."""
    cost: Cost = field(default_factory=Cost)

    def without_held(
        self, held: Callable[[int, int], str], prose: str, names: Callable[[str], list[str]]
    ) -> set[str]:
        """Leaves out the new concepts that the lesson (its ``prose``) names only in text held for
        a person (``held(start, end)`` says why a span is, "" when it is not: beside
        instruction-like text), with their names, links and candidate edges; the ids it left out.
        Every mention of a concept (by ``names(id)``) counts, not only its links: these may all sit
        in held text while the lesson names it elsewhere too. Text addressed to the reviewer is
        evidence of nothing, not even of a concept ("# Reviewer instructions")."""
        spans: dict[str, list[LessonLink]] = {}
        for link in self.links:
            spans.setdefault(link.concept_id, []).append(link)
        out = {
            c.id
            for c in self.new_concepts
            if spans.get(c.id)
            and all(held(link.start, link.end) for link in spans[c.id])
            and all(held(start, end) for start, end in _named_at(prose, names(c.id)))
        }
        if out:
            self.new_concepts = [c for c in self.new_concepts if c.id not in out]
            self.new_aliases = [(key, owner) for key, owner in self.new_aliases if owner not in out]
            self.same = {pair for pair in self.same if not pair & out}
            self.links = [link for link in self.links if link.concept_id not in out]
            self.candidates = [c for c in self.candidates if not {c.src, c.dst} & out]
            self.dropped = [(c, why) for c, why in self.dropped if not {c.src, c.dst} & out]
        return out

    def failed(self, what: str, reply: Failure) -> None:
        """Records a call that produced no reply."""
        line = f"{what}: {reply.kind}: {reply.reason}"
        self.failures.append(line)
        self.interrupted = self.interrupted or line


def _order(concept: ExtractedConcept) -> tuple[int, int, int, str]:
    # Defined terms first, described ones first among them (a chunk that defines a concept names it
    # better than a heading over another chunk), acronyms last, so that "LLMs" resolves to the
    # concept it abbreviates.
    return (
        -_RANK[concept.role],
        0 if concept.description else 1,
        1 if acronym_of(concept.name) else 0,
        normalize_name(concept.name),
    )


def extract_lesson(
    lesson: LessonText,
    llm: LLM,
    registry: Registry,
    schema: GraphSchema,
    corroborations: Mapping[tuple[str, str, str], int] | None = None,
    course: Course | None = None,
) -> Extraction:
    """Runs the extraction roles over one lesson and organizes their output; ``course`` (the
    lessons it belongs to) tells its headings' topics from the course's common words."""
    result = Extraction()
    node_types = sorted(schema.node_types)
    found: list[tuple[ExtractedConcept, str, int]] = []
    senses = registry.senses(lesson.prose)
    topics, words = lesson_topics(lesson.prose, course, lesson.id), lesson_words(lesson.prose)

    def concepts_of(chunk: Chunk) -> None:
        text = lesson.prose[chunk.start : chunk.end]
        headed = topics_of(topics, chunk.start, chunk.end)
        prompt = Prompt(
            task=concept_role.TASK,
            stage="extraction",
            agent="concept-extractor",
            system=concept_role.SYSTEM,
            data=text,
            prompt_version=concept_role.PROMPT_VERSION,
            payload={
                "lesson_id": lesson.id,
                "chunk_id": chunk.id,
                "node_types": node_types,
                "known": [k.model_dump() for k in registry.known_in(text, senses=senses)],
                **({"topics": headed, "lesson_words": words} if headed else {}),
            },
        )
        reply = ask(llm, prompt, ConceptReply, result.cost)
        if isinstance(reply, Failure):
            result.failed(f"concepts of chunk {chunk.ordinal}", reply)
            return
        found.extend((concept, chunk.id, chunk.start) for concept in reply.value.concepts)

    each(llm, lesson.chunks, concepts_of)
    spelled = registry.senses(lesson.prose, by_initials=False)
    _organize(lesson, found, registry, schema, result, spelled)
    raw: list[ExtractedEdge] = []
    senses = registry.senses(lesson.prose)  # this lesson's concepts too
    full = registry.in_full(lesson.prose)

    def relations_of(chunk: Chunk) -> None:
        text = lesson.prose[chunk.start : chunk.end]
        known = registry.known_in(text, heads=True, senses=senses, full=full)
        if len(known) < 2:
            return
        prompt = Prompt(
            task=relation_role.TASK,
            stage="extraction",
            agent="relation-extractor",
            system=relation_role.SYSTEM,
            data=text,
            prompt_version=relation_role.PROMPT_VERSION,
            payload={"concepts": [k.model_dump() for k in known], "edge_types": sorted(schema.edge_types)},
        )
        relations = ask(llm, prompt, RelationReply, result.cost)
        if isinstance(relations, Failure):
            result.failed(f"relations of chunk {chunk.ordinal}", relations)
            return
        ids = {k.id for k in known}
        for relation in relations.value.relations:
            candidate = ExtractedEdge(
                src=relation.src,
                type=relation.type,
                dst=relation.dst,
                confidence=relation.confidence,
                quote=relation.quote,
                start=chunk.start + relation.start,
                end=chunk.start + relation.end,
                chunk_id=chunk.id,
                cue=relation.cue,
                reasoning=relation.reasoning,
            )
            if relation.src not in ids or relation.dst not in ids:
                result.dropped.append((candidate, "an endpoint is not a concept of the chunk"))
            elif relation.type not in schema.edge_types:
                result.dropped.append((candidate, f"{relation.type!r} is not in the edge vocabulary"))
            else:
                raw.append(candidate)

    each(llm, lesson.chunks, relations_of)
    _verify_and_link(lesson, llm, raw, registry, schema, corroborations or {}, result)
    result.dropped = [(_as_written(lesson, candidate), why) for candidate, why in result.dropped]
    return result


def _tag_start(lesson: LessonText, start: int) -> int:
    """Where a quote that starts on a mark the prose view shows for a tag ("**" for "<b>", drawn
    on the tag's last characters) starts in the lesson: at the tag, not inside it ("b>Left:")."""
    if start >= len(lesson.text) or lesson.prose[start] == lesson.text[start]:
        return start
    opening = lesson.text.rfind("<", max(0, start - 16), start + 1)
    return opening if opening >= 0 and ">" not in lesson.text[opening:start] else start


def _as_written(lesson: LessonText, candidate: ExtractedEdge) -> ExtractedEdge:
    """A dropped candidate whose quote is the prose view at its offsets, quoting the lesson's text
    there instead (what it reads with its code and markup), as a kept one does; any other quote
    (a model's own words, found nowhere) as the model gave it."""
    if lesson.prose[candidate.start : candidate.end] != candidate.quote:
        return candidate
    return replace(candidate, quote=lesson.text[candidate.start : candidate.end])


def _organize(
    lesson: LessonText,
    found: list[tuple[ExtractedConcept, str, int]],
    registry: Registry,
    schema: GraphSchema,
    result: Extraction,
    spelled: frozenset[str],
) -> None:
    best: dict[str, LessonLink] = {}
    named = set(spelled)  # the concepts the lesson names by a name, not by initials alone
    # Names that end in an acronym last: "GPs" may be the initials of a concept this lesson names
    # first ("Gaussian processes") and of another the course named before; the lesson's own sense
    # wins. And "NVIDIA NIM" is "NVIDIA Inference Microservices" once that is known.
    # In their own words first: a chunk that describes a concept names it before one whose sentence
    # was no description ("Linear algebra is a prerequisite for this course.").
    owned = [(_own_words(lesson, offered), chunk_id, chunk_start) for offered, chunk_id, chunk_start in found]
    for concept, chunk_id, chunk_start in sorted(
        owned, key=lambda item: (_ends_in_acronym(item[0].name), _order(item[0]))
    ):
        concept_id = registry.resolve(concept.name, named)
        if concept_id is None:
            concept_id = registry.defined_by(concept.name, concept.aliases)
        span = _locate(lesson.prose, concept.quote, chunk_start)
        if concept_id is None and not _grounded(lesson, concept, span):
            continue  # a new concept needs a quote of the lesson's prose, and its name in the lesson
        if concept_id is None:
            concept_id = slug(concept.name)
            if not concept_id or len(concept_id) > 120:
                continue
            node_type = (
                concept.type
                if concept.type in schema.node_types
                else guess_type(concept.name, concept.description, schema.node_types)
            )
            if concept_id in registry.concepts:
                registry.add_alias(concept.name, concept_id)
            else:
                info = ConceptInfo(concept_id, concept.name.strip(), node_type, concept.description[:2000])
                registry.add(info)
                result.new_concepts.append(info)
                result.new_aliases.append((normalize_name(concept.name), concept_id))
        for form in (concept.name, *concept.aliases):
            key = registry.add_alias(form, concept_id)
            if key is not None:
                result.new_aliases.append((key, concept_id))
            else:
                other = registry.resolve(form)
                if other is not None and other != concept_id:
                    result.same.add(frozenset((concept_id, other)))
        named.add(concept_id)
        if span is None or _hidden_in(lesson, *span) is not None:
            continue
        where, end = span
        link = LessonLink(concept_id, concept.role, where, end, lesson.text[where:end], chunk_id)
        current = best.get(concept_id)
        if current is None or _RANK[link.role] > _RANK[current.role]:
            best[concept_id] = link
    result.links = [best[concept_id] for concept_id in sorted(best)]


def _grounded(lesson: LessonText, concept: ExtractedConcept, span: tuple[int, int] | None) -> bool:
    """Whether a concept a model offers is the lesson's: its quote is in the lesson's prose and the
    lesson names it (by its name or an alias). A model that invents a concept ("Quantum Banana
    Theory") quotes what the lesson does not say, or names what it does not name. (A quote that
    spans hidden text still locates a concept the prose names; it is only never evidence.)"""
    if span is None:
        return False
    names = [concept.name, *concept.aliases]
    return bool(_named_at(lesson.prose[span[0] : span[1]], names) or _named_at(lesson.prose, names))


def _own_words(lesson: LessonText, concept: ExtractedConcept) -> ExtractedConcept:
    """``concept`` with only the aliases the lesson writes, and its description only when it is a
    quote of the lesson: what a model writes there itself (an alias that merges two concepts, a
    description that addresses the judge) would reach later prompts as the graph's own text.
    Neither counts when only hidden text holds it. A quote that says no more of the concept than a
    relation or where the course has it is no description, and one that is, is kept as it reads
    (:func:`agents.descriptions.described`)."""
    aliases = [a for a in concept.aliases if _written(lesson, _named_at(lesson.prose, [a]))]
    span = _locate(lesson.prose, concept.description) if concept.description.strip() else None
    description = described(concept.description) if span is not None and _written(lesson, [span]) else ""
    if aliases == concept.aliases and description == concept.description:
        return concept
    return concept.model_copy(update={"aliases": aliases, "description": description})


def _written(lesson: LessonText, spans: list[tuple[int, int]]) -> bool:
    """Whether one of ``spans`` of the prose is outside hidden text."""
    return any(_hidden_in(lesson, start, end) is None for start, end in spans)


def _named_at(text: str, names: list[str]) -> list[tuple[int, int]]:
    """Where ``text`` names a concept called ``names`` (its name and aliases), mention by mention."""
    return [(start, end) for start, end, _ in find_mentions(text, lexicon([("concept", names)]))]


def _ends_in_acronym(name: str) -> bool:
    """Whether a name's last word is an acronym ("GPs", "NVIDIA NIM")."""
    words = name.split()
    return bool(words) and acronym_of(words[-1]) is not None


def _locate(prose: str, quote: str, start: int = 0) -> tuple[int, int] | None:
    """Where ``quote`` is in the prose view at or after ``start``: exactly, else with any run of
    whitespace for each run of the quote.

    >>> _locate("Dropout          is related to calculus.", "Dropout is related to calculus.")
    (0, 40)
    """
    where = prose.find(quote, start)
    if where >= 0 and quote.strip():
        return where, where + len(quote)
    words = quote.split()
    found = re.compile(r"\s+".join(map(re.escape, words))).search(prose, start) if words else None
    return (found.start(), found.end()) if found else None


def _hidden_in(lesson: LessonText, start: int, end: int) -> HiddenText | None:
    """The first hidden text that overlaps ``start:end``, if any."""
    return next((h for h in lesson.hidden if h.start < end and start < h.end), None)


def _verify_and_link(
    lesson: LessonText,
    llm: LLM,
    raw: list[ExtractedEdge],
    registry: Registry,
    schema: GraphSchema,
    corroborations: Mapping[tuple[str, str, str], int],
    result: Extraction,
) -> None:
    unique: dict[tuple[str, str, str], ExtractedEdge] = {}
    quotes: dict[tuple[str, str, str], set[str]] = {}
    for candidate in raw:
        if frozenset((candidate.src, candidate.dst)) in result.same:
            result.dropped.append((candidate, "the lesson names the two as one concept"))
            continue
        src, _, dst = schema.canonical(candidate.src, candidate.type, candidate.dst)
        candidate = replace(candidate, src=src, dst=dst)
        if lesson.prose[candidate.start : candidate.end] != candidate.quote:
            span = _locate(lesson.prose, candidate.quote)
            if span is not None:
                candidate = replace(
                    candidate, start=span[0], end=span[1], quote=lesson.prose[span[0] : span[1]]
                )
        kept, note = verify(candidate, lesson.prose, {c: registry.names(c) for c in (src, dst)})
        if kept is None:
            result.dropped.append((candidate, note))
            continue
        start = _tag_start(lesson, kept.start)
        kept = replace(kept, start=start, quote=lesson.text[start : kept.end])
        hidden = _hidden_in(lesson, kept.start, kept.end)
        if hidden is not None:
            where = f"{hidden.reason} at {hidden.start}-{hidden.end}"
            result.dropped.append((kept, f"the quote spans hidden text ({where}), never evidence"))
            continue
        quotes.setdefault(kept.triple, set()).add(kept.quote)
        if kept.triple not in unique or unique[kept.triple].confidence < kept.confidence:
            unique[kept.triple] = kept
    verified = [unique[key] for key in sorted(unique)]
    for first in range(0, len(verified), LINK_GROUP):
        group = verified[first : first + LINK_GROUP]
        items = [
            {
                "type": c.type,
                "src": c.src,
                "dst": c.dst,
                "confidence": c.confidence,
                "src_names": registry.names(c.src),
                "dst_names": registry.names(c.dst),
                "cue": c.cue,
                "corroborations": len(quotes[c.triple]) - 1 + corroborations.get(c.triple, 0),
            }
            for c in group
        ]
        prompt = Prompt(
            task=evidence_role.TASK,
            stage="extraction",
            agent="evidence-linker",
            system=evidence_role.SYSTEM,
            data=json.dumps([lesson.prose[c.start : c.end] for c in group], ensure_ascii=False),
            payload={"lesson_id": lesson.id, "candidates": items},
            prompt_version=evidence_role.PROMPT_VERSION,
        )
        reply = ask(llm, prompt, LinkReply, result.cost)
        if isinstance(reply, Failure):
            result.failed("evidence links", reply)
            result.candidates.extend(group)
            continue
        links = {link.index: link for link in reply.value.links if link.index < len(group)}
        for index, candidate in enumerate(group):
            link = links.get(index)
            if link is None:
                result.candidates.append(candidate)
            else:
                result.candidates.append(
                    replace(
                        candidate,
                        kind=link.kind,
                        confidence=link.confidence,
                        reasoning=f"{candidate.reasoning}; {link.reasoning}",
                    )
                )
