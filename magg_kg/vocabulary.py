"""The vocabulary: a closed graph schema of node types and edge types with their constraints.

The rule engine (:mod:`governance.rules`) is parametrized by a :class:`GraphSchema`, so the same
checks serve the curriculum preset (:data:`CURRICULUM`) and a fixed benchmark schema
(:data:`SCIERC`).

Learning order. ``prerequisite`` and ``builds_on`` both say which of two concepts is learned
first, in opposite directions: "A prerequisite B" puts A before B, "A builds_on B" (A extends B)
puts B before A. An edge type's :attr:`EdgeType.precedes` names the endpoint that comes first;
the rule engine keeps the union of all such edges, oriented first -> later, acyclic, so
"A prerequisite B" together with "A builds_on B" is a contradiction, while "A prerequisite B"
together with "B builds_on A" is consistent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

__all__ = ["CURRICULUM", "PRESETS", "SCIERC", "EdgeType", "GraphSchema"]


@dataclass(frozen=True)
class EdgeType:
    """One edge type of the closed vocabulary and its constraints.

    ``src_types``/``dst_types`` of ``None`` allow any node type of the schema. A symmetric type is
    stored with its endpoints in sorted order; an acyclic type never closes a directed cycle.
    """

    name: str
    symmetric: bool
    acyclic: bool
    src_types: frozenset[str] | None
    dst_types: frozenset[str] | None
    description: str
    precedes: Literal["src", "dst"] | None = None

    def __post_init__(self) -> None:
        if self.symmetric and (self.acyclic or self.precedes is not None):
            raise ValueError(f"edge type {self.name}: a symmetric type cannot be acyclic or ordered")
        if self.symmetric and self.src_types != self.dst_types:
            raise ValueError(f"edge type {self.name}: a symmetric type needs equal endpoint types")
        if self.precedes is not None and not self.acyclic:
            raise ValueError(f"edge type {self.name}: a learning-order type must be acyclic")

    def allows(self, src_type: str, dst_type: str) -> bool:
        """Whether an edge of this type may join a ``src_type`` node to a ``dst_type`` node."""
        return (self.src_types is None or src_type in self.src_types) and (
            self.dst_types is None or dst_type in self.dst_types
        )


@dataclass(frozen=True)
class GraphSchema:
    """A closed schema: the node types and the edge types (by name) a graph may hold."""

    name: str
    node_types: frozenset[str]
    edge_types: Mapping[str, EdgeType] = field(hash=False)

    def __post_init__(self) -> None:
        for key, edge_type in self.edge_types.items():
            if key != edge_type.name:
                raise ValueError(f"schema {self.name}: edge type {edge_type.name} is listed as {key}")
            for allowed in (edge_type.src_types, edge_type.dst_types):
                unknown = sorted((allowed or frozenset()) - self.node_types)
                if unknown:
                    raise ValueError(f"schema {self.name}: edge type {key} names unknown types {unknown}")
        object.__setattr__(self, "edge_types", MappingProxyType(dict(self.edge_types)))

    def canonical(self, src: str, type_: str, dst: str) -> tuple[str, str, str]:
        """The stored form of a triple: a symmetric type's endpoints in sorted order.

        >>> CURRICULUM.canonical("transformer", "related", "attention")
        ('attention', 'related', 'transformer')
        >>> CURRICULUM.canonical("transformer", "builds_on", "attention")
        ('transformer', 'builds_on', 'attention')
        """
        edge_type = self.edge_types.get(type_)
        if edge_type is not None and edge_type.symmetric and dst < src:
            return dst, type_, src
        return src, type_, dst

    def symmetric_types(self) -> frozenset[str]:
        """The edge types whose direction means nothing (stored canonically).

        >>> sorted(CURRICULUM.symmetric_types())
        ['contrasts_with', 'related']
        """
        return frozenset(name for name, t in self.edge_types.items() if t.symmetric)

    def order_types(self) -> dict[str, Literal["src", "dst"]]:
        """The edge types that state a learning order, and which endpoint comes first."""
        return {name: t.precedes for name, t in self.edge_types.items() if t.precedes is not None}


def _schema(name: str, node_types: Mapping[str, str], edge_types: list[EdgeType]) -> GraphSchema:
    return GraphSchema(name, frozenset(node_types), {edge_type.name: edge_type for edge_type in edge_types})


CURRICULUM_NODE_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "concept": "an idea or notion taught in a lesson (overfitting, attention, embedding)",
        "method": "a procedure or algorithm (gradient descent, backpropagation, cross-validation)",
        "model": "a model family or architecture (logistic regression, CNN, transformer)",
        "task": "a problem to solve (classification, retrieval, question answering)",
        "metric": "a measure of quality (accuracy, F1, perplexity)",
        "tool": "software or infrastructure (vector database, feature store, experiment tracker)",
        "math": "a mathematical foundation (matrix multiplication, chain rule, probability)",
    }
)

_TEACHABLE = frozenset(CURRICULUM_NODE_TYPES)
# An offline extractor types concepts heuristically, so applies_to stays permissive about what is
# applied and only insists that the target is something one applies things to.
_APPLIED = frozenset({"method", "model", "tool", "concept", "math", "metric"})
_APPLIED_TO = frozenset({"task", "concept", "model", "method"})

CURRICULUM = _schema(
    "curriculum",
    CURRICULUM_NODE_TYPES,
    [
        EdgeType(
            "prerequisite",
            False,
            True,
            _TEACHABLE,
            _TEACHABLE,
            "src must be learned before dst",
            precedes="src",
        ),
        EdgeType(
            "builds_on",
            False,
            True,
            _TEACHABLE,
            _TEACHABLE,
            "src extends or refines dst, so dst is learned first",
            precedes="dst",
        ),
        EdgeType("part_of", False, True, _TEACHABLE, _TEACHABLE, "src is a component or kind of dst"),
        EdgeType("contrasts_with", True, False, _TEACHABLE, _TEACHABLE, "alternatives or opposites"),
        EdgeType("related", True, False, _TEACHABLE, _TEACHABLE, "the two are associated, no stronger claim"),
        EdgeType(
            "applies_to",
            False,
            False,
            _APPLIED,
            _APPLIED_TO,
            "src (a method, model, tool, metric or idea) is used to solve or study dst",
        ),
    ],
)
"""The AI-engineer curriculum preset."""

SCIERC_NODE_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "Task": "a problem to solve",
        "Method": "a method, model, system or tool",
        "Metric": "a measure of quality",
        "Material": "a data set or resource",
        "OtherScientificTerm": "any other scientific term",
        "Generic": 'a general term standing for an entity ("this approach")',
    }
)

SCIERC = _schema(
    "scierc",
    SCIERC_NODE_TYPES,
    [
        EdgeType("Used-for", False, False, None, None, "src is used for dst"),
        EdgeType("Feature-of", False, False, None, None, "src is a feature of dst"),
        EdgeType("Hyponym-of", False, True, None, None, "src is a kind of dst"),
        EdgeType("Part-of", False, True, None, None, "src is a part of dst"),
        EdgeType("Compare", True, False, None, None, "the two are compared"),
        EdgeType("Conjunction", True, False, None, None, "the two are used together or listed together"),
        EdgeType(
            "Evaluate-for",
            False,
            False,
            frozenset({"Metric", "Material", "Generic", "OtherScientificTerm"}),
            None,
            "src (a metric or data set) evaluates dst",
        ),
    ],
)
"""SciERC's fixed relation labels (Luan et al., 2018), for the benchmark."""

PRESETS: Mapping[str, GraphSchema] = MappingProxyType({CURRICULUM.name: CURRICULUM, SCIERC.name: SCIERC})
"""The named schemas, by name."""
