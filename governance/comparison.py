"""How two concepts relate when no edge joins them, read in the lessons.

"What is the difference between zero-shot and few-shot prompting?" is a relation question; when
the graph holds no edge between the two, its algorithm answers "not covered". The lessons may still
say what each one is: the experts are shown the excerpts that say it (those that define or teach
the concepts first, :func:`governance.excerpts.find_excerpts`) and asked, with the prompt's
``compare``, how the concepts relate as those excerpts tell it (offline: what each one is,
:func:`agents.qa.compare_offline`). Routed, each domain's expert reads its own scope for the
concepts it owns; flat, one expert reads the whole graph's lessons for both. The graph's "not
covered" stays in the answer beside what the lessons say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agents import qa
from agents.together import said_together
from governance.excerpts import find_excerpts
from governance.experts import ExpertReport, QAResult, ask_expert
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.port import LLM

__all__ = ["compare_in_lessons", "unjoined"]


def unjoined(sub: qa.SubQuestion, explained_by: Sequence[str]) -> bool:
    """Whether ``sub`` asks how two known concepts relate and no expert explained an edge of it
    (``explained_by``: the domains that did)."""
    return sub.type == "relation" and len(sub.concepts) == 2 and not sub.unknown and not explained_by


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
    would be shown)."""
    groups: dict[str, list[str]] = {}
    for concept in sub.concepts:
        owners = (graph.owners.get(concept) or (unowned,)) if scopes is not None else ("",)
        groups.setdefault(owners[0], []).append(concept)
    if scopes is not None and len(groups) > 1:  # a sentence of the first one's scope names them all
        first, names = next(iter(groups)), [graph.concepts[c].name for c in sub.concepts]
        read = find_excerpts(
            graph, sub.text, scope=scopes.get(first, frozenset()), unowned=True, about=sub.concepts
        )
        if said_together(sub.text, [chunk.excerpt() for chunk in read], names) is not None:
            groups = {first: list(sub.concepts)}
    for domain, concepts in groups.items():
        scope = None if scopes is None else scopes.get(domain, frozenset())
        excerpts = find_excerpts(graph, sub.text, scope=scope, unowned=scopes is not None, about=concepts)
        if not excerpts:
            continue
        report = ExpertReport(domain, sub.text, concepts, [])
        result.experts.append(report)
        names = [graph.concepts[c].name for c in concepts]
        ask_expert(llm, graph, report, [], result, excerpts=excerpts, compare=names)
