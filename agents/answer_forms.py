"""What an answer looks like: the kind of answer a question asks for, and the spans of a sentence
that could be one (the offline reader's vocabulary, :mod:`agents.answer_spans`).

The kind is read from the question's first question word: a date ("when", "what year", a birthday), a number
("how many", "what percentage", "what is the batch size"), a choice between two options the question names
("Who was born earlier, A or B?"), a yes/no question, what something is ("What is attention?": a definition),
why or how something happens (an explanation: a sentence), otherwise a name. The spans of a sentence: dates
and numbers for those kinds; for a name, runs of capitalized words (with "of", "de", "von" ... inside, at most
six words, no possessive "'s"; not a capitalized adjective before a lower-case word, "an American actor", nor
a month with its day) and quoted titles."""

from __future__ import annotations

import re
from typing import Literal

from agents.hedges import hedged_what_is, unhedged
from agents.measures import asks_measure
from agents.phrases import CLOSED_CLASSES
from agents.question_frames import FRAME, HOW_MANY, WORD, predicate, stem, without_predicate
from agents.written_forms import one_spelling

__all__ = [
    "ASPECT",
    "DATE",
    "DEFINED",
    "LARGEST",
    "NUMBER",
    "OPTIONS",
    "PURPOSE",
    "SMALLEST",
    "WORD",
    "YEAR",
    "Kind",
    "answer_candidates",
    "as_what_is",
    "asked_part",
    "asks_about",
    "content_terms",
    "expected_kind",
    "focus_of",
    "name_spans",
    "question_terms",
    "requested_term",
    "term_in_context",
    "without_aside",
    "without_setting",
]

Kind = Literal["date", "number", "option", "yesno", "definition", "explanation", "name"]

