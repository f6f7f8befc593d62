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
   lexicon lacks; a sub-question that names no concept the graph knows goes there alone, and
   when no domain owns that chunk its expert reads the best chunks of the whole course);
4. synthesis merges the experts' answers into the final answer and a short answer, in one call,
   when there is something to merge: more than one retrieval answer, or a retrieval answer beside
   graph answers or gaps. Otherwise the answer is written in code, as flat writes its own: the
   graph answers' headlines, the experts' answers in order, what the graph does not cover.

Flat (:func:`answer_flat`), the ablation baseline: one retrieval over the whole graph (the
question's concepts and the concepts nearest it, one hop, no scope; the best excerpts of all the
lessons) and one answering call. Flat does not decompose: it reads the question's clauses as the
classifier reads them (:func:`governance.question_forms.clause_questions`), and an open clause
(beside a typed one or another open one) is answered by a retrieval and a call of its own.

A typed sub-question (a learning path, which comes first, prerequisites, what X unlocks, parts,
how two concepts relate: :mod:`agents.question_types`) is answered by its graph algorithm
(:mod:`governance.graph_answer`) instead of by retrieval. Routed, the algorithm reads the graph
one domain at a time (:class:`~magg_kg.graph_reader.DomainReader`: a domain's edges are read when
the search first reaches one of its concepts), and the steps of the answer go to the fewest
experts whose domains hold them (a step between two domains is read by both): a path across
domains is assembled from the experts of the domains its steps belong to, in order, joined at the
concepts where it crosses. Flat, the algorithm is given the whole graph
(:class:`~magg_kg.graph_reader.WholeGraphReader`), every typed clause of the question is answered
by its algorithm and one call explains them all. ``edges_read`` (the edges the answering side was
given to search), ``context_edges`` (the edges the experts were shown) and ``context_tokens``
(every token of every prompt of the question - orchestrator, experts, synthesis - instructions
included, estimated as characters / 4; by role in ``tokens_by_role``) say how much a question
cost. A part of a question the graph does not cover (an unknown name, nothing of the kind asked
for) is said in the answer: "The graph does not cover ...". A question about which domain owns a
concept ("Which domain owns X?") is answered from the domains themselves
(:mod:`governance.ownership`), routed and flat, before any of this.

Every citation is checked in code: an expert may cite only the edges it was shown, synthesis only edges
some expert was shown or a headline cites (cited in code, covering nothing: ``QAResult.cite_headlines``);
anything else is dropped and reported in ``dropped``. Every call goes through the LLM port, stage ``qa``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import partial

from agents import qa, synthesis
from agents.clauses import clauses_of
from agents.locations import asks_where_taught
from agents.question_types import classify
from agents.text import clipped, find_mentions, normalize_name
from governance.comparison import compare_in_lessons, compare_lacked, lacked_answer, unjoined
from governance.edgeless import answered_gaps, graph_said
from governance.excerpts import excerpt_scopes, find_excerpts, graph_lexicon
from governance.experts import (
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
from governance.lacked_subjects import lacked_subjects, own_lack
from governance.ownership import owner_answer
from governance.question_forms import (
    about_one,
    answered_by_graph,
    clause_questions,
    defined,
    lacked_said,
    lacked_term,
    near_names,
    typed_clauses,
    unanswered_said,
    unnamed_answer,
    what_is_asked,
)
from governance.scopes import bridges_of, domain_scopes
from governance.spelling import answer_as_read
from governance.typed_answers import explain_flat, is_typed, typed_flat, typed_routed
from governance.unread_words import unread_said
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
]


def mentioned(keys: Mapping[str, str], question: str) -> dict[str, str]:
    """The lexicon entries of the concepts a question mentions (every name and alias of each): what
    the orchestrator is shown of the graph's names, instead of all of them."""
    found = {concept for _, _, concept in find_mentions(question, dict(keys))}
    return {key: concept for key, concept in keys.items() if concept in found}


def _decompose(llm: LLM, graph: GraphIndex, question: str, result: QAResult) -> list[qa.SubQuestion]:
    keys = graph_lexicon(graph)
    typed = typed_clauses(question, keys)
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
"""The most parts of one question that are answered: each costs model calls."""


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


def answer_routed(
    llm: LLM,
    graph: GraphIndex,
    question: str,
    bridges: Mapping[str, Sequence[str]],
    *,
    top_k: int = 2,
) -> QAResult:
    """Answers ``question`` through decomposition, domain routing, experts and synthesis."""
    return answer_as_read(
        graph, question, lambda asked: _routed(llm, graph, asked, bridges, top_k).cite_headlines()
    )


