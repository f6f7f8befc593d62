"""The discovery proposer: given two concepts two hops apart, propose the missing relation.

The proposal is constrained to the closed vocabulary and to the structure of the paths that join
the two concepts; the rule engine refuses anything that would close a cycle in any case.

The offline proposer composes the two edges of a path ``a - b - c``:

- ``a part_of b`` and ``b part_of c``: ``a part_of c`` (a part of a part is a part);
- ``a applies_to b`` and ``b part_of c``: ``a applies_to c``;
- anything else, including learning-order chains (``a prerequisite b prerequisite c``, where the
  shortcut ``a prerequisite c`` would only restate an implied order) and siblings: ``a related c``,
  the weakest claim the structure supports.

Its confidence grows with the number of paths joining the pair (a dense cluster):
``min(0.7, 0.3 + 0.1 * paths)``. The evidence is the paths' own evidence, relabelled ``inferred``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from magg_kg.llm.offline import Handler
from magg_kg.llm.port import Prompt

__all__ = [
    "PROMPT_VERSION",
    "SYSTEM",
    "TASK",
    "DiscoveryReply",
    "discovery_prompt",
    "offline_handlers",
    "propose_offline",
]

TASK = "discover"
PROMPT_VERSION = "discover-1"

SYSTEM = """You propose the one missing relation between two concepts of a curriculum knowledge graph
that are two hops apart, given the paths joining them. Use only the edge types listed; choose the
weakest claim the structure supports ('related' when unsure), never one that would reverse or
close a cycle with the learning order shown. Answer 'none' if no relation is plausible.
Reply with JSON: reasoning first, then type, src, dst, confidence."""


class DiscoveryReply(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    reasoning: str = Field(min_length=1, description="Why the paths suggest this relation, first.")
    type: str = Field(description="One edge type of the vocabulary, or 'none'.")
    src: str = Field(description="The source concept id (one of the two given).")
    dst: str = Field(description="The destination concept id (the other one).")
    confidence: float = Field(ge=0.0, le=1.0, allow_inf_nan=False, description="How plausible, 0-1.")


def discovery_prompt(
    a: Mapping[str, object],
    c: Mapping[str, object],
    paths: Sequence[Sequence[Sequence[str]]],
    vocabulary: Mapping[str, str],
) -> Prompt:
    """``paths`` are lists of the two triples (src, type, dst) joining a to b and b to c."""
    return Prompt(
        task=TASK,
        stage="discover",
        agent="discovery",
        system=SYSTEM,
        payload={
            "a": dict(a),
            "c": dict(c),
            "paths": [[list(t) for t in path] for path in paths],
            "vocabulary": dict(vocabulary),
        },
        prompt_version=PROMPT_VERSION,
    )


def _compose(a: str, c: str, first: Sequence[str], second: Sequence[str]) -> tuple[str, str, str]:
    """The relation a path a - b - c suggests between a and c (see the module docstring)."""
    if first[1] == "part_of" and second[1] == "part_of":
        if first[0] == a and second[2] == c:
            return a, "part_of", c
        if second[0] == c and first[2] == a:
            return c, "part_of", a
    if first[1] == "applies_to" and first[0] == a and second[1] == "part_of" and second[2] == c:
        return a, "applies_to", c
    if second[1] == "applies_to" and second[0] == c and first[1] == "part_of" and first[2] == a:
        return c, "applies_to", a
    return (a, "related", c) if a < c else (c, "related", a)


def propose_offline(prompt: Prompt) -> dict[str, object]:
    payload = prompt.payload
    a = str(_get(payload.get("a"), "id"))
    c = str(_get(payload.get("c"), "id"))
    raw = payload.get("paths")
    paths = [p for p in raw if isinstance(p, list) and len(p) == 2] if isinstance(raw, list) else []
    if not paths:
        return {"reasoning": "no path joins them", "type": "none", "src": a, "dst": c, "confidence": 0.0}
    suggested = [_compose(a, c, [str(x) for x in p[0]], [str(x) for x in p[1]]) for p in paths]
    best = max(set(suggested), key=lambda t: (suggested.count(t), t[1] != "related", t))
    confidence = round(min(0.7, 0.3 + 0.1 * len(paths)), 4)
    shown = "; ".join(f"{' '.join(p[0])} / {' '.join(p[1])}" for p in paths[:3])
    return {
        "reasoning": f"{len(paths)} two-hop path(s) ({shown}) suggest {best[0]} {best[1]} {best[2]}",
        "type": best[1],
        "src": best[0],
        "dst": best[2],
        "confidence": confidence,
    }


def _get(value: object, key: str) -> object:
    return value.get(key) if isinstance(value, dict) else None


def offline_handlers() -> dict[str, Handler]:
    return {TASK: propose_offline}
