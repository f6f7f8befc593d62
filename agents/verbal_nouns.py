"""A verbal noun: the noun of what a verb says a thing does ("hallucinates": hallucination,
"overfits": overfitting), which a question about what saying so means asks to be defined.

"What does it mean when people say an LLM hallucinates?" asks what hallucination is: the lesson
names the doing by its noun ("Hallucinations are a term used to describe when ..."). The noun of a
verb in -ate is in -ation, of one in -ize/-ise in -ization/-isation, of one in -ify in -ification;
of any other verb its gerund ("overfitting", "converging"; the last consonant of one syllable
doubled, after a prefix too).

>>> [verbal_noun(verb) for verb in ("hallucinates", "overfits", "converges", "generalizes", "saturates")]
['hallucination', 'overfitting', 'converging', 'generalization', 'saturation']
>>> said_doing("what does it mean when we say a model overfits"), said_doing("What is a model?")
('What is overfitting?', None)
"""

from __future__ import annotations

import re

__all__ = ["said_doing", "verbal_noun"]

_SAID = re.compile(
    r"\s*what (?:does|do) it (?:even |really )?mean (?:when|if|that) (?:people|we|you|they|someone|folks|"
    r"researchers|experts) (?:say|said|claim|talk about how) (?:that )?(?:an? |the )?(?P<subject>[\w -]+?)\s+"
    r"(?P<verb>[a-z]+s)\s*[?.!]*\s*",
    re.IGNORECASE,
)


def verbal_noun(verb: str) -> str:
    """The noun of what a verb in the third person says ("hallucinates": "hallucination")."""
    stem = verb.lower().removesuffix("s")
    for ending, noun in (("ate", "ation"), ("ize", "ization"), ("ise", "isation")):
        if stem.endswith(ending):
            return stem[: -len(ending)] + noun
    if stem.endswith("ifie"):  # "classifies"
        return stem[:-4] + "ification"
    if stem.endswith("e") and not stem.endswith("ee"):
        return stem[:-1] + "ing"
    # A verb of one syllable, alone or after a prefix, doubles its last consonant ("fit", "overfit").
    root = re.sub(r"^(?:over|under|out|up|re|pre|mis)(?=\w{3})", "", stem)
    if re.search(r"(?:^|[^aeiou])[aeiou][bdgmnpt]$", root) and len(re.findall(r"[aeiouy]+", root)) == 1:
        return stem + stem[-1] + "ing"
    return stem + "ing"


def said_doing(question: str) -> str | None:
    """The question "What is <the verb's noun>?" for a question asking what saying that a thing does something
    means ("What does it mean when people say an LLM hallucinates?"); None for any other."""
    found = _SAID.fullmatch(question)
    return None if found is None else f"What is {verbal_noun(found['verb'])}?"
