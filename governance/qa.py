"""Domain-routed question answering: decompose, route, answer per domain, synthesize.

Routed (:func:`answer_routed`):

1. the orchestrator decomposes the question into sub-questions with the concepts each mentions;
   it is shown the question and, of the graph's lexicon, only the names of the concepts the
   question mentions (:func:`mentioned`), not every name the graph knows (only concepts the graph
   knows are kept; on a failed call the whole question is one sub-question with the concepts
   found in it). A question whose every clause the classifier types (a path, which first,
   prerequisites, ...) and names only concepts the graph knows is split and read without a call,
   the way flat reads a question: the orchestrator would find nothing more;
2. each sub-question goes to the domains that own its concepts (``store.concept_domains()``); a
   concept no domain owns goes to the unowned scope (every unowned concept);
3. each domain expert retrieves from its scope only - the domain's concepts plus its bridge
   concepts (the bridge context of its card) - and answers from those edges and the lesson
   excerpts of its scope (:mod:`governance.excerpts`): the chunks that name its concepts, and the
   chunks that name no owned concept (no domain owns them, so every expert may read them); for
   "What is X?", the chunks that teach X first (where its lesson defines it). An
   open sub-question is also routed by its text (:func:`_open_domains`): to the scopes of the
   chunk that matches it best, when none of its concepts' domains reads that chunk (a name the
   lexicon lacks; a sub-question that names no concept the graph knows goes there alone);
4. synthesis merges the experts' answers into the final answer and a short answer, in one call,
   when there is something to merge: more than one retrieval answer, or a retrieval answer beside
   graph answers or gaps. Otherwise the answer is written in code, as flat writes its own: the
   graph answers' headlines, the experts' answers in order, what the graph does not cover.

Flat (:func:`answer_flat`), the ablation baseline: one retrieval over the whole graph (the
question's concepts and the concepts nearest it, one hop, no scope; the best excerpts of all the
lessons) and one answering call.

A typed sub-question (a learning path, which comes first, prerequisites, what X unlocks, parts,
how two concepts relate: :mod:`agents.question_types`) is answered by its graph algorithm
(:mod:`governance.graph_answer`) instead of by retrieval. Routed, the algorithm reads the graph
one domain at a time (:class:`~magg_kg.graph_reader.DomainReader`: a domain's edges are read
when the search first reaches one of its concepts), and the steps of the answer go to the fewest
experts whose domains hold them (a step between two domains is read by both): a path across
domains is assembled from the experts of the domains its steps belong to, in order, joined at
the concepts where it crosses. Flat, the algorithm is given the
whole graph (:class:`~magg_kg.graph_reader.WholeGraphReader`), the question is classified whole
(no decomposition) and one call answers. ``edges_read`` (the edges the answering side was given
to search), ``context_edges`` (the edges the experts were shown) and ``context_tokens`` (every
token of every prompt of the question - orchestrator, experts, synthesis - instructions
included, estimated as characters / 4; by role in ``tokens_by_role``) say how much a question
cost. A part of a question
the graph does not cover (an unknown name, nothing of the kind asked for) is said in the answer:
"The graph does not cover ...".

Every citation is checked in code: an expert may cite only the edges it was shown, synthesis only
edges some expert was shown; anything else is dropped and reported in ``dropped``. Every call
goes through the LLM port with stage ``qa``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from agents import qa, synthesis
from agents.answer_forms import (
    PURPOSE,
    as_what_is,
    asks_about,
    expected_kind,
    requested_term,
    term_in_context,
)
from agents.expansions import abbreviation_asked
from agents.question_types import classify, clauses_of
from agents.text import clipped, find_mentions, normalize_name
from governance.excerpts import excerpt_scopes, find_excerpts, graph_lexicon
from governance.experts import (
    NOT_COVERED,
    STAGE,
    UNOWNED,
    ExpertReport,
    QAResult,
    ask_counted,
    ask_expert,
    checked,
    expert_answers,
    graph_tokens,
)
from governance.graph_answer import uncovered_names
from governance.typed_answers import is_typed, of_whole_graph, typed_flat, typed_routed
from magg_kg.graph_index import GraphIndex, retrieve
from magg_kg.graph_reader import DomainReader, domain_members
from magg_kg.llm.port import LLM, Answer, Prompt

__all__ = [
    "UNOWNED",
    "ExpertReport",
    "QAResult",
    "answer_flat",
    "answer_routed",
    "bridges_of",
    "domain_scopes",
    "mentioned",
    "near_names",
]


def domain_scopes(graph: GraphIndex, bridges: Mapping[str, Sequence[str]]) -> dict[str, frozenset[str]]:
    """Domain id -> the concepts its expert may see: its own and its bridge concepts (built once
    per graph and bridges)."""
    key = ("scopes", tuple(sorted((domain, tuple(extra)) for domain, extra in bridges.items())))
    return graph.kept(key, lambda: _scopes(graph, bridges))


def _scopes(graph: GraphIndex, bridges: Mapping[str, Sequence[str]]) -> dict[str, frozenset[str]]:
    scopes: dict[str, set[str]] = {}
    for concept, owners in graph.owners.items():
        for owner in owners:
            scopes.setdefault(owner, set()).add(concept)
    for domain, extra in bridges.items():
        scopes.setdefault(domain, set()).update(c for c in extra if c in graph.concepts)
    unowned = {c for c in graph.concepts if not graph.owners.get(c)}
    if unowned:
        scopes[UNOWNED] = unowned
    return {domain: frozenset(members) for domain, members in scopes.items()}


def mentioned(keys: Mapping[str, str], question: str) -> dict[str, str]:
    """The lexicon entries of the concepts a question mentions (every name and alias of each): what
    the orchestrator is shown of the graph's names, instead of all of them."""
    found = {concept for _, _, concept in find_mentions(question, dict(keys))}
    return {key: concept for key, concept in keys.items() if concept in found}


