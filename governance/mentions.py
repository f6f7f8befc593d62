"""Sentences that only name what a question asks about (:func:`mention_said`): "How does a
diffusion model remove noise?" is not answered by "Examples include image models like Imagen and
latent diffusion models." The sentence names the thing as an example of something else, in a list
of names, or as part of a history ("the invention of X"), and says nothing of it; quoting it as the
answer would present a mention as an explanation. What the lessons say instead is that they only
name it, with where (one sentence, labelled as a mention)."""

from __future__ import annotations

import re

from agents.answer_forms import WORD, content_terms, question_terms

__all__ = ["mention_said", "only_named"]

_ASKS = re.compile(
    r"^\W*(?:(?:can|could|would) you (?:please )?(?:explain|tell me|describe)\s+)?(?:how|why|what)\b",
    re.IGNORECASE,
)
"""A question that asks how, why or what: what it asks about needs more than its name."""
_CUE = re.compile(
    r"\b(?:such as|like|includ(?:e|es|ed|ing)|e\.g\.,?|for (?:example|instance)"
    r"|(?:development|invention|introduction|advent|rise|emergence|popularity|success) of"
    r"|(?:we|they|you|I) (?:are |were )?us(?:e|ed|ing))\s+",
    re.IGNORECASE,
)
"""What puts the names after it in a list of examples or a history, or names a tool used for
something else: the names that follow are named, not explained. "includes" with one object names
no list ("The lesson includes an index of the transcripts"): it lists only names joined by "and",
"or" or commas."""
_END = re.compile(
    r"[;:!?()]|\.(?:\s|$)|,(?!\s*(?:and|or)\b|\s+[A-Z0-9*_])"
    r"|\b(?:which|that|who|whose|where|is|are|was|were|has|have|can|could|will|would|to|by)\b"
    r"|\b(?:across|on|in|at|for|with|from|into|over|called|named|termed|known as)\b",
)
"""Where a list of names ends: a clause after it says something, and of what comes before it; so
does a preposition ("models such as A across OCR tasks" lists A, not OCR) and a word that gives a
name ("algorithms called neural networks" says what neural networks are)."""
_JOINED = re.compile(r",|\b(?:and|or)\b")
_QUOTE = re.compile(r'"(.+?)"\s*\[(?:c|e)-\w+')
"""A sentence an answer quotes, before the id it cites."""


def _spans(sentence: str) -> list[tuple[int, int]]:
    """The stretches of ``sentence`` that only list names: from a cue (:data:`_CUE`) to where the
    list ends (:data:`_END`)."""
    spans: list[tuple[int, int]] = []
    for cue in _CUE.finditer(sentence):
        found = _END.search(sentence, cue.end())
        end = found.start() if found else len(sentence)
        if cue.group(0).lower().startswith("includes") and not _JOINED.search(sentence, cue.end(), end):
            continue  # "The lesson includes an index of ...": one object, no list of names
        spans.append((cue.end(), end))
    return spans


def _runs(question: str, sentence: str) -> list[tuple[str, bool]]:
    """The runs of the question's words that ``sentence`` writes one after another, each with
    whether it lies in a list of names (:func:`_spans`)."""
    asked, spans = set(question_terms(question)), _spans(sentence)
    runs: list[tuple[list[str], int, int]] = []
    last = False
    for match in WORD.finditer(sentence):
        terms = content_terms(match.group(0))
        if not terms:
            continue  # a stop word ends no run ("generative adversarial networks")
        if set(terms) <= asked:
            if last:
                runs[-1][0].append(match.group(0))
                runs[-1] = (runs[-1][0], runs[-1][1], match.end())
            else:
                runs.append(([match.group(0)], match.start(), match.end()))
        last = set(terms) <= asked
    return [(" ".join(words), any(a <= start and end <= b for a, b in spans)) for words, start, end in runs]


def only_named(question: str, sentence: str) -> str:
    """What ``sentence`` only names of what a how, why or what ``question`` asks about: the longest
    run of the question's words it writes, when that lies in a list of names (:func:`_spans`) and
    no run it writes elsewhere is as long ("generative modelling" beside "the invention of
    generative adversarial networks" is no subject). "" when it says something of it.

    >>> only_named("How does latent diffusion work?", "Examples include Imagen and latent diffusion.")
    'latent diffusion'
    >>> only_named("How does latent diffusion work?", "Latent diffusion works like a denoiser.")
    ''
    >>> only_named("How was the latent index built?", "The course includes a latent index of the notes.")
    ''
    """
    if not _ASKS.search(question):
        return ""
    runs = _runs(question, sentence)
    named = max(((len(words.split()), words) for words, listed in runs if listed), default=(0, ""))
    if not named[0] or any(len(words.split()) >= named[0] for words, listed in runs if not listed):
        return ""
    return _as_asked(question, named[1])


def _as_asked(question: str, words: str) -> str:
    """``words`` as the question writes them ("generative adversarial network" for "generative
    adversarial networks"), or as they are when it writes them otherwise."""
    terms = content_terms(words)
    found = [(match.group(0), content_terms(match.group(0))) for match in WORD.finditer(question)]
    found = [(word, said) for word, said in found if said]
    for at in range(len(found) - len(terms) + 1):
        if [t for _, said in found[at : at + len(terms)] for t in said] == terms:
            return " ".join(word for word, _ in found[at : at + len(terms)])
    return words


def mention_said(question: str, answer: str) -> str:
    """What the lessons say of a question whose answer (``answer``, that quotes lesson sentences)
    only quotes sentences that name what it asks about (:func:`only_named`): that they only name
    it, with the first such sentence labelled as a mention; "" when any sentence quoted says more,
    or none is quoted."""
    quoted = _QUOTE.findall(answer)
    named = [only_named(question, sentence) for sentence in quoted]
    if not quoted or not all(named):
        return ""
    said = f'The lessons do not explain "{named[0]}"; they only name it, in passing: "{quoted[0]}"'
    return f"{said} (a mention)."
