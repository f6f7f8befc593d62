"""Phrases: word classes, noun-phrase runs, lists and pronouns, for the offline extractors.

Word classes. A word form's classes are universal POS tags: a closed class (determiner, pronoun,
preposition, conjunction, auxiliary, number, quantifier, particle, function adverb) from the small
lists below, which English grammar fixes; else ``NUM`` for a number, ``PROPN`` for a word with
digits or inner capitals ("GPT-4", "PyTorch"); else the open classes lemminflect's tables allow
(NOUN, VERB, ADJ, ADV; a gerund is also a NOUN); else, for a word the tables do not know, its last
part's classes if hyphenated ("encoder-only" is no noun), the classes after a known prefix
("nonconvex"), ADV for "-ly"/"-wise", VERB for "-ize", ADJ for "-ous", "-al", ..., and ``X``
(a technical word such as "softmax", a name, a foreign word) when nothing tells.

Noun-phrase runs. :func:`noun_runs` cuts text into maximal runs of words that can stand in a noun
phrase (nouns, adjectives, participles, unknown words, names) ending at a word that can be a noun:
"we use two tightly choreographed data transfers" gives "choreographed data transfers" ("use" is a
verb after a pronoun, "two" a number, "tightly" an adverb). A run never crosses punctuation, a
closed-class word, a finite verb or any gap but one space or a line break (blanked code or
math); it ends at a plural, since modifiers in English compounds are singular ("the model
extracts information" gives "model" and "information"), and before a gerund that starts a clause
("a dataset consisting of"), while a gerund that closes the phrase heads it ("experiment tracking,
since ...", "hyperparameter tuning and"); a lower-case possessor ("the function's Hessian") is left
out. Whether a run, or which of its tails, names a concept is the termhood model's call
(:mod:`agents.offline.terms`).

Lists and pronouns: a list ("X, Y and Z") is cut into its parts, and a pronoun ("it", "this") is
recognized as standing for an earlier concept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from lemminflect import getAllLemmas

__all__ = [
    "CLOSED_CLASSES",
    "CONJUNCTION",
    "FUNCTION_WORDS",
    "Word",
    "conjuncts",
    "gerund_only",
    "lemma_table",
    "named_alone",
    "noun_runs",
    "pronoun",
    "singular",
    "word_classes",
    "words",
]

CLOSED_CLASSES: dict[str, frozenset[str]] = {
    "DET": frozenset(
        "the a an this that these those my your his her its our their each every either neither some any "
        "no another such what which whatever whichever all both half whose".split()
    ),
    "PRON": frozenset(
        "i me mine we us ours you yours he him his she her hers it its they them theirs myself ourselves "
        "yourself yourselves himself herself itself themselves who whom something anything everything "
        "nothing someone anyone everyone somebody anybody everybody one ones oneself there here".split()
    ),
    "ADP": frozenset(
        "of in on at by for with from to into onto over under about above below across after against along "
        "among around before behind beneath beside besides between beyond during except inside outside "
        "through throughout toward towards upon within without via per like unlike than as despite "
        "amid until till versus vs e.g i.e etc cf using including excluding following regarding concerning "
        "considering given according depending involving up down out off".split()
    ),
    "CONJ": frozenset(
        "and or but nor so yet because although though while whereas if unless since when where whether "
        "then once whenever wherever how why".split()
    ),
    "AUX": frozenset(
        "be is are was were been being am have has had having do does did done can could will would shall "
        "should may might must ought need needs cannot can't won't don't doesn't didn't isn't aren't "
        "wasn't weren't 's 're 've 'll 'd let let's".split()
    ),
    "NUM": frozenset(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
        "hundreds thousand thousands million millions billion billions trillion trillions dozen dozens "
        "tens first second third fourth fifth last next previous".split()
    ),
    "QUANT": frozenset(
        "many much more most few fewer fewest less least several enough various numerous lots plenty "
        "other others same own certain single multiple corresponding respective particular specific entire "
        "whole individual".split()
    ),
    "PART": frozenset("not never no to".split()),
    "ADV": frozenset(
        "also just only very too even still already again however thus hence therefore now then rather "
        "quite really simply often usually typically generally always sometimes indeed instead perhaps "
        "maybe actually especially particularly namely further furthermore moreover likewise".split()
    ),
}
"""The closed classes of English, by tag: fixed by the grammar, not learned."""

FUNCTION_WORDS = frozenset().union(*(CLOSED_CLASSES[tag] for tag in ("DET", "PRON", "ADP", "CONJ", "AUX")))
"""Determiners, pronouns, prepositions, conjunctions and auxiliaries: English's function words."""
_CLOSED = {word: tag for tag, members in CLOSED_CLASSES.items() for word in members}
_WORD = re.compile(r"[^\W_]+(?:(?:['’+&–-]|--|\.(?=\d))[^\W_]+)*\+*")
_CAPITALS = re.compile(r"[A-Z].*[A-Z]|[a-z][A-Z]")
_BEFORE_VERB = frozenset(
    "i we you they he she it to can could will would shall should may might must".split()
)


