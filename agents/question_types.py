"""The question-type classifier of the offline orchestrator: what a sub-question asks of the graph.

A question type names the graph algorithm that answers it (:mod:`governance.graph_answer`):

``prerequisites``  what comes before X (direct; ``full``: every concept before X, in order)
``unlocks``        what builds on X, what X unlocks, what to learn after X
``path``           a learning path from A to B
``which_first``    which of A and B comes first
``part_of``        what X is part of
``parts``          what is part of X
``relation``       how A relates to B
``start``          where to start, naming no concept ("Where should I start?")
``overview``       what the course covers, naming no concept ("What does this course cover?")
``open``           anything else: retrieval and synthesis

The offline classifier reads cue words and where the concepts stand relative to them ("What
builds on X" asks what X unlocks, "What does X build on" asks for its prerequisites; "What is X
part of" is ``part_of``, "What is part of X" is ``parts``). The two-concept types take their slots
from the question's shape ("from A to B", "A or B", "between A and B"), so a slot that names no
known concept is reported as ``unknown`` ("the graph does not cover ..."). With DeepSeek the
decomposer names the type itself.

>>> keys = {"attention": "att", "transformer": "tr", "linear algebra": "la"}
>>> classify("What is attention part of?", keys).type, classify("What is part of attention?", keys).type
('part_of', 'parts')
>>> found = classify("What is the path from linear algebra to transformers?", keys)
>>> found.type, found.concepts
('path', ['la', 'tr'])
>>> found = classify("Which comes first, quantum chromodynamics or attention?", keys)
>>> found.type, found.concepts, found.unknown
('which_first', ['att'], ['quantum chromodynamics'])
>>> found = classify("List the prerequisites of attention in learning order.", {**keys, "learning": "l"})
>>> found.type, found.full, found.concepts
('prerequisites', True, ['att'])
>>> found = classify("What is the learning path to attention?", {**keys, "learning": "l"})
>>> found.type, found.full, found.concepts
('prerequisites', True, ['att'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, cast, get_args

from agents import asked_heads as heads
from agents.answer_forms import ASPECT
from agents.course_cues import COURSE, LEARN_IT, after_course, starts_course, whole_graph_type
from agents.expansions import abbreviation_asked
from agents.offline.question_model import LEARNED_AT, MARK, predict
from agents.phrases import FUNCTION_WORDS
from agents.question_frames import EXPLAINS, alone, chooses, of_act, of_doing, sequence_next, when_acting
from agents.question_slots import coordinated, said_in_clause, setting_start
from agents.sameness import SAME, SAME_SLOTS
from agents.text import find_mentions, normalize_name

__all__ = ["QUESTION_TYPES", "WHOLE_GRAPH_TYPES", "Classification", "QuestionType", "classify"]

_WholeGraph = Literal["start", "overview"]
"""The types of a question about the whole graph, which names no concept (:mod:`agents.course_cues`)."""
QuestionType = Literal[
    "prerequisites", "unlocks", "path", "which_first", "part_of", "parts", "relation", _WholeGraph, "open"
]
QUESTION_TYPES: tuple[QuestionType, ...] = get_args(QuestionType)
WHOLE_GRAPH_TYPES: frozenset[QuestionType] = frozenset(get_args(_WholeGraph))
TWO_CONCEPT_TYPES = frozenset({"path", "which_first", "relation"})

_I = re.IGNORECASE
_END = r"\s*[?.!]*\s*$"
_PATH_CUE = re.compile(
    r"\b(?:path|route|roadmap|road map|trajectory|sequence|steps?|get|go|progress|way|journey|order)\b", _I
)
_FROM_TO = re.compile(r"\bfrom\s+(?P<a>.+?)\s+(?:to|towards|up to|until)\s+(?P<b>.+?)" + _END, _I)
_JOURNEY = re.compile(
    r"\b(?:path|route|roadmap|road map|trajectory|sequence|steps|plan|chart|journey|way up|my way|"
    r"takes? me|leads? me|get me|start(?:s|ing)?|begin(?:s|ning)?)\b",
    _I,
)
_DESTINATION = re.compile(
    r"\b(?:to|towards?|reach(?:es|ing)?|end(?:s|ing)? (?:at|with|in|up at)|up to|arriv\w* at)\s+"
    r"(?:(?:the|a|an)\s+)?" + MARK,
    _I,
)
"""A path asked without "from A to B" ("Starting with A, how do I work my way up to B?"): a journey
word and a destination word before the second concept; the concepts in the order written."""
_FIRST = alone(r"first|earlier|sooner|precedes?|order")
_NEEDED_FOR = re.compile(
    r"^\s*(?:do|does|will|would|should|must)\s+(?:i|you|we|one|they)\s+(?:really\s+)?(?:need|have)\s+"
    r"(?:to\s+(?:know|learn|study|understand|master)\s+)?(?P<a>[^?]*?)\s+"
    r"(?:for|to\s+(?:learn|understand|study|master|do|use))\s+",
    _I,
)
"""Whether one concept is needed for another, asked yes or no ("Do I need A for B?", "Do I have to
know A to learn B?"): which of the two comes first answers it."""
_OR_SLOTS = (
    re.compile(r"(?:first|earlier|sooner)\s*[,:]?\s+(?:between\s+)?(?P<a>.+?)\s+or\s+(?P<b>.+?)" + _END, _I),
    re.compile(r"(?:learn|study|take|do|know)\s+(?P<a>.+?)\s+or\s+(?P<b>.+?)\s+first\b", _I),
    re.compile(r"(?:between|of)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)" + _END, _I),
)
_BEFORE_WORD = alone(
    r"before|after|prior to|ahead of|(?:required|needed|necessary) for|(?:a )?prerequisites? (?:for|of|to)"
)
_RELATION = re.compile(
    r"\b(?:relat\w*|connect\w*|link\w*|associat\w*|differ\w*|compar\w*|versus|vs\.?|between|contrast\w*|"
    r"each other|one another|the other)\b|" + SAME.pattern,  # or whether the two are one
    _I,
)
_RELATION_SLOTS = (
    re.compile(r"\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)" + _END, _I),
    re.compile(
        r"^\s*(?:how|in what way)?\s*(?:is|are|were|was|do|does)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+"
        r"(?:related|connected|linked|associated|different|similar|alike|(?:the )?same)\b",
        _I,
    ),
    re.compile(
        r"\b(?:is|are|does|do)\s+(?P<a>.+?)\s+(?:relate|connect|link|compare|differ)\w*\s+(?:to|with|from|than)\s+"
        r"(?P<b>.+?)" + _END,
        _I,
    ),
    re.compile(
        r"^\s*(?:please\s+)?(?:compare|contrast)\s+(?P<a>.+?)\s+(?:and|with|to|vs\.?|versus)\s+"
        r"(?P<b>.+?)" + _END,
        _I,
    ),
    re.compile(r"^\s*(?P<a>[^,;:]+?)\s+(?:vs\.?|versus)\s+(?P<b>.+?)" + _END, _I),
    *SAME_SLOTS,
)
_PART_OF = re.compile(
    r"\b(?:part of|belongs? (?:to|in|under)|member of|an? (?:component|element) of|"
    r"falls? (?:under|within|into)|sub-?topic|"
    r"(?:kinds?|types?|forms?|sorts?|branch(?:es)?|subfields?|special cases?) of)\b",
    _I,
)
"""Cues of "part or kind of": what stands after the cue is the whole ("What is X part of?",
"What kinds of X are there?" asks for the parts of X)."""
_PARTS = re.compile(
    rf"\b(?:{heads.PARTS_NOUN}|components?|consists? of|made (?:up )?of|composed of|contains?|includes?|"
    r"sub-?topics?|pieces|inside|break(?:s|ing)? down|goes into|go into)\b",
    _I,
)
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|does|do|did|can|could|would|should|must|has|have)\b", _I)
"""A question to be answered yes or no: with two concepts and a one-concept cue between them ("Is
A part of B?"), it asks how the two are related."""
_WHAT_CONTAINS = re.compile(r"\b(?:what|which)\s+(?:\w+\s+)?(?:contains?|includes?)\b", _I)
_UNLOCK_CUE = re.compile(
    rf"\b(?:builds? on|build upon|depends? on|rel(?:y|ies) on|requires?|{heads.USE_CUE})\b", _I
)
"""Cues that one concept builds on another; "use" as :data:`agents.asked_heads.USE_CUE` reads it."""
_BASED_ON = re.compile(r"\b(?:based on|extends?|an extension of)\b", _I)
"""What a yes-or-no question asks between two concepts besides the other cues ("Is A based on B?");
in any other question it is no cue ("a film based on a novel by what author?")."""
_LEADS_CUE = re.compile(
    r"\b(?:leads? (?:on )?to|unlocks?|opens? up|enables?|prepares? (?:me |you )?for)\b", _I
)
"""A cue whose side tells the direction: "What does X unlock?" asks what comes after X, "What
unlocks X?" what comes before it (the other way round from "builds on")."""
_BEFORE = alone(
    r"before|prior to|ahead of|prerequisites?|prereqs?|foundations?|background|required|needed|"
    r"lead(?:s|ing)? up to|to (?:learn|understand|study|master|tackle)(?=\s+(?:(?:the|a|an)\s+)?" + MARK + ")"
)
_UNLOCKS = alone(
    rf"after|next|afterwards|then learn|following|{heads.OF_COURSE}follows?|follow-?(?:ups?|ons?)|beyond|"
    r"from here|move on|"
    r"once (?:i |you |we )?(?:know|learn|understand|master|have learned|have learnt)"
)
_NEED = alone(
    rf"first|{heads.NEEDS_OF_LEARNER}need to (?:know|learn|understand)|do i need|"
    r"(?:should|must) i (?:know|learn|study|understand)"
)
"""Words about learning with no direction: the question asks for prerequisites unless a direction
word ("after", "before") says otherwise."""
_FULL = re.compile(
    r"\b(?:all|every|everything|full|complete|whole|entire|ordered|in (?:(?:learning|study) )?order|"
    r"transitive|chain|sequence|ancestors)\b",
    _I,
)
_ARTICLE_ENDING = re.compile(r"\s+(?:the|an?)$", _I)
_CUE_WORDS = re.compile(r"^(?:the|a|an|learning|learn|study|studying|of|about|on|in|for|to|it|i|me)\s+", _I)


