"""Cue phrases: the words that state a relation between two phrases of a sentence.

Each :class:`Cue` maps a phrase to an edge type of the curriculum vocabulary, with the direction
it states and a strength (the extractor confidence of an unhedged explicit statement). "X is a
kind of Y" maps to ``part_of``: the vocabulary has no is-a type, and ``part_of`` is defined as
"src is a component or kind of dst". "X requires Y" states that Y is learned first, so it becomes
``Y prerequisite X``, as does "X requires that we know Y"; any other "X requires that ..." states a
condition on X, no concept learned first.
"Before studying X, you should understand Y" becomes ``Y prerequisite X``.

A cue that opens a non-restrictive relative clause ("FSDP, which builds on DDP") has the noun
phrase before the comma as its left phrase (:func:`_antecedent`).

A cue whose verb is plural ("are", "require", "build on") may follow a list that is its subject:
"Tokenization and word embeddings are prerequisites for the transformer" states both. The left
phrase then spans the list (:func:`_subject_list`), so the extractor and the judge's reading of a
quote (:mod:`agents.findings`) both see every item.

Hedges ("some argue", "it is claimed", "may", "people often say that ...":
:func:`agents.stance.hedged`) multiply a statement's confidence by :data:`HEDGE_FACTOR`; a hedge
qualifies the statements it comes before or inside, not one that ends before it: "Techniques like
metaprompting may reduce fabrications" hedges the reduction, not that metaprompting is a
technique. A question, a quiz prompt or a statement called false asserts nothing
(:func:`asserted`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from agents.contrasts import unlike
from agents.exemplars import genus_before_comma, listed_instances, next_genus_cut
from agents.phrases import CONJUNCTION, last_phrase, word_classes
from agents.postmodifiers import participle_start
from agents.stance import asked, calls_false, hedged

__all__ = [
    "CUES",
    "HEDGE_FACTOR",
    "UNLIKE",
    "Cue",
    "Statement",
    "asserted",
    "asserts_nothing",
    "cue_free",
    "cue_statements",
    "denies_cue",
    "has_cue",
]

HEDGE_FACTOR = 0.6
"""How much a hedge ("some argue ...") lowers the confidence of the statement it qualifies."""


@dataclass(frozen=True)
class Cue:
    """A cue phrase: ``forward`` means "X cue Y" states (X, type, Y); otherwise (Y, type, X)."""

    pattern: str
    type: str
    forward: bool
    strength: float

    @property
    def verbal(self) -> bool:
        """Whether the cue is a verb whose subject is the genus ("Common norms include the l1 norm"):
        the head of the subject's first noun phrase, not of its last ("Frameworks for deep learning
        include PyTorch" says nothing of deep learning)."""
        return self.pattern == _INCLUDE

    @property
    def copular(self) -> bool:
        """Whether the cue is a copula ("is a", "are a kind of", "is used for"): its left phrase is
        the subject of the verb."""
        return self.pattern.startswith(("(?:is|are)", _AS_IF_BE))


_LIKE = r"(?<!\bbe )(?<!\bis )(?<!\bare )(?<!\bwould )(?<!\bjust )(?<!\bmuch )(?<!\bmore )(?<!\bfeel )like"
""""Like" that gives examples of the noun before it ("retrieval techniques like BM25"): not a verb's
("would like", "feel like"), a copula's comparison ("is like a map") or "just like", "much like"
(the noun phrase before a verb that "looks like" follows is no genus: :mod:`agents.relations`
keeps only a concept that ends its phrase)."""

_INCLUDE = r"(?:includes|include)"
"""A genus that includes its instances as the subject of the verb: "Examples of X include Y"."""
_AS_IF_BE = r"(?:represents?|(?:is|are|can be) (?:considered|seen as|viewed as|regarded as))"
"""A verb that says what a thing is as a copula does, before a classifier noun: "represents a
scaled-down variant of", "can be seen as a subset of" (not "represents" alone: "each row represents
a sample" says what a row stands for)."""

