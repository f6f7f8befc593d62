"""Instructions: whether a sentence tells how to do something, and whether a question asks it.

A question that asks how to do a thing ("How do I store ...?", "How can we speed up ...?", "What are
the steps to ...?", :func:`asks_how_to`) is answered by a sentence that says how, of those that
speak of what it asks about, before one that only shares its words (:func:`says_how`): an
instruction, whose first word is a verb's base form followed by what it acts on ("Store the key in
an environment variable", "Copy the weights of ..."), a numbered step ("2. Train the new layer"),
a step put in its turn ("Then we can swap ..."), a sentence that says what you can or should do
("You can use ...", "To keep it safe, we should ..."), or one that says by doing what ("... is kept
secret by storing it ..."); not what we can see ("we can see that ...") or reason aloud ("In this
case, we could permute ...").
"Keeping the key safe is important." and "This small dataset holds thousands of images." say no
way to do anything, whatever words they share with the question.

A question that asks how a thing works or does what it does ("How does X work?", "How does X pick
...?", :func:`asks_how_it_works`) is answered by a sentence in which the thing does something, its
name the subject of an action verb (:func:`says_what_it_does`: "the retriever searches the
store ..."), before one that only names it ("the next step is to learn X").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.instances import asks_instances, instance_terms, names_instance
from agents.mechanisms import named_before, says_steps, steps_after
from agents.phrases import CLOSED_CLASSES, lemma_table

__all__ = ["asks_how_it_works", "asks_how_to", "says_how", "says_what_it_does", "steps_told", "tells_way"]

_HOW_TO = re.compile(
    r"\W*(?:how\s+(?:to|(?:do|can|could|should|would|might|must|shall)\s+(?:i|we|you|one)\b)"
    r"|what\s+(?:are|were)\s+the\s+steps\s+(?:to|for|of)\b|what\s+steps\b)",
    re.IGNORECASE,
)
"""A question that asks how to do something, or the steps to do it."""

_HOW_IT_WORKS = re.compile(r"\bhow\s+(?:does|do|did)\s+(?!(?:i|we|you|one)\b)", re.IGNORECASE)
"""A question that asks how a thing does what it does."""
_WORKS = re.compile(
    r"\b(?:work(?:s|ing)?|operates?|functions?|proceeds?|steps?|step\s+by\s+step)\b", re.IGNORECASE
)
"""How a thing works as a whole ("How does X work?"), which its steps tell; asked how it does one
thing ("How does X predict a rating?"), the sentence that says that comes before a step of another."""

_STATE_VERBS = frozenset(
    "is are was were has have had does do did be being been seems means consists contains includes comprises "
    "requires needs exhibits shows achieves offers provides outperforms performs helps allows enables lets "
    "makes becomes remains appears".split()
)
"""Verbs that say what a thing is, has, is for or how well it does, not what it does: "X helps prevent
leaks", "X exhibits a speed-up", "X consists of parts" (after a modal, their base forms too)."""

_SUBORDINATE = re.compile(
    r"\b(?:before|until|after|when|whenever|while|once|if|unless|since|because|though|although|how|whether|"
    r"what)\b",
    re.IGNORECASE,
)
"""Words that open a clause that says when or why something else holds, or asks a question ("we look at
how X keeps ..."): what X does in it is no answer."""

_STEP = re.compile(r"^\s*(?:\(?\d{1,2}[.)]|step\s+\d+\s*[:.)-])\s+\S", re.IGNORECASE)
"""A numbered step: "1. Create a file", "Step 2: train the head"."""

_IN_TURN = re.compile(r"^\W*(?:first|then|next|finally|afterwards|after\s+that)\b,?\s*", re.IGNORECASE)
"""A word that puts a step in its turn: "Then we can replace ...", "First, create ..."."""

_BY_DOING = re.compile(r"\bby\s+(?:first\s+|simply\s+|then\s+)?[a-z]{2,}ing\b", re.IGNORECASE)
"""The way a thing is done: "by using environment variables", "by freezing the lower layers"."""

