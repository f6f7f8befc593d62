"""The owners' memory beyond one proposal: active facts and standing claims.

A claim is a proposal still standing (extracted in this run, or proposed earlier and not settled);
it leaves the count when it is rejected. An owner's memory card for a proposal holds the facts and
claims touching its endpoints and the whole learning order (prerequisite, builds_on, part_of), so
that a reversed order can be recognized.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from magg_kg.records import Triple

__all__ = ["CARD_EDGES", "OwnerMemory"]

CARD_EDGES = 400


@dataclass
class OwnerMemory:
    """What owners know beyond the proposal: active facts and standing claims (triple -> count).

    ``facts`` is read, never changed here: in a run it is the graph state's own set of active edges
    (:class:`governance.graph_state.GraphState`), so that a commit is known to owners at once.
    """

    facts: AbstractSet[Triple] = field(default_factory=frozenset)
    claims: Counter[Triple] = field(default_factory=Counter)

    def around(self, members: set[str], src: str, dst: str) -> tuple[list[list[str]], list[list[str]]]:
        """The facts and claims an owner of ``members`` sees for a proposal between src and dst."""

        def keep(t: Triple) -> bool:
            touches = t[0] in (src, dst) or t[2] in (src, dst)
            return touches or t[1] in ("prerequisite", "builds_on", "part_of")

        facts = sorted([list(t) for t in self.facts if keep(t)])[:CARD_EDGES]
        claims = sorted([[*t, str(n)] for t, n in self.claims.items() if n > 0 and keep(t)])[:CARD_EDGES]
        return facts, claims