def _routed(
    llm: LLM, graph: GraphIndex, question: str, bridges: Mapping[str, Sequence[str]], top_k: int
) -> QAResult:
    result = QAResult(question=question, mode="routed", as_of=graph.as_of)
    question = what_is_asked(question, graph_lexicon(graph))
    owned = owner_answer(graph, question, "routed") or unnamed_answer(graph, question, "routed")
    if owned is not None:  # which domain owns X: the graph's domains say it; "What is it?": nothing does
        owned.question = result.question
        return owned
    subs = _bounded(_decompose(llm, graph, question, result), result)
    scopes = domain_scopes(graph, bridges)
    touching = graph.touching()
    members = graph.kept(("members", UNOWNED), lambda: domain_members(touching, graph.owners, UNOWNED))
    reader = DomainReader(graph.edges.values(), graph.owners, UNOWNED, touching=touching, members=members)
    read_by_retrieval: set[str] = set()
    subject_gap = ""
    retrieved: list[ExpertReport] = []
    typed = [number for number, sub in enumerate(subs) if is_typed(sub)]
    by_sub: dict[int, list[str]] = {}
    near = partial(near_names, graph)  # of the names read in the lessons, the concepts that contain them
    lacks = lacked_subjects(graph, [sub.text for sub in subs])  # "can I use LoRA ...": LoRA, not in it
    for number, sub in enumerate(subs):
        domains = sorted({d for c in sub.concepts for d in (graph.owners.get(c) or (UNOWNED,))})
        entry: dict[str, object] = {"text": sub.text, "concepts": sub.concepts, "domains": domains}
        result.sub_questions.append(entry | {"type": sub.type, "unknown": sub.unknown})
        if sub.unknown and (unwritten := compare_lacked(llm, graph, sub, result, scopes, UNOWNED, near)):
            result.uncovered.append(uncovered_names(unwritten, near(unwritten)))
        if typed and number == typed[0]:  # the typed sub-questions together, each expert asked once
            explained = typed_routed(llm, graph, [subs[n] for n in typed], reader, result)
            by_sub = dict(zip(typed, explained, strict=True))
        if number in typed:
            if unjoined(graph, sub, by_sub[number]):  # no edge joins the two: what the lessons say of them
                compare_in_lessons(llm, graph, sub, result, scopes, UNOWNED)
                continue
            if by_sub[number] or graph_said(result, sub):  # the graph says nothing: read the lessons
                continue
        if sub.type != "open" and sub.unknown:
            continue
        text = about_one(graph, sub.text)
        term, parts = lacked_term(graph, text)  # "What is backpropagation through time?": lessons alone
        # "How do I deploy a model to Kubernetes?": no lesson says "Kubernetes", what it asks about.
        if not term and (unread := unread_said(graph, text, bool(sub.concepts))):
            result.uncovered.append(unread)  # said; what the lessons say of the concepts named is read
            subject_gap = unread if len(subs) == 1 else ""  # the question's own subject: said first
            if not sub.concepts:
                continue
        concepts = [] if term or lacks[number] else sub.concepts
        domains = _open_domains(graph, lacks[number] or text, [] if term or lacks[number] else domains)
        result.sub_questions[-1] |= {"text": text, "domains": domains}
        result.sub_questions[-1] |= {"unknown": [term]} if term else {}
        before = len(retrieved)
        for domain in domains:
            scope = scopes.get(domain, frozenset())
            edges = retrieve(graph, text, seeds=concepts, scope=scope, top_k=top_k) if concepts else []
            course = None if not concepts and domain == UNOWNED else scope  # the whole course (docstring, 3.)
            excerpts = find_excerpts(
                graph, text, scope=course, unowned=True, about=defined(graph, text, concepts)
            )
            report = ExpertReport(domain, text, [c for c in concepts if c in scope], [], lacked=lacks[number])
            report.edges_seen = [edge.edge_id for edge in edges]
            read_by_retrieval.update(report.edges_seen)
            result.experts.append(report)
            retrieved.append(report)
            # A term the graph lacks is said by a sentence that defines it, not one that mentions it.
            subject = "" if concepts or term else qa.purpose_subject(text)
            # Where a concept is taught, asked of an expert that owns none asked about: their names.
            about = [graph.concepts[c].name for c in concepts] if not report.concepts else []
            about = about if asks_where_taught(text) else []
            ask_expert(llm, graph, report, edges, result, excerpts=excerpts, subject=subject, about=about)
        if number in typed:  # said by the lessons, or by the graph answer's "does not cover"
            answered_gaps(result, sub, retrieved[before:])
        elif not any(e.citations for e in retrieved[before:]) and (domains or term):
            said = lacked_said(graph, term or own_lack(text, lacks[number]), parts)  # "early stopping"
            result.lacks(said or unanswered_said(graph, text, concepts))
    for number in typed:  # the domains whose experts explained each typed sub-question
        result.sub_questions[number]["domains"] = by_sub[number] or result.sub_questions[number]["domains"]
    read = reader.edges_read | read_by_retrieval
    result.edges_read, result.graph_tokens = len(read), graph_tokens(graph, read)
    # The domains a typed answer's search read, and those whose experts were asked (an open question's).
    result.domains_read = list(
        dict.fromkeys([*reader.consulted, *(e.domain for e in result.experts if e.domain)])
    )
    answered_by_graph = any(a.covered for a in result.graph_answers)  # where to start names no concept
    if (
        not any(sub.concepts for sub in subs)
        and not any(e.citations for e in result.experts)  # names it lacks may be read (compare_lacked)
        and not answered_by_graph
    ):
        return result.not_covered()
    answered = [e for e in retrieved if e.citations]
    if len(answered) > 1 or (answered and (result.graph_answers or result.uncovered)):
        _synthesize(llm, question, result)
    else:
        result.assemble()
    result.gap_first(subject_gap)
    result.covered = bool(result.citations) or any(a.covered for a in result.graph_answers)
    return result


