"""What the admission stages hand each other.

Ingestion turns lessons into proposals; admission runs the rule engine, owner review and
deliberation and hands a :class:`Reviewed` proposal to the :class:`Gate` (judge, then debate or
human review), which settles it. Every stage leaves a ``record_decision`` operation behind, so the
decision record shows each stage's verdict, score, rationale and cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from governance.graph_state import GraphState
from magg_kg.operations import Operation, RecordDecision
from magg_kg.records import Proposal, ProposalState

__all__ = ["Gate", "OwnerVerdict", "Reviewed", "Settled", "Vote"]

OwnerVerdict = Literal["approve", "revise", "reject"]


@dataclass(frozen=True)
class Vote:
    """One owner's verdict and vote on a proposal, with the rationale it posted."""

    domain: str
    owner: str
    verdict: OwnerVerdict
    weight: float
    score: float
    rationale: str
    ballot: float | None = None
    """The vote the owner gave with its review for deliberation to take (None: ask it)."""


@dataclass(frozen=True)
class Reviewed:
    """A proposal that passed the rules and owner review (and deliberation, when it was held)."""

    proposal: Proposal
    original: Proposal
    confidence: float
    votes: tuple[Vote, ...]
    domains: tuple[str, ...]
    decisions: tuple[RecordDecision, ...]


@dataclass(frozen=True)
class Settled:
    """What the gate decided: the proposal's state and the operations that record it."""

    state: ProposalState
    ops: tuple[Operation, ...]


class Gate(Protocol):
    def __call__(self, reviewed: Reviewed) -> Settled:
        """Judges a reviewed proposal and settles it (commit, reject, abstain or quarantine)."""
        ...

    @property
    def graph(self) -> GraphState:
        """The graph state the gate judges against and records its commits in (the admission's
        own: owners are shown the same supporting subgraph)."""
        ...
