"""Termhood: how likely a phrase is a genuine, self-standing concept a learner could look up.

"residual connection", "PCIe", "softmax" and "learning rate" are terms; "us", "two inputs",
"higher precision", "compile it before executing it" and "procedure" are not. The judgement is a
logistic regression over features of the phrase alone, so that it carries to lessons it never saw:

- shape: number of words, length, acronyms ("GPU"), CamelCase ("PyTorch"), letters mixed with
  digits ("GPT-4"), hyphens, capitalised inner words, all-caps common words ("NOTE"), a single
  capital letter ("Christopher M. Bishop"), every word unknown to lemminflect (a person's name),
  a letter joined to a word ("k-means", "t-test");
- general-English frequency (wordfreq Zipf, 0-8): minimum, maximum and mean over the words, the
  first word's and the head's (the last word), as values and in bands, and apart for one word: a
  single very common word ("way", "model") is rarely a useful curriculum node, a rare one is;
- word classes (:func:`agents.phrases.word_classes`): whether the head can be a noun, whether the
  first word is a determiner, pronoun, preposition, auxiliary, number or quantifier, a verb, an
  adverb or an adjective only, whether a verb or a closed-class word sits inside, comparatives and
  superlatives ("higher", "best"), a gerund only ("evaluating", not "padding") alone, which is
  mostly a verb, and as the head of a phrase, often a technique ("function calling");
- word endings: a relational first word ("-al", "-ic": "residual", "stochastic"), an evaluative
  one ("-ent", "-able": "different", "reliable"), a gradable one ("large", "larger"), and a
  nominalization as head ("-tion", "-ity", "-ing");
- lexical cues (:func:`cues`): the first word as a modifier and the head word of a phrase of two
  words or more, weighted when the training set has them often enough ("mod:initial" is
  negative, "head:theorem" positive).

:func:`termhood` is the model's probability under balanced classes (terms and non-terms equally
likely a priori). :func:`is_term` decides with thresholds that depend on how the lesson presents
the phrase (:data:`TermEvidence`), evidence that no training source has for both classes; and since
word features cannot tell "learning rate" from "coding example", a phrase of everyday words
counts only when the lesson defines or emphasises it. The weights are ``terms.json`` beside this
module, rebuilt by :func:`agents.offline.terms_training.build_terms_model`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from lemminflect import getAllInflections
from wordfreq import zipf_frequency

from agents.offline.model_files import read_model_file
from agents.offline.modifiers import adjectival
from agents.phrases import lemma_table, word_classes, words
from agents.text import normalize_name, singular

__all__ = [
    "ANCHOR_ZIPF",
    "FEATURES",
    "MARKED_THRESHOLD",
    "SINGLE_THRESHOLD",
    "THRESHOLD",
    "TermEvidence",
    "TermModel",
    "cues",
    "is_term",
    "judging",
    "load",
    "term_features",
    "termhood",
]

THRESHOLD = 0.6
"""The termhood a single word the lesson defines, or a phrase it emphasises or uses, needs."""
MARKED_THRESHOLD = 0.1
"""The termhood a phrase of two words or more needs when the lesson defines it."""
SINGLE_THRESHOLD = 0.9
"""The termhood a single word the lesson emphasises or uses without defining it needs."""
ANCHOR_ZIPF = 4.0
"""A phrase the lesson only uses needs a word whose forms are all rarer than this in general
English (outside about the 7,000 most frequent words), or an acronym or CamelCase name."""

_BANDS = ("rare", "low", "mid", "high", "top")
"""General-English frequency bands: Zipf under 2.5, 2.5-3.5, 3.5-4.5, 4.5-5.5, 5.5 and over."""
FEATURES: tuple[str, ...] = (
    "words_1",
    "words_2",
    "words_3",
    "words_4plus",
    "log_chars",
    "zipf_min",
    "zipf_max",
    "zipf_mean",
    "zipf_first",
    "zipf_head",
    "zipf_single",
    "unknown_share",
    "head_noun",
    "head_unknown",
    "head_plural",
    "head_closed",
    "head_verb_only",
    "head_adj_only",
    "first_det_pron",
    "first_adp_conj",
    "first_aux",
    "first_num_quant",
    "first_verb_only",
    "first_ing",
    "first_adv_only",
    "first_adj_only",
    "inner_adp_conj",
    "inner_det_pron_aux",
    "inner_verb",
    "comparative",
    "number",
    "acronym",
    "camel",
    "alnum",
    "hyphen",
    "shouting",
    "capital_inner",
    "letter_compound",
    "first_gradable",
    "first_relational",
    "first_evaluative",
    "head_nominalization",
    "all_unknown",
    "gerund_only",
    "head_gerund",
    "initial",
    *(f"{where}_zipf_{band}" for where in ("first", "head", "single") for band in _BANDS),
)
TermEvidence = Literal["defined", "emphasised", "used"]
"""How a lesson presents a phrase. ``defined``: a definition ("called *X*", "**X** is ..."), an
acronym definition, an explicit cue ("X is a prerequisite for Y"), a vocabulary entry, a known
concept, a name written twice; ``emphasised``: bold or italic; ``used``: anything else."""
_PATH = Path(__file__).with_name("terms.json")
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]{1,7}s?")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]{2,}")
_COMPARATIVE = frozenset("more most less least fewer fewest better best worse worst".split())
_NOMINAL = frozenset({"NOUN", "PROPN", "X"})
_CLOSED_TAGS = frozenset({"DET", "PRON", "ADP", "CONJ", "AUX", "NUM", "QUANT", "PART", "ADV"})
_RELATIONAL = re.compile(r"(?:al|ic|ical|ar|ary|ian|ive)$")
_EVALUATIVE = re.compile(r"(?:ent|ant|able|ible|ful|less|ate|ous)$")
_NOMINALIZATION = re.compile(r"(?:tion|sion|ment|ness|ity|ism|ance|ence|ing|ics|ogy|sis)s?$")


@dataclass(frozen=True)
class TermModel:
    """A logistic regression over :data:`FEATURES` (standardized) and the phrase's :func:`cues`."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    cue_weights: Mapping[str, float]

    def probability(self, values: tuple[float, ...], cue_names: tuple[str, ...] = ()) -> float:
        """The model's probability that a phrase with these feature values and cues is a term."""
        z = self.intercept + sum(
            w * (v - m) / s for w, v, m, s in zip(self.weights, values, self.mean, self.scale, strict=True)
        )
        z += sum(self.cue_weights.get(name, 0.0) for name in cue_names)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def load(path: Path = _PATH) -> TermModel:
    """The shipped model (read once)."""
    return read_model_file(path, "term", _term_model)