CUES: tuple[Cue, ...] = (
    Cue(
        r"(?:is|are) (?:a |an |the )?(?:prerequisites?|prerequisite concepts?) (?:for|of|to)",
        "prerequisite",
        True,
        0.9,
    ),
    Cue(r"(?:is|are) (?:needed|required) (?:for|before)", "prerequisite", True, 0.75),
    Cue(  # "requires that we know X" states X first; any other "requires that ..." a condition
        r"(?:requires|require)(?:\s+that\s+(?:we|you|one|readers?|learners?|students?)\s+"
        r"(?:know|understand|learn|master|be familiar with))?(?!\s+that\b)",
        "prerequisite",
        False,
        0.75,
    ),
    Cue(r"(?:builds|build) (?:directly )?(?:up)?on", "builds_on", True, 0.85),
    Cue(r"(?:extends|extend)", "builds_on", True, 0.8),
    Cue(r"(?:is|are) (?:a |an )?(?:special case|generalization|refinement) of", "builds_on", True, 0.7),
    Cue(r"(?:is|are) (?:a |an )?(?:part|component|building block|feature)s? of", "part_of", True, 0.85),
    Cue(r"(?:is|are) (?:a |an )?(?:kind|type|form|family|variant)s? of", "part_of", True, 0.8),
    Cue(
        rf"{_AS_IF_BE} (?:a |an )?(?:[\w-]+ )?(?:kind|type|form|family|subset|class|category)s? of",
        "part_of",
        True,
        0.75,
    ),
    Cue(
        rf"{_AS_IF_BE} (?:a |an )?(?:[\w-]+ )?(?:variant|extension|version|modification|generalization)s? of",
        "builds_on",
        True,
        0.7,
    ),
    Cue(r"(?:contrasts|contrast) with", "contrasts_with", True, 0.8),
    Cue(r"(?:is|are) (?:often )?(?:used|applied) (?:in|for|to)", "applies_to", True, 0.75),
    Cue(r"(?:applies|apply) to", "applies_to", True, 0.75),
    Cue(r"(?:is|are) (?:closely )?related to", "related", True, 0.7),
    Cue(r"(?:is|are) (?:a |an )?(?:variant|extension|version|modification)s? of", "builds_on", True, 0.75),
    Cue(r"(?:is|are) (?:based|built) (?:up)?on", "builds_on", True, 0.75),
    Cue(r"(?:uses|use|relies on|rely on|employs|employ|leverages|leverage)", "builds_on", True, 0.55),
    Cue(r"such as", "part_of", False, 0.6),
    Cue(_LIKE, "part_of", False, 0.55),
    Cue(r"including", "part_of", False, 0.55),
    Cue(_INCLUDE, "part_of", False, 0.6),
    Cue(r"(?:is|are) (?:a|an|one of the)", "part_of", True, 0.5),
    Cue(
        r"(?:in contrast to|as opposed to|rather than|instead of|(?:is|are) an alternative to)",
        "contrasts_with",
        True,
        0.6,
    ),
    Cue(r"(?:versus|vs\.?)", "contrasts_with", True, 0.75),
)


@dataclass(frozen=True)
class Statement:
    """One cue phrase found in a sentence, with the raw phrases on either side (sentence offsets)."""

    cue: Cue
    cue_start: int
    cue_end: int
    left: tuple[int, int]
    right: tuple[int, int]
    hedged: bool