@dataclass(frozen=True)
class Word:
    """One word of a text with its offsets."""

    start: int
    end: int
    text: str


def words(text: str, start: int = 0, end: int | None = None) -> list[Word]:
    """The words of ``text[start:end]`` (hyphens, apostrophes and "3.5" kept inside a word).

    >>> [w.text for w in words("GPT-3.5 and k-means, C++ (ATT&CK)")]
    ['GPT-3.5', 'and', 'k-means', 'C++', 'ATT&CK']
    """
    stop = len(text) if end is None else end
    return [Word(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text, start, stop)]


@lru_cache(maxsize=1 << 16)  # a pure function; lemminflect deep-copies its tables on every call
def lemma_table(word: str) -> Mapping[str, tuple[str, ...]]:
    """lemminflect's lemmas of a word form, by universal POS tag (read-only).

    >>> dict(lemma_table("models"))
    {'NOUN': ('model',), 'VERB': ('model',)}
    """
    return MappingProxyType(getAllLemmas(word))


@lru_cache(maxsize=1 << 16)  # a pure function of its argument; the cache only saves time
def word_classes(word: str) -> frozenset[str]:
    """The universal POS tags a word form can take: its closed class if it has one, else the
    open classes lemminflect knows for it, else ``X`` (unknown).

    >>> [sorted(word_classes(w)) for w in ("models", "we", "softmax", "PCIe", "nonconvex")]
    [['NOUN', 'VERB'], ['PRON'], ['X'], ['PROPN'], ['ADJ']]
    """
    lower = word.lower().replace("’", "'")
    closed = _CLOSED.get(lower)
    if closed is not None:
        return frozenset({closed})
    if re.fullmatch(r"[\d.,]+", word):
        return frozenset({"NUM"})
    if any(ch.isdigit() for ch in word) or _CAPITALS.search(word):
        return frozenset({"PROPN"})
    lemmas = lemma_table(lower)
    if not lemmas and "-" in lower.strip("-"):
        return word_classes(lower.rsplit("-", 1)[1])  # a compound is what its last part is
    tags = set(lemmas) - {"AUX"}
    if lower.endswith("ing") and lower not in lemmas.get("VERB", (lower,)):
        tags.add("NOUN")  # every gerund can head a noun phrase ("boosting", "machine learning")
    return frozenset(tags) if tags else _unknown(lower)


_PREFIX = re.compile(
    r"(?:non|un|in|im|multi|mini|pre|re|sub|super|co|inter|over|under|up|down|anti|de|dis|semi|hyper|"
    r"meta|auto|cross|bi|tri|post|self)-?(?P<rest>[a-z]{3,})"
)


def _unknown(lower: str) -> frozenset[str]:
    # A word lemminflect does not list: its classes after a known prefix ("nonconvex" as "convex"),
    # an adverb for "-ly" ("programmatically"), an adjective for "-ous", "-ive", "-al", ... endings.
    prefixed = _PREFIX.fullmatch(lower)
    if prefixed is not None and lemma_table(prefixed.group("rest")):
        return word_classes(prefixed.group("rest"))
    if re.search(r"[a-z]{3}(?:ly|wise)$", lower):
        return frozenset({"ADV"})
    if re.search(r"[a-z]{3}(?:ize|ise|izes|ises|ized|ised)$", lower):
        return frozenset({"VERB"})
    if re.search(r"[a-z]{3}(?:ous|ive|ic|ical|al|able|ible|ary|ular)$", lower):
        return frozenset({"ADJ"})
    return frozenset({"X"})