def _term_model(text: str) -> TermModel:
    raw = json.loads(text)
    if tuple(raw["features"]) != FEATURES:
        raise ValueError(f"features {raw['features']} differ from FEATURES")
    return TermModel(
        tuple(raw["mean"]),
        tuple(raw["scale"]),
        tuple(raw["weights"]),
        float(raw["intercept"]),
        {str(k): float(v) for k, v in raw["cues"].items()},
    )


def cues(name: str) -> tuple[str, ...]:
    """The lexical cues of a phrase of two words or more: its first word as a modifier and its head
    word, lower case; a single word has none (its own weight would only memorize the training set).

    >>> cues("Initial Configurations"), cues("softmax")
    (('mod:initial', 'head:configuration'), ())
    """
    tokens = [w.text.lower() for w in words(name)]
    return (f"mod:{tokens[0]}", f"head:{normalize_name(tokens[-1])}") if len(tokens) > 1 else ()


@lru_cache(maxsize=1 << 16)
def _zipf(word: str) -> float:
    return zipf_frequency(word.lower(), "en")


def _comparative(word: str) -> bool:
    lower = word.lower()
    if lower in _COMPARATIVE:
        return True
    lemmas = lemma_table(lower)
    base = lemmas.get("ADJ", ()) + lemmas.get("ADV", ())
    return bool(base) and lower not in base and lower.endswith(("er", "est")) and "NOUN" not in lemmas


def _finite_verb(word: str) -> bool:
    tags = word_classes(word)
    return tags == {"VERB"} and (
        word.lower() in lemma_table(word.lower()).get("VERB", ()) or word.endswith("s")
    )