def _open_domains(graph: GraphIndex, text: str, owning: Sequence[str]) -> list[str]:
    """The scopes an open sub-question goes to: the domains that own its concepts (``owning``),
    and the scopes of the lesson chunk its words match best when none of those reads that chunk
    (a chunk that names no owned concept belongs to no domain: it adds no scope)."""
    by_text = excerpt_scopes(graph, text, UNOWNED)
    if owning and (UNOWNED in by_text or not set(by_text).isdisjoint(owning)):
        return list(owning)
    return [*owning, *(d for d in by_text if d not in owning)]


def _synthesize(llm: LLM, question: str, result: QAResult) -> None:
    """Merges the experts' answers (several, or one beside graph answers or gaps) in one call."""
    prompt = Prompt(
        task=synthesis.SYNTHESIS_TASK,
        stage=STAGE,
        agent="synthesis",
        system=synthesis.SYNTHESIS_SYSTEM,
        data=question,
        payload={
            "answers": expert_answers(result.experts),
            "graph_answers": [a.headline for a in result.graph_answers if a.covered],
            "uncovered": result.gaps(),
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = ask_counted(llm, prompt, synthesis.Synthesis, result)
    if not isinstance(reply, Answer):
        result.failures.append(f"synthesis: {reply.kind}: {reply.reason}")
        result.assemble()
        return
    shown = {cited for e in result.experts for cited in (*e.edges_seen, *e.excerpts_seen)}
    result.answer, result.short_answer = reply.value.answer, reply.value.short_answer
    result.citations, result.dropped = checked(reply.value.citations, reply.value.answer, shown)
    result.dropped = list(dict.fromkeys([*(d for e in result.experts for d in e.dropped), *result.dropped]))


def answer_flat(llm: LLM, graph: GraphIndex, question: str, *, top_k: int = 2) -> QAResult:
    """The baseline, no routing: each typed clause's algorithm over the whole graph, explained in one
    call; one retrieval over the whole graph and one call per open question or clause."""
    return answer_as_read(graph, question, lambda asked: _flat(llm, graph, asked, top_k).cite_headlines())


def _flat(llm: LLM, graph: GraphIndex, question: str, top_k: int) -> QAResult:
    result = QAResult(question=question, mode="flat", as_of=graph.as_of)
    keys = graph_lexicon(graph)
    question = what_is_asked(question, keys)
    owned = owner_answer(graph, question, "flat") or unnamed_answer(graph, question, "flat")
    if owned is not None:
        owned.question = result.question
        return owned
    texts = clauses_of(question)  # a question of one clause is read whole, below
    clauses = clause_questions(texts, keys) if len(texts) > 1 else []
    if len(clauses) > 1:  # each clause apart: "What is X and when should I use it?" read whole asks a name
        clauses = _bounded(clauses, result)
        if not all(answered_by_graph(clause) for clause in clauses):
            return _flat_clauses(llm, graph, clauses, result, top_k)
        result.sub_questions += [
            {"text": c.text, "concepts": c.concepts, "domains": [], "type": c.type, "unknown": []}
            for c in clauses
        ]
        return typed_flat(llm, graph, clauses, result)
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
    near = partial(near_names, graph)  # of the names read in the lessons, the concepts that contain them
    if sub.unknown and (unwritten := compare_lacked(llm, graph, sub, result, near=near)):  # none writes
        result.uncovered.append(uncovered_names(unwritten, near(unwritten)))
    if is_typed(sub):
        return typed_flat(llm, graph, [sub], result)
    if sub.type != "open" and sub.unknown:
        return lacked_answer(result)
    asked = about_one(graph, question)
    result.sub_questions[-1]["text"] = asked
    term, parts = lacked_term(graph, asked)  # a term the graph lacks is read in the lessons alone
    unread = "" if term else unread_said(graph, asked, bool(found))  # what it asks of, no lesson says
    result.uncovered += [unread] if unread else []
    if unread and not found:
        return result.not_covered()
    if term:
        found, result.sub_questions[-1]["unknown"] = [], [term]
    report = _retrieved(llm, graph, asked, found, result, top_k, lacked=bool(term))
    if term and (report is None or not report.citations):
        result.uncovered.append(lacked_said(graph, term, parts))
    if report is None:
        return result.not_covered()
    result.edges_read, result.graph_tokens = len(report.edges_seen), graph_tokens(graph, report.edges_seen)
    result.citations, result.dropped = list(report.citations), list(report.dropped)
    if not report.citations:  # nothing it was shown answers (or what it cited was refused)
        result.uncovered += [] if found or term else [unanswered_said(graph, asked, found)]
        return result.not_covered()
    result.answer, result.short_answer = f"{unread} {report.answer}".strip(), unread or report.short_answer
    return result


def _flat_clauses(
    llm: LLM, graph: GraphIndex, clauses: Sequence[qa.SubQuestion], result: QAResult, top_k: int
) -> QAResult:
    """A question of several clauses, some of which a graph algorithm answers, flat: the typed
    clauses over the whole graph, explained in one call; each other clause by one retrieval over the
    whole graph and one call ("What do I need before RAG, and how is RAG evaluated?")."""
    for clause in clauses:
        text = clause.text if is_typed(clause) else about_one(graph, clause.text)
        result.sub_questions.append(
            {
                "text": text,
                "concepts": clause.concepts,
                "domains": [],
                "type": clause.type,
                "unknown": clause.unknown,
            }
        )
        if clause.unknown:
            result.uncovered.append(uncovered_names(clause.unknown, near_names(graph, clause.unknown)))
    answers = explain_flat(llm, graph, [clause for clause in clauses if is_typed(clause)], result)
    explained = {edge for answer in answers for edge in answer.edges}
    for number, clause in enumerate(clauses):
        if not is_typed(clause) and (clause.type == "open" or not clause.unknown):
            text = str(result.sub_questions[number]["text"])
            if unread := unread_said(graph, text, bool(clause.concepts)):
                result.uncovered.append(unread)
            read = clause.concepts or not unread  # a question of a word no lesson holds is not read
            report = _retrieved(llm, graph, text, clause.concepts, result, top_k, explained) if read else None
            if read and report is None:
                result.lacks(f'The graph does not cover "{text}".')
            elif report is not None and not (report.citations or clause.concepts):  # said as routed says it
                result.lacks(unanswered_said(graph, text, clause.concepts))
    result.assemble()
    result.covered = bool(result.citations) or any(answer.covered for answer in answers)
    return result


def _retrieved(
    llm: LLM,
    graph: GraphIndex,
    text: str,
    found: Sequence[str],
    result: QAResult,
    top_k: int,
    explained: Collection[str] = (),
    lacked: bool = False,
) -> ExpertReport | None:
    """One open question (or clause), flat: the edges around the concepts it names (but those a
    typed clause's answer explains already) and the best excerpts of all the lessons, in one call
    (none when neither is found). When what it cites answers nothing, the graph does not cover it."""
    excerpts = find_excerpts(graph, text, about=defined(graph, text, list(found)))
    if not found and not excerpts:
        return None
    edges = retrieve(graph, text, seeds=list(found), scope=None, top_k=top_k) if found else []
    edges = [edge for edge in edges if edge.edge_id not in explained]
    report = ExpertReport("", text, list(found), [edge.edge_id for edge in edges])
    result.experts.append(report)
    subject = "" if found or lacked else qa.purpose_subject(text)
    ask_expert(llm, graph, report, edges, result, excerpts=excerpts, subject=subject)
    if not report.citations and found:
        result.lacks(f'The graph does not cover "{text}".')
    return report
