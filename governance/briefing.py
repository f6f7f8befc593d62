"""The briefing: what an owner is shown about one proposal, in its prompt's payload.

An owner sees the proposal (its triple, confidence, evidence kinds and the endpoints' names), its
memory card narrowed to the proposal (the domain's facts and the standing claims of other lessons
around the two endpoints; the proposal's own claim is not counted as corroborating itself), the
edge vocabulary, and the judge's view of the claim: the evidence spans, the two concepts'
descriptions and the supporting subgraph, so that an owner can weigh what the judge will weigh.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from agents.judge import claim_payload
from agents.support import GraphView
from governance.claims import build_claim
from governance.domains import Layout
from governance.memory import OwnerMemory
from magg_kg.config import Policy
from magg_kg.records import Proposal
from magg_kg.vocabulary import GraphSchema

__all__ = ["judge_view", "owner_payload"]


def owner_payload(
    proposal: Proposal,
    domain: str,
    *,
    layout: Layout,
    support: OwnerMemory,
    names: Callable[[str], list[str]],
    schema: GraphSchema,
    shown: Mapping[str, object],
) -> dict[str, object]:
    """The payload of an owner's review or vote prompt (see the module docstring); ``shown`` is
    the judge's view of the proposal (:func:`judge_view`), the same for every owner."""
    members = set(layout.domain(domain).concepts) if domain in {d.id for d in layout.domains} else set()
    facts, claims = support.around(members, proposal.src, proposal.dst)
    own = [proposal.src, proposal.type, proposal.dst]
    claims = [c if c[:3] != own else [*own, str(int(c[3]) - 1)] for c in claims]
    claims = [c for c in claims if int(c[3]) > 0]
    return {
        **shown,
        "domain": domain,
        "proposal": {
            "id": proposal.id,
            "src": proposal.src,
            "type": proposal.type,
            "dst": proposal.dst,
            "confidence": proposal.confidence,
            "origin": proposal.origin,
            "kinds": [s.kind for s in proposal.evidence],
            "src_names": names(proposal.src),
            "dst_names": names(proposal.dst),
        },
        "card": {"facts": facts, "claims": claims},
        "edge_types": {name: t.description for name, t in schema.edge_types.items()},
        "symmetric": sorted(schema.symmetric_types()),
    }


def judge_view(proposal: Proposal, view: GraphView | None, policy: Policy) -> dict[str, object]:
    """What the judge will be shown of the proposal: its evidence spans, the supporting subgraph,
    the two descriptions and the gate's bars (nothing without a view: flat admission and admission
    without a gate have no judge)."""
    if view is None:
        return {}
    claim = build_claim(view, proposal, proposal.evidence, confidence=proposal.confidence)
    shown = claim_payload(claim, policy.commit_at, policy.reject_below)
    return {
        "evidence": shown["evidence"],
        "subgraph": shown["subgraph"],
        "descriptions": {"src": claim.src_description[:600], "dst": claim.dst_description[:600]},
        "policy": shown["policy"],
    }
