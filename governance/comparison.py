"""How two concepts relate when no edge joins them, read in the lessons.

"What is the difference between zero-shot and few-shot prompting?" is a relation question; when
the graph holds no edge between the two, its algorithm answers "not covered". The lessons may still
say what each one is: the experts are shown the excerpts that say it (those that define or teach
the concepts first, :func:`governance.excerpts.find_excerpts`) and asked, with the prompt's
``compare``, how the concepts relate as those excerpts tell it (offline: what each one is,
:func:`agents.qa.compare_offline`). Routed, each domain's expert reads its own scope for the
concepts it owns; flat, one expert reads the whole graph's lessons for both. The graph's "not
covered" stays in the answer beside what the lessons say.

A side the graph holds no concept of ("What's the difference between MLOps and LLMOps?", no concept
MLOps) is read the same way when a lesson writes its name (:func:`compare_lacked`): the chunks that
write it are shown beside those of the other side, and the answer says the graph lacks the concept
(and that the lessons mention it), not that the graph does not cover it. So are both sides when
the graph holds neither ("What's the difference between AdaGrad and Adam?"): the answer says it holds
neither concept; a name no lesson writes is not covered.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from agents import qa
from agents.definitions import defines
from agents.differences import states_difference
from agents.head_nouns import name_forms
from agents.phrases import word_classes
from agents.properties import asked_property
from agents.question_slots import setting_start
from agents.relevance import topic_terms
from agents.text import find_mentions, lexicon, sentences
from agents.together import said_together
from governance.excerpts import EXCERPTS, LessonChunk, find_excerpts, lesson_chunks
from governance.experts import ExpertReport, QAResult, ask_expert
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.port import LLM
from magg_kg.records import EdgeVersion

__all__ = ["compare_in_lessons", "compare_lacked", "lacked_answer", "unjoined"]


def unjoined(graph: GraphIndex, sub: qa.SubQuestion, explained_by: Sequence[str]) -> bool:
    """Whether ``sub`` asks how two known concepts relate and no expert explained an edge of it
    (``explained_by``: the domains that did), or the edges that join them say no more than that the
    two are associated (:func:`_says_more`: "NumPy is related to tensors" says not how they differ, nor
    a heading "A vs B" quoted)."""
    if sub.type != "relation" or len(sub.concepts) != 2 or sub.unknown:
        return False
    joining = [e for e in graph.edges.values() if {e.src, e.dst} == set(sub.concepts)]
    if asked_property(sub.text, [graph.concepts[c].name for c in sub.concepts if c in graph.concepts]):
        return True  # "which gates do A and B have": what the lessons say of it, whatever edge joins them
    return not explained_by or (bool(joining) and not any(_says_more(edge) for edge in joining))


def _says_more(edge: EdgeVersion) -> bool:
    """Whether an edge says more of the two concepts it joins than that they are associated: its quote
    is a sentence (not a heading, "A vs B"), and it is of a type that says how they relate ("A builds on
    B"), or of one that says only that they differ (:data:`CONTRASTED`) and its quote states how."""
    quote = edge.grounding.evidence[0].quote.strip() if edge.grounding.evidence else ""
    if edge.type == ASSOCIATED or not quote.endswith((".", "!", "?", ")")):
        return False
    return edge.type != CONTRASTED or states_difference(quote)


ASSOCIATED = "related"
"""The edge type that claims only that two concepts are associated (:mod:`magg_kg.vocabulary`)."""

CONTRASTED = "contrasts_with"
"""The edge type that claims that two concepts are alternatives or opposites, not how they differ."""


def compare_in_lessons(
    llm: LLM,
    graph: GraphIndex,
    sub: qa.SubQuestion,
    result: QAResult,
    scopes: Mapping[str, frozenset[str]] | None = None,
    unowned: str = "",
) -> None:
    """Asks the experts what the lessons say of ``sub``'s concepts (module docstring): one per
    domain that owns one of them, each reading its scope (``scopes``; concepts no domain owns go to
    ``unowned``'s scope), or one over the whole graph (``scopes`` None); routed, the expert of the
    first concept reads them all when a sentence of its scope names them all
    (:func:`agents.together.said_together`: how a lesson puts them together, which neither expert alone
    would be shown). The answer of an expert whose lesson sentence names them both and states how
    they differ goes before that of the first expert that explained an edge of them (the edges that
    join them say less: :func:`unjoined`); so does one that answers what the question asks of them
    (:func:`agents.properties.asked_property`: "which gates"), before the graph's headlines too."""
    at = len(result.experts)
    _compare(llm, graph, sub, list(sub.concepts), result, scopes, unowned)
    names = [_name(graph, concept) for concept in sub.concepts]
    both = (" and ".join(names), " and ".join(reversed(names)))
    asked = bool(asked_property(sub.text, names))  # what it asks of them is said first, when said
    differ = [
        r
        for r in result.experts[at:]
        if (r.answer.startswith(both) and states_difference(r.short_answer)) or (asked and r.citations)
    ]
    result.lessons_first = result.lessons_first or bool(asked and differ)
    explained = [
        n for n, r in enumerate(result.experts[:at]) if r.edges_seen and set(r.concepts) & set(sub.concepts)
    ]
    if differ and explained:
        rest = [r for r in result.experts[explained[0] :] if r not in differ]
        result.experts[explained[0] :] = [*differ, *rest]


def compare_lacked(
    llm: LLM,
    graph: GraphIndex,
    sub: qa.SubQuestion,
    result: QAResult,
    scopes: Mapping[str, frozenset[str]] | None = None,
    unowned: str = "",
    near: Callable[[Sequence[str]], Sequence[str]] = lambda names: (),
) -> list[str]:
    """Reads a relation sub-question of two sides, one or both of them names the graph lacks
    (``sub.unknown``; the other a concept), in the lessons, as :func:`compare_in_lessons` reads two
    concepts, when a lesson writes a lacked name (as a whole word: "exploration" does not write
    "LoRA"); and says what is missing: the concept, not the lessons' word on it (:func:`_lacks`).
    The lacked names it did not read, which the graph does not cover: each no lesson writes (all
    of them, nothing read or said, when none is written or the question is of another form).
    ``near``: the names of the concepts the graph has whose names contain names read, said after
    what it lacks (:func:`governance.question_forms.near_names`)."""
    if sub.type != "relation" or not sub.unknown or len(sub.concepts) + len(sub.unknown) != 2:
        return list(sub.unknown)
    chunks = lesson_chunks(graph)
    forms = [_as_written(term, chunks) for term in sub.unknown]
    sub = sub.model_copy(
        update={"unknown": [form or _unset(term) for form, term in zip(forms, sub.unknown, strict=True)]}
    )
    written = [form for form in forms if form]
    if not written:
        return list(sub.unknown)
    keys = {term: lexicon([(term, [term])]) for term in written}
    before = len(result.experts)
    _compare(llm, graph, sub, [*sub.concepts, *written], result, scopes, unowned)
    cited = [r.answer for r in result.experts[before:] if r.citations]
    said = [term for term in written if any(find_mentions(answer, keys[term]) for answer in cited)]
    has = list(near(written))
    listed = ", ".join(has[:-1]) + f" and {has[-1]}" if len(has) > 1 else "".join(has)
    result.uncovered.append(_lacks(graph, sub, written, said) + (f" It has {listed}." if has else ""))
    return [term for term in sub.unknown if term not in written]


def _as_written(term: str, chunks: Sequence[LessonChunk]) -> str | None:
    """A lacked name as the lessons write it (a whole word: "exploration" does not write "LoRA"): the
    name itself, or the name without the adjectives before it that no lesson writes with it ("classic
    MLOps": "MLOps", where a lesson writes "MLOps" and none "classic MLOps"), when what is left says a
    word rarer than everyday English (:func:`agents.relevance.topic_terms`: "early stopping" is no
    "stopping"); None when no lesson writes it so.

    >>> chunk = LessonChunk("c-1", "l-1", "", "LLMOps is not MLOps: stopping.", frozenset(), frozenset())
    >>> _as_written("classic MLOps", [chunk]), _as_written("classic LoRA", [chunk])
    ('MLOps', None)
    >>> _as_written("early stopping", [chunk]), _as_written("LLMOps", [chunk])
    (None, 'LLMOps')

    A trailing phrase of purpose or setting is the comparison's, not the name's, when no lesson
    writes the name with it (:func:`agents.question_slots.setting_start`: "MLOps for startups" is
    "MLOps"), and what is left says a word rarer than everyday English ("models for vision" is no
    "models").

    >>> _as_written("MLOps for startups", [chunk]), _as_written("stopping in practice", [chunk])
    ('MLOps', None)
    """
    setting = setting_start(term)
    return _written_name(term, chunks) or (None if setting is None else _written_name(term[:setting], chunks))


def _unset(term: str) -> str:
    """A lacked name without the phrase of the setting it is compared in ("policy iteration in
    reinforcement learning": "policy iteration"), as the graph does not cover it.

    >>> _unset("policy iteration in reinforcement learning"), _unset("methods for regularization")
    ('policy iteration', 'methods for regularization')
    """
    setting = setting_start(term)
    return term if setting is None else term[:setting]


def _written_name(term: str, chunks: Sequence[LessonChunk]) -> str | None:
    """:func:`_as_written` of a name with no phrase of setting cut."""
    words = term.split()
    for start in range(len(words)):
        if start and "ADJ" not in word_classes(words[start - 1]):
            break
        shorter = " ".join(words[start:])
        if start and not topic_terms(shorter):
            continue
        if any(find_mentions(chunk.text, lexicon([(shorter, [shorter])])) for chunk in chunks):
            return shorter
    return None


def _lacks(graph: GraphIndex, sub: qa.SubQuestion, written: Sequence[str], said: Sequence[str]) -> str:
    """What the graph lacks of a comparison :func:`compare_lacked` read: the concept of each lacked
    name, and whether the lessons mention it (``written``) and the answers read say anything of
    it (``said``)."""
    if sub.concepts:
        term, other = sub.unknown[0], graph.concepts[sub.concepts[0]].name
        lacks = f'The graph holds no concept "{term}"'
        if said:
            return f"{lacks} and no edge relating it to {other}; the lessons mention it."
        return f"{lacks}; a lesson mentions it, but the excerpts read do not say how it relates to {other}."
    if len(written) == 1:  # the other name no lesson writes: the caller says it is not covered
        return f'The graph holds no concept "{written[0]}"; a lesson mentions it.'
    first, second = sub.unknown
    lacks = f'The graph holds neither "{first}" nor "{second}" as a concept'
    if said:
        return f"{lacks}, nor an edge relating them; the lessons mention both."
    return f"{lacks}; lessons mention both, but the excerpts read do not say how they relate."


def lacked_answer(result: QAResult) -> QAResult:
    """The answer, flat, to a typed question naming something the graph lacks: what the experts
    :func:`compare_lacked` asked cited, then what the graph lacks (:meth:`QAResult.assemble`); not
    covered when they cited nothing."""
    if not result.assemble().citations:
        return result.not_covered()
    result.covered = True
    return result


def _compare(
    llm: LLM,
    graph: GraphIndex,
    sub: qa.SubQuestion,
    sides: Sequence[str],
    result: QAResult,
    scopes: Mapping[str, frozenset[str]] | None,
    unowned: str,
) -> None:
    """:func:`compare_in_lessons` of ``sides``: concepts, and names the graph lacks that lessons write."""
    groups: dict[str, list[str]] = {}
    for side in sides:
        groups.setdefault(_domain(graph, sub.text, side, sides, scopes, unowned), []).append(side)
    if scopes is not None and len(groups) > 1:  # a sentence of the first one's scope names them all
        first, names = next(iter(groups)), [_name(graph, side) for side in sides]
        read = _shown(graph, sub.text, sides, scopes.get(first, frozenset()), True)
        if said_together(sub.text, [chunk.excerpt() for chunk in read], names) is not None:
            groups = {first: list(sides)}
    for domain, group in groups.items():
        scope = None if scopes is None else scopes.get(domain, frozenset())
        excerpts = _shown(graph, sub.text, group, scope, scopes is not None)
        if not excerpts:
            continue
        report = ExpertReport(domain, sub.text, [side for side in group if side in graph.concepts], [])
        result.experts.append(report)
        names, every = [_name(graph, side) for side in group], [_name(graph, side) for side in sides]
        ask_expert(llm, graph, report, [], result, excerpts=excerpts, compare=names, sides=every)


def _name(graph: GraphIndex, side: str) -> str:
    return graph.concepts[side].name if side in graph.concepts else side


def _domain(
    graph: GraphIndex,
    question: str,
    side: str,
    sides: Sequence[str],
    scopes: Mapping[str, frozenset[str]] | None,
    unowned: str,
) -> str:
    """Whose expert reads a side: the first domain that owns the concept; for a name the graph lacks,
    the first of the domains of the chunk that writes it shown first (:func:`_writing`)."""
    if scopes is None:
        return ""
    if side in graph.concepts:
        return (graph.owners.get(side) or (unowned,))[0]
    written = _writing(graph, question, side, None, False, [c for c in sides if c in graph.concepts])
    owners = sorted({d for c in written[0].concepts for d in graph.owners.get(c, ())}) if written else []
    return owners[0] if owners else unowned


def _shown(
    graph: GraphIndex, question: str, sides: Sequence[str], scope: Collection[str] | None, unowned: bool
) -> list[LessonChunk]:
    """The excerpts an expert is shown of ``sides``: the chunks that write each name the graph lacks
    (:data:`_WRITING` of each), then those :func:`find_excerpts` finds for the concepts."""
    concepts = [side for side in sides if side in graph.concepts]
    lacked = [side for side in sides if side not in graph.concepts]
    written = [
        chunk for term in lacked for chunk in _writing(graph, question, term, scope, unowned, concepts)
    ]
    found = find_excerpts(graph, question, scope=scope, unowned=unowned, about=concepts)
    return list(
        {
            chunk.id: chunk
            for chunk in [*_together(graph, question, concepts, scope, unowned), *written, *found]
        }.values()
    )[:EXCERPTS]


def _together(
    graph: GraphIndex, question: str, concepts: Sequence[str], scope: Collection[str] | None, unowned: bool
) -> list[LessonChunk]:
    """The chunk (of a scope) linked to every one of two or more concepts whose sentence names them
    all and sets them apart or likens them, as :func:`agents.together.said_together` prefers it,
    wherever it ranks for the question's words; none when no such sentence is found."""
    if len(concepts) < 2:
        return []
    every = len(lesson_chunks(graph))
    found = find_excerpts(graph, question, scope=scope, unowned=unowned, limit=every)
    linked = [chunk for chunk in found if chunk.concepts >= set(concepts)]
    names = [_name(graph, concept) for concept in concepts]
    best = said_together(question, [chunk.excerpt() for chunk in linked], names, apart=True)
    return [chunk for chunk in linked if best is not None and chunk.id == best[0]]


_WRITING = 2
"""The most chunks that write a name the graph lacks shown for it: the rest of what an expert is
shown says what the other side is."""


def _writing(
    graph: GraphIndex,
    question: str,
    term: str,
    scope: Collection[str] | None,
    unowned: bool,
    beside: Collection[str] = (),
) -> list[LessonChunk]:
    """The chunks (of a scope) that write ``term`` as a name (in any of its forms: "decoder-only model" for
    "decoder-only models"; without a generic head noun, :func:`agents.head_nouns.name_forms`), at most
    :data:`_WRITING`: those linked to every concept ``beside`` it first (where a lesson puts the two
    together), then those with a sentence that says what kind of thing it is
    (:func:`agents.definitions.defines`: "Single shot multibox detection is a multiscale object detection
    model."), then those that match the question best."""
    keys = lexicon([(term, name_forms(term))])
    every = len(lesson_chunks(graph))
    found = find_excerpts(graph, question, scope=scope, unowned=unowned, limit=every)
    written = [chunk for chunk in found if find_mentions(chunk.text, keys)]
    return sorted(
        written,
        key=lambda chunk: (
            not chunk.concepts >= set(beside),
            not defines([s.text for s in sentences(chunk.text)], [term]),
        ),
    )[:_WRITING]