def term_features(name: str) -> tuple[float, ...]:
    """The feature values of a phrase, in the order of :data:`FEATURES`.

    >>> dict(zip(FEATURES, term_features("two inputs")))["first_num_quant"]
    1.0
    """
    written = [w.text for w in words(name)] or [name.strip() or "?"]
    tokens = _parts(written[0]) if len(written) == 1 else written
    classes = [word_classes(token) for token in tokens]
    zipfs = [_zipf(token) for token in tokens]
    first, head = tokens[0], tokens[-1]
    first_tags, head_tags = classes[0], classes[-1]
    inner = classes[1:-1]
    closed = {"DET", "PRON", "ADP", "CONJ", "AUX", "NUM", "QUANT", "PART", "ADV"}
    lemmas = lemma_table(head.lower()).get("NOUN", ())
    count = len(tokens)
    # Title Case ("Large Language Models") says nothing of the words; a capitalized inner word does.
    title = count > 1 and all(t[:1].isupper() and t[1:] == t[1:].lower() for t in tokens if t.isalpha())
    values = {
        "words_1": float(count == 1),
        "words_2": float(count == 2),
        "words_3": float(count == 3),
        "words_4plus": float(count >= 4),
        "log_chars": math.log(1 + len(" ".join(tokens))),
        "zipf_min": min(zipfs),
        "zipf_max": max(zipfs),
        "zipf_mean": sum(zipfs) / count,
        "zipf_first": zipfs[0],
        "zipf_head": zipfs[-1],
        "zipf_single": zipfs[0] if count == 1 else 0.0,
        "unknown_share": sum(1 for z in zipfs if z == 0.0) / count,
        "head_noun": float(bool(head_tags & _NOMINAL)),
        "head_unknown": float(head_tags == {"X"}),
        "head_plural": float(bool(lemmas) and head.lower() not in lemmas and head.lower().endswith("s")),
        "head_closed": float(bool(head_tags & closed)),
        "head_verb_only": float("VERB" in head_tags and not head_tags & (_NOMINAL | {"ADJ"})),
        "head_adj_only": float("ADJ" in head_tags and not head_tags & _NOMINAL),
        "first_det_pron": float(bool(first_tags & {"DET", "PRON"})),
        "first_adp_conj": float(bool(first_tags & {"ADP", "CONJ", "PART"})),
        "first_aux": float("AUX" in first_tags),
        "first_num_quant": float(bool(first_tags & {"NUM", "QUANT"}) or first.isdigit()),
        "first_verb_only": float(_finite_verb(first)),
        "first_ing": float(count > 1 and first.lower().endswith("ing") and "VERB" in first_tags),
        "first_adv_only": float("ADV" in first_tags and not first_tags & (_NOMINAL | {"ADJ"})),
        "first_adj_only": float(first_tags == {"ADJ"}),
        "inner_adp_conj": float(any(tags & {"ADP", "CONJ"} for tags in inner)),
        "inner_det_pron_aux": float(any(tags & {"DET", "PRON", "AUX", "PART"} for tags in classes[1:])),
        "inner_verb": float(any(_finite_verb(token) for token in tokens[1:])),
        "comparative": float(any(_comparative(token) for token in tokens)),
        "number": float(any(token.isdigit() or word_classes(token) == {"NUM"} for token in tokens)),
        "acronym": float(any(_ACRONYM.fullmatch(token) for token in tokens)),
        "camel": float(any(_CAMEL.search(token) for token in tokens)),
        "alnum": float(any(re.search(r"[A-Za-z]", t) and re.search(r"\d", t) for t in written)),
        "hyphen": float(any("-" in token.strip("-") for token in written)),
        "shouting": float(any(len(t) >= 4 and t.isupper() and t.isalpha() and _zipf(t) >= 4 for t in tokens)),
        "capital_inner": float(not title and any(token[:1].isupper() for token in tokens[1:])),
        "letter_compound": float(any(re.match(r"[A-Za-z]-[A-Za-z]{2,}", token) for token in written)),
    }
    values["first_gradable"] = float(count > 1 and _gradable(first.lower()))
    values["first_relational"] = float(count > 1 and bool(_RELATIONAL.search(first.lower())))
    values["first_evaluative"] = float(count > 1 and bool(_EVALUATIVE.search(first.lower())))
    values["head_nominalization"] = float(bool(_NOMINALIZATION.search(head.lower())))
    values["all_unknown"] = float(count > 1 and all(tags == {"X"} for tags in classes))
    gerund = head.lower().endswith("ing") and "NOUN" in head_tags and "NOUN" not in lemma_table(head.lower())
    values["gerund_only"] = float(gerund and count == 1)
    values["head_gerund"] = float(gerund and count > 1)
    values["initial"] = float(any(len(token) == 1 and token.isupper() for token in tokens))
    for where, zipf in (("first", zipfs[0]), ("head", zipfs[-1]), ("single", zipfs[0] if count == 1 else -1)):
        for band in _BANDS:
            values[f"{where}_zipf_{band}"] = float(_band(zipf) == band)
    return tuple(values[feature] for feature in FEATURES)