def _nominal(word: str) -> bool:
    return bool(word_classes(word) & {"NOUN", "PROPN", "X"})


def _s_form(word: str) -> bool:
    lower = word.lower()
    if len(word) > 2 and word.endswith("s") and word[:-1].isupper():
        return True  # "GPUs"
    if not lower.endswith("s") or lower.endswith(("ss", "us", "is")) or not lower.isalpha():
        return False
    lemmas = lemma_table(lower)
    return bool(lemmas) and lower not in lemmas.get("NOUN", ()) and bool(set(lemmas) & {"NOUN", "VERB"})


def gerund_only(word: str) -> bool:
    """Whether a word is a gerund and no noun or adjective in its own right ("calling", not "padding")."""
    lower = word.lower()
    return (
        lower.endswith("ing")
        and not set(lemma_table(lower)) & {"NOUN", "ADJ"}
        and "VERB" in word_classes(word)
    )


def _modifier(word: str) -> bool:
    tags = word_classes(word)
    if tags & {"NOUN", "PROPN", "X", "ADJ"}:
        return True
    # A participle ("hidden", "pretrained", "masked") modifies a noun; a finite verb does not.
    lemmas = lemma_table(word.lower()).get("VERB", ())
    return tags == {"VERB"} and word.lower() not in lemmas and not word.lower().endswith("s")