_MAY_DO = re.compile(
    r"(?:\b(?:you|one)|^\W*(?:to\s[^,;:.]*,\s*)?we)\s+"
    r"(?:can|could|should|must|may|need\s+to|have\s+to|will\s+need\s+to)\s+"
    r"(?:also\s+|then\s+|simply\s+|just\s+|first\s+)?(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)
"""What you can or should do: "you can store it in a file", "To keep it, we should freeze ..."; "we"
only opening the sentence or after what it is for, since a text that says "In this case, we could
permute ..." as it reasons says no way to do what a reader asks."""

_SEEING = frozenset(
    "see observe notice note expect think say imagine recall remember conclude check verify tell find show "
    "assume consider suppose let refer".split()
)
"""Verbs of seeing, saying and supposing: "we can see that ...", "Recall that ..." report what is found or
lead to it, not a way to do a thing."""

_OBJECT_START = CLOSED_CLASSES["DET"] | frozenset("it them it's".split())
"""Words that open what an instruction's verb acts on ("Store the key", "Use it")."""


def asks_how_to(question: str) -> bool:
    """Whether a question asks how to do something (or its steps), not how a thing works or how much.

    >>> asks_how_to("How do I keep my key secret?"), asks_how_to("What are the steps to train a model?")
    (True, True)
    >>> asks_how_to("How does attention work?"), asks_how_to("How many layers are there?")
    (False, False)
    """
    return _HOW_TO.match(question) is not None


def says_how(sentence: str) -> bool:
    """Whether a sentence tells how to do something: an instruction, a numbered step, what you or we
    can or should do (not what we can see), or by doing what.

    >>> says_how("Store the key in an environment variable."), says_how("2. Train the new layer.")
    (True, True)
    >>> says_how("To keep it safe, you can put it in a file."), says_how("It is hidden by using a vault.")
    (True, True)
    >>> says_how("Keeping the key safe is important."), says_how("Prompt design is an art.")
    (False, False)
    >>> says_how("We can see that the loss drops."), says_how("This dataset holds many images.")
    (False, False)
    >>> says_how("Recall that the images were scaled."), says_how("Note that the batch is small.")
    (False, False)
    >>> says_how("Then we can swap the last layer."), says_how("In this case, we could permute the rows.")
    (True, False)
    >>> says_how("This helps, since we can try more."), says_how("Compute - for running the jobs")
    (False, False)
    >>> says_how("You can also get more content from the cookbook."), says_how("You can learn more here.")
    (False, False)
    """
    if _STEP.match(sentence) or _BY_DOING.search(sentence):
        return True
    turned = _IN_TURN.sub("", sentence, count=1)
    for may in _MAY_DO.finditer(turned):  # "you can also get more content from ...": a pointer, no way
        if may.group("verb").lower() not in _SEEING and not re.match(r"\s+more\b", turned[may.end() :]):
            return True
    return _instruction(turned[:1].upper() + turned[1:] if turned != sentence else turned)


def _instruction(sentence: str) -> bool:
    """Whether a sentence opens with a verb's base form that acts on what follows it ("Use the ...")."""
    found = re.match(r"[\W\d_]*([A-Za-z]+)\s+([A-Za-z][A-Za-z'’-]*)", sentence)  # "Compute - for": a label
    if found is None or not found[1][0].isupper():
        return False
    first, second = found[1].lower(), found[2].lower()
    classes = lemma_table(first)
    if first not in classes.get("VERB", ()) or first in _SEEING:
        return False  # "Keeping", "Prompts": no base form of a verb
    # A word that may be a noun or adjective too ("Prompt engineering is ...") is a verb only before
    # what it acts on.
    return second in _OBJECT_START or not (set(classes) & {"NOUN", "ADJ", "ADV"})


def asks_how_it_works(question: str) -> bool:
    """Whether a question asks how a thing works or does what it does (not how to do a thing).

    >>> asks_how_it_works("How does dropout work?"), asks_how_it_works("attention how does it work")
    (True, True)
    >>> asks_how_it_works("How do I train it?"), asks_how_it_works("What is dropout?")
    (False, False)
    """
    return _HOW_IT_WORKS.search(question) is not None and not asks_how_to(question)


def says_what_it_does(sentence: str, names: Sequence[str]) -> bool:
    """Whether one of ``names`` is, in a sentence, the subject of an action verb: the name, maybe a
    bracketed aside, then a verb in the present ("Dropout zeroes ...", "the pooling layer (max) picks
    ..."), or a modal before one ("Dropout can zero ..."), not a verb of being or having, and not in a
    clause that says when or why another thing holds ("we wait before X takes effect"); or the name
    is said to be a thing that does something ("Dropout is a method that zeroes ...").

    >>> names = ["dropout"]
    >>> says_what_it_does("In training, dropout zeroes some units at random.", names)
    True
    >>> says_what_it_does("Dropout can drop units.", names), says_what_it_does("Dropout is popular.", names)
    (True, False)
    >>> says_what_it_does("Dropout is a trick that zeroes units.", names)
    True
    >>> says_what_it_does("We study dropout next.", names), says_what_it_does("Dropout helps a lot.", names)
    (False, False)
    >>> says_what_it_does("Dropout layers are cheap.", names), says_what_it_does("Dropout can help.", names)
    (False, False)
    >>> says_what_it_does("We wait a while before dropout takes effect.", names)
    False
    >>> says_what_it_does("Let us see how dropout changes the loss.", names)
    False
    """
    for name in names:
        words = [re.escape(word) for word in re.findall(r"[^\W_]+", name)]
        if not words:
            continue
        spelled = r"\W+".join(words)
        kind = r"(?:(?:is|are)\s+(?:a|an|the)\b[^,.;:]*?\b(?:that|which)\s+)?"  # "is a method that"
        doer = rf"\b{spelled}s?(?:\s*\([^)]*\))?\s+{kind}"
        after = rf"{doer}(?:(?:can|will|may|would|could|must)\s+)?([a-z]+)\b(?!\s*[,.;:]|\s+(?:is|are)\b)"
        for match in re.finditer(after, sentence, re.IGNORECASE):
            clause = re.split(r"[,;:(]", sentence[: match.start()])[-1]  # "... before X returns": a time
            if _acts(match.group(1).lower(), match.group(0)) and not _SUBORDINATE.search(clause):
                return True
    return False


def _acts(verb: str, said: str) -> bool:
    """Whether ``verb``, the last word of ``said``, is an action verb in the present, or in its base
    form after a modal."""
    modal = said.lower().split()[-2] in ("can", "will", "may", "would", "could", "must")
    bases = lemma_table(verb).get("VERB", ())
    present = verb.endswith("s") and any(base != verb for base in bases)
    acting = verb not in _STATE_VERBS and all(f"{base}s" not in _STATE_VERBS for base in bases)
    return acting and (present or (modal and verb in bases))


def tells_way(question: str, sentence: str, names: Sequence[str]) -> bool:
    """Whether a sentence says the way a question asks of (``names``: the concepts it names): how to
    do a thing (:func:`says_how`), or what the thing does (:func:`says_what_it_does`) or its steps
    (:func:`agents.mechanisms.says_steps`); asked examples of a kind, whether it names one
    (:func:`agents.instances.names_instance`); False for a question of another kind.

    >>> tells_way("How do I use dropout?", "Add a dropout layer after each hidden layer.", ["dropout"])
    True
    >>> tells_way("How does dropout work?", "Dropout zeroes units.", ["dropout"])
    True
    >>> tells_way("What is dropout?", "Dropout zeroes units.", ["dropout"])
    False
    >>> step = "Then, we fit the sieve by minimizing the error between predicted and real sizes."
    >>> tells_way("How does a sieve work?", step, ["sieve"])
    True
    >>> tells_way("How does a sieve predict sizes?", step, ["sieve"])
    False
    """
    if asks_how_to(question):
        return says_how(sentence)
    if asks_instances(question):
        return names_instance(sentence, instance_terms(question))
    if not asks_how_it_works(question):
        return False
    return says_what_it_does(sentence, names) or (
        _WORKS.search(question) is not None and says_steps(sentence)
    )


def steps_told(
    question: str, passage: list[str], following: Sequence[str], before: Sequence[str], names: Sequence[str]
) -> list[str]:
    """Asked how a thing works, the quoted ``passage`` with the sentences of ``following`` that go on
    with the steps it starts to tell (:func:`agents.mechanisms.steps_after`), after the sentence of
    ``before`` that names what it tells the steps of (``names``, :func:`agents.mechanisms.named_before`);
    for another question, the passage as it is.

    >>> told = steps_told("How does baking work?", ["First, we heat it."], ["We then bake it."], [], [])
    >>> told, steps_told("Why bake?", ["First, we heat it."], ["We then bake it."], [], [])
    (['First, we heat it.', 'We then bake it.'], ['First, we heat it.'])
    """
    if not asks_how_it_works(question):
        return passage
    return [*named_before(passage, before, names), *passage, *steps_after(passage, following)]