def _parts(word: str) -> list[str]:
    """The words a name of one hyphenated word joins ("fine-tuning": "fine", "tuning";
    "chain-of-thought"), so that it is read as the compound it is: as one word, wordfreq gives it
    the frequency of its everyday parts and lemminflect the classes of its last, and it looked like
    a common word or a bare gerund ("evaluating"). A part of one letter or with a digit keeps the
    word whole ("k-means", "GPT-4"), and so does a word without a hyphen.

    >>> _parts("fine-tuning"), _parts("k-means"), _parts("phi-3-mini"), _parts("softmax")
    (['fine', 'tuning'], ['k-means'], ['phi-3-mini'], ['softmax'])
    """
    parts = word.split("-")
    whole = len(parts) < 2 or not all(len(part) >= 2 and part.isalpha() for part in parts)
    return [word] if whole else parts


@lru_cache(maxsize=65_536)  # a pure function; lemminflect deep-copies its tables on every call
def _gradable(word: str) -> bool:
    """Whether an adjective has a comparative form ("large": "larger")."""
    return "JJR" in getAllInflections(word, upos="ADJ")


def _band(zipf: float) -> str:
    if zipf < 0:
        return ""
    return _BANDS[min(4, max(0, int(zipf - 1.5)))]


@lru_cache(maxsize=1 << 16)
def termhood(name: str) -> float:
    """The probability that a phrase is a genuine concept (balanced prior), from the shipped model.

    >>> termhood("residual connection") > THRESHOLD > termhood("two inputs")
    True
    """
    model = load()
    plain = model.probability(term_features(name), cues(name))
    head = _singular_head(name)
    return plain if head == name else max(plain, model.probability(term_features(head), cues(head)))


def judging(word: str) -> bool:
    """Whether an adjective judges what it modifies ("useful", "proper", "reliable") rather than naming
    a kind of it ("large", "stochastic", "random"): an adjective only, that the model's training set
    saw open more non-terms than terms (a negative modifier weight, :func:`cues`), or, for a modifier
    it saw too seldom to weigh, one with an evaluative ending ("-ful", "-able", "-ent").

    >>> [judging(w) for w in ("useful", "effective", "reliable", "large", "random", "batch", "deep")]
    [True, True, True, False, False, False, False]
    """
    if word_classes(word) != {"ADJ"}:
        return False
    weight = load().cue_weights.get(f"mod:{word.lower()}")
    return bool(_EVALUATIVE.search(word.lower())) if weight is None else weight < 0


def _singular_head(name: str) -> str:
    """A name of two words or more with its last word in the singular ("word embeddings" -> "word
    embedding"), else the name itself.

    The model learned from titles, which are mostly singular, so a plural head lowers its score
    ("random variables" 0.44 against "random variable" 0.64): a name is a term in either number.
    Not a single word: alone, an everyday plural is a count of things ("properties",
    "probabilities") more often than a term, unless the lesson defines it (:func:`is_term`).

    >>> _singular_head("word embeddings"), _singular_head("Gaussian processes"), _singular_head("tokens")
    ('word embedding', 'Gaussian process', 'tokens')
    """
    first, _, last = name.rpartition(" ")
    one = singular(last.lower())
    if not first or one == last.lower() or not last[:1].isalpha():
        return name
    if last.lower().startswith(one):
        return f"{first} {last[: len(one)]}"  # the case kept ("GPUs" -> "GPU")
    return f"{first} {last[:1]}{one[1:]}"  # "Policies" -> "Policy"


_SIZE = re.compile(
    r"\[?\d+(?:\.\d+)?(?:\s*[x×]\s*\d+(?:\.\d+)?)+\]?|\d+(?:\.\d+)?\s?[kmbt]\+?", re.IGNORECASE
)
"""A quantity: a size written as its dimensions ("32x32x12", "224 × 224", "[3x3]"), or a count
with its magnitude ("100k", "7B", "1.5M")."""
_DRAWN = re.compile(
    r"(?:dotted|dashed|solid|shaded|colou?red|red|green|blue|yellow|orange|purple|gr[ae]y)(?:-\w+)?\s+"
    r"(?:\w+\s+)?(?:box|line|arrow|circle|rectangle|square|dot|curve|area|border|outline)(?:e?s)?",
    re.IGNORECASE,
)
"""How a figure draws something: "the dotted-line box", "the red arrows", "a shaded area"; the
drawing, never the concept it stands for ("black box" is no drawing)."""


