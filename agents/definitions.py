"""What a lesson sentence says a term is: the definition reader of "What is X?".

A sentence defines X (any of its names, or an acronym of one's initials: "LLMs" for "large language
model") when it says "X is ..." (quotes, an aside in brackets or between commas allowed;
"is defined as", "refers to", "means"), "defining X as ..." or "X's main task is ...", or names
its class beside it ("through RAG, a technique that ...", not an item of a list). Of such
sentences the reader takes the first that emphasises X ("**X** is ...", where a lesson introduces
a term), else the first that says what kind of thing X is ("a ...", "the ..."), else the first;
never one that says only how X relates to something else ("a prerequisite for ...", "part of
...", and "modified based on ..." unless how X works is asked) or only praises it ("a very exciting
field": :mod:`agents.evaluations`); a label before it ("**Note**: X is ...") skipped. Read to the end
of its clause (a ., ? or ! inside emphasis or a quote ends none: "to answer *how much?* or *how
many?* questions"), a list of a few words kept whole, emphasis marks dropped. Without one, the gloss of
X as an entry of a list ("**X** - used for ...", "**X**: This is the process of ...", X in bold,
or opening the sentence; or X's name short of the kind its gloss names, "**Invoice Processing**:
This model ..." for the Invoice Processing AI Model) is read to the end of its sentence or to the
next entry; an item of a list a sentence announces ("concepts: _Tokenization_ = how the model "sees"
the prompt", "X: ...", X emphasised or not) is read alone and quoted alone, unless the list is a
listing or the gloss is no words ("x = 3", "f(x) + 1"). Else a whole sentence stands for the
definition: the first that names X ("called X", "known as X", "known with the name of X"), spells
out its acronym beside it ("GPT ("Generative Pre-trained Transformer")"), says what X does for
others ("X allows LLMs to ...": :mod:`agents.abilities`), emphasises it ("*X*") or
opens with it (one that goes on "X is not ..." only when nothing else says anything of X); and for
a concept the graph knows, the first that mentions it (at half the support;
one in a section headed by X's name first; not one that names it in passing:
:func:`agents.mentions.in_passing`); of each kind, one that stands on its own before one that
leans on the text before it ("... the above issue"); never a listing (a table of contents) that names X
among its headings, nor a sentence that announces what the lesson or a section will do ("This
lesson will cover: Why you should prioritize Responsible AI ...").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from agents.abilities import after_colon, doing
from agents.announcements import describes
from agents.answer_forms import content_terms
from agents.appositions import CLASS as _CLASS
from agents.appositions import apposed_to
from agents.evaluations import evaluative
from agents.glosses import DENIED, GOES_ON, RELATED, UNMARKED, entry_gloss, gloss
from agents.labels import topic_label
from agents.lead_ins import introduced, leads_in
from agents.mentions import in_passing
from agents.passages import announces, leans_back, names_back, titled_by
from agents.text import acronym_of
from agents.written_forms import either_way

__all__ = ["Definition", "defines", "definition"]


@dataclass(frozen=True)
class Definition:
    """What a reader takes for a definition: the sentence it is read from (its position among the
    sentences given), the text taken (a phrase of it, or all of it), and its support."""

    position: int
    text: str
    support: float
    quote: str = ""
    """The item of a list it is read from, which an answer quotes, not the whole sentence: "_X_ = ..."."""


_LISTED = re.compile(r",(?=(?:\s+\w+){1,2},?\s+(?:and|or)\s)")
"""A comma inside a list of a few words ("to store, manage and search"): no end of the phrase."""


_SAID = rf"(?P<said>(?:\b(?:e\.g|i\.e|vs|cf)\.|[.!?](?={GOES_ON})|[^.;:!?])+)"
"""What a definition says X is: up to the end of its clause (an abbreviation's full stop kept, and
a stop inside emphasis or a quote: :data:`GOES_ON`)."""
_KIND = re.compile(r"[\W_]*(?:an?|the|one of)\s", re.IGNORECASE)
"""A definition that says what kind X is ("a weighting", "the process of ..."), not how ("more art")."""
_GENUS = re.compile(rf"[\W_]*(?:[a-z]+ly\s+)?{_CLASS}", re.IGNORECASE)
"""A definition that names the class X is one of ("a weighting ...", "really a classification
method"), preferred to one with "the", which may only relate X to something ("the opposite")."""
_ADVERB = re.compile(rf"^[a-z]+ly\s+(?={_CLASS})", re.IGNORECASE)  # "really a ...": from the class on
_LEAD = r"[^.;:!?]{0,80}?(?:,\s*|\s)(?:(?<!such\s)(?<!well\s)as|since|because|whereas)\s+"
"""A clause before the one that says what X is ("Only for convenience, as X is really a ..."):
skipped, up to a subordinating word that opens X's clause (not the "as" of "such as X"); what
follows must then name X's kind."""
_DENYING = re.compile(
    r"\W*(?:(?:is|are|was|were|do(?:es)?|did)(?:n[’']t|\s+not)|(?:is\s+)?(?:never|no\s+longer))\b", re.I
)
"""What X is not or never does, after X's name ("X is not a cure-all", "X never converges")."""
_BUILT = re.compile(r"[\W_]*(?:\w+ed\s+)?(?:based|built)\s+(?:up)?on\b", re.IGNORECASE)  # what X is built on


_PLURAL = r"(?:e?s)?(?!\w)"
"""A name's end, its plural's included ("RNNs" names the RNN: "*Recurrent neural networks* (RNNs) are")."""


_WHOLE = r"(?![ \t]+(?-i:[A-Z][a-z]))"
"""X's name not followed by a capitalized word that goes on with it: "LangChain Agents is an
implementation ..." is about LangChain Agents, not LangChain ("What is LangChain?")."""


_ENTRY = r"(?::(?P=mark)|(?P=mark)\s*(?::|[-–—]))"  # ends an entry's term: a colon, or a dash after emphasis
_LABEL = r"(?:[*_]{0,2}[A-Z][a-z]+[*_]{0,2}:[*_]{0,2}\s+)?"  # a label before it: "**Note**: X is ..."


def _kinded(names: Sequence[str]) -> str:
    """The entry of X in a list under its name short of the kind its gloss names ("**Invoice
    Processing**: This model extracts ..." for the Invoice Processing AI Model): an alternative of
    the gloss's pattern ("" for names of one word)."""
    split = [name.split() for name in names]
    shorts = [" ".join(words[:-k]) for words in split for k in (1, 2) if len(words) > k]
    if not shorts:
        return ""
    heads = "|".join(dict.fromkeys(re.escape(words[-1]) for words in split if len(words) > 1))
    return rf"|(?:{'|'.join(map(re.escape, shorts))}){_ENTRY}(?=\s*(?:this|the)\s+(?:{heads})\b)"


class _Patterns(NamedTuple):
    says: re.Pattern[str]
    defining: re.Pattern[str]
    named: re.Pattern[str]
    marked: re.Pattern[str]
    glossed: re.Pattern[str]
    leading: re.Pattern[str]
    mentioning: re.Pattern[str]
    apposed: re.Pattern[str]
    spelled: re.Pattern[str]
    entry: re.Pattern[str]


@lru_cache(maxsize=1024)
def _patterns(names: tuple[str, ...]) -> _Patterns:
    """The patterns of a sentence that says what X is (X: any of ``names``): "X is ..." (quotes,
    an aside in brackets or between commas allowed), "defining X as ...", "... called X", "*X*",
    a sentence that opens with X, and one that mentions it."""
    terms = "|".join(either_way(name) for name in names)  # "re-ranking" as a lesson writes it: "reranking"
    says = re.compile(  # "A 'confusion matrix' (or 'error matrix') is a table ...": quotes and an aside
        rf"{_LABEL}(?P<lead>{_LEAD})?\W*(?:an? |the )?[\W]*?(?:{terms})\w*\W*?"
        r"(?:\s*\([^()]*\))?(?:\s*,[^,.;:!?]{1,80},)?\s+"
        r"(?:(?:is|are|was|were|can be) (?:defined|described) as|is|are|was|were|refers to|means)\s+"
        rf"{_SAID}",
        re.IGNORECASE,
    )
    defining = re.compile(  # "We started by defining **Prompt Engineering** as ...", "X's main task is ..."
        rf"(?:\bdefin(?:e|es|ed|ing)\s+[*_\"“]*(?:an? |the )?(?:{terms})\w*[*_\"”]*\s+as"
        rf"|(?<![\w-])(?:{terms})['’]s\s+(?:(?:main|primary|chief|only|sole)\s+)?"
        rf"(?:task|job|role|purpose|function)\s+is(?:\s+to)?)\s+{_SAID}",
        re.IGNORECASE,
    )
    named = re.compile(
        r"\b(?:called|termed|known (?:as|(?:with|by|under) the names? of)|referred to as|dubbed)\s+"
        rf"[*_\"“]*(?:an? |the )?(?:{terms}){_PLURAL}" + _WHOLE,
        re.IGNORECASE,
    )
    marked = re.compile(rf"(?<![\w*_])([*_]{{1,2}})(?:{terms})\w*\1(?![\w*_])", re.IGNORECASE)
    glossed = re.compile(  # "**Keyword search** - used for text searches", "**Retrieval:** When ..."
        rf"(?:(?<![\w*_])(?=\*\*|__)|^[^\w*_]*)(?P<mark>\*\*|__|\*|_)(?:(?:{terms})\w*{_ENTRY}{_kinded(names)})"
        r"\s*(?P<said>[^*_\s](?:(?!(?:\*\*|__)[^\W_]).)*)",
        re.IGNORECASE,
    )
    leading = re.compile(rf"^{topic_label(names)}\W*(?:the |an? )?(?:{terms}){_PLURAL}{_WHOLE}", re.I)
    mentioning = re.compile(rf"(?<!\w)(?:{terms}){_PLURAL}{_WHOLE}", re.IGNORECASE)
    apposed = re.compile(  # "... through RAG, a technique that augments prompts with external data"
        rf"(?<![\w-])[*_\"“]*(?:{terms}){_PLURAL}[*_\"”]*(?:\s*\([^()]*\))?\s*,\s*(?={_CLASS}){_SAID}",
        re.IGNORECASE,
    )
    spelled = re.compile(  # "OpenAI's GPT ("Generative Pre-trained Transformer") series ..."
        rf"(?<![\w-])(?:{terms}){_PLURAL}\s*\(\W*(?P<long>[A-Za-z][\w -]*?)\W*\)", re.IGNORECASE
    )
    entry = re.compile(  # an item of a list: "_Tokenization_ = how ...", "**RAG**: ...", "Embedding: a ..."
        rf"[^\w*_]*(?:(?P<mark>\*\*|__|\*|_)(?:{terms})(?:e?s)?(?::(?P=mark)|(?P=mark)\s*(?:[:=]|[-–—]\s))"
        rf"|(?:{terms}){_PLURAL}\s*[:=])\s*(?P<said>\S.*)",
        re.IGNORECASE,
    )
    return _Patterns(says, defining, named, marked, glossed, leading, mentioning, apposed, spelled, entry)


def _kept(names: Sequence[str]) -> tuple[str, ...]:
    """The names, stripped, blank ones left out, each once, in order (the key of their patterns)."""
    return tuple(dict.fromkeys(n.strip() for n in names if n.strip()))


_ACRONYM = re.compile(r"(?<![\w-])[A-Z]{2,6}s?(?![\w-])")
"""A word that may be an acronym ("LLMs"): :func:`agents.text.acronym_of` reads its letters."""


def _acronyms(names: Sequence[str], sentences: Sequence[str]) -> tuple[str, ...]:
    """The acronyms the sentences write that are the initials of a name of two words or more
    ("LLM" for "large language model"): a lesson says what "LLMs are" under the acronym as often as
    under the name the question asks. Initials only: "BERT" is no acronym of "BERT representation".

    >>> _acronyms(["large language model"], ["LLMs are models.", "An LM or an ML model."])
    ('LLM',)
    >>> _acronyms(["BERT representation"], ["BERT does more."])
    ()
    """
    initials = {"".join(word[0] for word in name.lower().split()) for name in names if len(name.split()) > 1}
    found = {
        word.removesuffix("s") if word[:-1].isupper() else word
        for sentence in sentences
        for word in _ACRONYM.findall(sentence)
        if acronym_of(word) in initials
    }
    return tuple(sorted(found))


def _saying(
    sentence: str, says: re.Pattern[str], defining: re.Pattern[str], how: bool = False
) -> re.Match[str] | None:
    """What a sentence says X is ("X is ...", "defining X as ..."), unless it says only how X
    relates to something else, or (unless ``how`` it works is asked) what it was built on."""
    said = says.match(sentence) or defining.search(sentence)
    if said is None or RELATED.match(said["said"]) or DENIED.match(said["said"]) or evaluative(said["said"]):
        return None  # nor what only praises X ("a very exciting field": agents.evaluations)
    if not how and _BUILT.match(said["said"]):
        return None
    # After a clause, only what names X's kind is a definition ("as X is really a method", not
    # "as X was slow to train").
    return None if "lead" in said.groupdict() and said["lead"] and not _names_kind(said["said"]) else said


def _names_kind(said: str) -> bool:
    """Whether what a definition says names X's kind or class ("the process of ...", "really a
    classification method")."""
    return _KIND.match(said) is not None or _GENUS.match(said) is not None


def _apposing(sentence: str, apposed: re.Pattern[str]) -> re.Match[str] | None:
    """What a sentence says X is by naming its class beside it ("RAG, a technique that augments
    prompts ..."), when the phrase is an apposition (:func:`agents.appositions.apposed_to`) that
    says more than how X relates to something else.

    >>> apposed = _patterns(("RAG",)).apposed
    >>> _apposing("We use RAG, a technique that adds data, at last.", apposed)["said"]
    'a technique that adds data, at last'
    >>> [_apposing(s, apposed) for s in ("RAG, a store, and a model.", "To use RAG, a store is needed.")]
    [None, None]
    """
    for said in apposed.finditer(sentence):
        phrase, before = _clause(said["said"]), sentence[: said.start()]
        rest = said["said"][len(phrase) :]
        if not apposed_to(before, phrase, rest) or RELATED.match(phrase) or DENIED.match(phrase):
            continue
        return said
    return None


def _said(sentence: str, found: _Patterns, how: bool = False) -> re.Match[str] | None:
    """What a sentence says X is: "X is ..." (:func:`_saying`), else an apposition (:func:`_apposing`)."""
    return _saying(sentence, found.says, found.defining, how) or _apposing(sentence, found.apposed)


def defines(sentences: Sequence[str], names: Sequence[str]) -> bool:
    """Whether one of the sentences says what kind of thing X is (any of ``names``): "X is a ...",
    "X, unlike Y, is the ...", "defining X as the ...".

    >>> defines(["A vector database, unlike others, is a database of vectors."], ["vector database"])
    True
    >>> defines(["Prompt engineering is currently more art than science."], ["prompt engineering"])
    False
    >>> defines(["Calculus is a prerequisite for gradient descent."], ["calculus"])
    False
    >>> defines(["Red teaming is not a replacement for access control."], ["red teaming"])
    False
    """
    kept = _kept(names)
    if not kept:
        return False
    found = _patterns(kept)
    return any(
        ((said := _saying(sentence, found.says, found.defining)) is not None and _names_kind(said["said"]))
        or _apposing(sentence, found.apposed) is not None
        for sentence in sentences
    )


def _clause(said: str) -> str:
    """What a definition says, to its first comma outside a list of a few words or an aside ", or Y,".

    >>> _clause("a weighting, learned"), _clause("the quality, safety, and cost of outputs, in short")
    ('a weighting', 'the quality, safety, and cost of outputs')
    >>> _clause("a search that uses the sense, or meaning, of words, so to speak")
    'a search that uses the sense, or meaning, of words'
    """
    kept = _LISTED.sub("\0", re.sub(r",(\s+or\s+[\w-]+(?:\s+[\w-]+){0,2}),", "\0\\1\0", said))
    if "\0" in kept:  # the list's last comma, before its "and" ("safety, and cost")
        kept = re.sub(r"(\0[^,]*),(?=\s+(?:and|or)\s)", "\\1\0", kept)
    return kept.split(",")[0].replace("\0", ",")


_ANNOUNCES = re.compile(
    r"\W*(?:\w+(?:\s+\w+){0,3},\s*)?"  # after a few words of a lead ("To get started, let us look at ...")
    r"(?:(?:next|now|here|first|below|later),? (?:we|let(?:'|’)s|let us|you)|"
    r"we (?:will|shall|now|go on|turn|begin|start)|let(?:'|’)s|let us)\b",
    re.IGNORECASE,
)
"""A sentence that announces what a section will do ("Next, we go on to discuss *stochastic
gradient descent* in greater detail."), as one that opens by naming the lesson or the section does
("In this section, ...": :func:`agents.passages.announces`): it emphasises X where it is taught, or
lists X among the lesson's contents, but says nothing of what X is."""


def _announcing(sentence: str, names: Sequence[str] = ()) -> bool:
    """Whether a sentence announces what a section does, and does not go on to say what X (any of
    ``names``) is (:func:`agents.announcements.describes`: "In this section, we introduce a nonlinear
    collaborative filtering model, AutoRec", "we introduce X, which is also called ...").

    >>> _announcing("Next, we introduce a collaborative filtering model, AutoRec .", ["AutoRec"])
    False
    >>> _announcing("Next, we introduce AutoRec, which filters collaboratively.", ["AutoRec"])
    False
    >>> _announcing("Next, we introduce AutoRec and its training.", ["AutoRec"])
    True
    """
    if _ANNOUNCES.match(sentence) is None and not announces(sentence) and not leads_in(sentence):
        return False
    return not describes(sentence, names)


def definition(
    names: Sequence[str],
    sentences: Sequence[str],
    known: bool = False,
    listings: Collection[int] = (),
    titles: Sequence[str] = (),
    items: Sequence[Sequence[str]] = (),
    how: bool = False,
) -> Definition | None:
    """The definition of X (any of ``names``) that the sentences give, read as the module says;
    ``known``: X is a concept the graph knows, so a sentence that only mentions it will do;
    ``listings``: the positions of passages that are listings (a table of contents, a menu:
    :func:`agents.passages.listed_passages`), never quoted whole for a definition: one that names X
    among its headings says nothing of what X is (a gloss of X in one is read); ``titles``: the
    title of each sentence's excerpt: of the sentences that only mention X, one in a section
    titled by X comes first, where a passing mention elsewhere ("cheaper than Large and NeMo")
    says nothing of it; ``items``: the items of the list each sentence announces, read with it
    (:class:`agents.passages.Passage`), an entry of X among them quoted alone; ``how``: how X works
    is asked, which "X is based on Y, ..." answers.

    >>> definition(["attention"], ["We use attention.", "**Attention** is a weighting, learned."])
    Definition(position=1, text='a weighting', support=0.5, quote='')
    >>> definition(["LR"], ["LR is the opposite - no order.", "LR is really a classifier."]).text
    'a classifier'
    >>> definition(["GRU"], ["We train a GRU."]), definition(["GRU"], ["We train a GRU."], known=True).text
    (None, 'We train a GRU.')
    >>> definition(["GRU"], ["Contents: Overview GRU Pooling", "We train a GRU."], True, {0}).position
    1
    >>> definition(["SGD"], ["In this section, we discuss *SGD* in detail.", "SGD reduces the cost."]).text
    'SGD reduces the cost.'
    >>> definition(["RAG"], ["This lesson covers: What RAG is.", "We use RAG."], known=True).text
    'We use RAG.'
    >>> definition(["RNN"], ["We use it.", "RNNs have hidden states."]).text
    'RNNs have hidden states.'
    >>> definition(["Invoice Processing AI Model"], ["**Invoice Processing**: This model reads bills."]).text
    'This model reads bills'
    """
    kept = _kept(names)
    if not kept:
        return None
    _, _, named, marked, glossed, leading, mentioning, _, spelled, entry = _patterns(kept)
    said_of = [
        (position, sentence, said)
        for position, sentence in enumerate(sentences)
        if (said := _said(sentence, _patterns(kept), how)) is not None
    ]
    if acronyms := _acronyms(kept, sentences):  # a sentence opening "LLMs are ..." says what it is
        found = {position for position, _, _ in said_of}
        wide = _patterns((*kept, *acronyms))
        said_of += [
            (position, sentence, said)
            for position, sentence in enumerate(sentences)
            if position not in found
            and (said := _said(sentence, wide, how)) is not None
            and not said.groupdict().get("lead")  # not "..., as AI is a fast evolving field"
        ]
        said_of.sort(key=lambda found: found[0])
    if said_of:  # the first that emphasises X, else the first that names its class, or its kind
        position, _, said = min(
            said_of,
            key=lambda found: (
                marked.search(found[1]) is None,
                _GENUS.match(found[2]["said"]) is None,
                _KIND.match(found[2]["said"]) is None,
            ),
        )
        text = UNMARKED.sub(r"\g<text>", _clause(said["said"])).strip(" *_`")
        return Definition(position, _ADVERB.sub("", text), 0.5)
    for position, sentence in enumerate(sentences):  # an entry of a glossary-like list
        # An item of the list the sentence announces ("_X_ = ..."), quoted alone; not of a listing.
        for item in items[position] if position < len(items) and position not in listings else ():
            if text := entry_gloss(entry, item):
                return Definition(position, text, 0.5, item)
        if (glossing := glossed.search(sentence)) is not None and (text := gloss(glossing["said"])):
            return Definition(position, text, 0.5)
    # A sentence that is the name and nothing more (a link's text, a caption) says nothing of it.
    saying = [
        (position, sentence)
        for position, sentence in enumerate(sentences)
        if _more(sentence, mentioning) and position not in listings
    ]
    # Of a kind, one that stands alone first ("This is called X." is quoted after what it names).
    saying.sort(key=lambda found: not names_back(found[1]) and leans_back(found[1], mentioning))
    denied: list[Definition] = []  # "X is not all encompassing" says what X is not: the last resort
    for pattern in (named, spelled, doing(kept), marked, leading):  # "X allows ...": agents.abilities
        for position, sentence in saying:
            if pattern is spelled and not _spells_out(sentence, spelled):
                continue
            if pattern.search(sentence) is not None and not _announcing(sentence, kept):
                if pattern is not leading or not _DENYING.match(leading.sub("", sentence, count=1)):
                    return Definition(position, after_colon(pattern, sentence), 0.5)
                denied.append(Definition(position, sentence, 0.5))
    if known:  # a concept the graph knows: what the lessons say of it is more than "not covered"
        titled = {k for k, title in enumerate(titles) if titled_by(title, mentioning)}
        for position, sentence in sorted(saying, key=lambda found: found[0] not in titled):
            if handed := introduced(sentences, position, mentioning):  # "... is X. It is ..."
                return Definition(position, handed, 0.25, handed)
            if mentioning.search(sentence) is not None and not _announcing(sentence, kept):
                if not in_passing(sentence, mentioning):  # not "We define our `SGD` class ..."
                    return Definition(position, sentence, 0.25)
    return denied[0] if denied else None


def _spells_out(sentence: str, spelled: re.Pattern[str]) -> bool:
    """Whether a sentence spells out X's acronym in brackets after it ("GPT ("Generative
    Pre-trained Transformer") models"): it names X.

    >>> spelled = _patterns(("GPT",)).spelled
    >>> _spells_out('We use GPT ("Generative Pre-trained Transformer") models.', spelled)
    True
    >>> _spells_out("We use GPT (see below) models.", spelled)
    False
    """
    for found in spelled.finditer(sentence):
        initials = {  # "Pre-trained" one word or two
            "".join(word[0] for word in re.split(split, found["long"]) if word).lower()
            for split in (r"\s+", r"[\s-]+")
        }
        if acronym_of(found.group(0).split("(")[0].strip()) in initials:
            return True
    return False


def _more(sentence: str, mentioning: re.Pattern[str]) -> bool:
    """Whether a sentence has a content word beside the name it mentions.

    >>> mentioning = re.compile(r"(?i)agentic rag")
    >>> _more("Agentic RAG", mentioning), _more("Agentic RAG plans its retrieval.", mentioning)
    (False, True)
    """
    return bool(content_terms(mentioning.sub(" ", sentence)))
