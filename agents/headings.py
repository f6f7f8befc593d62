"""Titles that ask a learner's question: a lesson's section headed "When and why should we
fine-tune models?" is where "When is it worth fine-tuning a model instead of prompting?" is
answered.

A title (a lesson's, or a lesson's and a section's heading, "Fine-Tuning Your LLM: When and why
should we fine-tune models?") asks a question alike when its last part is a question, its question
words (those it opens with, "when and why") hold the question's own, and every content word of it
is a word of the question (by stem: "fine-tune models" and "fine-tuning a model"). The question
may say more ("actually", "instead of prompting"); the title may not: "How can we fine-tune a
pre-trained model?" does not ask "How does fine-tuning work?", nor "How do large language models
work?" "How can our startup leverage large language models?"; and a title whose only words frame a
why or how question ("How does it work?": :func:`agents.answer_forms.question_terms`) names nothing
it asks about. Such a section answers a why, how or
when-to question from its start: the offline reader quotes its first sentences (:func:`opening`).

A section's heading that names doing what a question asks how to do, not as a question ("Designing
AI Applications for Trust and Transparency" for "How do I design my AI app's UI so users actually
trust its answers?"), answers it alike (:func:`names_alike`): it opens with the question's verb as a
gerund ("Designing" for "How do I design"; not "Vanishing and Exploding Gradients" for "Why do
gradients vanish?", nor a concept's name, "Minibatch Stochastic Gradient Descent", whose section
opens on what leads to it); three of its content words or more are the question's, all of them but
one; and one of them is no word of its lesson's title (the part before the last ": "; a title with
none is a lesson's, no section's), which every section of the lesson shares. A word is the
question's by its stem, or clipped ("app" of "application": one of the two words opens the other,
three letters or more). A heading that shares one or two words, however common, names no question,
but for a heading that is one noun derived from a word the question says ("Accessibility" for "How do
I make my AI app more accessible?", by stem; not that word itself, "Mistral", nor its verb), in a
lesson whose title says another word of it.

>>> asked = "When is it actually worth fine-tuning a model instead of just getting better at prompting?"
>>> asks_alike(asked, "Fine-Tuning Your LLM: When and why should we fine-tune models?")
True
>>> asks_alike("Why fine-tune a model?", "Fine-Tuning Your LLM: When and why should we fine-tune models?")
True
>>> asks_alike(asked, "Fine-Tuning Your LLM: How can we fine-tune a pre-trained model?")
False
>>> asks_alike("How does fine-tuning work?", "Fine-Tuning: How can we fine-tune a pre-trained model?")
False
>>> asks_alike("What is fine-tuning?", "Fine-Tuning Your LLM: When and why should we fine-tune models?")
False
>>> asks_alike("When should we fine-tune models?", "Fine-Tuning Your LLM: Fine-tune models")
False
>>> asks_alike("How does function calling work?", "Function calling: How does it work?")
False
>>> asks_alike("How can our startup use LLMs?", "LLMs: How do LLMs work?")
False
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from agents.answer_forms import WORD, asked_part, content_terms, expected_kind, question_terms
from agents.answer_spans import LEAD_IN_WORDS, AnswerSpan, Excerpt, best_span
from agents.passages import announces, listed_passages
from agents.stance import asks

__all__ = ["asks_alike", "names_alike", "opening", "what_it_is"]

_QUESTION_WORD = r"(?:when|where|who|whom|whose|what|which|how|why)\b"
# "Keeping your keys safe is important when ...": it says that a thing matters, not how to do it
# (not "It is important to ...", which tells what to do).
_MATTERS = re.compile(
    r"^(?!(?:it|this|that)\b)[^.,;:]*?\b(?:is|are)\s+(?:(?:very|so|especially|particularly|really)\s+)?"
    r"(?:important|essential|crucial|critical|vital)\b(?!\s+to\b)",
    re.IGNORECASE,
)
_OPENING = re.compile(rf"\s*({_QUESTION_WORD}(?:\s*(?:,|and\b|or\b|&|/)\s*{_QUESTION_WORD})*)")
"""The question words a heading opens with, one or several ("When and why", "How/why")."""


def asks_alike(question: str, title: str) -> bool:
    """Whether ``title`` asks ``question`` (see the module docstring)."""
    asked = re.match(_QUESTION_WORD, asked_part(question))
    heading = _heading_asks(title)
    if asked is None or heading is None:
        return False
    words, terms = heading
    return asked.group(0) in words and terms <= set(content_terms(question))


def names_alike(question: str, title: str) -> int:
    """How many content words of a section's heading (the last part of ``title``) a question that
    asks how to do something holds when the heading names doing it (see the module docstring); 0
    otherwise.

    >>> asked = "How do I design my AI app's UI so users actually trust its answers?"
    >>> lesson = "Designing UX for AI Applications"
    >>> names_alike(asked, f"{lesson}: Designing AI Applications for Trust and Transparency")
    4
    >>> names_alike(asked, f"{lesson}: Designing AI Applications for Collaboration")
    0
    >>> names_alike(asked, "Securing AI Applications: Security"), names_alike(asked, lesson)
    (0, 0)
    >>> names_alike("What is trust in AI app design?", "UX: Designing AI Applications for Trust")
    0
    >>> names_alike("Why do gradients vanish or explode?", "Stability: Vanishing and Exploding Gradients")
    0
    >>> asked = "How do I make my AI app more accessible?"
    >>> names_alike(asked, f"{lesson}: Accessibility"), names_alike(asked, "Prompting: Accessibility")
    (1, 0)
    >>> names_alike("How do I count tokens for Mistral models?", "Building With Mistral Models: Mistral")
    0
    """
    lesson = title.rpartition(": ")[0]
    verb = _HOW_TO.match(question)
    if not lesson or verb is None or _heading_asks(title) is not None:
        return 0
    asked = set(question_terms(question))
    # One noun of a word it says ("Accessibility": "more accessible"), in a lesson on another of its words.
    heading = title.rsplit(": ", 1)[-1].strip()
    said = {word.lower().removesuffix("s") for word in WORD.findall(question)}  # derived: not its own word
    one = re.fullmatch(r"[^\W\d_]+", heading) and heading.lower().removesuffix("s") not in said
    noun = set(content_terms(heading)) if one else set()
    if len(noun) == 1 and noun <= asked - set(content_terms(verb[1])):
        return int(any(_alike(term, word) for term in content_terms(lesson) for word in asked - noun))
    # It names doing what is asked how to do: it opens with the question's verb as a gerund.
    doing = re.match(r"[\W\d]*([a-z]+ing)\b", heading.lower())
    if doing is None or content_terms(doing.group(1)) != content_terms(verb.group(1)):
        return 0
    terms = _heading_terms(title)
    shared = {term for term in terms if any(_alike(term, word) for word in asked)}
    beyond = shared - set(content_terms(lesson))
    return len(shared) if len(shared) >= 3 and len(terms - shared) <= 1 and beyond else 0


_HOW_TO = re.compile(
    r"\W*how\s+(?:to|(?:do|can|could|should|would|might|must|shall)\s+(?:i|we|you|one))\s+([a-z]+)",
    re.IGNORECASE,
)
"""A question that asks how to do something ("How do I design ...?", "How to store ...?"), and its verb."""


def _heading_terms(title: str) -> frozenset[str]:
    return frozenset(content_terms(title.rsplit(": ", 1)[-1]))


def _alike(term: str, word: str) -> bool:
    """Whether two content words are one, by stem or clipped ("app", "applic")."""
    short, long = sorted((term, word), key=len)
    return short == long or (len(short) >= 3 and long.startswith(short))


@lru_cache(maxsize=4096)  # a pure function of a title, asked of each chunk a question matches
def _heading_asks(title: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The question words a title's last part opens with and its content words, when that part is
    a question with some content word (None for any other title)."""
    heading = title.rsplit(": ", 1)[-1].strip()
    opened = _OPENING.match(heading.lower())
    terms = frozenset(content_terms(heading))
    # "How does it work?" names nothing it asks about: its one word frames it (question_terms).
    if not heading.endswith("?") or opened is None or not question_terms(heading):
        return None
    return frozenset(re.findall(_QUESTION_WORD, opened.group(1))), terms


