"""The synthesis role of question answering: the experts' answers merged into one.

Its task name, system prompt, reply schema and offline handler (:func:`synthesize_offline`): the
experts' answers merged in sub-question order without repeated sentences, the short answers
joined, the citations collected; the graph answers' headlines (``graph_answers``) lead, and what
the graph does not cover is said, never left out. Answers read from excerpts are spans: the best
supported one is the short answer (of whole sentences, the one a reading of them all finds answers
best: :func:`_read_together`), and options that experts of different domains named are
compared on the sentences they quote. The other roles are :mod:`agents.qa`'s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from agents.answer_forms import expected_kind
from agents.answer_spans import AnswerSpan, Excerpt, best_span
from agents.payload import as_mapping, as_number, as_strings
from agents.qa import cited_ids
from agents.quotes import first_quotes
from magg_kg.llm.offline import Handler
from magg_kg.llm.port import Prompt

__all__ = [
    "NO_ANSWER",
    "SYNTHESIS_SYSTEM",
    "SYNTHESIS_TASK",
    "Synthesis",
    "offline_handlers",
    "synthesize_offline",
]

SYNTHESIS_TASK = "qa.synthesize"
SYNTHESIS_SYSTEM = """Final answer of a curriculum question-answering team: merge the experts'
answers into one answer to the question (DATA) and a one-line short answer, using ONLY what they
said. Keep their [id] citations, list every id cited in `citations`. Lead with `graph_answers` as
given; say every "does not cover" of the payload. Reason first."""
NO_ANSWER = "No answer in the graph."
"""The short answer when no expert found anything that answers the question."""
_QUOTED = re.compile(r'says "(.+?)" \[(c-[0-9a-f]+)\]')
"""A lesson sentence an expert quotes and the chunk it cites (the offline expert's wording)."""


class Synthesis(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    reasoning: str = Field(max_length=4000, description="how the answers fit together (first)")
    answer: str = Field(max_length=16000)
    short_answer: str = Field(max_length=1000)
    citations: list[str]
    support: float = Field(default=0.0, ge=0.0, le=1.0, description="the support of the short answer")


def synthesize_offline(prompt: Prompt) -> dict[str, object]:
    raw = prompt.payload.get("answers")
    answers = [as_mapping(a) for a in raw] if isinstance(raw, list) else []
    sentences: list[str] = []
    shorts: list[str] = []
    supports: list[float] = []
    for answer in answers:
        if not as_strings(answer.get("citations")):
            continue
        for sentence in re.split(r"(?<=\])\.\s*", str(answer.get("answer", ""))):
            sentence = sentence.strip()
            if sentence and sentence.rstrip(".") + "." not in sentences:
                sentences.append(sentence.rstrip(".") + ".")
        short = str(answer.get("short_answer", "")).strip()
        if short and short not in shorts:
            shorts.append(short)
            supports.append(as_number(answer.get("support")))
    heads = [str(h) for h in as_strings(prompt.payload.get("graph_answers")) if str(h)]
    notes = [str(n) for n in as_strings(prompt.payload.get("uncovered")) if str(n)]
    sentences = first_quotes(heads, sentences)
    if heads or notes:
        return _typed_synthesis(heads, sentences, notes)
    citations = cited_ids(" ".join(sentences))
    if not sentences:
        return {
            "reasoning": "no expert found edges that answer the question",
            "answer": "The graph holds no edges that answer this question.",
            "short_answer": NO_ANSWER,
            "citations": [],
        }
    # Answers read from excerpts are spans: the best supported one is the short answer (joined,
    # two spans would be neither); otherwise the short answers are joined. Options that experts of
    # different domains named (each saw its own) are compared on the sentences they quote.
    best = max(range(len(shorts)), key=lambda k: (supports[k], -k)) if shorts else 0
    best = _read_together(str(prompt.data), answers, shorts, best)
    compared = _compared(str(prompt.data), answers) if len(shorts) > 1 else None
    if compared is not None and compared.text in shorts:
        best = shorts.index(compared.text)
        supports[best] = max(supports[best], compared.support)
    return {
        "reasoning": f"merged {sum(1 for a in answers if a.get('citations'))} expert answer(s)",
        "answer": " ".join(sentences),
        "short_answer": shorts[best] if shorts and supports[best] > 0 else " ".join(shorts),
        "citations": citations,
        "support": supports[best] if shorts else 0.0,
    }


def _read_together(
    question: str, answers: Sequence[Mapping[str, object]], shorts: list[str], best: int
) -> int:
    """The short answer that one reading of all of them finds answers the question best, when each
    is a whole sentence an expert quotes: each expert's support weighs the question's words by how
    rare they are among its own excerpts, so two experts' supports are on two scales (a sentence
    that names "learning rate schedules" in passing, among excerpts that never name them, outscored
    the one that says what a learning rate scheduler does). Of sentences read alike, the first the
    answer gives. ``best`` (the best supported) when they are not all quoted sentences, or when
    the reading finds none."""
    quoted = {
        sentence for answer in answers for sentence, _ in _QUOTED.findall(str(answer.get("answer", "")))
    }
    if len(shorts) < 2 or not set(shorts) <= quoted:
        return best
    span = best_span(question, [Excerpt(str(k), "", short) for k, short in enumerate(shorts)])
    return int(span.excerpt) if span is not None else best


def _compared(question: str, answers: Sequence[Mapping[str, object]]) -> AnswerSpan | None:
    """The option of an either-or question ("Who was born earlier, A or B?") that the experts'
    quoted sentences favour, read as excerpts titled by each expert's short answer; None for any
    other question, or when the quotes do not decide."""
    if expected_kind(question) != "option":
        return None
    quoted = [
        Excerpt(chunk, str(answer.get("short_answer", "")), sentence)
        for answer in answers
        for sentence, chunk in _QUOTED.findall(str(answer.get("answer", "")))
    ]
    return best_span(question, quoted) if quoted else None


def _typed_synthesis(heads: list[str], sentences: list[str], notes: list[str]) -> dict[str, object]:
    """The graph answers' headlines first, then the experts' sentences, then what is not covered."""
    said = [*dict.fromkeys(heads), *sentences, *(n for n in dict.fromkeys(notes) if n not in heads)]
    return {
        "reasoning": f"{len(heads)} graph answer(s), {len(sentences)} cited sentence(s), {len(notes)} gap(s)",
        "answer": " ".join(said)[:16000],
        "short_answer": " ".join(dict.fromkeys(heads or notes))[:1000],
        "citations": cited_ids(" ".join(sentences)),
    }


def offline_handlers() -> dict[str, Handler]:
    """The synthesis role, by task name."""
    return {SYNTHESIS_TASK: synthesize_offline}
