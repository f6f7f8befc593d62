"""Short answers: whether a question asks for a short thing, and whether a span can be one.

The offline reader (:mod:`agents.answer_spans`) reads a name span out of a sentence for a question
that asks a name. A span is shown as the answer itself ("Jane Roe: the lesson says ..."), so it
must be one:

1. **A short thing is asked** (:func:`asks_short`): "Who ...?", "Where ...?", "Which ...?", "What
   city ...?", "What is the capital of X?", "What was X's first film?". A question that asks what
   something does or causes, what one should do, or what a thing is together with more ("What
   does X add ...?", "What causes X?", "What should I put in X?", "What is X and do I need it?",
   "What are A, B and C in X?"), several things ("What are the stages of X?", "What metrics should
   I track?": a plural, which no one name says), or that has no question word at all ("batch norm
   vs layer norm, the difference"), asks a description: the sentence answers it.
2. **The span can be an answer** (:func:`answer_like`): not a closed-class word alone ("Now",
   "However" open a clause; they name nothing), not math ("$L-l$"), not an item of a series of
   four or more (one language of a list of twenty answers nothing), and not a quotation of
   someone's words (a quoted title is written capitalized; "Send email to my instructor"
   is what someone says).
3. **Clause-initial words** (:func:`initial_words`): a word that opens a sentence or a clause
   after a colon is capitalized there by the grammar; it is a name only if the excerpts also write
   it capitalized inside a clause.

These are rules of how English is written, not lists of any course's words.

>>> asks_short("Who founded Acme?"), asks_short("What city was she born in?")
(True, True)
>>> asks_short("What does the temperature setting do, and what value makes sense?")
False
>>> asks_short("What causes vanishing gradients?"), asks_short("What is the seat of the county?")
(False, True)
>>> asks_short("What exactly makes something an AI agent versus just a chatbot?")
False
>>> asks_short("What does MoE mean in Phi-3.5-MoE?"), asks_short("What does broadcasting mean here?")
(True, False)
>>> asks_short("Given this model's size, what is a good batch size and do I need one?")
False
>>> asks_short("What are the stages of the lifecycle?"), asks_short("What metrics should I track?")
(False, False)
>>> answer_like("the product of $L-l$ matrices", 16, 19), answer_like("Now we run it.", 0, 3)
(False, False)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import WORD, asked_part
from agents.clauses import unemphasized
from agents.phrases import CLOSED_CLASSES

__all__ = ["answer_like", "asks_short", "initial_words"]

_CLOSED = frozenset().union(*CLOSED_CLASSES.values())
_BE = frozenset("is are was were".split())
_PLURAL_BE = frozenset("are were".split())
_DO = CLOSED_CLASSES["AUX"] - _BE
_OBJECT = CLOSED_CLASSES["DET"] | CLOSED_CLASSES["PRON"]
_VERB_S = re.compile(r"[a-z]+[^su]s")
"""A verb's third person ("causes", "makes"): a word ending in "s" but not in "ss" or "us"."""
_SPELLED = re.compile(r"\bwhat (?:does|do|did) (?P<short>[^\s,?]+) (?:mean|stand for)\b", re.IGNORECASE)
"""What an abbreviation means ("What does MoE mean in Phi-3.5-MoE?"): its long form, a name."""


def asks_short(question: str) -> bool:
    """Whether a question that asks no date, number, option, definition or explanation
    (:func:`agents.answer_forms.expected_kind` "name") asks for a short thing, a name, that a span
    can be; otherwise it asks a description, which a sentence gives."""
    words = [word.lower() for word in WORD.findall(unemphasized(asked_part(question)))]
    if not words:
        return False  # no question word: a phrase, a request; no name is asked
    if words[0] in ("who", "whom", "whose", "where", "which"):
        return True
    if words[0] in ("whats", "what's"):
        words = ["what", "is", *words[1:]]
    if words[0] != "what" or len(words) < 2:
        return False
    second, third = words[1], words[2] if len(words) > 2 else ""
    if second in _DO:  # "What does X add?", "What should I put ...?": what one does, a description
        spelled = _SPELLED.search(question)  # unless what an abbreviation (two capitals or more) means
        return spelled is not None and sum(c.isupper() for c in spelled["short"]) > 1
    if second in _BE:  # "What is the capital of X?", "What was X's first film?" ask a name
        # "What are the stages of X?" asks several things: no one name says them, a sentence does.
        return second not in _PLURAL_BE and (
            third == "the" or re.search(r"\w['’]s\b", asked_part(question)[4:]) is not None
        )
    # "What city was ...?" asks a name; "What metrics should I track?" several things, a plural
    # noun before its verb; "What causes the ...?", "What makes a ...?" a description.
    if _VERB_S.fullmatch(second) and third in CLOSED_CLASSES["AUX"]:
        return False
    return not (_VERB_S.fullmatch(second) and (third in _OBJECT or third.endswith("ing")))


_MATH = re.compile(r"\$[^$]+\$|\\\(.+?\\\)")
_CLAUSE_WORD = r"(?i:and|or|but|nor|which|that|who|whom|whose|where|when|while|as|if|so)\b"
_ITEM = rf"(?!{_CLAUSE_WORD})[^\W\d_][\w&.+-]*(?: [^\W\d_][\w&.+-]*){{0,2}}"
_SERIES = re.compile(rf"(?:{_ITEM} ?, ?){{3,}}(?:and |or )?{_ITEM}")
"""A series of four items or more, of three words at most each ("Arabic, Chinese, Czech, Danish"); a
conjunction or a relative word opens a clause, not an item ("..., and ROC curves, which are used")."""
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")


def answer_like(text: str, start: int, end: int) -> bool:
    """Whether the span ``[start, end)`` of a sentence can be a short answer (see the module)."""
    span = text[start:end]
    words = WORD.findall(span)
    if len(words) == 1 and words[0].lower() in _CLOSED and not words[0].isupper():
        return False
    if any(m.start() < end and start < m.end() for m in _MATH.finditer(text)):
        return False
    if any(m.start() <= start and end <= m.end() for m in _SERIES.finditer(text)):
        return False
    for quoted in _QUOTED.finditer(text):
        if quoted.start(1) <= start and end <= quoted.end(1):
            said = [w for w in WORD.findall(quoted.group(1)) if w[0].islower() and w.lower() not in _CLOSED]
            if len(said) >= 2:  # lower-case words of content: someone's words, not a title
                return False
    return True


_AFTER_COLON = re.compile(r"[:;]\s*([^\W\d_][\w'’-]*)")


def initial_words(texts: Sequence[str], names: Sequence[Sequence[str]]) -> dict[int, tuple[str, ...]]:
    """Sentence position -> the words that open its clauses (its first word, a word after a colon)
    when the excerpts write them capitalized only there: a name only if written so inside a clause
    too (``names``: each sentence's name spans). "Let's" opens a sentence as "Let" (a name span
    leaves out a possessive "'s")."""
    colons = [_AFTER_COLON.findall(text) for text in texts]
    inside = {
        name
        for text, said, after in zip(texts, names, colons, strict=True)
        for name in said
        if not text.startswith(name) and name not in after
    }
    found: dict[int, tuple[str, ...]] = {}
    for position, (text, after) in enumerate(zip(texts, colons, strict=True)):
        words = [word for word in (*WORD.findall(text)[:1], *after) if word not in inside]
        if words:
            found[position] = tuple(w for word in words for w in (word, re.sub(r"['’]s$", "", word)))
    return found