_CUE_RES = tuple((cue, re.compile(rf"(?<![\w-]){cue.pattern}(?!\w)", re.IGNORECASE)) for cue in CUES)
"""Each cue as a whole word (or ending in a full stop: "vs."), not the end of a hyphenated compound
("ready-to-use models" uses nothing)."""
_AFTER_COMMA = re.compile(r",\s*\Z")
_EXAMPLE_RES = tuple(pattern for cue, pattern in _CUE_RES if cue.type == "part_of" and not cue.forward)
"""The cues that give examples of a genus before them ("such as", "like")."""
_BEFORE = re.compile(
    r"before (?:studying|learning|reading|tackling|using) (?P<later>[^,;]+), (?:you|one|readers?) "
    r"(?:should|must|need to|needs to) (?:first )?(?:understand|know|learn|study|master) (?P<first>[^.;]+)",
    re.IGNORECASE,
)
_LEFT_STOP = re.compile(
    r"(?:[,;:(]\s*|\b(?:so|and|but|then|because|since|while|whereas|which|that|where|thus|hence|"
    r"therefore|also|whose|when|if|although|though|as|showed|shows|show)\s+)",
    re.IGNORECASE,
)
_RIGHT_STOP = re.compile(
    r"[,;:.()!?\"]|\s(?:(?:which|because|since|so|where|whose|when|while|whereas|but|that|as well|"
    r"in the sense|in this sense|in practice|covered|taught|from|by|through|via|at|than|rather|"
    r"instead|is|are|was|were|can|could|will|would|may|might|must|should|has|have)\b|"
    r"to (?![*_`]*[a-z]+ing\b))",
    re.IGNORECASE,
)
"""Where a cue's right phrase ends; "to" ends it before emphasis too ("similar to *pivot tables*"),
but not before a gerund ("applied to *training* models" reads on)."""
_NEGATION = re.compile(r"\b(?:not|never|no longer|nothing|neither|nor|isn't|aren't)\b", re.IGNORECASE)
_CONTRACTED = re.compile(r"\b(?:cannot|\w+n[’']t)\b", re.IGNORECASE)
"""A negation written as one word ("doesn't require", "cannot be used for")."""


@lru_cache(maxsize=4096)  # a pure function of the sentence, which each proposal's reviewers read again
def cue_statements(text: str) -> tuple[Statement, ...]:
    """The cue phrases of one sentence and the raw phrases they join.

    >>> said = cue_statements("Calculus is a prerequisite for backpropagation.")
    >>> [(s.cue.type, s.left, s.right) for s in said]
    [('prerequisite', (0, 8), (31, 46))]
    """
    found: list[Statement] = []

    def is_hedged(*spans: tuple[int, int]) -> bool:
        return hedged(text[: max(end for _, end in spans)])

    before = _BEFORE.search(text)
    if before is not None:
        cue = Cue("before studying", "prerequisite", True, 0.85)
        found.append(
            Statement(
                cue,
                before.start(),
                before.start("later"),
                before.span("first"),
                before.span("later"),
                is_hedged(before.span("first"), before.span("later")),
            )
        )
    found.extend(_unlike(text, is_hedged))
    for cue, pattern in _CUE_RES:
        for match in pattern.finditer(text):
            if before is not None and before.start() <= match.start() < before.end():
                continue
            # A general cue ("is a") inside a more specific one found first ("is a kind of") says nothing.
            if any(s.cue_start < match.end() and match.start() < s.cue_end for s in found):
                continue
            left = _antecedent(text, match.start()) or _left_phrase(text, match.start())
            if left is None and cue.type == "part_of" and not cue.forward:
                comma = text.rfind(",", 0, match.start())
                ahead = _left_phrase(text, comma) if comma > 0 else None
                left = genus_before_comma(text, match.start(), ahead)
            if left is not None and _PLURAL_VERB.match(text, match.start()):
                left = (_subject_list(text, left), left[1])
            right = _right_phrase(text, match.end())
            if right is not None and cue.type == "part_of" and not cue.forward:
                # A genus that is itself an item of a list ("A, B like C, and D") lists no more after C.
                if left is not None and _AFTER_COMMA.search(text, 0, left[0]) is None:
                    right = listed_instances(text, right, _plain_noun_phrase)
                right = next_genus_cut(text, right, _EXAMPLE_RES)
            if left is None or right is None or _NEGATION.search(text[left[0] : match.end()]):
                continue
            if _PERSON_SUBJECT.search(text, left[0], left[1]):
                continue
            cut = participle_start(text, *right) if cue.copular and cue.type == "part_of" else None
            if cut is not None:  # "an LLM created by TII" is the genus "an LLM" and what qualifies it
                right = (right[0], len(text[:cut].rstrip()))
            found.append(Statement(cue, match.start(), match.end(), left, right, is_hedged(left, right)))
    return tuple(found)


UNLIKE = Cue("unlike", "contrasts_with", True, 0.7)
"""The contrast of "Unlike A, B ..." and "B, unlike A, ...": each side is the head of its noun phrase."""


def _unlike(text: str, is_hedged: Callable[..., bool]) -> list[Statement]:
    """The contrast "unlike" states (:func:`agents.contrasts.unlike`)."""
    spans = unlike(text, _right_phrase, _left_phrase)
    if spans is None:
        return []
    return [Statement(UNLIKE, *spans[0], spans[1], spans[2], is_hedged(spans[1], spans[2]))]


