"""The offline reader: the span of the given excerpts that answers a question, by a fixed scoring.

An expert given lesson excerpts (chunks: an id, the lesson's title, the text) for an open
question reads an answer out of them; with DeepSeek the model reads, offline this module does.
Nothing here is learned or tuned to a data set: the scores are word overlaps weighted by how
rare each word is among the excerpts given (``idf``), and the rules below.

1. **What is asked** and **candidates**: the kind of answer and the spans of each sentence that could be one
   (:mod:`agents.answer_forms`; a sentence as :mod:`agents.passages` reads it, with the pseudo-heading over it
   or the list its colon announces, asides and the questions a lesson asks left out); a candidate made only of
   the question's words is no answer, nor a sentence's first word that the excerpts never write capitalized
   elsewhere. A yes/no question gets no span.
2. **Direct score** of a candidate: the question's words found in its sentence and in the excerpt's title
   (idf-weighted), plus closeness to them and to the word the question asks about (each 1 / (1 + words
   between)), plus one when its form is the kind asked for. A number answers "How many X?" or "How much X?"
   only when its sentence says it of X (:mod:`agents.quantities`).
3. **Bridge score** (two hops): a sentence A that matches the question leads to another excerpt B (A names B's
   title, or a name in A is part of it); a candidate in B scores the overlap of A with the question plus the
   overlap of its own sentence with the question's words that A did not cover (when there is some): "the seat
   of the county where X is" reads X's county in A, its seat in B.
4. **Options**: with a comparative (earlier, older, later, more, larger ...) each option is given a value from
   the sentences about it, those that match the rest of the question best first: the first year for a
   comparative of time, else the first number that has a unit or counts one of the question's words ("118
   species", "five species"); the smallest or largest wins. Otherwise the option whose sentences match the
   rest of the question better wins. The sentence quoted is the one that gave the value, or the best match.
5. **Definitions** ("What is X?"): what a sentence says X is, read by :mod:`agents.definitions`; a whole
   sentence that only names what the one before it says ("We call this the backwards pass.") is quoted after
   that one, here and for explanations.
6. **Explanations** ("Why ...?", "How does ...?"): of the sentences that are no series and name the most of
   the concepts the question names (:func:`agents.relevance.explains_first`), the whole one that shares the
   most of its words (two at least, the words that frame it left out; one that says them itself before one
   with them only in its excerpt's title), and the sentences after it when it is a lead-in of a few words; for
   one concept alone, the sentence saying what it is. Asked why, a reason first (:mod:`agents.reasons`); a
   list, all of it (:mod:`agents.enumerations`); how, one saying how, what X does or its steps, and the
   next steps (:mod:`agents.instructions`, :mod:`agents.mechanisms`); examples, one naming one of them.

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
from dataclasses import dataclass, replace

from agents.answer_forms import (
    ASPECT,
    DATE,
    DEFINED,
    LARGEST,
    OPTIONS,
    PURPOSE,
    SMALLEST,
    WORD,
    answer_candidates,
    asked_part,
    content_terms,
    expected_kind,
    focus_of,
    name_spans,
    question_terms,
    without_setting,
)
from agents.conclusions import premises
from agents.definitions import definition
from agents.enumerations import asks_for_items, with_items
from agents.instructions import steps_told, tells_way
from agents.namings import said_with_naming
from agents.passages import listed_passages, names_back
from agents.predicates import main_predicate
from agents.purposes import says_purpose_of
from agents.quantities import first_value, measured, owner, quantified, sized
from agents.reasons import asks_why, reason_after, reason_first
from agents.relevance import asked_of, explains_first, named_as, shares_enough
from agents.short_answers import answer_like, asks_short, initial_words
from agents.stance import asks, generality

__all__ = ["AnswerSpan", "Excerpt", "best_span"]


LEAD_IN_WORDS = 8
"""A sentence of fewer words is a lead-in, too short to explain anything alone ("Evaluate the two halves
separately."): an explanation that starts with one runs on in its excerpt until it has this many words."""


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
    listed: bool = False  # a listing (a table of contents): no definition quotes it whole
    items: tuple[str, ...] = ()  # the items of the list it announces (:class:`agents.passages.Passage`)


def _idf(units: Sequence[frozenset[str]]) -> dict[str, float]:
    counts: Counter[str] = Counter(term for unit in units for term in unit)
    return {term: math.log((len(units) + 1) / count) + 0.1 for term, count in counts.items()}


def _overlap(asked: set[str] | frozenset[str], unit: frozenset[str], idf: dict[str, float]) -> float:
    return sum(idf.get(term, 0.0) for term in sorted(asked & unit))  # in one order: floats add up alike


def _closeness(text: str, start: int, end: int, asked: set[str] | frozenset[str]) -> float:
    """1 / (1 + words between the span and the nearest word of ``asked`` in the sentence)."""
    if not (found := [m.span() for m in WORD.finditer(text) if set(content_terms(m.group(0))) & asked]):
        return 0.0
    between = [len(WORD.findall(text[e:start] if e <= start else text[end:s])) for s, e in found]
    return 1.0 / (1.0 + min(between))


def _read(excerpts: Sequence[Excerpt]) -> list[_Sentence]:
    """The excerpts' sentences, but the short questions a lesson asks ("What is X, then?"): none is quoted."""
    read: list[_Sentence] = []
    for number, excerpt in enumerate(excerpts):
        title = frozenset(content_terms(excerpt.title))
        for text, listed, items in listed_passages(excerpt.text):
            if asks(text) and len(WORD.findall(text)) < LEAD_IN_WORDS:
                continue
            names = tuple(text[a:b] for a, b in name_spans(text))
            read.append(_Sentence(number, text, frozenset(content_terms(text)), title, names, listed, items))
    return read


def _said_whole(read: Sequence[_Sentence], position: int, names: Sequence[str] = (), source: str = "") -> str:
    """The sentence at ``position``, after the one before it in its excerpt when it only names what that
    one says ("We call this the *backwards pass*."), before the next one as :mod:`agents.namings` says."""
    sentence, before = read[position], (read[position - 1] if position else None)
    after = [a.text for a in read[position + 1 : position + 2] if a.excerpt == sentence.excerpt]
    said = said_with_naming(sentence.text, after, names, source)
    if before is None or before.excerpt != sentence.excerpt or not names_back(sentence.text, before.text):
        return said
    return f"{before.text} {said}"


def _mentions(sentence: str, title: str) -> bool:
    name = title.strip()
    return len(name) > 2 and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", sentence, re.I) is not None


def _links(sentence: _Sentence, title: str, asked: set[str]) -> bool:
    """Whether a sentence leads to the excerpt titled ``title``: it names the title, or one of its
    names (not made of the question's words) is in the title."""
    if _mentions(sentence.text, title):
        return True
    return any(not set(content_terms(name)) <= asked and _mentions(title, name) for name in sentence.names)


def best_span(question: str, excerpts: Sequence[Excerpt], also: Sequence[str] = ()) -> AnswerSpan | None:
    """The best-scored answer span of the excerpts (None when nothing fits: a yes/no question, no
    excerpt, no candidate of the kind asked); ``also``: other names of what a "What is X?" question
    asks about, or the names of the concepts a question asked yes or no names. A question a lesson
    asks is read only when no other sentence answers: "Now you might be wondering, what is semantic
    search?" says nothing, but "Steganography: How well can a system pass secret messages ...?"
    is all a course may say of a test."""
    read = _read(excerpts)
    stated = [sentence for sentence in read if not asks(sentence.text)]
    found = _span(question, excerpts, also, stated)
    return _span(question, excerpts, also, read) if found is None and len(stated) < len(read) else found


def _span(
    question: str, excerpts: Sequence[Excerpt], also: Sequence[str], read: Sequence[_Sentence]
) -> AnswerSpan | None:
    kind = expected_kind(question)
    if not read:
        return None
    asked = set(question_terms(question))
    focus = focus_of(question)
    idf = _idf([s.terms | s.title_terms for s in read])
    subjects = [frozenset(terms) for name in named_as(question, also) if (terms := content_terms(name))]
    if kind == "yesno":  # a span cannot say yes or no: the sentence that bears on the question can
        wanted = asked_of(question, also) or main_predicate(question, also)
        return _explain(asked, excerpts, read, idf, subjects, usual_first=True, wanted=wanted)
    if kind == "option":
        return _choose(question, excerpts, read, idf)
    if kind == "definition":
        return _define(question, excerpts, read, also)
    why = asks_why(question)
    if kind == "explanation" and ASPECT.search(question):  # when to use X, what X is good or bad at
        purpose = PURPOSE.search(question) is not None
        said = _explain(asked, excerpts, read, idf, subjects, what_of=True, purpose=purpose, why=why)
        return said or (_what_it_is(excerpts, read, also) if purpose else None)
    if kind == "explanation":
        said = _explain(asked, excerpts, read, idf, concepts=also, why=why, how=question)
        return said or _what_it_does(set(question_terms(without_setting(question))), excerpts, read, also)
    described = kind == "name" and not asks_short(question)  # a description is asked: a sentence answers
    if described and (said := _explain(asked, excerpts, read, idf, concepts=also, how=question)):
        listed = with_items(question, said.text, next(e.text for e in excerpts if e.id == said.excerpt))
        return replace(said, text=listed, sentence=listed)  # a list asked: all its items
    initial = initial_words([s.text for s in read], [s.names for s in read])
    amount, size = (quantified(question), sized(question)) if kind == "number" else ("", False)  # "patience"
    owned = frozenset(content_terms(has)) if re.search(r"[A-Z\d]", has := owner(question)) else None
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
        if (not shares_enough(asked, context, subjects) and not chains) or (owned and not owned <= context):
            continue  # one word is not enough; a number of a named thing is said where it is named
        for start, end in answer_candidates(sentence.text, kind):
            words = set(content_terms(sentence.text[start:end]))
            if not words or words <= asked or sentence.text[start:end] in initial.get(position, ()):
                continue
            if not answer_like(sentence.text, start, end):
                continue
            if kind == "number" and not measured(sentence.text, start, end, amount, size):
                continue
            form = float(kind in ("date", "number") or DATE.fullmatch(sentence.text[start:end]) is None)
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
    chosen, support = read[position], max(score, 0.0)
    text = chosen.text if described else text.strip()  # the sentence that has the best name, whole
    return AnswerSpan(text, excerpts[chosen.excerpt].id, chosen.text, round(support / (1.0 + support), 4))


def _explain(
    asked: set[str],
    excerpts: Sequence[Excerpt],
    read: Sequence[_Sentence],
    idf: dict[str, float],
    subjects: Sequence[frozenset[str]] = (),
    *,
    what_of: bool = False,
    purpose: bool = False,
    concepts: Sequence[str] = (),
    usual_first: bool = False,
    wanted: frozenset[str] = frozenset(),
    why: bool = False,
    how: str = "",
) -> AnswerSpan | None:
    """The sentence sharing the most of the question's words (idf-weighted, with the title), of those that
    share two or more, are no series, name the most of ``concepts`` (:func:`agents.relevance.explains_first`):
    it answers a why or how question; one naming a concept asked of (``subjects``: each one's words) answers
    one asked yes or no, or what X is good or bad at (``what_of``: it also says another word of the question,
    "limitations"; no listing does), or for (``purpose``: :func:`agents.purposes.says_purpose_of`). Asked yes
    or no (``usual_first``), one that states the usual case comes before one stating an exception
    (:func:`agents.stance.generality`: "Typically, we disable dropout at test time." before "However, there
    are some exceptions: ..."). Those saying the terms ``wanted`` come first (:func:`asked_of`).
    Asked ``why``, one giving a reason (:mod:`agents.reasons`), saying half as much, first; the next one if it
    gives none; the ones it concludes from (:mod:`agents.conclusions`). Asked ``how``, one saying the way
    asked (:func:`agents.instructions.tells_way`) before others naming as many, its steps after it."""
    named, items = frozenset().union(*subjects), asks_for_items(how)  # items: a lead-in's list answers
    told = {k for k, s in enumerate(read) if says_purpose_of(s.text, s.terms, subjects)} if purpose else set()
    about = [
        k
        for k, s in enumerate(read)
        if not s.listed
        and (not subjects or any(words <= s.terms | s.title_terms for words in subjects))
        and (not subjects or not what_of or not (asked - named).isdisjoint(s.terms) or k in told)
    ]
    if not about:
        return None
    scores = {k: _overlap(asked, read[k].terms | read[k].title_terms, idf) for k in about}
    titles = {k: excerpts[read[k].excerpt].title for k in about}
    first = {k: explains_first(asked, read[k].text, titles[k], concepts, wanted, items) for k in about}
    usual = {k: generality(read[k].text) if usual_first else 0 for k in about}
    usual = usual if -1 in usual.values() else dict.fromkeys(about, 0)
    ways = {k: (*first[k][:3], tells_way(how, read[k].text, concepts), *first[k][3:]) for k in about}
    ranks = {k: (*ways[k], usual[k], scores[k], _overlap(asked, read[k].terms, idf), -k) for k in about}
    order = sorted(about, key=ranks.__getitem__, reverse=True)  # ties: said itself, earlier
    best = reason_first(order, read, first, asked, concepts, [e.text for e in excerpts]) if why else order[0]
    sentence = read[best]
    if len(asked & (sentence.terms | sentence.title_terms)) < 2:
        return None
    support = round(scores[best] / (1 + scores[best]), 4)
    passage = [_said_whole(read, best)]
    for after in read[best + 1 :]:
        if after.excerpt != sentence.excerpt or len(WORD.findall(" ".join(passage))) >= LEAD_IN_WORDS:
            break
        passage.append(after.text)
    rest = [s.text for s in read[best + len(passage) :] if s.excerpt == sentence.excerpt]
    before = [s.text for s in read[:best] if s.excerpt == sentence.excerpt]
    following, passage = rest[:why], steps_told(how, passage, rest, before, concepts)
    source = excerpts[sentence.excerpt].text
    concluded = premises(source, passage[0], before) if why else []
    text = " ".join(concluded + passage + reason_after(source, passage, following))
    return AnswerSpan(text, excerpts[sentence.excerpt].id, text, support)


def _what_it_does(
    asked: set[str], excerpts: Sequence[Excerpt], read: Sequence[_Sentence], also: Sequence[str]
) -> AnswerSpan | None:
    """A why or how question about one concept and nothing more, its setting aside ("How does dropout
    work in an MLP?"; ``also``: the names of the concepts it names) shares one word with every sentence
    about it: the whole sentence that says what it is, names or emphasises it (:mod:`agents.definitions`)
    answers it; one that merely mentions it does not (a blind review found those off the point)."""
    named = [name for name in also if asked and asked <= set(content_terms(name))]  # the setting's aside
    if len(named) != 1:
        return None
    found = definition(named, [sentence.text for sentence in read], known=False, how=True)
    if found is None:
        return None
    said = _said_whole(read, found.position, named, excerpts[read[found.position].excerpt].text)
    return AnswerSpan(said, excerpts[read[found.position].excerpt].id, said, found.support)


def _what_it_is(
    excerpts: Sequence[Excerpt], read: Sequence[_Sentence], also: Sequence[str]
) -> AnswerSpan | None:
    """What X is for, when no sentence says it in the question's words ("What is X good for?";
    ``also``: X's names): the whole sentence that says what X is, or else the first that names or
    emphasises X and goes on about it (eight words or more, X not its last words); one that only
    names X ("This is commonly called X.", a heading) says nothing of what it is for."""
    texts = [sentence.text for sentence in read]
    while also and (found := definition(also, texts)) is not None:
        text = texts[found.position]
        plain = re.sub(r"[*_`]", "", text).rstrip(" .!?:;\"'”)").lower()
        named_only = any(plain.endswith(name.lower()) for name in also) or len(WORD.findall(text)) < 8
        if found.text != text or not named_only:
            said = _said_whole(read, found.position)
            return AnswerSpan(said, excerpts[read[found.position].excerpt].id, said, found.support)
        texts[found.position] = ""  # names X only: the next one may say more
    return None


def _define(
    question: str, excerpts: Sequence[Excerpt], read: Sequence[_Sentence], also: Sequence[str] = ()
) -> AnswerSpan | None:
    """What the sentences say X is (X: what the question asks about, or another of its names in
    ``also``, "recurrent neural network" for "RNN"), read by :func:`agents.definitions.definition`;
    with ``also`` given, X is a concept the graph knows, and a sentence that mentions it will do.

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
    if (match := DEFINED.match(asked_part(question))) is None:
        return None
    listed = {position for position, sentence in enumerate(read) if sentence.listed}
    titles, items = [excerpts[s.excerpt].title for s in read], [s.items for s in read]
    found = definition([match["term"], *also], [s.text for s in read], bool(also), listed, titles, items)
    if found is None:
        return None
    sentence = read[found.position]
    if found.text == sentence.text:  # the whole sentence stands for the definition
        said = _said_whole(read, found.position, [match["term"], *also], excerpts[sentence.excerpt].text)
        return AnswerSpan(said, excerpts[sentence.excerpt].id, said, found.support)
    return AnswerSpan(found.text, excerpts[sentence.excerpt].id, found.quote or sentence.text, found.support)


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
        # The sentences about the option, those that match the rest of the question best first (in
        # order, on a tie): the value is read in this order, and the first is what the answer quotes
        # otherwise, so that synthesis compares options named by different experts on it.
        counted = rest - set(content_terms(option))
        ranked = sorted(
            ((_overlap(counted, s.terms | s.title_terms, idf), s) for s in about), key=lambda p: -p[0]
        )
        overlap, deciding = ranked[0] if ranked else (0.0, None)
        sentences = [s for _, s in ranked]
        value, at = first_value([s.text for s in sentences], question, counted)
        valued = None if at is None else sentences[at]
        where = valued if comparative and valued is not None else deciding
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
