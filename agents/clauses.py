"""The clauses of a question, and what a pronoun in one points back to: a name written before it.

A question is split into clauses (:func:`clauses_of`), each classified and answered on its own. It
may name what it asks about once and point back to it: "What is dropout and why is it useful?",
"Attention: how does it work?". A clause that points back with a pronoun before any concept it names
("does it hurt accuracy?") is asked with the name it points back to in the pronoun's place
(:func:`resolved_clauses`: "why is dropout useful"): the one concept the clause before it names, or,
when that clause names none, the term it asks about ("What is LoRA", "Explain LoRA"); a subject
"one" stands for a name written with "a" ("What's a small language model and can one run on a
phone?"); or the topic a clause opens with before a colon ("Attention: how does it work?" is "how
does Attention work"). A question that points back with nothing written before the pronoun's clause
that names anything ("What problems does it solve?", "Thanks! What is it for?") has nothing to point
to (:func:`pointing`). An "it" that points to nothing ("Is it true that ...", "Is it possible to
...") is no pronoun here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import DEFINED, WORD, as_what_is, requested_term
from agents.phrases import CLOSED_CLASSES, FUNCTION_WORDS, word_classes
from agents.quantities import owner
from agents.text import find_mentions

__all__ = ["clauses_of", "names_its_own", "pointing", "resolved_clauses", "unemphasized"]

_ASKS_AGAIN = (
    r"\s+(?:and|also|plus)\s+(?=(?:what|which|how|why|where|who|when|is|are|does|do|can|should|must)\b)"
)
"""A clause that asks a question of its own after another ("..., and how is it evaluated")."""
_SPLIT = re.compile(rf"\?+\s*|;\s*|,?{_ASKS_AGAIN}", re.IGNORECASE)

_POINTING = re.compile(
    r"\b(?:it|its|itself|they|them|their|themselves)\b|\b(?:this|that|these|those)(?:\s+way)?(?=[\s?.!]*$)",
    re.IGNORECASE,
)
"""A pronoun that points back to what was named before it ("What is it used for?", "What is
this?"; a demonstrative only where nothing follows it: "this course" names the course; "that way"
and "this way" stand for the manner named before: "why are models built that way?")."""
_EXPLETIVE = re.compile(r"(?!\s+to\b).*?\s(?:to\s+\w|that\b)|\s+(?:\w+ly\s+)?mean\s+(?:when|if)\b", re.I)
"""What follows an "it" that points to nothing ("Is it possible to ...", "Is it true that ...",
"What does it mean when ..."):
words of their own before "to" (an "it" that "to" follows is the object of a verb and points back:
"can I use it to fine-tune a model")."""
_POSSESSIVE = frozenset({"its", "their"})
_SUBJECT_NAMED = re.compile(
    r"\b(?:do|does|did|can|could|will|would|should|must|may|might)\s+(?:"
    r"(?:\S+\s+)*?(?:the|an?|my|your|our)\s+[\w-]"
    r"|(?!(?:i|you|we|they|it|he|she|one|this|that|these|those)\b)[a-z][\w-]*\s+[\w-])",
    re.I,
)
"""A noun of the question's own after its auxiliary: a subject ("How does asking the model to think
help it?", "Why do deep networks stop learning when they get deep?") or a thing owned or named with
an article ("How do I stop users from tricking my app into ignoring its instructions?"): a pronoun
after it points back to that noun, in the question itself."""
_BOUNDARY = re.compile(rf"[.!?:;](?=\s)|{_ASKS_AGAIN}", re.IGNORECASE)
"""Where a sentence, or a clause that asks a question of its own, ends before the next one."""
_NAMING_NOTHING = (
    FUNCTION_WORDS
    | CLOSED_CLASSES["ADV"]
    | CLOSED_CLASSES["QUANT"]
    | frozenset(
        """thanks thank ok okay hi hello hey great cool sure please yes no right good nice alright
        got understood question questions follow next explain tell describe say know want wonder
        wondering curious me""".split()
    )
)
"""Words that name nothing a pronoun could point back to: function words, adverbs, courtesies and
the words that ask ("Thanks!", "One more question:")."""


def clauses_of(question: str) -> list[str]:
    """The clauses a question is split into before each is classified: at question marks,
    semicolons, and "and"/"also"/"plus" before a question word; trimmed, none empty.

    >>> clauses_of("What is RAG, and how is it evaluated? ")
    ['What is RAG', 'how is it evaluated']

    An adverb of emphasis after the question word is dropped: "What exactly is a token" asks what a
    token is ("What family ...", "What early models ..." keep their words).

    >>> clauses_of("What exactly is a token?"), clauses_of("How precisely does it work?")
    (['What is a token'], ['How does it work'])
    >>> clauses_of("What family of models is it?")
    ['What family of models is it']
    """
    pieces = (unemphasized(piece.strip(" ,.")) for piece in _SPLIT.split(question))
    return [text for text in pieces if text]


_EMPHASIS = re.compile(r"^(\W*(?:what|how|why|who|where|which|when)\s+)(\w+ly)\s+", re.IGNORECASE)
"""A question word, and the word after it that may be an adverb of emphasis ("exactly", "really")."""


def unemphasized(question: str) -> str:
    """The question without an adverb of emphasis after its question word (a word that is only an
    adverb: "What exactly makes ...?" asks what "What makes ...?" asks).

    >>> unemphasized("What exactly makes an agent?"), unemphasized("What early models are there?")
    ('What makes an agent?', 'What early models are there?')
    """

    def dropped(found: re.Match[str]) -> str:
        return found.group(1) if word_classes(found.group(2)) == {"ADV"} else found.group(0)

    return _EMPHASIS.sub(dropped, question)


_OWN_NAME = re.compile(r"(?<=\W)(?!I\b)[A-Z][\w.-]*|\b[A-Za-z]+-?\d")
"""A word written with a capital after a clause's first word ("I" aside), or one with a number in it."""