_PERSON_SUBJECT = re.compile(
    r"(?:\b(?:we|you|I|he|she)|\w\W+they)(?:\s+(?:will|would|can|could|should|shall|may|might|must|"
    r"do|does|did|often|also|then|now|just|still|usually|typically|generally|first|always|never|not))*\Z",
    re.IGNORECASE,
)
"""A phrase before a cue that ends in a person, with only auxiliaries and adverbs after it ("Here we
use X", "the accuracy we require", "how much they use", "every model you will use"): the cue's
subject is that person, and the noun phrase before it, if any, is what
the verb acts on, not what it relates. A phrase that is "they" alone stands for concepts ("They
build on X"): :mod:`agents.relations` reads it as the previous sentence's."""


def _left_phrase(text: str, end: int) -> tuple[int, int] | None:
    # The last stop before the cue: looked for just before it first, so that a sentence of many
    # cues is not read from its start for each (the whole sentence only when none is near).
    near = max(0, end - _NEAR)
    stops = [s.end() for s in _LEFT_STOP.finditer(text, near, end) if not near or s.start() >= near + _MARGIN]
    if near and not stops:
        stops = [s.end() for s in _LEFT_STOP.finditer(text, 0, end)]
    start = stops[-1] if stops else 0
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


_RELATIVE = re.compile(r",\s*(?:which|that)\s+(?P<between>(?:[^\W\d_]+\s+){0,2})$", re.IGNORECASE)


def _antecedent(text: str, cue_start: int) -> tuple[int, int] | None:
    """The noun phrase that a non-restrictive relative clause opening just before a cue is about:
    "FSDP, which builds on DDP" says that FSDP builds on DDP. It is the last noun phrase before the
    comma (after its last preposition: "FSDP" of "support for FSDP"); only adverbs may stand
    between the pronoun and the cue ("which also builds on"). None when no such clause opens there.

    >>> t = "We add support for FSDP, which also builds on DDP."
    >>> t[slice(*_antecedent(t, t.index("builds")))]
    'FSDP'
    >>> t, u = "DDP, which we build on, is fast.", "The model which uses DDP."
    >>> _antecedent(t, t.index("build")), _antecedent(u, u.index("uses"))
    (None, None)
    """
    found = _RELATIVE.search(text, max(0, cue_start - 40), cue_start)
    if found is None or any(word_classes(w) != {"ADV"} for w in found.group("between").split()):
        return None
    before = _left_phrase(text, found.start())
    phrase = last_phrase(text, before) if before is not None else None
    return phrase if phrase is not None and phrase[1] > phrase[0] else None


_NEAR = 400
"""How far before a cue its left phrase's stop is looked for first, in characters."""
_MARGIN = 16
"""A stop found within this many characters of where the search began may be one read from the
middle of a longer stop: the whole sentence is read instead."""
_PLURAL_VERB = re.compile(
    r"(?:are|were|require|build|extend|contrast|apply|use|rely|employ|leverage|include)\b", re.IGNORECASE
)
"""The verb forms of the cues that agree with a plural subject."""
_LEADING = frozenset({"the", "a", "an", "both", "either", "all"})
_NOMINAL = frozenset({"NOUN", "PROPN", "ADJ", "NUM", "X"})


def _plain_noun_phrase(phrase: str) -> bool:
    """Whether a phrase is a bare noun phrase of at most five words (after an article or "both"):
    every word can be a noun, a name or an adjective; no verb-only word, preposition or pronoun.

    >>> _plain_noun_phrase("Both word embeddings"), _plain_noun_phrase("the model is trained")
    (True, False)
    >>> _plain_noun_phrase("Lastly"), _plain_noun_phrase("approval for consequential actions")
    (False, False)
    """
    words = phrase.split()
    if words and words[0].lower() in _LEADING:
        words = words[1:]
    return 0 < len(words) <= 5 and all(
        bool(word_classes(w.strip("*_`'\"")) & _NOMINAL) for w in words if w.strip("*_`'\"")
    )