def noun_runs(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """The noun-phrase runs of ``text[start:end]``, as offsets (see the module docstring).

    >>> t = "We use two tightly choreographed data transfers; the model extracts information."
    >>> [t[a:b] for a, b in noun_runs(t)]
    ['choreographed data transfers', 'model', 'information']
    """
    found: list[tuple[int, int]] = []
    run: list[Word] = []
    every = words(text, start, end)
    for index, word in enumerate(every):
        previous = every[index - 1] if index else None
        joined = previous is not None and _joined(text, previous, word)
        after_subject = previous is not None and previous.text.lower() in _BEFORE_VERB
        usable = _modifier(word.text) and not (after_subject and "VERB" in word_classes(word.text))
        if re.search(r"['’]s?$", word.text) and word.text[:1].islower():
            usable = False  # a possessor ("the function's Hessian") is a phrase of its own
        following = every[index + 1] if index + 1 < len(every) else None
        # A modifier in a compound is singular; a gerund after a noun starts a clause when something
        # follows it in the clause ("a dataset consisting of ...", "the model making predictions"),
        # and heads the compound when the phrase ends there ("experiment tracking, since ...").
        clause = gerund_only(word.text) and not _phrase_ends(text, word, following)
        ends = bool(run) and (_s_form(run[-1].text) or clause)
        if not joined or not usable or ends:
            # An "-s" word with a verb reading after a noun, before a noun or a determiner, is the
            # verb ("the model extracts information", "the function approaches a line"), but not
            # before "such as" ("language models such as BERT").
            verb = len(run) > 1 and "VERB" in word_classes(run[-1].text) and _s_form(run[-1].text)
            such_as = word.text.lower() == "such" and following is not None and following.text.lower() == "as"
            if verb and joined and not such_as and (usable or word_classes(word.text) & {"DET", "PRON"}):
                run = run[:-1]
            found.extend(_closed_run(run))
            run = []
        if usable:
            run.append(word)
    found.extend(_closed_run(run))
    return found


def _joined(text: str, left: Word, right: Word) -> bool:
    """Whether two words are adjacent in a phrase: one space or a line break between them."""
    return text[left.end : right.start] in (" ", "\n", " \n", "\n ")


def _phrase_ends(text: str, word: Word, following: Word | None) -> bool:
    """Whether a noun phrase may end at ``word``: nothing follows in the sentence but punctuation,
    or a conjunction or an auxiliary starts what comes next ("tracking and", "tuning is")."""
    if following is None or not _joined(text, word, following):
        return True
    return word_classes(following.text) <= {"CONJ", "AUX"}


def _closed_run(run: list[Word]) -> list[tuple[int, int]]:
    while run and not _nominal(run[-1].text):
        run = run[:-1]
    # A leading gerund that is no noun in its own right takes an object ("making decisions").
    while len(run) > 1 and gerund_only(run[0].text):
        run = run[1:]
    return [(run[0].start, run[-1].end)] if run else []


def conjuncts(text: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    """A phrase split at "and", "or" and commas into its parts (offsets into ``text``)."""
    parts: list[tuple[int, int]] = []
    cursor = span[0]
    for match in CONJUNCTION.finditer(text, span[0], span[1]):
        parts.append((cursor, match.start()))
        cursor = match.end()
    parts.append((cursor, span[1]))
    return [part for part in parts if part[1] > part[0]]


CONJUNCTION = re.compile(r"\s*(?:,\s*(?:and|or)\s+|\s+and\s+|\s+or\s+|,\s+)")
"""What joins the parts of a list: a comma, "and" or "or" (:func:`conjuncts`, :func:`agents.text.elided`)."""


def pronoun(text: str, span: tuple[int, int]) -> bool:
    """Whether a raw phrase is a pronoun ("it", "this", "they") standing for an earlier concept."""
    return text[span[0] : span[1]].strip().lower() in (
        "it",
        "this",
        "they",
        "these",
        "this method",
        "this model",
    )


_PREPOSITION = re.compile(
    r"(?<=\S)\s+(?:of|for|in|on|with|over|into|within|without|between|among|across|under|about|like|at|"
    r"from|by|through|via|to|during|after|before|against|per|inside|beyond|behind)\b",
    re.IGNORECASE,
)
_CLASSIFIER = re.compile(
    r"\b(?:kinds?|types?|forms?|famil(?:y|ies)|variants?|class(?:es)?|categor(?:y|ies)|subclass(?:es)?|"
    r"subsets?|sub-?fields?|fields?|branch(?:es)?|areas?|instances?|examples?|members?|versions?|"
    r"extensions?|generalizations?|cases?|parts?|components?|sorts?)$",
    re.IGNORECASE,
)
_GENERIC_HEAD = re.compile(
    r"(?:algorithms?|methods?|techniques?|approach(?:es)?|models?|tasks?|problems?|architectures?|"
    r"strateg(?:y|ies)|procedures?|operations?)",
    re.IGNORECASE,
)
"""Nouns that make a name before them a kind: an "HPO algorithm" is a kind of HPO. Not the nouns of
artifacts made for a field: a "deep learning framework" is no kind of deep learning."""


def generic_head(word: str) -> bool:
    """Whether a word is a generic head noun that makes a name before it a kind (:data:`_GENERIC_HEAD`)."""
    return _GENERIC_HEAD.fullmatch(word) is not None


def head_phrase(text: str, span: tuple[int, int], through_classifier: bool = False) -> tuple[int, int]:
    """The first noun phrase of a raw phrase: cut before its first preposition ("The basic units" of
    "The basic units in each block"). With ``through_classifier``, the complement of a classifier
    noun is the phrase ("a special family of neural networks" -> "neural networks"): what a copula's
    "is a ..." names as the genus.

    >>> text = "a vector of partial derivatives"
    >>> text[slice(*head_phrase(text, (0, len(text)), through_classifier=True))]
    'a vector'
    >>> text = "a special family of neural networks with convolutions"
    >>> text[slice(*head_phrase(text, (0, len(text)), through_classifier=True))]
    'neural networks'
    """
    start, end = span
    for match in _PREPOSITION.finditer(text, start, end):
        if (
            through_classifier
            and match.group().strip().lower() == "of"
            and _CLASSIFIER.search(text[start : match.start()].rstrip())
        ):
            start = match.end()
            while start < end and text[start].isspace():
                start += 1
            continue
        return start, match.start()
    return start, end


def last_phrase(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """The last noun phrase of a raw phrase: after its last preposition ("downstream language tasks"
    of "the input for downstream language tasks"), what "such as" names the genus of.

    >>> text = "the input representation for downstream language tasks"
    >>> text[slice(*last_phrase(text, (0, len(text))))]
    'downstream language tasks'
    """
    start = span[0]
    for match in _PREPOSITION.finditer(text, span[0], span[1]):
        start = match.end()
    while start < span[1] and text[start].isspace():
        start += 1
    return start, span[1]


def leads(text: str, mention_end: int, phrase_end: int) -> bool:
    """Whether a mention ending at ``mention_end`` heads the phrase ending at ``phrase_end``: nothing
    follows it but a generic head noun ("HPO algorithms", "upsampling techniques"), so it is not a
    modifier of another noun ("encoder" of "encoder-decoder architecture").

    >>> leads("reinforcement learning algorithms", 22, 33), leads("encoder-decoder model", 7, 21)
    (True, False)
    """
    rest = words(text, mention_end, phrase_end)
    return not rest or (len(rest) == 1 and _GENERIC_HEAD.fullmatch(rest[0].text) is not None)


def named_alone(text: str, start: int, end: int) -> bool:
    """Whether the words at ``text[start:end]`` name a thing as themselves, not as a modifier in a
    longer compound: no noun heads them ("the negative gradient of", "gradients flow": a plural
    modifies nothing), or a generic head noun does, which names the thing as a model, a method or a
    problem ("a linear logistic regression model", "the vanishing gradient problem"). Another noun
    after them makes them a modifier ("gradient clipping", "Gradient Boosting"); a name in capitals
    or with inner capitals stays itself ("BERT embeddings").

    >>> t = "It solves the vanishing gradient problem; gradient clipping rescales the gradient."
    >>> [named_alone(t, t.index(w), t.index(w) + 8) for w in ("gradient p", "gradient c", "gradient.")]
    [True, False, True]
    >>> t = "Gradients multiply; the gradient flows back, and HPO algorithms or BERT embeddings help."
    >>> [named_alone(t, t.index(w), t.index(w) + len(w)) for w in ("Gradients", "gradient", "HPO", "BERT")]
    [True, True, True, True]
    """
    named = words(text, start, end)
    if not named or _CAPITALS.search(text[start:end]) or _s_form(named[-1].text):
        return True
    after = words(text, end, end + 40)[:1]
    if not after or not _joined(text, named[-1], after[0]) or not _nominal(after[0].text):
        return True
    if _s_form(after[0].text) and "VERB" in word_classes(after[0].text):
        return True  # "the gradient flows back"
    return _GENERIC_HEAD.fullmatch(after[0].text) is not None


_NO_SINGULAR = ("ss", "us", "is", "ics", "series", "species", "news", "axes", "means", "bayes")


def singular(word: str) -> str:
    """The singular of a lower-case English noun: the noun lemminflect's tables give for a plural
    they know ("matrices" -> "matrix", "caches" -> "cache"), else by its ending ("processes" ->
    "process", "logits" -> "logit"); words that end like plurals but are not ("series",
    "analysis", "physics") stay.

    >>> [singular(w) for w in ("embeddings", "probabilities", "processes", "series", "loss")]
    ['embedding', 'probability', 'process', 'series', 'loss']
    >>> [singular(w) for w in ("matrices", "caches", "biases", "logits", "statistics")]
    ['matrix', 'cache', 'bias', 'logit', 'statistics']

    A noun the tables know only as itself keeps its "s" when no word is left without it: "bias",
    "lens" and "atlas" are singulars, as "bias" is the singular of "biases".

    >>> [singular(w) for w in ("bias", "lens", "atlas", "courses", "needs")]
    ['bias', 'lens', 'atlas', 'course', 'need']
    """
    if len(word) <= 3 or word.endswith(_NO_SINGULAR):
        return word
    nouns = lemma_table(word).get("NOUN", ()) if word.endswith("s") else ()
    if nouns and word not in nouns:
        return nouns[0]
    if word.endswith("ies") and len(word) > 4:
        stem = word[:-3] + "y"
    elif word.endswith(("ches", "shes", "sses", "xes")):
        stem = word[:-2]
    elif word.endswith("s") and not word.endswith("'s"):
        stem = word[:-1]
    else:
        return word
    return word if tuple(nouns) == (word,) and not lemma_table(stem) else stem