_ASKING = frozenset(
    """what which who whom how whats do does did is are was were be should must can could would will
    shall may might i we you me my our your need needs needed to learn learning study studying know
    understand use take the a an of on in for it its come comes coming go there that this any anything
    everything something list tell give show please about into with and or""".split()
)
"""The words of a question that ask rather than name: what is left of a one-concept question
without them and its cues is the name it asks about."""
_JOINS = {"and": "+", "or": "+", ",": "+", "&": "+"}
"""The words that join two names of one question ("X and Y"): the other side of one is asked too."""
_ASKS_BASE = re.compile(r"\b(?:what|which)\s+(?:does|do|did|is|are)\b", _I)
"""A cue like "build on" after "what does": the question asks for what comes before."""


@dataclass(frozen=True)
class Classification:
    """A sub-question's type, its concepts in the order the type reads them, and what it names
    that the graph does not know."""

    type: QuestionType
    concepts: list[str]
    full: bool = False
    unknown: list[str] = field(default_factory=list)


_MASK = MARK
"""What a concept's name is masked with before cue words are read: not a word character, so a
cue inside a name ("independent component analysis") is no cue."""


@dataclass(frozen=True)
class _Read:
    """A question with its mentions, and the same text with every mention masked."""

    text: str
    masked: str
    mentions: list[tuple[int, int, str]]
    keys: dict[str, str] = field(default_factory=dict)

    def concepts(self, start: int = 0, end: int | None = None) -> list[str]:
        stop = len(self.text) if end is None else end
        return list(dict.fromkeys(c for s, e, c in self.mentions if s >= start and e <= stop))