def _subject_list(text: str, left: tuple[int, int]) -> int:
    """Where the subject of a plural cue verb starts: the start of ``left`` (the phrase right before
    the cue), or, when that phrase is a bare noun phrase joined by "and", "or" or a comma to bare
    noun phrases before it, the start of the first of them (a clause joined by "and" ends the list).

    >>> text = "Tokenization and word embeddings are prerequisites for the transformer."
    >>> text[_subject_list(text, (17, 32)) : 32]
    'Tokenization and word embeddings'
    >>> text = "The model is trained, and word embeddings are used in search."
    >>> text[_subject_list(text, (26, 41)) : 41]
    'word embeddings'
    """
    start = left[0]
    if not _plain_noun_phrase(text[left[0] : left[1]]):
        return start
    joints = list(CONJUNCTION.finditer(text, 0, start))
    while joints and joints[-1].end() == start:
        joint = joints.pop()
        begin = joints[-1].end() if joints else 0
        if not _plain_noun_phrase(text[begin : joint.start()]):
            break
        start = begin
    return start


def _right_phrase(text: str, start: int) -> tuple[int, int] | None:
    while start < len(text) and text[start].isspace():
        start += 1
    stop = _RIGHT_STOP.search(text, start)
    end = stop.start() if stop else len(text)
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def denies_cue(text: str) -> bool:
    """Whether the text holds a cue phrase and a negation: a relation it denies or leaves in doubt
    ("is not a prerequisite for"); or calls a statement false ("It is a myth that ..."). A question
    denies nothing: "How does X relate to Y?" says that they do.

    >>> denies_cue("Dropout is not a part of attention."), denies_cue("Dropout is a part of it.")
    (True, False)
    """
    negated = _NEGATION.search(text) is not None or _CONTRACTED.search(text) is not None
    return calls_false(text) or (negated and has_cue(text))


def asserts_nothing(text: str) -> bool:
    """Whether a sentence asserts nothing its cues say: a question or a quiz prompt
    (:func:`agents.stance.asked`),
    or one that calls a statement false (:func:`agents.stance.calls_false`).

    >>> asserts_nothing("Is calculus a prerequisite for backpropagation?")
    True
    >>> asserts_nothing("It is a myth that calculus is a prerequisite for backpropagation.")
    True
    >>> asserts_nothing("Calculus is a prerequisite for backpropagation; false positives are rare.")
    False
    """
    return asked(text) or calls_false(text)


def asserted(text: str) -> tuple[Statement, ...]:
    """The cue statements a sentence asserts: none when it asserts nothing (:func:`asserts_nothing`),
    and none negated in one word before its cue ("X doesn't require Y"). The extractor reads these;
    the readers of a quote (the judgment's features, the owners) read :func:`cue_statements`, and
    say what they find negated or hedged in it.

    >>> [s.cue.type for s in asserted("Calculus is a prerequisite for backpropagation.")]
    ['prerequisite']
    >>> asserted("Is calculus a prerequisite for it?"), asserted("Dropout doesn't require attention.")
    ((), ())
    """
    if asserts_nothing(text):
        return ()
    said = cue_statements(text)
    return tuple(s for s in said if not _CONTRACTED.search(text, s.left[0], s.cue_end))


def cue_free(text: str, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Noun-phrase runs of ``text`` without a last word that starts a cue: "builds" in
    "Backpropagation builds on the chain rule" is the verb of the statement, not a noun of the name
    (an "-s" word before a preposition reads either way to :func:`agents.phrases.noun_runs`).

    >>> t = "Backpropagation builds on the chain rule."
    >>> [t[a:b] for a, b in cue_free(t, [(0, 22), (30, 40)])]
    ['Backpropagation', 'chain rule']
    """
    kept = []
    for start, end in runs:
        last = text.rfind(" ", start, end) + 1
        if last > start and any(pattern.match(text, last) for _, pattern in _CUE_RES):
            end = len(text[start:last].rstrip()) + start
        kept.append((start, end))
    return kept


def has_cue(text: str) -> bool:
    """Whether any cue phrase occurs in the text, negated or not."""
    plain = re.sub(r"\s+", " ", _NEGATION.sub(" ", text))
    return any(pattern.search(plain) for _, pattern in _CUE_RES) or _BEFORE.search(plain) is not None
