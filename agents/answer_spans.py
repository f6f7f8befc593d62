"""The offline reader: the span of the given excerpts that answers a question, by a fixed scoring.

An expert given lesson excerpts (chunks: an id, the lesson's title, the text) for an open
question reads an answer out of them; with DeepSeek the model reads, offline this module does.
Nothing here is learned or tuned to a data set: the scores are word overlaps weighted by how
rare each word is among the excerpts given (``idf``), and the rules below.

1. **What is asked** and **candidates**: the kind of answer and the spans of each sentence that
   could be one (:mod:`agents.answer_forms`); a candidate made only of the question's words is no
   answer, nor a sentence's first word that the excerpts never write capitalized elsewhere. A
   yes/no question gets no span (a span cannot say yes).
2. **Direct score** of a candidate: the question's words found in its sentence and in the
   excerpt's title (idf-weighted), plus closeness to them and to the word the question asks
   about (each 1 / (1 + words between)), plus one when its form is the kind asked for.
3. **Bridge score** (two hops): a sentence A that matches the question leads to another excerpt B
   (A names B's title, or a name in A is part of it); a candidate in B scores the overlap of A
   with the question plus the overlap of its own sentence with the question's words that A did
   not cover (when there is some). So "the seat of the county where X is" reads X's county in A
   and the seat in B.
4. **Options**: with a comparative (earlier, older, later, more, larger ...) each option is given
   the first year (or number) of the excerpts about it, and the smallest or largest wins;
   otherwise the option whose excerpts match the rest of the question better.
5. **Definitions** ("What is X?"): what the first sentence that says "X is ..." says, up to its
   first comma; else, whole, the first sentence that names X ("called X", "known as X") or
   emphasises it ("*X*", "**X**"), where a lesson introduces a term.
6. **Explanations** ("Why ...?", "How does ...?"): the whole sentence that shares the most of the
   question's words (two at least).

The best candidate wins (ties: the earlier excerpt, the earlier position); its support is
``score / (1 + score)``, in [0, 1).

>>> acme = [Excerpt("c-1", "Acme", "Acme was founded by Jane Roe in 1901.")]
>>> span = best_span("Who founded Acme?", acme)
>>> span.text, span.excerpt
('Jane Roe', 'c-1')
>>> best_span("When was Acme founded?", acme).text
'1901'
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agents.answer_forms import (
    DATE,
    DEFINED,
    LARGEST,
    NUMBER,
    OPTIONS,
    SMALLEST,
    WORD,
    YEAR,
    answer_candidates,
    asked_part,
    content_terms,
    expected_kind,
    focus_of,
    name_spans,
    question_terms,
)
from agents.text import sentences

__all__ = ["AnswerSpan", "Excerpt", "best_span", "defines"]


LEAD_IN_WORDS = 8
"""A sentence of fewer words is a lead-in, too short to explain anything alone ("Evaluate the two
halves separately."): an explanation (a why or how question) that starts with one runs on to the
sentences after it in its excerpt, until it has this many words."""


@dataclass(frozen=True)
class Excerpt:
    """A piece of a lesson given to a reader: its chunk id, its lesson's title, its text."""

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class AnswerSpan:
    """The answer read: its text, the excerpt and sentence it was read from, its support."""

    text: str
    excerpt: str
    sentence: str
    support: float


@dataclass(frozen=True)
class _Sentence:
    excerpt: int
    text: str
    terms: frozenset[str]
    title_terms: frozenset[str]
    names: tuple[str, ...]


def _idf(units: Sequence[frozenset[str]]) -> dict[str, float]:
    counts: Counter[str] = Counter(term for unit in units for term in unit)
    total = len(units) + 1
    return {term: math.log(total / count) + 0.1 for term, count in counts.items()}


def _overlap(asked: set[str] | frozenset[str], unit: frozenset[str], idf: dict[str, float]) -> float:
    return sum(idf.get(term, 0.0) for term in sorted(asked & unit))  # in one order: floats add up alike


def _closeness(text: str, start: int, end: int, asked: set[str] | frozenset[str]) -> float:
    """1 / (1 + words between the span and the nearest word of ``asked`` in the sentence)."""
    found = [m.span() for m in WORD.finditer(text) if set(content_terms(m.group(0))) & asked]
    if not found:
        return 0.0
    between = min(
        len(WORD.findall(text[word_end:start] if word_end <= start else text[end:word_start]))
        for word_start, word_end in found
    )
    return 1.0 / (1.0 + between)


def _read(excerpts: Sequence[Excerpt]) -> list[_Sentence]:
    read: list[_Sentence] = []
    for number, excerpt in enumerate(excerpts):
        title = frozenset(content_terms(excerpt.title))
        for sentence in sentences(excerpt.text) or []:
            names = tuple(sentence.text[a:b] for a, b in name_spans(sentence.text))
            read.append(
                _Sentence(number, sentence.text, frozenset(content_terms(sentence.text)), title, names)
            )
    return read


def _mentions(sentence: str, title: str) -> bool:
    name = title.strip()
    return (
        len(name) > 2 and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", sentence, re.IGNORECASE) is not None
    )


def _links(sentence: _Sentence, title: str, asked: set[str]) -> bool:
    """Whether a sentence leads to the excerpt titled ``title``: it names the title, or one of its
    names (not made of the question's words) is in the title."""
    if _mentions(sentence.text, title):
        return True
    return any(not set(content_terms(name)) <= asked and _mentions(title, name) for name in sentence.names)


def best_span(question: str, excerpts: Sequence[Excerpt], also: Sequence[str] = ()) -> AnswerSpan | None:
    """The best-scored answer span of the excerpts (None when nothing fits: a yes/no question, no
    excerpt, no candidate of the kind asked); ``also``: other names of what a "What is X?" question
    asks about."""
    kind = expected_kind(question)
    read = _read(excerpts)
    if kind == "yesno" or not read:
        return None
    asked = set(question_terms(question))
    focus = focus_of(question)
    idf = _idf([s.terms | s.title_terms for s in read])
    if kind == "option":
        return _choose(question, excerpts, read, idf)
    if kind == "definition":
        return _define(question, excerpts, read, also)
    if kind == "explanation":
        return _explain(asked, excerpts, read, idf)
    initial = _initial_words(read)
    best: tuple[float, int, int, str, int] | None = None
    hops = [(_overlap(asked, s.terms | s.title_terms, idf), asked - s.terms - s.title_terms) for s in read]
    leading: dict[int, list[tuple[float, set[str]]]] = {}  # excerpt -> the hops of sentences leading to it
    for position, sentence in enumerate(read):
        context = sentence.terms | sentence.title_terms
        direct = _overlap(asked, context, idf)
        if sentence.excerpt not in leading:
            title = excerpts[sentence.excerpt].title
            leading[sentence.excerpt] = [
                hop
                for other, hop in zip(read, hops, strict=True)
                if other.excerpt != sentence.excerpt and _links(other, title, asked)
            ]
        # A chain through another excerpt: what it answers of the question, and what it leaves to
        # this sentence (only the best chain of each remainder can win).
        chains: dict[frozenset[str], float] = {}
        for hop, rest in leading[sentence.excerpt]:
            answered = _overlap(rest, context, idf)
            if answered > 0:
                left = frozenset(rest)
                chains[left] = max(chains.get(left, hop + answered), hop + answered)
        if direct == 0 and not chains:  # nothing of the question here, nor a chain leading here
            continue
        for start, end in answer_candidates(sentence.text, kind):
            words = set(content_terms(sentence.text[start:end]))
            if not words or words <= asked or sentence.text[start:end] in initial.get(position, ()):
                continue
            form = (
                1.0 if kind in ("date", "number") or DATE.fullmatch(sentence.text[start:end]) is None else 0.0
            )
            near = _closeness(sentence.text, start, end, focus)
            score = direct + _closeness(sentence.text, start, end, asked) + near + form
            for left, base in chains.items():
                score = max(score, base + _closeness(sentence.text, start, end, left) + near + form)
            score -= 0.5 * len(words & asked) / len(words)
            key = (score, -sentence.excerpt, -position, sentence.text[start:end], position)
            if best is None or key[:3] > best[:3]:
                best = key
    if best is None:
        return None
    score, _, _, text, position = best
    chosen = read[position]
    return AnswerSpan(
        text.strip(),
        excerpts[chosen.excerpt].id,
        chosen.text,
        round(max(score, 0.0) / (1.0 + max(score, 0.0)), 4),
    )


def _initial_words(read: Sequence[_Sentence]) -> dict[int, tuple[str, ...]]:
    """Sentence position -> its first word, when it is capitalized only there: a sentence's first
    word is a name only if the excerpts also write it capitalized inside a sentence."""
    inside = {name for s in read for name in s.names if not s.text.startswith(name)}
    found: dict[int, tuple[str, ...]] = {}
    for position, sentence in enumerate(read):
        first = WORD.search(sentence.text)
        if first is not None and first.group(0) not in inside:
            # A name span leaves out a possessive "'s": "Let's" opens a sentence as "Let".
            found[position] = (first.group(0), re.sub(r"['’]s$", "", first.group(0)))
    return found


def _explain(
    asked: set[str], excerpts: Sequence[Excerpt], read: Sequence[_Sentence], idf: dict[str, float]
) -> AnswerSpan | None:
    """The sentence that shares the most of the question's words (idf-weighted, its excerpt's title
    counted), when it shares more than one: a why or how question is answered by a sentence."""
    scores = [_overlap(asked, s.terms | s.title_terms, idf) for s in read]
    best = max(range(len(read)), key=lambda k: (scores[k], -k))  # ties: the earlier sentence
    sentence = read[best]
    if len(asked & (sentence.terms | sentence.title_terms)) < 2:
        return None
    support = round(scores[best] / (1 + scores[best]), 4)
    passage = [sentence.text]
    for after in read[best + 1 :]:
        if after.excerpt != sentence.excerpt or len(WORD.findall(" ".join(passage))) >= LEAD_IN_WORDS:
            break
        passage.append(after.text)
    text = " ".join(passage)
    return AnswerSpan(text, excerpts[sentence.excerpt].id, text, support)


_UNMARKED = re.compile(
    r"(?<![\w*_])(?P<mark>\*\*|\*|__|_)(?P<text>[^\s*_](?:[^*_]*?[^\s*_])?)(?P=mark)(?![\w*_])"
)
"""Emphasis in a definition's phrase ("of an **agent** in some *environment*", "of _designing_
prompts"), read without the marks."""
_LISTED = re.compile(r",(?=(?:\s+\w+){1,2},?\s+(?:and|or)\s)")
"""A comma inside a list of a few words ("to store, manage and search"): no end of the phrase."""


_SAID = r"(?P<said>(?:\b(?:e\.g|i\.e|vs|cf)\.|[^.;:!?])+)"
"""What a definition says X is: up to the end of its clause (an abbreviation's full stop kept)."""
_KIND = re.compile(r"[\W_]*(?:an?|the|one of)\s", re.IGNORECASE)
"""A definition that says what kind of thing X is ("a weighting ...", "the process of ..."), not
only how it is ("currently more art than science")."""
_RELATED = re.compile(
    r"[\W_]*(?:(?:an?|the|one)\s+)?(?:(?:key|direct|natural|important|useful|common)\s+)?"
    r"(?:prerequisites?|requirements?|related to|relevant to|similar to|needed|necessary|required|"
    r"part of|parts of|basis|foundation|important)\b",
    re.IGNORECASE,
)
"""What says how X relates to something else ("a prerequisite for gradient descent", "related
to planning", "part of every transformer"), not what X is."""


@lru_cache(maxsize=1024)
def _patterns(names: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """The patterns of a sentence that says what X is (X: any of ``names``): "X is ..." (quotes,
    an aside in brackets or between commas allowed), "defining X as ...", "... called X", "*X*",
    and a sentence that opens with X."""
    terms = "|".join(re.escape(name) for name in names)
    says = re.compile(  # "A 'confusion matrix' (or 'error matrix') is a table ...": quotes and an aside
        rf"\W*(?:an? |the )?[\W]*?(?:{terms})\w*\W*?(?:\s*\([^()]*\))?(?:\s*,[^,.;:!?]{{1,80}},)?\s+"
        r"(?:(?:is|are|was|were|can be) (?:defined|described) as|is|are|was|were|refers to|means)\s+"
        rf"{_SAID}",
        re.IGNORECASE,
    )
    defining = re.compile(  # "We started by defining **Prompt Engineering** as the process of ..."
        rf"\bdefin(?:e|es|ed|ing)\s+[*_\"“]*(?:an? |the )?(?:{terms})\w*[*_\"”]*\s+as\s+{_SAID}",
        re.IGNORECASE,
    )
    named = re.compile(
        rf"\b(?:called|termed|known as|referred to as|dubbed)\s+[*_\"“]*(?:an? |the )?(?:{terms})(?!\w)",
        re.IGNORECASE,
    )
    marked = re.compile(rf"(?<![\w*_])([*_]{{1,2}})(?:{terms})\w*\1(?![\w*_])", re.IGNORECASE)
    leading = re.compile(rf"^\W*(?:the |an? )?(?:{terms})(?!\w)", re.IGNORECASE)  # the sentence is about it
    return says, defining, named, marked, leading


def defines(sentence: str, names: Sequence[str]) -> bool:
    """Whether a sentence says what kind of thing X is (any of ``names``): "X is a ...", "X, unlike
    Y, is the ...", "defining X as the ...".

    >>> defines("A vector database, unlike others, is a database of vectors.", ["vector database"])
    True
    >>> defines("Prompt engineering is currently more art than science.", ["prompt engineering"])
    False
    >>> defines("Calculus is a prerequisite for gradient descent.", ["calculus"])
    False
    """
    kept = tuple(dict.fromkeys(n.strip() for n in names if n.strip()))
    if not kept:
        return False
    says, defining, *_ = _patterns(kept)
    said = says.match(sentence) or defining.search(sentence)
    return said is not None and _KIND.match(said["said"]) is not None and not _RELATED.match(said["said"])


def _clause(said: str) -> str:
    """What a definition says, to its first comma that is not inside a list of a few words.

    >>> _clause("a weighting, learned"), _clause("the quality, safety, and cost of outputs, in short")
    ('a weighting', 'the quality, safety, and cost of outputs')
    """
    kept = _LISTED.sub("\0", said)
    if "\0" in kept:  # the list's last comma, before its "and" ("safety, and cost")
        kept = re.sub(r"(\0[^,]*),(?=\s+(?:and|or)\s)", "\\1\0", kept)
    return kept.split(",")[0].replace("\0", ",")


def _define(
    question: str, excerpts: Sequence[Excerpt], read: Sequence[_Sentence], also: Sequence[str] = ()
) -> AnswerSpan | None:
    """What the first sentence that says "X is ..." says X is (X: what the question asks about, or
    another of its names in ``also``, "recurrent neural network" for "RNN"; a sentence that
    emphasises X, "**X** is ...", where a lesson introduces it, before any other), or else, whole,
    the first sentence that names it ("... called X ...") or emphasises it ("*X*"), or else the
    first that opens with it ("The word2vec tool was proposed ...").

    >>> _define("What is attention?", [Excerpt("c-1", "A", "**Attention** is a weighting, learned.")],
    ...         _read([Excerpt("c-1", "A", "**Attention** is a weighting, learned.")])).text
    'a weighting'
    >>> noted = [Excerpt("c-2", "B", "A ' confusion matrix ' (or 'error matrix') is a table of a vs. b.")]
    >>> _define("What is a confusion matrix?", noted, _read(noted)).text
    'a table of a vs. b'
    >>> named = [Excerpt("c-3", "RNN", "Recurrent neural networks (RNNs) are networks with hidden states.")]
    >>> _define("What is an RNN?", named, _read(named), ["recurrent neural network"]).text
    'networks with hidden states'
    >>> listed = [Excerpt("c-5", "V", "A vector database, unlike others, is a _store_ to keep, sort "
    ...                   "and search vectors, fast.")]
    >>> _define("What is a vector database?", listed, _read(listed)).text
    'a store to keep, sort and search vectors'
    >>> marked = [Excerpt("c-4", "RL", "**RL** is learning by an **agent** in an *environment*.")]
    >>> _define("What is RL?", marked, _read(marked)).text
    'learning by an agent in an environment'
    """
    match = DEFINED.match(asked_part(question))
    if match is None:
        return None
    names = tuple(dict.fromkeys(n.strip() for n in (match.group("term"), *also) if n.strip()))
    says, defining, named, marked, leading = _patterns(names)
    said_of = [
        (sentence, said)
        for sentence in read
        if (said := says.match(sentence.text) or defining.search(sentence.text)) is not None
        and not _RELATED.match(said["said"])
    ]
    if said_of:  # the first that emphasises X, else the first that says what kind of thing it is
        sentence, said = min(
            said_of,
            key=lambda found: (marked.search(found[0].text) is None, _KIND.match(found[1]["said"]) is None),
        )
        phrase = _UNMARKED.sub(r"\g<text>", _clause(said.group("said"))).strip(" *_`")
        return AnswerSpan(phrase, excerpts[sentence.excerpt].id, sentence.text, 0.5)
    for pattern in (named, marked, leading):
        for sentence in read:
            if pattern.search(sentence.text) is not None:
                return AnswerSpan(sentence.text, excerpts[sentence.excerpt].id, sentence.text, 0.5)
    if also:  # a concept the graph knows: what the lessons say of it is more than "not covered"
        mentioning = re.compile(rf"(?<!\w)(?:{'|'.join(re.escape(n) for n in names)})(?!\w)", re.IGNORECASE)
        for sentence in read:
            if mentioning.search(sentence.text) is not None:
                return AnswerSpan(sentence.text, excerpts[sentence.excerpt].id, sentence.text, 0.25)
    return None


def _choose(
    question: str, excerpts: Sequence[Excerpt], read: Sequence[_Sentence], idf: dict[str, float]
) -> AnswerSpan | None:
    match = OPTIONS.search(question.strip())
    if match is None:
        return None
    options = [match.group("a").strip(" \"'"), match.group("b").strip(" \"'")]
    options[0] = (
        re.split(r"(?i)\b(?:first|earlier|later|between)\b[,:]?\s*", options[0])[-1].strip() or options[0]
    )
    rest = set(content_terms(question[: match.start()]))
    comparative = bool(SMALLEST.search(question) or LARGEST.search(question))
    facts: list[tuple[float, float | None, str, str]] = []
    for option in options:
        about = [s for s in read if _mentions(s.text, option) or _mentions(excerpts[s.excerpt].title, option)]
        overlap = max(
            (_overlap(rest - set(content_terms(option)), s.terms | s.title_terms, idf) for s in about),
            default=0.0,
        )
        value, valued = _first_value(about, question)
        where = valued if comparative and valued is not None else (about[0] if about else None)
        facts.append(
            (overlap, value, excerpts[where.excerpt].id if where else "", where.text if where else "")
        )
    (o1, v1, e1, s1), (o2, v2, e2, s2) = facts
    if v1 is not None and v2 is not None and v1 != v2 and comparative:
        smallest = bool(SMALLEST.search(question)) and not LARGEST.search(question)
        first = (v1 < v2) == smallest
    elif o1 != o2:
        first = o1 > o2
    else:
        return None
    text, excerpt, sentence = (options[0], e1, s1) if first else (options[1], e2, s2)
    return AnswerSpan(text, excerpt, sentence, 0.5)


def _first_value(about: Sequence[_Sentence], question: str) -> tuple[float | None, _Sentence | None]:
    """The first year (or, when the question asks no date, the first number) of the sentences, and
    the sentence that gives it: what an answer quotes, so that a reader who sees only this option
    (an expert of one domain) still passes on the fact a comparison needs."""
    dated = not re.search(
        r"\b(?:many|much|more|fewer|larger|bigger|higher|taller|longer)\b", question, re.IGNORECASE
    )
    for sentence in about:
        found = YEAR.search(sentence.text) if dated else NUMBER.search(sentence.text)
        if found is not None:
            digits = re.sub(r"[^\d.]", "", found.group(0).split(" ")[0])
            try:
                return float(digits), sentence
            except ValueError:
                continue
    return None, None