_IDIOM = re.compile(
    r"\b(?:learning|teaching|study|studying|reading)\s+(?:order|path|sequence|plan|roadmap|road map)\b|"
    r"\bin\s+order\b",
    _I,
)
"""Phrases that ask for an order or a path ("in learning order", "the learning path"): a concept
named by one of their words ("learning" in a curriculum that has it) is not what they name."""


def _read(text: str, keys: dict[str, str]) -> _Read:
    idioms = [match.span() for match in _IDIOM.finditer(text)]
    mentions = [
        (start, end, concept)
        for start, end, concept in find_mentions(text, keys)
        if not any(a <= start and end <= b for a, b in idioms)
    ]
    masked = list(text)
    for start, end, _ in mentions:
        masked[start:end] = _MASK * (end - start)
    return _Read(text, when_acting("".join(masked)), mentions, keys)  # "before deciding to ...": no cue


def _slot_name(text: str) -> str:
    # An article that ends a slot is the cue's after it ("Is X a kind of Y?"): no name ends in one.
    name = _ARTICLE_ENDING.sub("", text.strip(" ,.;:?!\"'"))
    while True:
        shorter = _CUE_WORDS.sub("", name)
        if shorter == name:
            return name
        name = shorter


def _slots(read: _Read, patterns: tuple[re.Pattern[str], ...]) -> Classification | None:
    """The two slots of the first pattern that matches, resolved to concepts (type left open)."""
    for pattern in patterns:
        match = pattern.search(read.masked)
        if match is None:
            continue
        concepts, unknown = list[str](), list[str]()
        second = read.text[match.start("b") : match.end("b")]
        for slot in ("a", "b"):
            start, end = match.start(slot), match.end(slot)
            setting = setting_start(read.text[start:end], read.masked[start:end])  # "SSD for detection"
            found = read.concepts(start, end if setting is None else start + setting)
            name = _slot_name(read.text[start:end])
            shared = _shared_head(read, name, second) if slot == "a" and not found else None
            if found:
                concepts.append(found[-1] if slot == "a" else found[0])
            elif shared is not None:
                concepts.append(shared)
            elif name and not said_in_clause(name):  # "just making the model smaller" names nothing
                unknown.append(name)
        return Classification("open", concepts, unknown=unknown)
    return None