def near_names(graph: GraphIndex, unknown: Sequence[str], most: int = 3) -> list[str]:
    """The names of at most ``most`` concepts whose names contain a name the graph lacks, word for
    word ("attention" in "attention pooling"): the most connected first, then the shorter."""
    wanted = [f" {normalize_name(name)} " for name in unknown if normalize_name(name)]
    touching = graph.touching()
    found = [
        concept
        for concept in graph.concepts.values()
        if any(w in f" {normalize_name(concept.name)} " for w in wanted)
    ]
    found.sort(key=lambda c: (-len(touching.get(c.id, ())), len(c.name), c.name))
    return [c.name for c in found[:most]]


def _typed_clauses(question: str, keys: Mapping[str, str]) -> list[qa.SubQuestion]:
    """The question's clauses as sub-questions, read as flat reads a question, when each is of a
    type the graph answers and names concepts the graph knows, and none it lacks (else none: the
    orchestrator decomposes it)."""
    lexicon, subs = dict(keys), []
    for clause in clauses_of(question):
        kind = classify(clause, lexicon)
        whole = of_whole_graph(kind.type, kind.concepts, kind.unknown)
        if kind.type == "open" or not (kind.concepts or whole) or kind.unknown:
            return []
        text = clipped(clause + "?", qa.MAX_SUB_QUESTION)
        subs.append(qa.SubQuestion(text=text, concepts=kind.concepts, type=kind.type, full=kind.full))
    return subs