def is_term(name: str, evidence: TermEvidence = "used") -> bool:
    """Whether a phrase counts as a term, given how the lesson presents it (:data:`TermEvidence`).

    ==============  ==========================  =================================
    the lesson ...  a single word needs         two words or more need
    ==============  ==========================  =================================
    ``defined``     :data:`THRESHOLD`           :data:`MARKED_THRESHOLD`
    ``emphasised``  :data:`SINGLE_THRESHOLD`    :data:`THRESHOLD`
    ``used``        :data:`SINGLE_THRESHOLD`    :data:`THRESHOLD` and an anchor
    ==============  ==========================  =================================

    Emphasis stresses single words as often as it marks terms, so it lowers no bar for them. A
    single word the lesson defines is a term in either number ("Hallucinations are a term used to
    describe ..." is judged as "hallucination" too, 0.86 against 0.59 in the plural). An
    anchor is a word whose forms are all rarer than :data:`ANCHOR_ZIPF` and that is no mere verb
    form, or an acronym or CamelCase name: a composition of everyday words ("coding example",
    "learning rate") has none, and a name with an everyday plural ("CNN layers") is refused too.
    A phrase holding a pronoun, an auxiliary or "not" is a clause, never a term.

    >>> is_term("softmax"), is_term("we will"), is_term("procedure"), is_term("coding example")
    (True, False, False, False)
    >>> is_term("learning rate"), is_term("learning rate", "defined"), is_term("embedding matrix")
    (False, True, True)
    >>> is_term("CNN layers"), is_term("GPU memory"), is_term("compile it before executing it", "defined")
    (False, True, False)
    >>> is_term("hallucinations", "defined"), is_term("hallucinations", "emphasised")
    (True, False)

    A quantity alone ("32x32x12", "224 × 224", "100k") is never a term; "1x1 convolution" may be.
    Nor is a figure's drawing ("dotted-line box", "blue arrows"), nor a hyphenated adjective alone
    ("varying-length", "high-dimensional": :func:`agents.offline.modifiers.adjectival`).

    >>> is_term("100k", "defined"), is_term("dotted-line box", "defined"), is_term("bounding box", "defined")
    (False, False, True)
    """
    tokens = [w.text for w in words(name)]
    if any(word_classes(token) & {"PRON", "AUX", "PART"} for token in tokens) or any(
        pattern.fullmatch(name.strip()) for pattern in (_SIZE, _DRAWN)
    ):
        return False
    if len(tokens) == 1 and adjectival(tokens[0]):
        return False  # an adjective: "varying-length", "pre-trained" (agents.offline.modifiers)
    if len(tokens) == 1 and len(_parts(tokens[0])) == 1:
        if evidence == "defined":
            return max(termhood(name), termhood(singular(name))) >= THRESHOLD
        return termhood(name) >= SINGLE_THRESHOLD
    if evidence == "defined":
        return termhood(name) >= MARKED_THRESHOLD
    if evidence == "emphasised":
        return termhood(name) >= THRESHOLD
    anchors = [token for token in tokens if _anchor(token)]
    if all(word_classes(anchor) == {"PROPN"} for anchor in anchors) and _everyday_plural(tokens[-1]):
        return False  # no anchor, or a name and an everyday plural: "CNN layers", "AI models"
    return bool(anchors) and termhood(name) >= THRESHOLD


def _everyday_plural(token: str) -> bool:
    lower = token.lower()
    lemmas = lemma_table(lower).get("NOUN", ()) or (
        (lower[:-1],) if lower.endswith("s") and not lower.endswith(("ss", "us", "is")) else ()
    )
    return lower not in lemmas and any(_zipf(lemma) >= ANCHOR_ZIPF for lemma in lemmas)


def _anchor(token: str) -> bool:
    tags = word_classes(token)
    if tags == {"PROPN"}:
        return "-" not in token or any(ch.isdigit() for ch in token)  # "GPT-4", not "AI-powered"
    # The word's most frequent form counts: "coding" is as everyday as "code".
    forms = {token.lower(), *(lemma for lemmas in lemma_table(token.lower()).values() for lemma in lemmas)}
    return tags != {"VERB"} and not tags & _CLOSED_TAGS and max(_zipf(form) for form in forms) < ANCHOR_ZIPF