def _shared_head(read: _Read, first: str, second: str) -> str | None:
    """The concept a first slot names with the head it shares with the second ("L1" in "between L1
    and L2 regularization" is "L1 regularization"), if the graph knows it."""
    words = _slot_name(second).split()
    if not first or len(words) < 2:
        return None
    return read.keys.get(normalize_name(f"{first} {' '.join(words[1:])}"))


def _two(kind: QuestionType, read: _Read, patterns: tuple[re.Pattern[str], ...]) -> Classification:
    slots = _slots(read, patterns)
    if slots is not None and len(slots.concepts) + len(slots.unknown) == 2:
        if len(set(slots.concepts)) == len(slots.concepts):
            return Classification(kind, slots.concepts, unknown=slots.unknown)
    return Classification(kind, read.concepts()[:2])


def _around(read: _Read, cue: re.Pattern[str]) -> tuple[bool, bool]:
    """(a concept is named before the first cue, a concept is named after it)."""
    match = cue.search(read.masked)
    if match is None:
        return False, False
    return (
        any(end <= match.start() for _, end, _ in read.mentions),
        any(start >= match.end() for start, _, _ in read.mentions),
    )


_FRAME = re.compile(rf"{_YES_NO.pattern}\s+(?:it\s+(?:true|correct|the case)\s+that\s+)?", _I)
"""What opens a question asked yes or no before its first name ("Is it true that ...")."""


