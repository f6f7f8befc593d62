"""The passages the offline reader reads out of a lesson excerpt: its sentences, read the way
Markdown lays them out.

A lesson's paragraphs are kept apart in an excerpt (:func:`joined_sentences`), so a
paragraph that is no sentence is a passage of its own unless it belongs to the one beside it:

- an **aside**, a paragraph wholly in parentheses ("_(Click the image above to view video of this
  lesson)_"), is left out: it is about the page, not the subject;
- a **pseudo-heading**, a short paragraph wholly in emphasis ("**Long Term Memory Example**",
  "🎓 **Constant variance**", "**sklearn**."), heads the sentence after it and is read with it,
  unless that sentence names it again ("**Safety System**. A safety system is ..."); last in
  an excerpt, it heads nothing there and is left out;
- a **list** announced by a colon ("To perform RL, we need:") is read with its announcement: the
  items after it that are no sentences of their own (no full stop), and the first item that is,
  unless :data:`LIST_ITEMS` items came before it (it is then the next paragraph); a passage of
  that many items, none a sentence and none a gloss ("X = ...", "X - ..."), is a listing
  (:func:`listed_passages`: a table of contents, a menu), which no definition quotes whole;
- so is a list that a passage **announces** as what the lesson or a part of it covers
  (:func:`announces`: "In this lesson we will cover: ...", "This lesson covers: ...", "After
  completing this lesson, you will be able to: ..."), the lesson's contents: the announcement and
  each passage after it in the excerpt (items that are sentences run on in an excerpt as one
  paragraph, with nothing to tell where the list ends), up to a sentence after items that are no
  sentences;
- a paragraph that opens in lower case goes on the one before it, when that one has no full stop:
  it is one sentence that something left out of the lesson's prose (a formula, a figure) cut;
- a **displayed formula** that ends a sentence ("... gives us the *softmax* function:" and its
  ``$$..$$``) is read with it, and with the sentence that goes on after it ("where ..."):
  :func:`with_display_math`.

>>> passages("We need: ¶ An **environment** that sets the rules. ¶ **Memory Example** ¶ It stores facts.")
['We need: An **environment** that sets the rules.', '**Memory Example** It stores facts.']
>>> passages("_(Click the image above)_ ¶ Agents act. ¶ Methods: ¶ Linear models ¶ Trees ¶ Done.")
['Agents act.', 'Methods: Linear models Trees Done.']
>>> passages("**Hash chaining**. ¶ Each entry holds a hash. ¶ The output in ¶ is called a map.")
['**Hash chaining**. Each entry holds a hash.', 'The output in is called a map.']
>>> passages("**Safety System**. ¶ A safety system is a set of tools. ¶ **NVIDIA NIM**")
['A safety system is a set of tools.']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from agents.answer_forms import content_terms
from agents.answer_keys import unkeyed
from agents.text import EMPHASIS, PARAGRAPH, Sentence, sentences

__all__ = [
    "Passage",
    "announces",
    "ends_a_sentence",
    "joined_sentences",
    "leans_back",
    "listed_passages",
    "names_back",
    "passages",
    "points_elsewhere",
    "sentence_start",
    "series",
    "titled_by",
    "with_display_math",
]

HEADING_WORDS = 12
"""The most words of a pseudo-heading (a paragraph wholly in emphasis, without a full stop)."""

_MARKS = "*_`\"'”’)]"
_LEADING = re.compile(r"^[^\w(*_`\"'“]+")
"""What may open a note before its words: an emoji, a bullet."""


_NAMES_BACK = re.compile(
    r"\W*(?:we\s+(?:call|refer\s+to|term|denote)\s+(?:this|these|it|them|such\s+\w+)|"
    r"(?:(?:this|these|such)(?P<noun>(?:\s+[\w-]+){0,3}?)|it|they)\s+(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:also\s+)?"
    r"(?:called|known\s+as|referred\s+to\s+as|termed|dubbed|named))\b",
    re.IGNORECASE,
)


_GLOSS = re.compile(r"\S\s+(?:=|-|–|—|:)\s+\S|\S:\s+\S")
"""What says an item is a gloss, a term and what it is ("_Tokenization_ = how the model sees the
prompt", "**RAG** - retrieval, then generation"), not a heading."""
_TEXT = r"(?:lesson|section|chapter|notebook|tutorial)"
"""What a lesson calls itself, or a part of itself."""
_ANNOUNCES = re.compile(
    rf"\W*(?:(?:in|throughout|by the end of|at the end of|after (?:completing|reading)) this "
    rf"(?:{_TEXT}|part)|this {_TEXT}|in the (?:next|following) {_TEXT}|you(?: will|(?:'|’)ll) learn)\b",
    re.IGNORECASE,
)
LIST_ITEMS = 3
"""Items of a list, none a sentence, after which a sentence is no item of it but the next paragraph
("In this chapter, you will: ... Lifecycle Tooling ¶ Metrification ¶ LLMs are a new tool ...")."""


_REPORTED = r"(?:mentioned|discussed|described|noted|introduced|explained|shown|seen|saw|defined|stated)"
_POINTS_BACK = re.compile(
    rf"\b(?:the\s+(?:above|former|latter)|above[- ]mentioned|aforementioned"
    rf"|{_REPORTED}\s+(?:above|earlier|previously|before(?!\s+\w))"
    rf"|as\s+(?:we\s+)?(?:have\s+)?(?:already\s+|previously\s+|just\s+)?{_REPORTED}(?!\s+by))\b",
    re.IGNORECASE,
)
"""What points back to text before the sentence ("the above issue", "as mentioned", "described
earlier", "the latter"), not to a source ("as described by ...")."""
_PART = r"(?:lesson|lecture|section|chapter|module|unit|notebook|tutorial|part)s?"
_SIGNPOSTS = re.compile(
    rf"\b(?:(?:next|following|later|subsequent|upcoming|coming|previous|preceding|earlier|last)\s+{_PART}"
    rf"|(?:lesson|chapter|section)\s+\d|later\s+on\b|^\W*in\s+the\s+following\b"
    rf"|(?:^\W*|\b(?:we|you|it|they|is|are|was|were|been|have|has|had)\s+(?:\w+ly\s+)?)"
    rf"{_REPORTED}\s+(?:above|below|earlier|previously|before\b(?!\s+\w))"
    r"|we\s+(?:can\s+|now\s+|first\s+|then\s+)?(?:introduce|discuss|describe|present|revisit|review|cover)\b"
    rf"|as\s+(?:we\s+)?(?:have\s+)?(?:already\s+|previously\s+|just\s+)?{_REPORTED}(?!\s+by)"
    r"|we(?:\s+(?:will|shall|are\s+going\s+to)|(?:'|’)ll)\b(?!\s+(?:also\s+)?(?:need|have\s+to)\b)"
    r"|we\s+(?:have\s+not|haven(?:'|’)t)\s+(?:yet\s+)?\w+(?:ed|en|wn)\b)"
    r"|^\W*(?:in\s+this\s+\w+,?\s+)?we\s+(?:have\s+)?\w+ed(?:\s+and\s+\w+ed)?\b",
    re.IGNORECASE,
)
"""What a sentence says of the text rather than of its topic: a part of the text before or after it
("in the next section", "a later chapter", "Lesson 11"), what was said there ("as we mentioned
earlier", "it was described above"; not a noun's modifier: "X solves the problem described above"
says what X does), what the text will do ("we will", "we'll", "we are going to"; not
what it will need: "we will need as many affine functions as we have outputs" says it), has not
done yet ("we have not explained yet"), presents ("we now introduce", "we describe", "In the following,
...") or, opening the sentence, has done ("We implemented and evaluated X", "In this section, we
introduced X": a summary)."""
_SUBJECTLESS = re.compile(r"[a-z]+s\s+(?:the|a|an|how|that|this|these|our|its)\b")
"""A sentence that opens with a verb and no subject ("illustrates the CNN-based style transfer method"):
its subject was a reference to a figure or a section, left out of the prose."""
_OWN = r"(?:part|book|course|page|document|article|paper|post|repo|repository)"
"""What else a text calls itself ("this book", "this repository")."""
_DEMONSTRATIVE = re.compile(
    rf"(?<![\w-])(?:(?:this|these)(?!\s+(?:(?:entire|whole)\s+)?(?:{_TEXT}|{_OWN})s?\b)"
    r"|such(?!\s+(?:as|that)\b))\b",
    re.IGNORECASE,
)
"""A demonstrative ("this issue", "these models", "such a model"; not "such as", nor the text
pointing at itself: "In this section, we introduce ..."): in a sentence's first clause, before what
it names, it stands for something the text before the sentence said (after a colon or a semicolon,
"...: this is done by X", for something the sentence said)."""
_CLAUSE = re.compile(r"[:;—]|\s[-–]\s")
"""What ends a sentence's first clause."""


class Passage(NamedTuple):
    """A passage of an excerpt: its text, whether it is a listing, and the items of the list its
    colon announces that it was read with, each as written ("_Tokenization_ = how the model sees
    the prompt"): where one item ends and the next begins, which its text no longer shows."""

    text: str
    listed: bool
    items: tuple[str, ...] = ()


def announces(text: str) -> bool:
    """Whether a passage opens by announcing what the lesson or a part of it covers or does ("In
    this lesson, you will learn about ...", "This lesson covers: ...", "By the end of this section,
    ..."): its contents, which say nothing of what a concept it names is, or why.

    >>> announces("This lesson will cover: Why prioritize Responsible AI."), announces("This is new.")
    (True, False)
    """
    return _ANNOUNCES.match(text) is not None


def points_elsewhere(text: str) -> bool:
    """Whether a sentence speaks of the text, not of its topic: it points to where the topic is
    explained, or says what the text will do or has done (:data:`_SIGNPOSTS`), has lost its subject, a
    reference to a figure (:data:`_SUBJECTLESS`), or announces what the lesson covers
    (:func:`announces`). It names the topic and says nothing of what it is or does.

    >>> points_elsewhere("We will revisit this idea in the next section, when we introduce weight decay.")
    True
    >>> points_elsewhere("As we mentioned earlier, X behaves differently."), points_elsewhere("X adds noise.")
    (True, False)
    """
    return _SIGNPOSTS.search(text) is not None or _SUBJECTLESS.match(text) is not None or announces(text)


def names_back(text: str, before: str | None = None) -> bool:
    """Whether a sentence names what the sentence before it says ("We call this the backwards pass.",
    "This is called distribution shift.", "These bounding boxes are called anchor boxes."): quoted
    alone, it says nothing of what it names. Given the sentence ``before`` it, a demonstrative's noun
    ("bounding boxes") must be one that sentence says: "This problem is typically known as
    clustering." after "To whet your appetite, we describe a few questions you might ask." names
    what a sentence further back says, not that one.

    >>> names_back("These bounding boxes are called *anchor boxes*."), names_back("Boxes are called anchors.")
    (True, False)
    >>> names_back("This problem is known as clustering.", "We describe a few questions you might ask.")
    False
    """
    found = _NAMES_BACK.match(text)
    if found is None or before is None or not (noun := set(content_terms(found.group("noun") or ""))):
        return found is not None
    return not noun.isdisjoint(content_terms(before))


def leans_back(text: str, about: re.Pattern[str] | None = None) -> bool:
    """Whether a sentence leans on the text before it for what it says: it points back ("the above
    issue", "as mentioned"), or a demonstrative in its first clause comes before it names what
    ``about`` matches (all of it, without ``about``): "To address this issue, X ...". Quoted alone,
    it says less of what it names than a sentence that stands on its own.

    >>> leans_back("The word2vec tool was proposed to address the above issue.")
    True
    >>> tool = re.compile("(?i)word2vec")
    >>> leans_back("To address this, word2vec was proposed.", tool), leans_back("Word2vec maps these.", tool)
    (True, False)
    >>> leans_back("Word2vec, as described by Mikolov, maps words to vectors such as these.", tool)
    False
    >>> leans_back("Each word gets a vector: this is done by word2vec.", tool)
    False
    """
    named = about.search(text) if about is not None else None
    opening = _CLAUSE.split(text[: named.start()] if named is not None else text, maxsplit=1)[0]
    return _POINTS_BACK.search(text) is not None or _DEMONSTRATIVE.search(opening) is not None


def _core(text: str) -> str:
    return _LEADING.sub("", text.strip())


def ends_a_sentence(text: str) -> bool:
    """Whether a text ends as a sentence does: a full stop, a question or an exclamation mark, then
    perhaps the marks that close emphasis, code, a quote or a bracket.

    >>> ends_a_sentence("It is *new*."), ends_a_sentence("gives us the function:")
    (True, False)
    """
    return text.rstrip(_MARKS).endswith((".", "!", "?"))


def _aside(text: str) -> bool:
    core = _core(text).strip("*_")
    return core.startswith("(") and core.endswith(")")


def _pseudo_heading(text: str) -> bool:
    """A short paragraph wholly in emphasis, maybe with a full stop after it ("**Hash chaining**.")."""
    core = _core(text).removesuffix(".")
    return EMPHASIS.fullmatch(core) is not None and len(core.split()) <= HEADING_WORDS


def _goes_on(found: Sequence[str], text: str) -> bool:
    """Whether ``text`` carries on the sentence last found, left without a full stop."""
    opening, before = _core(text).lstrip("*_`"), found[-1] if found else "."
    return bool(opening[:1].islower()) and not ends_a_sentence(before) and not before.endswith(":")


def passages(text: str) -> list[str]:
    """The passages of an excerpt's text, in order (see the module docstring)."""
    return [passage.text for passage in listed_passages(text)]


def listed_passages(text: str) -> list[Passage]:
    """The passages of an excerpt's text, in order, each with whether it is a listing: its
    announcement and :data:`LIST_ITEMS` items or more, none a sentence and none a gloss; or the
    lesson's contents, announced (see the module docstring); and the items of the list it announces.

    >>> [(p.text, p.listed) for p in listed_passages("Contents: ¶ Overview ¶ Layers ¶ Pooling ¶ A map.")]
    [('Contents: Overview Layers Pooling', True), ('A map.', False)]
    >>> [(p.text, p.listed) for p in listed_passages("This lesson covers: ¶ Why RAG. How RAG works.")]
    [('This lesson covers: Why RAG.', True), ('How RAG works.', True)]
    >>> listed_passages("We need: ¶ _X_ = an input ¶ _Y_ = an output")[0].items
    ('_X_ = an input', '_Y_ = an output')
    """
    found: list[str] = []
    items_of: dict[int, list[str]] = {}  # passage -> the items of the list it announces
    listings: set[int] = set()
    contents = False  # the passages read are a list of the lesson's contents, announced
    glossed = False  # an item of the list read says what a term is ("X = ...", "X - ...")
    heading = ""
    listing = False  # the last passage announced a list, and its items run on into it
    items = 0  # the items read into it so far, none a sentence
    for written in (s.text for s in sentences(text)):
        sentence = unkeyed(written)  # a quiz's key to options says nothing; what follows it starts a sentence
        keyed = sentence != written
        if not sentence or _aside(sentence):
            continue
        if heading:
            named = set(content_terms(heading)) <= set(content_terms(sentence))
            sentence, heading = (sentence if named else f"{heading} {sentence}"), ""
        elif _pseudo_heading(sentence):
            heading = sentence
            continue
        # After a few items that are no sentences (a table of contents, a menu), a sentence is the
        # next paragraph, not the list's last item.
        ends = ends_a_sentence(sentence)
        if not keyed and ((listing and not (ends and items >= LIST_ITEMS)) or _goes_on(found, sentence)):
            found[-1] = f"{found[-1]} {sentence}"
            if listing:
                items_of.setdefault(len(found) - 1, []).append(sentence)
            listing, items = listing and not ends, items + 1
            glossed = glossed or _GLOSS.search(sentence) is not None
            if listing and items >= LIST_ITEMS and not glossed:
                listings.add(len(found) - 1)
            listings -= {len(found) - 1} if glossed else set()
            continue
        found.append(sentence)
        contents = contents and not listing  # a list of items of no sentence ended: the next paragraph
        listing, items, glossed = sentence.rstrip(_MARKS).endswith(":"), 0, False
        contents = contents or (announces(sentence) and listing)
        if contents:
            listings.add(len(found) - 1)
    # A pseudo-heading last heads nothing here: what it heads is in the next excerpt.
    return [
        Passage(passage, number in listings, tuple(items_of.get(number, ())))
        for number, passage in enumerate(found)
    ]


SERIES_ITEMS = 4
"""The fewest items, set apart by semicolons, of a sentence that is a series."""


def series(sentence: str) -> bool:
    """Whether a sentence is a series of :data:`SERIES_ITEMS` items or more set apart by semicolons,
    as English writes a list whose items have commas of their own ("We begin our tour with AlexNet,
    the first ...; the VGG network, which ...; NiN ...; and DenseNet ..."): it names many things
    and explains none of them.

    >>> series("We meet A, the first; B, the second; C; and D."), series("A is slow; B is fast.")
    (True, False)
    """
    return sentence.count(";") >= SERIES_ITEMS - 1


def joined_sentences(parts: Sequence[str]) -> str:
    """Sentences on one line (each with its whitespace folded), such that
    :func:`~agents.text.sentences` reads the same sentences out of it: joined by a space where the
    next one opens a sentence after the full stop of the one before, by
    :data:`~agents.text.PARAGRAPH` where it would not (a caption without a full stop before a
    sentence, a list item before the next).

    >>> line = joined_sentences(["A is B.", "C is D.", "_(Click the image above)_", "This lesson is new."])
    >>> line
    'A is B. C is D. _(Click the image above)_ ¶ This lesson is new.'
    >>> [s.text for s in sentences(line)]
    ['A is B.', 'C is D.', '_(Click the image above)_', 'This lesson is new.']
    """
    line, last = "", ""
    for part in (" ".join(part.split()) for part in parts):
        if not part:
            continue
        if last:
            apart = [piece.text for piece in sentences(f"{last} {part}")] == [last, part]
            line += " " if apart else f" {PARAGRAPH} "
        line, last = line + part, part
    return line


def titled_by(title: str, mentioning: re.Pattern[str]) -> bool:
    """Whether an excerpt's title ("Lesson: Heading") heads a section about X: its heading is X's
    name, or X's after one word that qualifies it ("Mistral NeMo"), not a heading that only names
    X among other things ("Skip-Gram with Global Corpus Statistics", "Applying Word Vectors").

    >>> nemo = re.compile("(?i)nemo")
    >>> titled_by("Mistral Models: Mistral NeMo", nemo), titled_by("Models: Using NeMo", nemo)
    (True, False)
    """
    heading = re.sub(r"[*_`\[\]]", "", title.rsplit(": ", 1)[-1]).strip()
    found = list(mentioning.finditer(heading))
    if not found or heading[found[-1].end() :].strip(" .:!?)"):
        return False
    before = heading[: found[-1].start()].split()
    return not before or (len(before) == 1 and not before[0].lower().endswith("ing"))


_BOUNDARY = re.compile(
    r"[.!?]['\")\]*_`]*[\s\0]+(?=[^\s\0a-z])|:[\s\0]+(?=[^\s\0])|\n[\s\0]*\n[\s\0]*|^[\s\0]*"
)
"""Where a sentence starts: after a stop (and the marks that close emphasis, a quote or a bracket)
not followed by a word in lower case, which goes on with the sentence ("to answer *how much?* or
*how many?* questions", "e.g. the"); after a colon; at a paragraph's start."""
_BACK = 400
"""The most characters a chunk's start is moved back, to the start of the sentence it cuts."""


def sentence_start(shown: str, start: int) -> int:
    """Where the sentence a chunk starting at ``start`` opens in begins: a chunk cut inside a
    sentence is read from that sentence's start, so that no reader quotes its tail as a sentence
    ("temperature value the more random the output will be." of "The higher the temperature value
    the more random the output will be."); ``start`` itself when no sentence ends in the
    :data:`_BACK` characters before it.

    >>> text = "A is B. The higher the value the more random it is."
    >>> text[sentence_start(text, text.index("value")) :]
    'The higher the value the more random it is.'
    >>> sentence_start(text, 0), sentence_start(text, text.index("The"))
    (0, 8)
    >>> asked = "A is B. We answer *how much?* or *how many?* questions."
    >>> asked[sentence_start(asked, asked.index("questions")) :]
    'We answer *how much?* or *how many?* questions.'
    """
    window = max(0, start - _BACK)
    ends = [match.end() for match in _BOUNDARY.finditer(shown, window, start + 1) if match.end() <= start]
    if not ends or (window > 0 and ends == [window]):
        return start
    return ends[-1]


_DISPLAY_MATH = re.compile(r"\s*(?:\$\$.+\$\$|\\\[.+\\\]|\\begin\{(\w+\*?)\}.+\\end\{\1\})\s*", re.DOTALL)
"""A paragraph that is one displayed formula (``$$..$$``, ``\\[..\\]``, a LaTeX environment)."""
_OPEN = re.compile(r"[*_`\"'(\[]*[a-z]")
"""A sentence that opens in lower case ("where $y$ is the label."): it goes on from the one before."""


def with_display_math(view: str, found: Sequence[Sentence]) -> list[str]:
    """The texts of a chunk's sentences, each with the formula displayed on its own after it when
    it does not end there ("... gives us the *softmax* function:" and its ``$$..$$``), and with the
    sentence that goes on after that formula ("where ..."). The sentences alone would run the text
    on both sides of the formula together and leave out what the sentence says.

    >>> text = "It is defined as\\n\\n$$y = x^2$$\\n\\nwhere $x$ is the input. It is new. So:\\n\\n$$z$$"
    >>> with_display_math(text, sentences(text, view=True))
    ['It is defined as $$y = x^2$$ where $x$ is the input.', 'It is new.', 'So: $$z$$']
    >>> ended = "It ends here.\\n\\n$$y$$\\n\\nNext."
    >>> with_display_math(ended, sentences(ended, view=True))
    ['It ends here.', 'Next.']
    """
    pieces: list[tuple[str, str]] = []  # each sentence, and each formula between two
    for at, sentence in enumerate([*found, None]):
        gap = view[found[at - 1].end if at else 0 : len(view) if sentence is None else sentence.start]
        if at and _DISPLAY_MATH.fullmatch(gap):
            pieces.append((" ".join(gap.split()), "between"))
        if sentence is not None:
            formula = _DISPLAY_MATH.fullmatch(sentence.text) is not None
            pieces.append(
                (" ".join(sentence.text.split()) if formula else sentence.text, formula * "formula")
            )
    texts: list[str] = []
    took = False  # the last text ends in a formula it took in
    for text, kind in pieces:
        if texts and kind and not ends_a_sentence(texts[-1]):
            texts[-1], took = f"{texts[-1]} {text}", True
        elif texts and took and not kind and _OPEN.match(text):
            texts[-1], took = f"{texts[-1]} {text}", False
        elif kind != "between":  # a formula between two sentences, each whole, is left out
            texts.append(text)
            took = False
    return texts
