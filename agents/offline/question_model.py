"""The learned reading of a question's type, for the wordings the classifier's cues miss.

:func:`agents.question_types.classify` reads a question by its cue words; a question that names
concepts but none of those cues ("What sub-concepts make up X?", "Which to start with: A or
B?") would be read as open. This model reads such a question again. It is a multinomial logistic
regression over the question's words with each concept mention replaced by one token, as
unigrams and bigrams, each also tagged by where it stands (before the first concept, between two,
after the last), and the number of concepts named. Its classes are the question types, ``open``
included ("What is X?", "Who introduced X?", "How is X computed?").

It is fitted by :mod:`agents.offline.question_training` on ``data/questions_train.jsonl`` beside
this module: 478 questions written for it by agents that never saw the classifier, over concepts
of their own, labelled with their type and concepts: 358 curriculum questions of every type, and
120 encyclopedic questions that are open although they use the cues' words in their everyday
sense ("Which band was A a member of before B?", "Which is older, A or B?"). Its weights are
``questions.json`` beside this module (never edited by hand), read once; predicting is a sum of
weights and a softmax, with no scikit-learn at run time. :data:`LEARNED_AT` is the probability
the winning type needs to be taken.

>>> kind, p = predict("\ue000 are a type of what?", 1)
>>> kind, p > LEARNED_AT
('part_of', True)
"""

from __future__ import annotations

import itertools
import json
import math
import re
from functools import cache
from pathlib import Path

from agents.offline.model_files import read_model_file
from agents.text import find_mentions, lexicon

__all__ = ["LEARNED_AT", "MARK", "MODEL_PATH", "TRAINING", "features", "mask", "predict"]

TRAINING = Path(__file__).with_name("data") / "questions_train.jsonl"
MODEL_PATH = Path(__file__).with_name("questions.json")
LEARNED_AT = 0.6
"""The probability the model's type needs for it to be taken over "open"."""
MARK = "\ue000"
"""What a concept mention is written as in a masked question (one character, not a word)."""
_TOKEN = re.compile(rf"{MARK}+|[a-z0-9]+(?:['’-][a-z0-9]+)*")


def mask(question: str, names: list[str]) -> str:
    """The question with each mention of ``names`` masked, found as the classifier finds a graph's
    concepts (:func:`agents.text.find_mentions`: case, plural and hyphens folded).

    >>> mask("Are Markov chains part of a hidden Markov model?", ["Markov chains", "hidden Markov models"])
    'Are \ue000 part of a \ue000?'
    """
    mentions = find_mentions(question, lexicon([(name, [name]) for name in names]))
    masked = question
    for start, end, _ in sorted(mentions, reverse=True):
        masked = masked[:start] + MARK + masked[end:]
    return masked


def features(masked: str, concepts: int) -> dict[str, float]:
    """Unigrams and bigrams of a masked question, plain and tagged by position ("b:" before the
    first concept, "m:" between concepts, "a:" after the last), and the number of concepts."""
    tokens = ["C" if token.startswith(MARK) else token for token in _TOKEN.findall(masked.lower())]
    where = []
    seen = 0
    total = tokens.count("C")
    for token in tokens:
        if token == "C":
            seen += 1
        where.append("b" if seen == 0 else "a" if seen == total else "m")
    found: dict[str, float] = {f"n:{min(concepts, 2)}": 1.0}
    grams = list(zip(tokens, where, strict=True))
    grams += [(f"{a} {b}", wb) for (a, _), (b, wb) in itertools.pairwise(grams)]
    for gram, place in grams:
        found[gram] = 1.0
        found[f"{place}:{gram}"] = 1.0
    return found


@cache
def _model() -> tuple[list[str], list[float], dict[str, list[float]]]:
    return read_model_file(MODEL_PATH, "question type", _read)


def _read(text: str) -> tuple[list[str], list[float], dict[str, list[float]]]:
    raw = json.loads(text)
    return list(raw["classes"]), list(raw["intercepts"]), dict(raw["weights"])


def predict(masked: str, concepts: int) -> tuple[str, float]:
    """The most likely type of a masked question naming ``concepts`` concepts, and its probability."""
    classes, intercepts, weights = _model()
    scores = list(intercepts)
    for name in features(masked, concepts):
        for k, weight in enumerate(weights.get(name, ())):
            scores[k] += weight
    top = max(scores)
    exps = [math.exp(score - top) for score in scores]
    best = max(range(len(classes)), key=lambda k: (exps[k], -k))
    return classes[best], exps[best] / sum(exps)