def _other_side(read: _Read, cue: re.Pattern[str]) -> str:
    """The name the graph lacks on the side of the first cue that names no concept, in a question
    asked yes or no that names one on the other ("LoRA" in "Is it true that LoRA builds on
    fine-tuning?"); "" when that side names the course, or more than a name: a function word
    ("retraining the model", "something bigger")."""
    found, framed = cue.search(read.masked), _FRAME.match(read.masked)
    if found is None or framed is None:
        return ""
    start, end = (framed.end(), found.start()) if _MASK in read.masked[found.end() :] else (found.end(), None)
    name = "" if _MASK in read.masked[start:end] else _slot_name(read.text[start:end])
    words = {w.lower() for w in re.findall(r"[\w'-]+", name)}
    named = 0 < len(words) <= 6 and not words & (FUNCTION_WORDS | _ASKING)
    return name if named and not COURSE.search(name) else ""


def _one(kind: QuestionType, read: _Read, full: bool = False) -> Classification:
    """A one-concept type with the concepts named; when none is, the name it asks about, as
    unknown: the one run of words left once its cues and question words are taken out."""
    concepts = read.concepts()
    rest = read.masked
    for cue in (_PART_OF, _PARTS, _UNLOCK_CUE, _LEADS_CUE, _BEFORE, _UNLOCKS, _NEED, _FULL):
        rest = cue.sub(" | ", rest)
    # Each token is a name word, a concept (its mask), a conjunction, or a break (a question word,
    # a cue, punctuation); runs of name words are what the question names besides its concepts.
    runs: list[tuple[str, list[str]]] = [("|", [])]
    for token in re.findall(rf"{_MASK}+|[^\s,;:?!|{_MASK}]+|[,;:?!|]", rest):
        word = token.strip(".\"'")
        if token == "|" and runs[-1][0] == "+":  # a cue said again after "and": "before A and before B"
            continue
        mark = "@" if token.startswith(_MASK) else _JOINS.get(word.lower(), "")
        if not mark and (word.lower() in _ASKING or not re.search(r"\w", word)):
            mark = "|"
        if mark:
            runs.append((mark, []))
        else:
            if runs[-1][0] != "w":
                runs.append(("w", []))
            runs[-1][1].append(word)
    if concepts:
        return Classification(kind, concepts, full=full, unknown=coordinated(runs))
    named = [words for mark, words in runs if mark == "w"]
    # Only a question that is its cues, question words and one name: any other is read as open.
    unknown = [" ".join(named[0])] if len(named) == 1 and len(named[0]) <= 6 else []
    # Nothing named at all ("the first delegate of which territory?"): no graph algorithm answers it.
    return Classification(kind if unknown else "open", [], full=full, unknown=unknown)


