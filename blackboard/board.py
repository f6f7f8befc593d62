"""The blackboard: a short-lived board for one admission batch.

Hypotheses (the proposals under deliberation: content, confidence, who posted them, evidence) and
the votes owners post on them, with rationales. The board is working memory: it is dropped when
the batch is done, and what matters is copied into the decision record.
"""

from __future__ import annotations

from dataclasses import dataclass

from blackboard.tally import Ballot, Tally, tally

__all__ = ["Board", "Hypothesis", "Posting"]


@dataclass(frozen=True)
class Hypothesis:
    id: str
    content: str
    confidence: float
    posted_by: str
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Posting:
    """A vote as posted on the board."""

    hypothesis_id: str
    voter: str
    weight: float
    score: float
    rationale: str


class Board:
    """Hypotheses and their votes; one vote per voter and hypothesis (a repost replaces it)."""

    def __init__(self, batch_id: str) -> None:
        self.batch_id = batch_id
        self._hypotheses: dict[str, Hypothesis] = {}
        self._votes: dict[str, dict[str, Posting]] = {}

    def post(self, hypothesis: Hypothesis) -> None:
        self._hypotheses[hypothesis.id] = hypothesis
        self._votes.setdefault(hypothesis.id, {})

    def hypothesis(self, hypothesis_id: str) -> Hypothesis:
        return self._hypotheses[hypothesis_id]

    def vote(self, posting: Posting) -> None:
        if posting.hypothesis_id not in self._hypotheses:
            raise KeyError(f"no hypothesis {posting.hypothesis_id} on board {self.batch_id}")
        self._votes[posting.hypothesis_id][posting.voter] = posting

    def votes(self, hypothesis_id: str) -> list[Posting]:
        return [self._votes[hypothesis_id][voter] for voter in sorted(self._votes.get(hypothesis_id, {}))]

    def tally(self, hypothesis_id: str) -> Tally:
        ballots: list[Ballot] = list(self.votes(hypothesis_id))
        return tally(ballots)

    def hypotheses(self) -> list[Hypothesis]:
        return [self._hypotheses[key] for key in sorted(self._hypotheses)]