def names_its_own(clause: str) -> bool:
    """Whether a clause writes a name of its own (a capitalised word after its first, or a word with a
    number in it), so that it asks about that name, not about the clause before it.

    >>> names_its_own("can I run Phi-3 on my laptop"), names_its_own("Why is it used by GPT4")
    (True, True)
    >>> names_its_own("Can I run it on my laptop")
    False
    """
    return _OWN_NAME.search(clause) is not None


def pointing(question: str) -> str:
    """The word by which a question points back to something it names nowhere before the clause
    of the word (see the module docstring), or "".

    >>> pointing("What is it used for?"), pointing("Thanks! What is it for?")
    ('it', 'it')
    >>> pointing("Attention: how does it work?"), pointing("What is RAG and why is it useful?")
    ('', '')
    >>> pointing("Is it wise to learn AI fast?"), pointing("What does this course cover?")
    ('', '')
    >>> pointing("How does asking the model to think help it?"), pointing("What problems does it solve?")
    ('', 'it')
    >>> pointing("Why do deep networks stop learning when they get very deep?")
    ''
    >>> pointing("How do I stop users from tricking my app into ignoring its instructions?")
    ''
    >>> pointing("Why does it fail?"), pointing("How do they work?"), pointing("Can one use them?")
    ('it', 'they', 'them')
    """
    for found in _POINTING.finditer(question):
        if found.group(0).lower() == "it" and _EXPLETIVE.match(question[found.end() :]):
            continue
        start = max((b.end() for b in _BOUNDARY.finditer(question[: found.start()])), default=0)
        before = question[:start]
        if _SUBJECT_NAMED.search(question[start : found.start()]):
            return ""
        if all(word.lower() in _NAMING_NOTHING for word in WORD.findall(before)):
            return found.group(0)
        return ""
    return ""