def classify(text: str, keys: dict[str, str]) -> Classification:
    """The type of one sub-question and its concepts (ids from ``keys``: normalized name -> id)."""
    read = _read(text, keys)
    masked, concepts = read.masked, read.concepts()
    if _FROM_TO.search(masked) and _PATH_CUE.search(masked):
        return _two("path", read, (_FROM_TO,))
    if concepts and (rest := after_course(text)):  # "after this book": of the names it goes on to
        return Classification("open", concepts, unknown=classify(rest, keys).unknown)
    whole = None if concepts and not starts_course(text) else whole_graph_type(text)  # where to start, ...
    if whole is not None:
        return Classification(whole, [])
    before_cue, after_cue = _around(read, _BEFORE_WORD)
    needed = None if chooses(text) else _NEEDED_FOR.match(masked)  # "Do I need A for B, or can I ...?"
    first, then = (read.concepts(0, needed.end()), read.concepts(needed.end())) if needed else ([], [])
    if first and then:  # "Do I need A for B?"
        return Classification("which_first", [first[-1], then[0]])
    if needed and then and (name := _slot_name(text[needed.start("a") : needed.end("a")])):  # A: unknown
        return Classification("which_first", then[:1], unknown=[name])
    if len(concepts) >= 2 and (_FIRST.search(masked) or (before_cue and after_cue)):
        return _two("which_first", read, _OR_SLOTS)
    if _FIRST.search(masked) and re.search(r"\bor\b", masked, _I):
        slots = _slots(read, _OR_SLOTS[:2])
        if slots is not None and len(slots.concepts) + len(slots.unknown) == 2:
            return Classification("which_first", slots.concepts, unknown=slots.unknown)
    if chooses(text):  # "Should I learn A or B?", "using A vs training B": what the lessons say of each
        return Classification("open", concepts)
    if _RELATION.search(masked) and (len(concepts) >= 2 or _slots(read, _RELATION_SLOTS)):
        return _two("relation", read, _RELATION_SLOTS)
    if len(concepts) == 2 and _JOURNEY.search(masked) and _DESTINATION.search(masked):
        return Classification("path", concepts)
    opens = heads.past_setting(masked)  # "In the X example, why does Y use Z?" opens with "why"
    if ASPECT.search(masked) or EXPLAINS.search(opens) or abbreviation_asked(text):
        return Classification("open", concepts)  # "When should I use X?", "What is ML short for?"
    if heads.asks_a_value(opens):  # "What stride does X use?"
        return Classification("open", concepts)
    if len(concepts) in (1, 2) and _YES_NO.match(masked):
        # "Is A part of B?", "Does A build on B?": whether an edge joins the two, not what each is
        # part of or builds on; so with a name the graph lacks on one side ("Does LoRA build on B?").
        for cue in (_PART_OF, _PARTS, _UNLOCK_CUE, _LEADS_CUE, _BASED_ON):
            if cue.search(masked) and all(_around(read, cue)):
                return Classification("relation", concepts)
            if cue.search(masked) and len(concepts) == 1 and (other := _other_side(read, cue)):
                return Classification("relation", concepts, unknown=[other])
    if of_doing(opens) or of_act(text):  # a cue in a question of why, how X does it or of an act: when
        return _learned(read, bool(_FULL.search(masked)))
    if heads.parts_of_another(masked) or heads.asks_a_procedure(masked):  # "the parts of the loss in X"
        return Classification("open", concepts)
    if _PART_OF.search(masked):
        named_before, named_after = _around(read, _PART_OF)
        return _one("parts" if named_after and not named_before else "part_of", read)
    if _PARTS.search(masked):
        return _one("part_of" if _WHAT_CONTAINS.search(masked) else "parts", read)
    full = bool(_FULL.search(masked))
    if _UNLOCK_CUE.search(masked):
        named_before, named_after = _around(read, _UNLOCK_CUE)
        if named_before and not named_after:
            return _one("prerequisites", read, full)
        if named_after:
            return _one("unlocks", read, full)
        if not concepts:
            return _one("prerequisites" if _ASKS_BASE.search(masked) else "unlocks", read, full)
    if _LEADS_CUE.search(masked):
        named_before, named_after = _around(read, _LEADS_CUE)
        if named_before or (not concepts and _ASKS_BASE.search(masked)):
            return _one("unlocks", read, full)
        return _one("prerequisites", read, full)
    if _BEFORE.search(masked):
        return _one("prerequisites", read, full)
    if _UNLOCKS.search(sequence_next(masked)):  # "predicting the next word" asks nothing after
        return _one("unlocks", read, full)
    if _NEED.search(masked) and not heads.asks_a_quantity(masked):  # "How much padding do I need?"
        return _one("prerequisites", read, full)
    if len(concepts) == 1 and LEARN_IT.search(masked):  # no other cue: "the learning path to X"
        return _one("prerequisites", read, True)
    return _learned(read, full)


def _learned(read: _Read, full: bool) -> Classification:
    """A question no cue typed, read by the learned model (:mod:`agents.offline.question_model`):
    its type when the model is sure enough and the question names the concepts the type needs (not
    only in a setting put in front: "For X, with ..., what are the Y?"), else open."""
    concepts = read.concepts()
    if concepts and not of_act(read.text) and not heads.set_in_front(read.masked):  # "Can I fine-tune ...?"
        kind, probability = predict(read.masked, len(concepts))
        needed = 2 if kind in TWO_CONCEPT_TYPES else 1
        # A type of two concepts for a question naming more would leave out those after the second.
        fits = needed == 1 or len(concepts) == 2
        if kind != "open" and probability >= LEARNED_AT and fits:
            typed = cast(QuestionType, kind)
            return Classification(typed, concepts[:needed] if needed == 2 else concepts, full=full)
    return Classification("open", concepts)