def opening(question: str, excerpts: Sequence[Excerpt]) -> AnswerSpan | None:
    """The first sentences of the first excerpt whose title asks a why, how or when-to question
    alike (:func:`asks_alike`), or else names doing what it asks how to do (:func:`names_alike`,
    the one that names the most first): its first sentence, and the ones after it while they have fewer than
    :data:`~agents.answer_spans.LEAD_IN_WORDS` words in all, leaving out a listing, a question the
    lesson asks, and, before the first one quoted, a sentence that announces what follows ("In the
    next chapter we ...") or asks the title's question again ("let's talk about _why_ we need prompt
    engineering"), or, asked how, only says that the thing matters ("Keeping X safe is important.").
    Its support is ``n / (1 + n)`` for the title's ``n`` content words. None when no
    excerpt's title asks it, when that excerpt opens with a list (its first sentences are a list no
    quote holds), or for another kind of question.

    >>> asked = "When should I fine-tune a model?"
    >>> section = Excerpt("c-2", "LLMs: When should we fine-tune models?", "Why? Fine-tune late. It costs.")
    >>> span = opening(asked, [Excerpt("c-1", "LLMs", "Fine-tuning is costly."), section])
    >>> span.excerpt, span.text, span.support
    ('c-2', 'Fine-tune late. It costs.', 0.6667)
    >>> opening("What is fine-tuning?", [section]) is None
    True
    >>> listed = "To fine-tune, you need: ¶ a model ¶ a dataset ¶ a job ¶ Tutorials walk you through it."
    >>> opening(asked, [Excerpt("c-4", "When should we fine-tune models?", listed)]) is None
    True
    >>> again = "Let's see _when_ we fine-tune models. Fine-tune models late, when prompts fail to help."
    >>> opening(asked, [Excerpt("c-3", "When should we fine-tune models?", again)]).text
    'Fine-tune models late, when prompts fail to help.'
    >>> named = Excerpt("c-5", "Training: Picking a Learning Rate Schedule", "Start high, decay slowly.")
    >>> opening("How do I pick a learning rate schedule?", [Excerpt("c-1", "Training", "Rates."), named]).text
    'Start high, decay slowly.'
    """
    if expected_kind(question) != "explanation":
        return None
    asked = [e for e in excerpts if asks_alike(question, e.title)]
    named = sorted(
        (e for e in excerpts if names_alike(question, e.title)), key=lambda e: -names_alike(question, e.title)
    )
    for excerpt in [*asked, *named]:
        # A heading that names it asks no question a sentence could ask again: no question word.
        words, terms = _heading_asks(excerpt.title) or (frozenset(), _heading_terms(excerpt.title))
        how = asked_part(question).startswith("how")
        said: list[str] = []
        for passage in listed_passages(excerpt.text):
            if passage.listed and not said:  # it opens with a list, which no quote holds: read as before
                return None
            if passage.listed or asks(passage.text) or (not said and _leads_in(passage.text, words, terms)):
                continue
            if how and not said and _MATTERS.match(passage.text):  # that it matters is no how
                continue
            said.append(passage.text)
            if len(WORD.findall(" ".join(said))) >= LEAD_IN_WORDS:
                break
        if said:
            text = " ".join(said)
            return AnswerSpan(text, excerpt.id, text, round(len(terms) / (1 + len(terms)), 4))
    return None