def _in_place(clause: str, name: str) -> str:
    """The clause with ``name`` in place of each pronoun that points back ("that way" only where
    no other pronoun does: in "why are they built that way" the name is what "they" stands for).

    >>> _in_place("why is it useful", "dropout"), _in_place("what are its limits", "RAG")
    ('why is dropout useful', "what are RAG's limits")
    >>> _in_place("what are their limits", "transformers")
    "what are transformers' limits"
    >>> _in_place("why are they built that way", "chat models")
    'why are chat models built that way'
    """
    manner = len(_POINTING.findall(clause)) == 1

    def named(found: re.Match[str]) -> str:
        if found.group(0).lower() == "it" and _EXPLETIVE.match(clause[found.end() :]):
            return found.group(0)
        if found.group(0).lower().endswith("way") and not manner:
            return found.group(0)
        if found.group(0).lower() not in _POSSESSIVE:
            return name
        return f"{name}'" if name.endswith("s") else f"{name}'s"

    return _POINTING.sub(named, clause)


_NAME_BEFORE = re.compile(r"(?:^|\s)([A-Z][\w-]*)\s+$")
"""A capitalized word just before a concept's name: a name that modifies it ("Adam" in "the Adam
optimizer")."""


def _antecedent(clause: str, keys: dict[str, str]) -> str:
    """The name a pronoun after a clause points back to: the one concept it names, as written, or
    the term it asks about when it names none; "" for a clause that names two concepts, or asks
    about no one term.

    >>> keys = {"dropout": "dropout", "attention": "attention"}
    >>> _antecedent("What is dropout", keys), _antecedent("What is LoRA", keys)
    ('dropout', 'LoRA')
    >>> _antecedent("Explain LoRA", keys), _antecedent("What does decoder-only mean", keys)
    ('LoRA', 'decoder-only')
    >>> _antecedent("Compare dropout and attention", keys), _antecedent("How does LoRA work", keys)
    ('', 'LoRA')
    >>> _antecedent("How does the Adam optimizer work", {"optimizer": "optimizer"})
    'Adam optimizer'
    >>> _antecedent("How much training data do I need to fine-tune a model", keys)
    'training data'
    >>> _antecedent("How many layers does ResNet-50 have", {"layer": "layer"})
    'ResNet-50'
    """
    if having := owner(clause):
        return having  # "How many layers does ResNet have": "it" after it is ResNet, not the layers
    named = find_mentions(clause, keys)
    if named:
        start, end, _ = named[-1]
        # with the names written before it, as one noun ("the Adam optimizer"), not the question's word
        while (before := _NAME_BEFORE.search(clause[:start])) is not None and before.start(1) > 0:
            start = before.start(1)
        return clause[start:end] if len({concept for _, _, concept in named}) == 1 else ""
    asked = " ".join(clause.split()).strip(" ?.!")
    asked = (as_what_is(asked) or asked).rstrip("?")  # "What does X mean" asks what X is
    defined = DEFINED.fullmatch(asked.lower()) or _QUANTITY.match(asked) or _WORKING.fullmatch(asked)
    if defined is not None:
        return asked[defined.start("term") : defined.end("term")]
    return requested_term(asked)


_QUANTITY = re.compile(
    r"^how\s+(?:much|many)\s+(?P<term>[\w-]+(?:\s+[\w-]+){0,2}?)\s+"
    r"(?:do|does|did|is|are|was|were|should|must|can|could|will|would)\b",
    re.IGNORECASE,
)
"""A clause that asks how much of a thing, or how many ("How much training data do I need"): the
thing is what it asks about, and a pronoun after it points back to it."""
_WORKING = re.compile(r"how\s+(?:does|do|did)\s+(?:the\s+)?(?P<term>[\w-]+(?:\s+[\w-]+){0,3}?)\s+work", re.I)
"""A clause that asks how one thing works and nothing more ("How does early stopping work"): that
thing is what it asks about."""


_TOPIC = re.compile(r"^\W*(?P<topic>[^\W\d_][^:.;!?]{0,60}?)\s*:\s+(?P<rest>\S.*)$", re.DOTALL)
"""A clause that opens with its topic before a colon ("Attention: how does it work?")."""


