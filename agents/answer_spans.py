"""The offline reader: the span of the given excerpts that answers a question, by a fixed scoring.

An expert given lesson excerpts (chunks: an id, the lesson's title, the text) for an open
question reads an answer out of them; with DeepSeek the model reads, offline this module does.
Nothing here is learned or tuned to a data set: the scores are word overlaps weighted by how
rare each word is among the excerpts given (``idf``), and the rules below.

1. **What is asked** (:func:`expected_kind`): a date ("when", "what year"), a number ("how many",
   "how much"), a choice between two options named in the question ("Who was born earlier, A or
   B?"), a yes/no question (not answered here: a span cannot say yes), otherwise a name.
2. **Candidates** in every sentence: runs of capitalized words (with "of", "de", "von" ... inside),
   quoted titles, dates and numbers; a candidate made only of the question's words is no answer.
3. **Direct score** of a candidate: the question's words found in its sentence and in the
   excerpt's title (idf-weighted), plus closeness to them (1 / (1 + words between)), plus one when
   its form is the kind asked for.
4. **Bridge score** (two hops): a sentence A that matches the question names another excerpt B
   (B's title appears in A); a candidate in B scores the overlap of A with the question plus the
   overlap of its own sentence with the question's words that A did not cover. So "the seat of
   the county where X is" reads X's county in A and the seat in B.
5. **Options**: with a comparative (earlier, older, later, more, larger ...) each option is given
   the first year (or number) of the excerpts about it, and the smallest or largest wins;
   otherwise the option whose excerpts match the rest of the question better.

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
from typing import Literal

from agents.text import sentences

__all__ = ["AnswerSpan", "Excerpt", "Kind", "best_span", "content_terms", "expected_kind"]

Kind = Literal["date", "number", "option", "yesno", "name"]


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


_WORD = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")
_STOP = frozenset(
    """a an the of in on at to for from by with and or but as is are was were be been being am do does
    did has have had having it its it's this that these those there their them they he she his her him
    i you we our your who whom whose what which when where why how whats also not no yes than then
    so if into onto over under about after before between both either neither each other same such
    can could would should will shall may might must one ones s named name called known located
    """.split()
)
_CONNECT = frozenset(
    {"of", "the", "de", "da", "di", "du", "von", "van", "der", "den", "del", "la", "le", "y", "&"}
)
_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan\\.?|Feb\\.?|Mar\\.?|Apr\\.?|Jun\\.?|Jul\\.?|Aug\\.?|Sep\\.?|Sept\\.?|Oct\\.?|Nov\\.?|Dec\\.?"
)
_MONTH = re.compile(_MONTHS)
_DATE = re.compile(
    rf"\b(?:(?:{_MONTHS})\s+\d{{1,2}},?\s+\d{{3,4}}|\d{{1,2}}\s+(?:{_MONTHS})\s+\d{{3,4}}|"
    rf"(?:{_MONTHS})\s+\d{{4}}|(?:1[0-9]|20)\d{{2}}s?)\b"
)
_YEAR = re.compile(r"\b(?:1[0-9]|20)\d{2}\b")
_NUMBER = re.compile(
    r"(?<![\w.])\$?\d+(?:[.,]\d+)*(?:\s(?:million|billion|thousand|hundred|percent|km|miles|metres|meters|"
    r"feet|kilometres|kilometers))?\b"
)
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")
_OPTIONS = re.compile(r"[,:]?\s+(?P<a>[^,?]+?),?\s+or\s+(?P<b>[^,?]+?)\s*\??\s*$", re.IGNORECASE)
_SMALLEST = re.compile(
    r"\b(?:earlier|earliest|first|older|oldest|before|sooner|fewer|fewest|less|least|smaller|smallest|"
    r"lower|lowest|shorter|shortest)\b",
    re.IGNORECASE,
)
_LARGEST = re.compile(
    r"\b(?:later|latest|last|younger|youngest|after|more|most|larger|largest|bigger|biggest|higher|"
    r"highest|taller|tallest|longer|longest|greater|greatest|recent|newer|newest)\b",
    re.IGNORECASE,
)
_AUX = re.compile(
    r"^(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.IGNORECASE
)


def content_terms(text: str) -> list[str]:
    """Content words, lower case, a possessive ``'s`` and a plural ``s`` dropped; a lone letter is
    no content word.

    >>> content_terms("Who wrote the Beatles' songs, W?")
    ['wrote', 'beatle', 'song']
    """
    words = [re.sub(r"['’]s?$", "", w.lower()) for w in _WORD.findall(text)]
    return [
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) else w
        for w in words
        if w not in _STOP and (len(w) > 1 or w.isdigit())
    ]


_WH = re.compile(r"\b(?:when|where|who|whom|whose|what|which|how)\b", re.IGNORECASE)


def expected_kind(question: str) -> Kind:
    """What kind of answer a question asks for, read from its first question word (a "when" inside
    a quoted title further on is not the question's).

    >>> [expected_kind(q) for q in ("When did it open?", "How many seats?", "Is it red?",
    ...  "Who was born first, Ann or Bo?", "Who wrote it?", "What city was it born in?")]
    ['date', 'number', 'yesno', 'option', 'name', 'name']
    """
    text = question.strip()
    lower = text.lower()
    comparative = _SMALLEST.search(text) or _LARGEST.search(text)
    if _OPTIONS.search(text) and (re.match(r"^\s*(?:which|who|what)\b", lower) or comparative):
        return "option"
    first = _WH.search(lower)
    if first is None:
        return "yesno" if _AUX.match(text) else "name"
    asked = lower[first.start() :]
    if re.match(r"when\b|(?:what|which) (?:year|date|day|month|decade|century)\b", asked) or re.search(
        r"\b(?:birthday|birth date|date of birth|born on)\b", asked
    ):
        return "date"
    if re.match(
        r"how (?:many|much|long|old|tall|far|big|large|high)\b|what (?:percentage|percent|number)\b", asked
    ):
        return "number"
    if _AUX.match(text) and first.start() > 0 and not re.search(r",\s*(?:what|which|who)", lower):
        return "yesno"
    return "name"


@dataclass(frozen=True)
class _Sentence:
    excerpt: int
    text: str
    terms: frozenset[str]
    title_terms: frozenset[str]
    names: tuple[str, ...]


def _candidates(text: str, kind: Kind) -> list[tuple[int, int]]:
    """(start, end) of the spans of a sentence that could answer a question of ``kind``."""
    found: list[tuple[int, int]] = []
    if kind == "date":
        found += [m.span() for m in _DATE.finditer(text)]
    if kind == "number":
        found += [m.span() for m in _NUMBER.finditer(text)]
    if kind == "name":
        found += [m.span(1) for m in _QUOTED.finditer(text)]
        found += _names(text)
    return found


_DEMONYM = re.compile(r"(?:an|ian|ean|ese|ish|ch|i|ic)$")
_LONGEST_NAME = 6
"""Words at most in a name (a longer run is a list or a table row, not one name)."""


def _names(text: str) -> list[tuple[int, int]]:
    """Runs of capitalized words (connectors inside), not a sentence's first word alone when it is
    a common word, nor a capitalized adjective before a lower-case word ("an American actor"), nor
    a month with its day ("March 8": a date), at most six words, without a possessive "'s"."""
    words = list(_WORD.finditer(text))
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(words):
        word = words[index].group(0)
        if not (
            word[0].isupper()
            or (word[0].isdigit() and index + 1 < len(words) and words[index + 1].group(0)[0].isupper())
        ):
            index += 1
            continue
        end = index
        while end + 1 < len(words):
            nxt = words[end + 1].group(0)
            gap = text[words[end].end() : words[end + 1].start()]
            if gap.strip(" ,") and gap.strip() not in ("", "-"):
                break
            if "," in gap:
                break
            if nxt[0].isupper() or nxt[0].isdigit():
                end += 1
            elif nxt.lower() in _CONNECT and end + 2 < len(words) and words[end + 2].group(0)[0].isupper():
                end += 2
            else:
                break
        first = words[index].group(0)
        following = words[end + 1].group(0) if end + 1 < len(words) else ""
        adjective = end == index and _DEMONYM.search(first) is not None and following[:1].islower()
        common = end == index and index == 0 and first.lower() in _STOP
        start = index + 1 if first.lower() in _STOP and end > index else index
        dated = _MONTH.fullmatch(first) is not None and any(
            w.group(0)[0].isdigit() for w in words[start : end + 1]
        )
        if not adjective and not common and not dated and end - start < _LONGEST_NAME:
            stop = words[end].end()
            if text[words[end].start() : stop].endswith(("'s", "’s")):
                stop -= 2
            runs.append((words[start].start(), stop))
        index = end + 1
    return runs


def _focus(question: str) -> set[str]:
    """The word the question asks about: the first content word after its question word ("Who is
    the mayor of ..." asks for a mayor).

    >>> _focus("Who is the mayor of the city where Acme is?"), _focus("Name the river.")
    ({'mayor'}, set())
    """
    first = _WH.search(question)
    words = content_terms(question[first.end() :]) if first is not None else []
    return set(words[:1])


def _idf(units: Sequence[frozenset[str]]) -> dict[str, float]:
    counts: Counter[str] = Counter(term for unit in units for term in unit)
    total = len(units) + 1
    return {term: math.log(total / count) + 0.1 for term, count in counts.items()}


def _overlap(asked: set[str] | frozenset[str], unit: frozenset[str], idf: dict[str, float]) -> float:
    return sum(idf.get(term, 0.0) for term in asked & unit)


def _closeness(text: str, start: int, end: int, asked: set[str] | frozenset[str]) -> float:
    """1 / (1 + words between the span and the nearest word of ``asked`` in the sentence)."""
    found = [m.span() for m in _WORD.finditer(text) if set(content_terms(m.group(0))) & asked]
    if not found:
        return 0.0
    between = min(
        len(_WORD.findall(text[word_end:start] if word_end <= start else text[end:word_start]))
        for word_start, word_end in found
    )
    return 1.0 / (1.0 + between)


def _read(excerpts: Sequence[Excerpt]) -> list[_Sentence]:
    read: list[_Sentence] = []
    for number, excerpt in enumerate(excerpts):
        title = frozenset(content_terms(excerpt.title))
        for sentence in sentences(excerpt.text) or []:
            names = tuple(sentence.text[a:b] for a, b in _names(sentence.text))
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


def best_span(question: str, excerpts: Sequence[Excerpt]) -> AnswerSpan | None:
    """The best-scored answer span of the excerpts (None when nothing fits: a yes/no question, no
    excerpt, no candidate of the kind asked)."""
    kind = expected_kind(question)
    read = _read(excerpts)
    if kind == "yesno" or not read:
        return None
    asked = set(content_terms(question))
    focus = _focus(question)
    idf = _idf([s.terms | s.title_terms for s in read])
    if kind == "option":
        return _choose(question, excerpts, read, idf)
    best: tuple[float, int, int, str, int] | None = None
    for position, sentence in enumerate(read):
        context = sentence.terms | sentence.title_terms
        direct = _overlap(asked, context, idf)
        bridges = [
            (_overlap(asked, other.terms | other.title_terms, idf), asked - other.terms - other.title_terms)
            for other in read
            if other.excerpt != sentence.excerpt and _links(other, excerpts[sentence.excerpt].title, asked)
        ]
        for start, end in _candidates(sentence.text, kind):
            words = set(content_terms(sentence.text[start:end]))
            if not words or words <= asked:
                continue
            form = (
                1.0
                if kind in ("date", "number") or _DATE.fullmatch(sentence.text[start:end]) is None
                else 0.0
            )
            near = _closeness(sentence.text, start, end, focus)
            score = direct + _closeness(sentence.text, start, end, asked) + near + form
            for hop, rest in bridges:
                answered = _overlap(rest, context, idf)
                if answered > 0:
                    chained = hop + answered + _closeness(sentence.text, start, end, rest) + near + form
                    score = max(score, chained)
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


def _choose(
    question: str, excerpts: Sequence[Excerpt], read: Sequence[_Sentence], idf: dict[str, float]
) -> AnswerSpan | None:
    match = _OPTIONS.search(question.strip())
    if match is None:
        return None
    options = [match.group("a").strip(" \"'"), match.group("b").strip(" \"'")]
    options[0] = (
        re.split(r"(?i)\b(?:first|earlier|later|between)\b[,:]?\s*", options[0])[-1].strip() or options[0]
    )
    rest = set(content_terms(question[: match.start()]))
    facts: list[tuple[float, float | None, str, str]] = []
    for option in options:
        about = [s for s in read if _mentions(s.text, option) or _mentions(excerpts[s.excerpt].title, option)]
        overlap = max(
            (_overlap(rest - set(content_terms(option)), s.terms | s.title_terms, idf) for s in about),
            default=0.0,
        )
        value = _first_value(about, question)
        where = about[0] if about else None
        facts.append(
            (overlap, value, excerpts[where.excerpt].id if where else "", where.text if where else "")
        )
    (o1, v1, e1, s1), (o2, v2, e2, s2) = facts
    if (
        v1 is not None
        and v2 is not None
        and v1 != v2
        and (_SMALLEST.search(question) or _LARGEST.search(question))
    ):
        smallest = bool(_SMALLEST.search(question)) and not _LARGEST.search(question)
        first = (v1 < v2) == smallest
    elif o1 != o2:
        first = o1 > o2
    else:
        return None
    text, excerpt, sentence = (options[0], e1, s1) if first else (options[1], e2, s2)
    return AnswerSpan(text, excerpt, sentence, 0.5)


def _first_value(about: Sequence[_Sentence], question: str) -> float | None:
    """The first year (or, when the question asks no date, the first number) of the sentences."""
    dated = not re.search(
        r"\b(?:many|much|more|fewer|larger|bigger|higher|taller|longer)\b", question, re.IGNORECASE
    )
    for sentence in about:
        found = _YEAR.search(sentence.text) if dated else _NUMBER.search(sentence.text)
        if found is not None:
            digits = re.sub(r"[^\d.]", "", found.group(0).split(" ")[0])
            try:
                return float(digits)
            except ValueError:
                continue
    return None