def _leads_in(sentence: str, words: frozenset[str], terms: frozenset[str]) -> bool:
    """Whether a section's sentence only leads to what it says: it announces it, or it asks the
    heading's question again, one of its question words followed by every content word of it ("let's
    talk about _why_ we need prompt engineering"; not "Fine-tune a model when prompts fail")."""
    said = sentence.lower()  # a question word may be emphasised: "_why_"
    found = [m.end() for word in words if (m := re.search(rf"(?<![a-z]){word}(?![a-z])", said))]
    return announces(sentence) or (bool(found) and terms <= set(content_terms(said[min(found) :])))


def what_it_is(
    question: str, headed: AnswerSpan | None, excerpts: Sequence[Excerpt], also: Sequence[str]
) -> AnswerSpan | None:
    """The sentence of another excerpt that explains the one concept a why or how question asks of,
    and of nothing more ("How does Small Language Model work?"; ``also``: its name), quoted before
    the opening of the section whose heading asks it (``headed``): that section may open with a side
    fact ("SLMs are trained on vast amounts of text data."), and what the concept is comes first.
    None when no section is headed so, or the question says more than the name.

    >>> asked, name = "How does a small language model work?", ["small language model"]
    >>> section = Excerpt("c-2", "SLMs: How do small language models work?", "They are trained on text.")
    >>> said = Excerpt("c-1", "SLMs", "A small language model is a scaled-down large language model.")
    >>> headed = opening(asked, [section])
    >>> what_it_is(asked, headed, [section, said], name).sentence
    'A small language model is a scaled-down large language model.'
    >>> what_it_is("How does a small language model work on phones?", headed, [section, said], name) is None
    True
    """
    asked = set(question_terms(question))
    if headed is None or len(also) != 1 or not asked or not asked <= set(content_terms(also[0])):
        return None
    return best_span(question, [excerpt for excerpt in excerpts if excerpt.id != headed.excerpt], also)