def _decompose(llm: LLM, graph: GraphIndex, question: str, result: QAResult) -> list[qa.SubQuestion]:
    keys = graph_lexicon(graph)
    typed = _typed_clauses(question, keys)
    if typed:
        return typed
    prompt = Prompt(
        task=qa.DECOMPOSE_TASK,
        stage=STAGE,
        agent="orchestrator",
        system=qa.DECOMPOSE_SYSTEM,
        data=question,
        payload={"lexicon": mentioned(keys, question)},
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = ask_counted(llm, prompt, qa.Decomposition, result)
    if isinstance(reply, Answer):
        return [
            s.model_copy(update={"concepts": [c for c in s.concepts if c in graph.concepts]})
            for s in reply.value.sub_questions
        ]
    result.failures.append(f"orchestrator: {reply.kind}: {reply.reason}")
    if not question:
        return []
    # The whole question is the one sub-question: its concepts are found in all of it, its text is
    # cut to what a sub-question may hold (any question, of any length, gets an answer or "not covered").
    found = [concept for _, _, concept in find_mentions(question, keys)]
    text = clipped(question, qa.MAX_SUB_QUESTION)
    return [qa.SubQuestion(text=text, concepts=list(dict.fromkeys(found)))]


MAX_SUB_QUESTIONS = 8
"""The most parts of one question that are answered: each costs model calls, and a question of
a thousand parts is a request for a thousand answers, not one."""


def _bounded(subs: list[qa.SubQuestion], result: QAResult) -> list[qa.SubQuestion]:
    """The sub-questions, each asked once (a part written twice is answered once), at most
    :data:`MAX_SUB_QUESTIONS` of them; the answer says when more were left unanswered."""
    first: dict[tuple[str, tuple[str, ...], str], qa.SubQuestion] = {}
    for sub in subs:
        first.setdefault((normalize_name(sub.text), tuple(sub.concepts), sub.type), sub)
    distinct = list(first.values())
    if len(distinct) > MAX_SUB_QUESTIONS:
        result.uncovered.append(
            f"The question has {len(distinct)} parts; the first {MAX_SUB_QUESTIONS} were answered: "
            "ask the others on their own."
        )
    return distinct[:MAX_SUB_QUESTIONS]


def _uncovered(result: QAResult) -> QAResult:
    result.covered = False
    named = " ".join(result.uncovered)
    result.answer = named or "The graph does not cover the concepts this question asks about."
    result.short_answer = NOT_COVERED
    return result


def answer_routed(
    llm: LLM,
    graph: GraphIndex,
    question: str,
    bridges: Mapping[str, Sequence[str]],
    *,
    top_k: int = 2,
) -> QAResult:
    """Answers ``question`` through decomposition, domain routing, experts and synthesis."""
    result = QAResult(question=question, mode="routed", as_of=graph.as_of)
    subs = _bounded(_decompose(llm, graph, question, result), result)
    scopes = domain_scopes(graph, bridges)
    touching = graph.touching()
    members = graph.kept(("members", UNOWNED), lambda: domain_members(touching, graph.owners, UNOWNED))
    reader = DomainReader(graph.edges.values(), graph.owners, UNOWNED, touching=touching, members=members)
    read_by_retrieval: set[str] = set()
    retrieved: list[ExpertReport] = []
    typed = [number for number, sub in enumerate(subs) if is_typed(sub)]
    by_part: dict[int, list[str]] = {}
    for number, sub in enumerate(subs):
        domains = sorted({d for c in sub.concepts for d in (graph.owners.get(c) or (UNOWNED,))})
        entry: dict[str, object] = {"text": sub.text, "concepts": sub.concepts, "domains": domains}
        result.sub_questions.append(entry | {"type": sub.type, "unknown": sub.unknown})
        if sub.unknown:
            result.uncovered.append(uncovered_names(sub.unknown, near_names(graph, sub.unknown)))
        if typed and number == typed[0]:  # the typed parts together, each expert asked once
            explained = typed_routed(llm, graph, [subs[n] for n in typed], reader, result)
            by_part = dict(zip(typed, explained, strict=True))
        if number in typed:
            continue
        if sub.type != "open" and sub.unknown:
            continue
        text = _about_one(graph, sub.text)
        domains = _open_domains(graph, text, domains)
        result.sub_questions[-1] |= {"text": text, "domains": domains}
        before = len(retrieved)
        for domain in domains:
            scope = scopes.get(domain, frozenset())
            edges = (
                retrieve(graph, text, seeds=sub.concepts, scope=scope, top_k=top_k) if sub.concepts else []
            )
            excerpts = find_excerpts(
                graph, text, scope=scope, unowned=True, about=_defined(text, sub.concepts)
            )
            report = ExpertReport(domain, text, [c for c in sub.concepts if c in scope], [])
            report.edges_seen = [edge.edge_id for edge in edges]
            read_by_retrieval.update(report.edges_seen)
            result.experts.append(report)
            retrieved.append(report)
            ask_expert(llm, graph, report, edges, result, excerpts=excerpts)
        if domains and not any(e.citations for e in retrieved[before:]):
            result.uncovered.append(f'The graph does not cover "{text}".')
    for number in typed:  # the domains whose experts explained each typed part
        result.sub_questions[number]["domains"] = by_part[number] or result.sub_questions[number]["domains"]
    read = reader.edges_read | read_by_retrieval
    result.edges_read, result.graph_tokens = len(read), graph_tokens(graph, read)
    result.domains_read = list(reader.consulted)
    answered_by_graph = any(a.covered for a in result.graph_answers)  # where to start names no concept
    if (
        not any(sub.concepts for sub in subs)
        and not any(e.citations for e in retrieved)
        and not answered_by_graph
    ):
        return _uncovered(result)
    answered = [e for e in retrieved if e.citations]
    if len(answered) > 1 or (answered and (result.graph_answers or result.uncovered)):
        _synthesize(llm, question, result)
    else:
        _assemble(result)
    result.covered = bool(result.citations) or any(a.covered for a in result.graph_answers)
    return result


def _open_domains(graph: GraphIndex, text: str, owning: Sequence[str]) -> list[str]:
    """The scopes an open sub-question goes to: the domains that own its concepts (``owning``),
    and the scopes of the lesson chunk its words match best when none of those reads that chunk
    (the question names something the lexicon lacks, or names nothing it has). A chunk that names
    no owned concept belongs to no domain: every expert reads it, so it adds no scope."""
    by_text = excerpt_scopes(graph, text, UNOWNED)
    if owning and (UNOWNED in by_text or not set(by_text).isdisjoint(owning)):
        return list(owning)
    return [*owning, *(d for d in by_text if d not in owning)]


def _about_one(graph: GraphIndex, question: str) -> str:
    """An open question that asks about one concept as a whole ("dropout?", "Explain dropout",
    "Tell me about dropout.", :func:`agents.answer_forms.asks_about`; a request to explain one
    term the graph lacks, :func:`agents.answer_forms.requested_term`) asked as "What is dropout?":
    a definition answers it, and the readers look for one (not for a name beside it); any other
    question as it is. What it asks in other words ("What does X mean?", "What's X?",
    :func:`agents.answer_forms.as_what_is`) is asked as "What is X?" first, and so is what a term
    is within a context ("What is a token in NLP?", :func:`agents.answer_forms.term_in_context`),
    when the term is a concept's name, or a short one without "the" ("What is the seat in the
    county?" may ask a name)."""
    if abbreviation_asked(question):  # "What does ReLU stand for?" asks a long form, not a definition
        return question
    question = as_what_is(question) or question
    term, article, verb, whole = term_in_context(question)
    named = term and not _names_one(graph, whole)  # "Allen Institute for Artificial Intelligence" is one name
    if named and ((article != "the" and len(term.split()) <= 3) or _names_one(graph, term)):
        question = f"What {verb} {term}?"
    found = find_mentions(question, graph_lexicon(graph))
    if not found:  # a name the graph lacks may still be one a lesson defines ("Explain word2vec")
        term = requested_term(question)
        return f"What is {term}?" if term else question
    if len(found) != 1 or not asks_about(question, found[0][0], found[0][1]):
        return question
    start, end, _ = found[0]
    return f"What is {question[start:end]}?"


def _names_one(graph: GraphIndex, text: str) -> bool:
    """Whether the whole of ``text`` is one name of a concept of the graph."""
    found = find_mentions(text, graph_lexicon(graph))
    return len(found) == 1 and found[0][:2] == (0, len(text))


def _defined(question: str, concepts: Sequence[str]) -> Sequence[str]:
    """The concepts whose teaching chunks an answer reads first: those a question asks what they
    are ("What is dropout?") or what they are for ("What is dropout good for?", where it is taught
    says), or what they stand for ("What does ReLU stand for?", where it is taught spells it out);
    none for any other question, whose excerpts are found by its words."""
    what = expected_kind(question) == "definition" or PURPOSE.search(question)
    return concepts if what or abbreviation_asked(question) else ()


def _assemble(result: QAResult) -> None:
    """The answer written in code, when there is nothing for synthesis to merge: the graph answers'
    headlines, then the experts' answers in order (a path's steps in the order of the path), then
    what the graph does not cover."""
    heads = [a.headline for a in result.graph_answers if a.covered]
    said = [*heads, *(e.answer for e in result.experts if e.citations and e.answer), *result.uncovered]
    result.answer = " ".join(dict.fromkeys(said))
    shorts = heads or [e.short_answer for e in result.experts if e.citations and e.short_answer]
    result.short_answer = " ".join(dict.fromkeys(shorts or result.uncovered))
    result.citations = list(dict.fromkeys(c for e in result.experts for c in e.citations))
    result.dropped = list(dict.fromkeys(d for e in result.experts for d in e.dropped))


def _synthesize(llm: LLM, question: str, result: QAResult) -> None:
    """Merges the experts' answers (more than one retrieval answer, or retrieval beside graph
    answers or gaps) into the final answer, in one call."""
    prompt = Prompt(
        task=synthesis.SYNTHESIS_TASK,
        stage=STAGE,
        agent="synthesis",
        system=synthesis.SYNTHESIS_SYSTEM,
        data=question,
        payload={
            "answers": expert_answers(result.experts),
            "graph_answers": [a.headline for a in result.graph_answers if a.covered],
            "uncovered": list(dict.fromkeys(result.uncovered)),
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = ask_counted(llm, prompt, synthesis.Synthesis, result)
    if not isinstance(reply, Answer):
        result.failures.append(f"synthesis: {reply.kind}: {reply.reason}")
        _assemble(result)
        return
    shown = {cited for e in result.experts for cited in (*e.edges_seen, *e.excerpts_seen)}
    result.answer, result.short_answer = reply.value.answer, reply.value.short_answer
    result.citations, result.dropped = checked(reply.value.citations, reply.value.answer, shown)
    result.dropped = list(dict.fromkeys([*(d for e in result.experts for d in e.dropped), *result.dropped]))


def answer_flat(llm: LLM, graph: GraphIndex, question: str, *, top_k: int = 2) -> QAResult:
    """The baseline: one retrieval over the whole graph and one answering call, no routing."""
    result = QAResult(question=question, mode="flat", as_of=graph.as_of)
    keys = graph_lexicon(graph)
    parts = _bounded(_typed_clauses(question, keys), result)
    if len(parts) > 1:  # every part of the question an algorithm answers, explained in its one call
        result.sub_questions += [
            {"text": part.text, "concepts": part.concepts, "domains": [], "type": part.type, "unknown": []}
            for part in parts
        ]
        return typed_flat(llm, graph, parts, result)
    found = list(dict.fromkeys(c for _, _, c in find_mentions(question, keys)))
    kind = classify(question, keys)
    sub = qa.SubQuestion(
        text=clipped(question, qa.MAX_SUB_QUESTION) or "?",
        concepts=kind.concepts if kind.type != "open" else found,
        type=kind.type,
        full=kind.full,
        unknown=kind.unknown,
    )
    result.sub_questions.append(
        {"text": question, "concepts": sub.concepts, "domains": [], "type": sub.type, "unknown": sub.unknown}
    )
    if sub.unknown:
        result.uncovered.append(uncovered_names(sub.unknown, near_names(graph, sub.unknown)))
    if is_typed(sub):
        return typed_flat(llm, graph, [sub], result)
    asked = _about_one(graph, question)
    result.sub_questions[-1]["text"] = asked
    about = _defined(asked, found)
    excerpts = find_excerpts(graph, asked, about=about) if sub.type == "open" or not sub.unknown else []
    if (not found and not excerpts) or (sub.type != "open" and sub.unknown):
        return _uncovered(result)
    edges = retrieve(graph, asked, seeds=found, scope=None, top_k=top_k) if found else []
    report = ExpertReport("", asked, found, [edge.edge_id for edge in edges])
    result.experts.append(report)
    result.edges_read, result.graph_tokens = len(edges), graph_tokens(graph, (e.edge_id for e in edges))
    ask_expert(llm, graph, report, edges, result, excerpts=excerpts)
    result.citations, result.dropped = list(report.citations), list(report.dropped)
    if not report.citations:  # nothing it was shown answers (or what it cited was refused)
        if found:
            result.uncovered.append(f'The graph does not cover "{asked}".')
        return _uncovered(result)
    result.answer, result.short_answer = report.answer, report.short_answer
    return result


def bridges_of(rows: Sequence[Mapping[str, object]]) -> dict[str, list[str]]:
    """Domain id -> its card's bridge concepts, from ``store.domains()`` rows."""
    found: dict[str, list[str]] = {}
    for row in rows:
        card = json.loads(str(row.get("card") or "{}"))
        found[str(row["id"])] = [str(c) for c in card.get("bridges", [])]
    return found