def _of_topic(clause: str) -> tuple[str, str]:
    """(the topic a clause opens with before a colon, what it asks of it), when the topic is a name
    of a few words and nothing more; ("", clause) otherwise.

    >>> _of_topic("Attention: how does it work"), _of_topic("In short: what is it")
    (('Attention', 'how does it work'), ('', 'In short: what is it'))
    """
    found = _TOPIC.match(clause)
    if found is None:
        return "", clause
    words = [word.lower() for word in WORD.findall(found["topic"])]
    if len(words) > 6 or any(word in _NAMING_NOTHING for word in words):
        return "", clause
    return found["topic"], found["rest"]


_ONE = re.compile(
    r"^(?:(?:how|why|when|where|what|which)\s+)?(?:do|does|can|could|will|would|should|must|may|might)\s+"
    r"(?P<one>one)\s+(?=[a-z])",
    re.IGNORECASE,
)
"""A clause whose subject is "one" ("can one run on a phone"): after a clause that asks of "a
small language model", "one" stands for one of them, as "it" would for a name without "a"."""


def _points_back(clause: str, keys: dict[str, str]) -> re.Match[str] | None:
    """The pronoun by which a clause points back to what was named before it ("does it hurt
    accuracy": a pronoun before the names of a clause points back past them, not to them; one after
    a name of its own may point to it, but "that way", a manner, points back past them), or None."""
    pronoun = _POINTING.search(clause) or _ONE.search(clause)
    named = find_mentions(clause, keys)
    if pronoun is None or pronoun.group(0).lower().endswith("way"):
        return pronoun
    return pronoun if not (named and named[0][0] < pronoun.start()) else None


def _indefinite(clause: str, name: str) -> str:
    """The name with the indefinite article it is written with in the clause ("a small language
    model"), or "" when it has none.

    >>> _indefinite("What's a small language model", "small language model")
    'a small language model'
    >>> _indefinite("What is RAG", "RAG")
    ''
    """
    found = re.search(rf"\b(?:an?)\s+{re.escape(name)}(?![\w-])", clause, re.IGNORECASE)
    return found.group(0) if found is not None else ""


def resolved_clauses(clauses: Sequence[str], keys: dict[str, str]) -> list[str]:
    """The clauses of a question, each that points back with a pronoun before any name of its own
    asked with the name it points back to in the pronoun's place (see the module docstring); the
    others as they are (a clause before that names two concepts leaves the pronoun open to either).
    A subject "one" points back to a name written with "a" or "an" ("can one run on a phone": "can a
    small language model run on a phone"), in a clause with no other pronoun ("how can one train
    it" asks of anyone).

    >>> resolved_clauses(["What is dropout", "why is it useful"], {"dropout": "dropout"})
    ['What is dropout', 'why is dropout useful']
    >>> resolved_clauses(["What is LoRA", "does it hurt accuracy"], {"accuracy": "accuracy"})
    ['What is LoRA', 'does LoRA hurt accuracy']
    >>> resolved_clauses(["What is an SLM", "can one run on a phone"], {})
    ['What is an SLM', 'can an SLM run on a phone']
    >>> resolved_clauses(["Compare A and B", "why is it useful"], {"dropout": "dropout"})
    ['Compare A and B', 'why is it useful']
    >>> resolved_clauses(["Attention: how does it work"], {"dropout": "dropout"})
    ['how does Attention work']
    >>> resolved_clauses(["What is LoRA", "can I use it to fine-tune a model"], {})
    ['What is LoRA', 'can I use LoRA to fine-tune a model']
    >>> resolved_clauses(["What does decoder-only mean", "why are chat models built that way"], {})
    ['What does decoder-only mean', 'why are chat models built decoder-only']
    """
    found: list[str] = []
    for clause in clauses:
        pronoun = _points_back(clause, keys)
        if pronoun is not None and pronoun.re is not _ONE:
            topic, rest = _of_topic(clause)
            name = topic or (_antecedent(found[-1], keys) if found else "")
            clause = _in_place(rest, name) if name else clause
        elif pronoun is not None and found:
            name = _indefinite(found[-1], _antecedent(found[-1], keys))
            if name:
                clause = f"{clause[: pronoun.start('one')]}{name}{clause[pronoun.end('one') :]}"
        found.append(clause)
    return found