_EN_DASH = re.compile(r"(?<=[^\W_])(?:--|–)(?=[^\W_])")  # joins a compound as "-" does; "---" parts
_STOP = frozenset(
    """a an the of in on at to for from by with and or but as is are was were be been being am do does
    did has have had having it its it's this that these those there their them they he she his her him
    i you we our your who whom whose what which when where why how whats also not no yes than then
    so if into onto over under about after before between both either neither each other same such
    can could would should will shall may might must one ones s named name called known located e.g i.e versus
    """.split()
)
"""Function words, and "e.g." and "i.e." ("What is dropout, e.g. in MLPs?" is no question about
sentences with "e.g."); not "vs" nor "cf", also names ("VS Code", "CF": collaborative filtering)."""
_CLOSED = frozenset().union(*CLOSED_CLASSES.values())
"""Closed-class words ("While", "However", "Several"): alone at a sentence's start, never a name."""
_CONNECT = frozenset(
    {"of", "the", "de", "da", "di", "du", "von", "van", "der", "den", "del", "la", "le", "y", "&"}
)
_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan\\.?|Feb\\.?|Mar\\.?|Apr\\.?|Jun\\.?|Jul\\.?|Aug\\.?|Sep\\.?|Sept\\.?|Oct\\.?|Nov\\.?|Dec\\.?"
)
_MONTH = re.compile(_MONTHS)
DATE = re.compile(
    rf"\b(?:(?:{_MONTHS})\s+\d{{1,2}},?\s+\d{{3,4}}|\d{{1,2}}\s+(?:{_MONTHS})\s+\d{{3,4}}|"
    rf"(?:{_MONTHS})\s+\d{{4}}|(?:1[0-9]|20)\d{{2}}s?)\b"
)
YEAR = re.compile(r"\b(?:1[0-9]|20)\d{2}\b")
NUMBER = re.compile(
    r"(?<![\w.])\$?\d+(?:[.,]\d+)*(?:[kKMB](?!\w))?(?:\s(?:million|billion|thousand|hundred|percent|km|"
    r"miles|metres|meters|feet|kilometres|kilometers))?\b"  # "128k", "3.8B": a size with its multiplier
)
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")
OPTIONS = re.compile(r"[,:]?\s+(?P<a>[^,?]+?),?\s+or\s+(?P<b>[^,?]+?)\s*\??\s*$", re.IGNORECASE)
SMALLEST = re.compile(
    r"\b(?:earlier|earliest|first|older|oldest|before|sooner|fewer|fewest|less|least|smaller|smallest|"
    r"lower|lowest|shorter|shortest)\b",
    re.IGNORECASE,
)
LARGEST = re.compile(
    r"\b(?:later|latest|last|younger|youngest|after|more|most|larger|largest|bigger|biggest|higher|"
    r"highest|taller|tallest|longer|longest|greater|greatest|recent|newer|newest)\b",
    re.IGNORECASE,
)
_AUX = re.compile(r"^(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I)


def content_terms(text: str) -> list[str]:
    """Content words, lower case, a possessive ``'s`` dropped, each as its English Snowball stem
    ("evaluated", "evaluating" and "evaluation" are one term; so are "1×1" and "1x1", "re-ranking"
    and "reranking": :func:`agents.written_forms.one_spelling`); a lone letter is no content word.

    >>> content_terms("Who wrote the Beatles' songs, W?")
    ['wrote', 'beatl', 'song']
    >>> content_terms("How is RAG evaluated?"), content_terms("Evaluating a RAG system")
    (['rag', 'evalu'], ['evalu', 'rag', 'system'])
    >>> content_terms("SGD versus Adam, e.g. on MLPs"), content_terms("VS Code")
    (['sgd', 'adam', 'mlps'], ['vs', 'code'])
    >>> content_terms("d2l's encoder--decoder (LaTeX's en dash), an encoder–decoder, fast---slow")
    ['d2l', 'encoder-decoder', 'latex', 'en', 'dash', 'encoder-decoder', 'fast', 'slow']
    """
    words = [re.sub(r"['’]s?$", "", w.lower()) for w in WORD.findall(_EN_DASH.sub("-", one_spelling(text)))]
    return [stem(w) for w in words if w not in _STOP and (len(w) > 1 or w.isdigit())]


def question_terms(question: str) -> list[str]:
    """The content terms a question is matched by: :func:`content_terms`, less the words that frame
    a why or how question at its end and the "many" of "how many" (:data:`HOW_MANY`).

    >>> question_terms("How does dropout work?"), question_terms("Who did the work?")
    (['dropout'], ['work'])
    >>> question_terms("How does function calling work?"), question_terms("Why would I use dropout?")
    (['function', 'call'], ['dropout'])
    >>> question_terms("How does attention work in the transformer?")
    ['attent', 'transformer']
    """
    explained = expected_kind(question) == "explanation"
    terms = content_terms(HOW_MANY.sub("how", without_predicate(question) if explained else question))
    if explained:
        while terms and terms[-1] in FRAME:  # the predicate ends the question; "function calling" is content
            terms.pop()
        if terms and terms[0] == "use" and _WHY_USE.match(question):  # "Why would I use X?": a reason for X
            terms.pop(0)
    return terms


def without_setting(question: str) -> str:
    """A why or how question without the setting it asks in (:func:`agents.question_frames.predicate`):
    "How does X work in Y?" asks how X works, and Y says where; any other question as it is.

    >>> without_setting("How does backpropagation work in an MLP?"), without_setting("How does X work?")
    ('How does backpropagation work?', 'How does X work?')
    >>> without_setting("Who did the work for the film?")
    'Who did the work for the film?'
    """
    found = predicate(question) if expected_kind(question) == "explanation" else None
    return question if found is None else f"{question[: found[1]]}?"


_WHY_USE = re.compile(
    r"\W*why\s+(?:(?:would|should|do|does|did|might|can|could|must)\s+)?(?:(?:i|we|you|one|people|anyone)\s+)?"
    r"(?:ever\s+)?use\b",
    re.IGNORECASE,
)
"""A question that asks why one would use X: its "use" frames the question, as "work" does."""

DEFINED = re.compile(
    r"(?:what|who) (?:is|are|was|were) (?:an? |the )?(?P<term>(?:(?!(?<![\w-])"
    r"(?:of|in|on|at|for|from|by|with|that|which|who|where|when|whose|and|or)(?![\w-]))[^?,;])+?)\s*\??$"
)
"""A question that asks what something is, and nothing more ("What is attention?"); a word such as
"of" inside a hyphenated name is part of it ("What is chain-of-thought prompting?")."""
_WH = re.compile(r"\b(?:when|where|who|whom|whose|what|which|how|why)\b", re.IGNORECASE)


PURPOSE = re.compile(
    r"\bwhat (?:are|is) (?:the |some |its |their )?(?:main |key |biggest )?(?:purpose|role|goal|point) of\b|"
    r"\bwhat (?:is|are) .{1,60}? (?:used|good) for\b|"
    r"\bwhat (?:problems?|issues?|challenges?|difficult(?:y|ies)) (?:does|do|did|can|could|will|would) "
    r".{1,60}? (?:solve|address|fix|tackle|overcome|mitigate|handle|avoid|prevent)\b",
    re.IGNORECASE,
)
"""A question about what something is for ("What is dropout used for?", "What problem does batch
normalization solve?"): what it is often says, when no sentence says it in the question's words."""
ASPECT = re.compile(
    r"\bwhen (?:should|would|could|might|to|do (?:i|we|you) (?:use|need|choose|apply|prefer))\b|"
    r"\bwhen is it (?:\w+ly )?(?:better|best|worth|wise|useful)\b|"  # "actually worth", "really better"
    r"\bwhen (?:is|are) .{1,60}? (?:better|worse|preferable|preferred|more useful|a better choice)\b|"
    r"\bwhat (?:are|is) (?:the |some |its |their )?(?:main |key |biggest )?(?:advantages?|disadvantages?|"
    r"benefits?|drawbacks?|downsides?|limitations?|pros|cons|strengths?|weaknesses?|trade-?offs?|risks?|"
    r"dangers?|pitfalls?) of\b|" + PURPOSE.pattern,
    re.IGNORECASE,
)
"""A question about when to use something, its strengths, weaknesses and risks, or what it is for
(:data:`PURPOSE`; "When should I use dropout?", "What are the limitations of fine-tuning?"): no
relation of the graph answers it, and no name or date does; a sentence does."""
_EXPLAIN = re.compile(
    r"why\b|how (?:does|do|did|can|could|is|are|was|were|would|should|come)\b|in what way\b|"
    r"what (?:does|do|did) .{1,60}? do\s*\??$|what happens\b"
)
"""A question asking why or how something happens, or what a thing does ("What does an encoder
do?", "What happens when ...?"): a sentence answers it, not a name."""


_ASKING = (
    r"(?:please )?(?:(?:can|could|would) you )?(?:explain|describe|define|summari[sz]e|introduce|what about|"
    r"tell (?:me|us) (?:more )?about|(?:(?:give|show) (?:me|us) )?(?:an? )?"
    r"(?:overview|definition|summary|introduction|explanation) of)"
)
"""A request about one thing as a whole, in lower case, one space between words: "Explain",
"Tell me about", "Give me an overview of"."""
_FRAMED = r"(?:(?:the|an?) )?(?:(?:concept|term|idea|notion) (?:of )?)?"
"""What may stand between such a request and the thing's name: "the concept of"."""
_ABOUT = re.compile(rf"(?:{_ASKING} )?{_FRAMED}(?:please )?")


def asks_about(question: str, start: int, end: int) -> bool:
    """Whether ``question`` asks about the thing named at ``[start, end)`` as a whole and nothing
    more: its name alone, or a request to explain, describe or define it (a definition answers it,
    as it answers "What is X?").

    >>> asks_about("dropout?", 0, 7), asks_about("Tell me about the chain rule.", 18, 28)
    (True, True)
    >>> asks_about("Explain backpropagation", 8, 23), asks_about("Who introduced dropout?", 16, 23)
    (True, False)
    """
    rest = "".join(
        f"{word} " for word in re.findall(r"[a-z]+", f"{question[:start]} {question[end:]}".lower())
    )
    return _ABOUT.fullmatch(rest) is not None


_REQUEST = re.compile(
    rf"\W*{_ASKING} {_FRAMED}(?P<term>[^?.!,;:]+?)\s*(?:,?\s*please)?\s*[?.!]*\s*", re.IGNORECASE
)
_JOINED = re.compile(r"\b(?:and|or|vs|versus|with|without|between|in|for|of)\b", re.IGNORECASE)


def requested_term(question: str) -> str:
    """The term a request to explain, describe or define one thing names ("Explain word2vec"), or
    "" for any other question (one with a question word in the term, or two things joined).

    >>> requested_term("Explain word2vec"), requested_term("Could you describe the Adam optimizer?")
    ('word2vec', 'Adam optimizer')
    >>> requested_term("Explain how dropout works"), requested_term("Describe dropout and attention.")
    ('', '')
    """
    match = _REQUEST.fullmatch(" ".join(question.split()))
    if match is None:
        return ""
    term = match.group("term").strip()
    if len(term.split()) > 6 or _WH.search(term) or _JOINED.search(term):
        return ""
    return term


_ASIDE = re.compile(
    r"\s*(?:,|;|\(|\s-+|\s–)\s*(?:(?:e\.\s?g\.?|i\.\s?e\.?|cf\.|for example|for instance|such as|say)[\s,:]"
    r"[^,;()?]*|etc\.?)\)?\s*(?P<end>[?.!]*)\s*$",
    re.IGNORECASE,
)


def without_aside(question: str) -> str:
    """A question without the aside it ends in, an example or a rewording ("What is dropout, e.g.
    in MLPs?" asks what dropout is; the words of the aside would find sentences with "e.g." in
    them); the question as it is when it has none, when the aside goes on into the question ("How
    does SGD, i.e. stochastic gradient descent, work?"), or when nothing would be left.

    >>> without_aside("What is dropout, e.g. in MLPs?"), without_aside("What is L2 (i.e. weight decay)?")
    ('What is dropout?', 'What is L2?')
    >>> without_aside("How does SGD, i.e. stochastic gradient descent, work?")
    'How does SGD, i.e. stochastic gradient descent, work?'
    >>> without_aside("What is dropout?"), without_aside("For example, what is dropout?")
    ('What is dropout?', 'For example, what is dropout?')
    >>> without_aside("What is a ConvNet, etc.?"), without_aside("What is L2, cf. weight decay?")
    ('What is a ConvNet?', 'What is L2?')
    """
    found = _ASIDE.search(question)
    if found is None or len(question[: found.start()].split()) < 2:
        return question
    return f"{question[: found.start()].rstrip(' ,;:')}{found['end'][:1]}"


_MEANING = re.compile(
    r"\s*(?:what(?:'s|’s|\s+is)\s+the\s+(?:meaning|definition)\s+of\s+(?P<of>.+?)|"
    r"what(?:'s|’s|\s+is|\s+are)\s+meant\s+by\s+(?P<meant>.+?)|"
    r"what\s+(?:does|do)\s+(?P<mean>.+?)\s+mean|what(?:'s|’s)\s+(?P<short>.+?))",
    re.IGNORECASE,
)


def as_what_is(question: str) -> str:
    """A question that asks what something is in other words ("What does X mean?", "What is meant by X?",
    "What's X?", "What is the meaning of X?", hedged: :mod:`agents.hedges`) as "What is X?"; "" for any
    other (what X stands for asks a long form: :mod:`agents.expansions`).

    >>> as_what_is("What does fine-tuning mean?"), as_what_is("what's a transformer")
    ('What is fine-tuning?', 'What is a transformer?')
    >>> as_what_is("What is meant by overfitting?"), as_what_is("What is overfitting?")
    ('What is overfitting?', '')
    >>> as_what_is("What is the meaning of life?"), as_what_is("what's the definition of a tensor")
    ('What is life?', 'What is a tensor?')
    """
    if (match := _MEANING.fullmatch(" ".join(unhedged(question).split()).rstrip(" ?.!"))) is None:
        return hedged_what_is(question)  # "what even is X?", "so, what is X?"
    term = next(group for group in match.groups() if group is not None).strip(" \"'“”")
    return f"What is {term}?" if term else ""


_IN_CONTEXT = re.compile(
    r"what\s+(?P<verb>is|are)\s+(?![^?]*\b(?:used|good)\s+for\b)"  # "X good for" asks X's purpose
    r"(?P<article>an?\s+|the\s+)?(?P<whole>(?P<term>[^?,;]{1,80}?)\s+(?:in|within|inside|for)\s+[^?,;]{1,160})",
    re.IGNORECASE,
)


def term_in_context(question: str) -> tuple[str, str, str, str]:
    """(the term, its article, the verb, the whole phrase asked about) of a question that asks
    what a term is within some context ("What is temperature in a language model?", "What is a
    token in NLP?"); empty strings for any other. Whether it asks a definition depends on the
    term: "What is the capital of France?" asks a name, and so may "What is the seat in the
    county?"; and the whole phrase may be one name ("Allen Institute for Artificial Intelligence").

    >>> term_in_context("What are tokens in NLP?")
    ('tokens', '', 'are', 'tokens in NLP')
    >>> term_in_context("What is dropout?"), term_in_context("What is a 1x1 convolution good for in CNNs?")
    (('', '', '', ''), ('', '', '', ''))
    """
    match = _IN_CONTEXT.fullmatch(" ".join(question.split()).rstrip(" ?.!"))
    if match is None:
        return "", "", "", ""
    article = (match.group("article") or "").strip().lower()
    return match.group("term").strip(" \"'“”"), article, match.group("verb").lower(), match.group("whole")


def asked_part(question: str) -> str:
    """The question from its first question word on, in lower case ("" when it has none)."""
    lower = question.strip().lower()
    first = _WH.search(lower)
    return lower[first.start() :] if first is not None else ""


def expected_kind(question: str) -> Kind:
    """What kind of answer a question asks for, read from its first question word (a "when" inside
    a quoted title further on is not the question's).

    >>> [expected_kind(q) for q in ("When did it open?", "How many seats?", "Is it red?",
    ...  "Who was born first, Ann or Bo?", "Who wrote it?", "What city was it born in?",
    ...  "What is attention?", "What is the seat of the county?", "Why does it fail?")]
    ['date', 'number', 'yesno', 'option', 'name', 'name', 'definition', 'name', 'explanation']
    """
    text = question.strip()
    lower = text.lower()
    asked = asked_part(text)  # "how can I make it shorter or cheaper?" asks how, not which
    comparative = (SMALLEST.search(text) or LARGEST.search(text)) and asked[:3] not in ("how", "why")
    if OPTIONS.search(text) and (re.match(r"^\s*(?:which|who|what)\b", lower) or comparative):
        return "option"
    if not asked:
        return "yesno" if _AUX.match(text) else "name"
    if ASPECT.match(asked):
        return "explanation"
    told = re.search(r"\b(?:know|tell|say|remember|wonder)s? (?:me |us )?$", lower[: len(lower) - len(asked)])
    when = re.match(r"when\b", asked) and (told or not _AUX.match(text))  # "Does X grow when Y?": yes or no
    dated = r"^(?:what|which) (?:year|date|day|month|decade|century)\b|"
    dated += r"\b(?:birthday|birth date|date of birth|born on)\b"
    if when or re.search(dated, asked):
        return "date"
    if re.match(
        r"how (?:many|much|long|old|tall|far|big|large|high)\b|what (?:percentage|percent|number)\b", asked
    ) or asks_measure(asked):  # "What's the default temperature value?" asks for a value
        return "number"
    if _AUX.match(text) and not lower.startswith(asked) and not re.search(r",\s*(?:what|which|who)", lower):
        return "yesno"
    if _EXPLAIN.match(asked):
        return "explanation"
    if DEFINED.match(asked) is not None:
        return "definition"
    return "name"


def answer_candidates(text: str, kind: Kind) -> list[tuple[int, int]]:
    """(start, end) of the spans of a sentence that could answer a question of ``kind``."""
    found: list[tuple[int, int]] = []
    if kind == "date":
        found += [m.span() for m in DATE.finditer(text)]
    if kind == "number":
        found += [m.span() for m in NUMBER.finditer(text)]
    if kind == "name":
        found += [m.span(1) for m in _QUOTED.finditer(text)]
        found += name_spans(text)
    return found


_DEMONYM = re.compile(r"(?:an|ian|ean|ese|ish|ch|i|ic)$")
_LONGEST_NAME = 6
"""Words at most in a name (a longer run is a list or a table row, not one name)."""


_INITIAL = re.compile(r"[A-Z](?:\.[A-Z])*")
"""A name's initial, or initials ("K" of "Philip K. Dick", "U.S" of "U.S. Soccer"), as a word."""


def name_spans(text: str) -> list[tuple[int, int]]:
    """Runs of capitalized words (connectors inside), not a sentence's first word alone when it is
    a common word, nor a capitalized adjective before a lower-case word ("an American actor"), nor
    a month with its day ("March 8": a date), at most six words, without a possessive "'s"."""
    words = list(WORD.finditer(text))
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(words):
        word = words[index].group(0)
        if not (
            word[0].isupper()
            or (word[0].isdigit() and index + 1 < len(words) and words[index + 1].group(0)[0].isupper())
        ):
            index += 1
            continue
        end = index
        while end + 1 < len(words):
            nxt = words[end + 1].group(0)
            gap = text[words[end].end() : words[end + 1].start()]
            initial = gap.strip() == "." and _INITIAL.fullmatch(words[end].group(0)) is not None
            if gap.strip(" ,") and gap.strip() not in ("", "-") and not initial:  # "Philip K. Dick"
                break
            if "," in gap:
                break
            if nxt[0].isupper() or nxt[0].isdigit():
                end += 1
            elif nxt.lower() in _CONNECT and end + 2 < len(words) and words[end + 2].group(0)[0].isupper():
                end += 2
            else:
                break
        first = words[index].group(0)
        following = words[end + 1].group(0) if end + 1 < len(words) else ""
        adjective = end == index and _DEMONYM.search(first) is not None and following[:1].islower()
        closed = first.lower() in _STOP or (first.lower() in _CLOSED and not first.isupper())
        common = end == index and index == 0 and closed
        start = index + 1 if first.lower() in _STOP and end > index else index
        dated = _MONTH.fullmatch(first) is not None and any(
            w.group(0)[0].isdigit() for w in words[start : end + 1]
        )
        if not adjective and not common and not dated and end - start < _LONGEST_NAME:
            stop = words[end].end()
            if text[words[end].start() : stop].endswith(("'s", "’s")):
                stop -= 2
            runs.append((words[start].start(), stop))
        index = end + 1
    return runs


def focus_of(question: str) -> set[str]:
    """The word the question asks about: the first content word after its question word ("Who is
    the mayor of ..." asks for a mayor).

    >>> focus_of("Who is the mayor of the city where Acme is?"), focus_of("Name the river.")
    ({'mayor'}, set())
    """
    first = _WH.search(question)
    words = content_terms(question[first.end() :]) if first is not None else []
    return set(words[:1])
