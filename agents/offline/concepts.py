"""The offline concept extractor: the terms a chunk of a lesson defines, uses or mentions.

Every candidate must pass :func:`agents.offline.terms.is_term`, which asks less of a phrase the
lesson defines or emphasises than of one it only uses (:data:`agents.offline.terms.Evidence`).
Candidates come from:

- acronym definitions, "long form (ACR)": the long form, defined, with the acronym as its alias;
- emphasis: a bold (``**X**``) or italic (``*X*``) noun phrase of at most five words; defined
  when the sentence defines it ("called *X*", "**X** is ...", :func:`defining`), or when it is
  the term of a glossary entry ("- **X**: Partial description of ...", :func:`agents.offline.glossary.entry`)
  that the chunk writes again, and then taught with the sentence (the entry's line) as description;
  "X of Y" only when defined; a modifier alone ("the *spectral* norm") names the whole phrase when
  defined, else nothing; a Title Case phrase that the chunk does not write again is a label
  ("**Invoice File**"), not a term; quoted lines (``>``) skipped;
- copular definitions: a sentence that opens by saying what a noun phrase is ("Fine-tuning is a
  common practice ...", "Embeddings are a set of models ...") defines it, and teaches it with the
  sentence as description, when the chunk writes the phrase again (a phrase said once, "The main
  difference is a ...", is no topic of the chunk);
- names: an acronym or CamelCase word of three letters or more ("BERT", "PyTorch") written twice;
- cue phrases (:func:`agents.cues.cue_statements`): on either side, for each part of a list, the
  noun-phrase run (:func:`agents.phrases.noun_runs`) next to the cue; defined when the cue states
  a curriculum relation (strength :data:`EXPLICIT_CUE` or more: "is a prerequisite for"); beside
  a weaker cue ("is a", "uses", "such as") only when the chunk writes it again: the genus of a
  bare "X is a Y" said once describes X ("Miniconda is a lightweight installer"), and a run said
  once beside a cue is as often a fragment ("due to its efficacy momentum is a ..."); a participle
  after an adverb goes with it ("one of the widely used dataset": "dataset", never "used dataset");
- recurrence: a noun-phrase run of two to five words written :data:`RECURRENCE` times or more;
- headings: each noun phrase a heading names ("### Teacher Forcing", "## What is cosine
  similarity?", a leading "What is" or article dropped; "## Padding and Stride" names two,
  :func:`agents.topics.heading_terms`), taught, as bold emphasis is, when the chunk's prose writes
  it too (in either number) and it passes the termhood bar of an emphasised term; or, whatever
  its termhood, when it is the lesson's topic (:func:`agents.offline.headings.topical`:
  "# Momentum" over a lesson that writes "momentum" again and again, far more often than general
  English and the course's other lessons do); or, for the lesson's title (its first level-one
  heading) of several words, when the prose writes each of its words ("# Softmax Regression" over
  a section that writes "softmax" and "regression" apart): a section is about what its heading
  names;
- vocabulary: a Metacademy concept name (``data/metacademy_vocabulary.json``) or a known concept
  (payload) written in the chunk, defined.

Of a noun-phrase run the longest tail that passes is taken, dropping only leading adjectives and
participles ("tight synchronization" -> "synchronization"), never a leading noun ("support vector
machines" stays whole or goes). Code, math, HTML, link targets and URLs are blanked to spaces first
(:func:`prose`, offsets kept). A chunk whose words are not English (fewer than
:data:`ENGLISH_SHARE` of them English function words) yields only names and vocabulary or known
concepts; a name outside Latin script is refused.

Roles: taught when defined by emphasis or in bold, else "uses" when written twice or more or
next to a cue, else "mentions". Confidence: 0.9 for a defined emphasised term, 0.75 for a cue-phrase
argument or a recurring phrase, 0.7 for an acronym definition, a vocabulary or known concept,
0.6 otherwise.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from agents.concepts import ConceptReply, ExtractedConcept, KnownConcept, guess_type
from agents.cues import cue_free, cue_statements
from agents.offline.acronyms import acronym_pairs
from agents.offline.glossary import control, entry, listed, quotations, run_in, title_case, written_alone
from agents.offline.headings import HeadingTopics, forms_written, forms_written_alone, heading_label, topical
from agents.offline.modifiers import emphasised_term
from agents.offline.tails import longer, narrowed, tails
from agents.offline.terms import TermEvidence, is_term
from agents.payload import as_list
from agents.phrases import FUNCTION_WORDS, conjuncts, gerund_only, named_alone, noun_runs, words
from agents.text import EMPHASIS, HEADING, MentionFinder, Sentence, normalize_name, sentences
from agents.topics import heading_terms, lesson_topics, without_headings
from magg_kg.llm.port import Prompt
from magg_kg.records import Role

__all__ = [
    "ENGLISH_SHARE",
    "EXPLICIT_CUE",
    "RECURRENCE",
    "defining",
    "extract_concepts_offline",
    "noun_phrase",
    "offline_handler",
    "prose",
    "vocabulary",
]

RECURRENCE = 3
"""How many times a noun phrase must be written in a chunk to be a candidate for that alone."""
EXPLICIT_CUE = 0.8
"""A cue at least this strong ("is a prerequisite for", "builds on", "is a kind of") states a
curriculum relation, so the phrases on its sides count as defined."""
ENGLISH_SHARE = 0.15
"""The least share of a chunk's words that are English function words for it to count as English."""

_RANK: dict[Role, int] = {"mentions": 0, "uses": 1, "teaches": 2}
_VOCABULARY = Path(__file__).with_name("data") / "metacademy_vocabulary.json"
_DEFINES = re.compile(
    r"^[*_]*\s*(?:\([^)]{1,40}\)\s*)?(?:,[^,]{1,60},\s*|,\s*which\s+)?(?:is|are|refers to|means|denotes)\s",
    re.IGNORECASE,
)
_CALLED = re.compile(
    r"(?:called|termed|known as|refer(?:red)? to (?:\w+ )?as|dubbed|named|so-called|the term|"
    r"call (?:it|them|this|these)(?: the| an?)?|"
    r"the notion of|the concept of)\s*[*_]*$",
    re.IGNORECASE,
)
_ALSO = re.compile(
    r"(?:also called|also known as|or simply|known as|abbreviated(?: as| to)?|short for)"
    r"\s+(?P<alias>[^,.;()]{2,60})",
    re.IGNORECASE,
)
_OR_ALSO = re.compile(
    r"\s*(?:\(\s*or\s+(?P<paren>[*_]*)(?P<alias>[^*_()\n]{2,60}?)(?P=paren)\s*\)"
    r"|,?\s+or\s+(?:(?:the|an?)\s+)?(?P<mark>[*_]+)(?P<named>[^*_()\n]{2,60}?)(?P=mark)(?=\s*[,.;:)]|\s*$))"
)
"""Another name right after an emphasised term: "*validation dataset* (or *validation set*)"; or,
after a term being defined, "call it the *sample space* or *outcome space*." and "is known as the
*underlying measure* or the *base measure*." (emphasised too, and closing the clause; "*dropout*
or *weight decay*" outside a definition names two things)."""
_NAME = re.compile(r"[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*|[a-z]+[A-Z][A-Za-z0-9]*")
_ROMAN = re.compile(r"[IVXLC]+s?")
_BLANK = re.compile(
    r"```.*?```|~~~.*?~~~|\$\$.*?\$\$|(?<![\\$])\$[^$\n]+\$(?:-[\w-]+)?|`[^`\n]*`(?:-[\w-]+)?|<!--.*?-->|"
    r"<[^>\n]+>|!?\[(?=[^\]\n]*\]\()|\]\([^)\n]*\)|https?://\S+|www\.\S+|:[a-z]+:`[^`]*`|"
    r"(?<=\s)-[^\W\d_][\w-]*",
    re.DOTALL,
)
"""What is not prose: code, math, HTML, link targets and URLs; with the rest of a word that math
or code begins ("$K$-fold", "`numpy`-based"), and such a rest left where the lesson's prose view
blanked the math already (" -fold"): a fragment, never a name."""
_COPULA = re.compile(
    r"^[-+*\s]*(?:(?:a|an|the)\s+)?(?P<term>[^\W\d_][\w\- ]{0,60}?)\s+(?:is|are)\s+"
    r"(?:a|an|the|one of)\s(?!(?:[\w-]+\s+){0,3}?(?:channel|podcast|blog|website|newsletter|book|show)s?\b)",
    re.IGNORECASE,
)
"""A sentence that opens by saying what a noun phrase is: "Fine-tuning is a common practice ...",
"Embeddings are a set of models ...", "The Transformer is an instance of ..." (a genus after "is",
as a glossary writes a definition); not when the genus is a channel, a book or another resource
("The AI Show is a YouTube channel ..."): a resource is no concept."""
_JOINERS = frozenset("of for to in on over".split())


def prose(text: str) -> str:
    """The text with code, math, HTML, link targets and URLs blanked to spaces (same length).

    >>> prose("Use `x = 1` and $y$ [see](http://a.b) here.")
    'Use           and      see              here.'
    """
    return _BLANK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def defining(text: str, start: int, end: int) -> bool:
    """Whether the phrase at ``text[start:end]`` is being defined: "called X", "X is ...".

    >>> t = "A model of this kind is called a *perceptron*."
    >>> defining(t, t.index("*"), len(t) - 1), defining("We use *care*.", 7, 13)
    (True, False)
    """
    before = re.sub(r"\s+(?:a|an|the)\s*$", "", text[max(0, start - 40) : start].replace("\n", " "))
    return _CALLED.search(before) is not None or _DEFINES.match(text[end : end + 80]) is not None


def noun_phrase(term: str, joined: bool = False) -> bool:
    """Whether a marked phrase (emphasised, or a heading) of one to five words is one noun-phrase
    run, or with ``joined`` several joined by "of", "over", ... ("curse of dimensionality", never
    "trust and transparency"); it may end in a gerund ("function calling"), as its marks end it.

    >>> noun_phrase("curse of dimensionality", joined=True), noun_phrase("curse of dimensionality")
    (True, False)
    >>> noun_phrase("calculating the loss", joined=True), noun_phrase("push(key)", joined=True)
    (False, False)
    >>> noun_phrase("function calling"), noun_phrase("dataset consisting")
    (True, True)
    """
    runs = noun_runs(term)
    gap = term[runs[0][1] : runs[1][0]] if len(runs) == 2 else ""
    if gap == " " and gerund_only(term[runs[1][0] : runs[1][1]]):
        # In running text a gerund after a noun starts a clause ("a dataset consisting of"); the
        # marks end a marked phrase, so there it is the head ("function calling").
        runs = [(runs[0][0], runs[1][1])]
    if not runs or runs[0][0] != 0 or runs[-1][1] != len(term) or len(term.split()) > 5:
        return False
    gaps = [term[a[1] : b[0]].strip().lower() for a, b in itertools.pairwise(runs)]
    return all(gap in _JOINERS for gap in gaps) and (joined or not gaps)


@cache
def vocabulary(path: Path = _VOCABULARY) -> dict[str, str]:
    """The bundled vocabulary: normalized name -> name (read once)."""
    names = json.loads(path.read_text(encoding="utf-8"))["names"]
    return {normalize_name(name): name for name in names if normalize_name(name)}


@dataclass(frozen=True)
class _Offer:
    name: str
    role: Role
    quote: str
    confidence: float
    source: str  # where the candidate came from, for diagnosis
    description: str = ""


@dataclass
class _Found:
    """The chunk's concepts so far, by normalized name, and the aliases met on the way."""

    offers: dict[str, _Offer] = field(default_factory=dict)
    aliases: dict[str, set[str]] = field(default_factory=dict)

    def add(self, offer: _Offer) -> None:
        key = normalize_name(offer.name)
        current = self.offers.get(key)
        better = current is None or _RANK[current.role] < _RANK[offer.role]
        if len(key) >= 2 and _latin(offer.name) and better:
            self.offers[key] = offer


def extract_concepts_offline(
    text: str, known: list[KnownConcept], node_types: frozenset[str], topics: HeadingTopics | None = None
) -> ConceptReply:
    """The offline concept extractor (see the module docstring for the rules)."""
    found = _found(text, known, topics or HeadingTopics())
    return ConceptReply(
        concepts=[_concept(found.offers[key], found, node_types) for key in sorted(found.offers)]
    )


def _found(text: str, known: list[KnownConcept], topics: HeadingTopics) -> _Found:
    clean = prose(text)
    english = _english(clean)
    units = sentences(clean, view=True)  # a chunk of the lesson's prose view
    found = _Found()
    for unit in units if english else []:  # a definition list's entries first: each says what its term is
        term, quote = _clean(listed(unit.text)), text[unit.start : unit.end]
        if term and noun_phrase(term, joined=True) and is_term(term, "defined"):
            found.add(_Offer(term, "teaches", quote, 0.9, "definition list", quote))
    names: Counter[str] = Counter()
    runs: Counter[str] = Counter()
    first: dict[str, tuple[str, str]] = {}
    for unit in units:
        quote, quoted = text[unit.start : unit.end], quotations(unit.text)
        for word in words(unit.text):
            # A name in quotes is mentioned, not used: a column "MSZoning", a tag "NNP".
            if any(a <= word.start < b for a, b in quoted) or len(word.text) <= 2:
                continue
            if _NAME.fullmatch(word.text) and not _ROMAN.fullmatch(word.text):
                names[word.text] += 1
                first.setdefault(word.text, (word.text, quote))
        if english:
            _defined_in(unit.text, quote, clean, found)
            _copula_in(unit.text, quote, clean, found)
            _argued_in(unit.text, quote, clean, found)
            for span in cue_free(unit.text, noun_runs(unit.text)):
                for name in (tail for tail in tails(unit.text, span) if " " in tail):
                    runs[normalize_name(name)] += 1
                    first.setdefault(normalize_name(name), (name, quote))
    for name, count in sorted(names.items()):
        if count >= 2 and len(name.rstrip("s")) > 2 and is_term(name, "defined"):
            found.add(_Offer(name, "uses", first[name][1], 0.6, "name"))
    for key, count in sorted(runs.items()):
        if count >= RECURRENCE and is_term(first[key][0]):
            found.add(_Offer(first[key][0], "uses", first[key][1], 0.75, "recurrence"))
    if english:
        _headed_in(text, clean, found, topics)
    _named_in(text, units, known, found)
    return found


def _defined_in(sentence: str, quote: str, clean: str, found: _Found) -> None:
    for long, short in acronym_pairs(sentence):
        if is_term(long, "defined"):
            found.aliases.setdefault(normalize_name(long), set()).add(short)
            found.add(_Offer(long, "uses", quote, 0.7, "acronym"))
    for match in EMPHASIS.finditer("" if sentence.startswith(">") else sentence):
        term, defined = emphasised_term(sentence, match, defining)  # "the *spectral* norm": the phrase
        term = _clean(term)
        if match.group("term").startswith("-") or not term:
            continue  # the rest of a word the prose view blanked: "$K$*-fold cross-validation*"
        # A glossary entry defines its term when the chunk writes the term again: a label that opens
        # its sentence, said once ("**Takeaway:** ...", "> **Pro tip:** ..."), is no topic of the chunk.
        again = len(forms_written(term, clean)) >= 2
        gloss = entry(sentence, match.start(), match.end()) if again else None
        labelled = not (defined or again) and run_in(sentence, match.start(), match.end())
        if labelled or control(sentence, match.start(), match.end()):
            continue  # a label, or a control's: "Click on **Show advanced options**"
        defined = defined or gloss is not None
        if not noun_phrase(term, joined=defined) or not is_term(term, "defined" if defined else "emphasised"):
            continue
        if not defined and title_case(term) and written_alone(term, clean) < 2:
            continue  # a label ("**Invoice File**", "**Augmented Generation:**"), not a term
        other = _OR_ALSO.match(sentence, match.end())
        alias = _clean((other.group("alias") or (other.group("named") if defined else "")) if other else "")
        if alias and is_term(alias, "defined"):
            found.aliases.setdefault(normalize_name(term), set()).add(alias)
        if defined or match.group("mark") == "**":
            description = (quote[slice(*gloss)].strip() if gloss else quote) if defined else ""
            found.add(_Offer(term, "teaches", quote, 0.9 if defined else 0.6, "emphasis", description))
        else:
            found.add(_Offer(term, "mentions", quote, 0.6, "emphasis"))


def _copula_in(sentence: str, quote: str, clean: str, found: _Found) -> None:
    match = _COPULA.match(sentence)
    if match is None:
        return
    term = _clean(match.group("term"))
    # The chunk must write it again: "The main difference is a ..." names no topic of the lesson.
    written = forms_written(term, clean)
    if term and len(written) >= 2 and noun_phrase(term) and is_term(term, "defined"):
        # The sentence's capital is the sentence's, not the name's, when the chunk writes the
        # name in lower case elsewhere ("Deep learning is ...", "... of deep learning").
        name = next((form for form in written if form == form.lower()), term)
        found.add(_Offer(name, "teaches", quote, 0.9, "copula", quote))


def _headed_in(text: str, clean: str, found: _Found, topics: HeadingTopics) -> None:
    outside = without_headings(clean)
    # The lesson's title terms its prose spells out, as the pipeline measured them over the whole
    # lesson; given a text alone (no topics), as the text's own headings and prose tell.
    titles = (
        topics.titles if topics.counts else {normalize_name(t.term) for t in lesson_topics(clean) if t.title}
    )
    for match in HEADING.finditer(clean):
        for term in (_spelled_out(t) for t in heading_terms(match.group("text") or "")):
            if not term or not noun_phrase(term):
                continue
            # The prose must write it too, as itself ("## Study Buddy" over an app's description is a
            # label, "# Changelog" over "based on Keep a Changelog" a document's genre), and names it:
            # in lower case when it writes it so ("## Teacher Forcing": "teacher forcing").
            if heading_label(term, outside):
                continue  # "### Implement ARIMA" over "It's time to implement ARIMA!"; "## Setup Steps"
            written = forms_written_alone(term, outside)
            lesson, lesson_form, concentration = topics.counts.get(normalize_name(term), (0, term, None))
            name = None
            if written and is_term(term, "emphasised"):
                name = next((form for form in written if form == form.lower()), written[0])
            elif topical(term, lesson, topics.words, concentration):
                name = lesson_form  # the lesson writes it again and again, if not this chunk
            elif normalize_name(term) in titles and is_term(term, "emphasised"):
                name = term  # the title: "# Softmax Regression" over "softmax" and "regression"
            if name is not None:
                found.add(_Offer(name, "teaches", text[match.start() : match.end()], 0.6, "heading"))


def _spelled_out(term: str) -> str:
    """A heading's term, cut to the words its acronym spells when it gives one: "Modern Large
    Language Models (LLMs)" names "Large Language Models", and "Introduction to Retrieval Augmented
    Generation (RAG)" names "Retrieval Augmented Generation"."""
    name = _clean(term)
    spelled = [long for long, _ in acronym_pairs(term) if name.endswith(long)]
    return spelled[0] if spelled else name


def _argued_in(sentence: str, quote: str, clean: str, found: _Found) -> None:
    for statement in cue_statements(sentence):
        explicit = statement.cue.strength >= EXPLICIT_CUE
        for side, nearest in ((statement.left, -1), (statement.right, 0)):
            for part in conjuncts(sentence, side):
                runs = noun_runs(sentence, *part)
                found_tails = tails(sentence, runs[nearest], beside_cue=True) if runs else []
                # Under a quantifier, or judging what the chunk names again, a leading adjective said once
                # only narrows a set or judges ("useful experiment tracking"): the tails module says.
                narrow = explicit and bool(runs) and narrowed(sentence, runs[nearest][0])
                kept = longer(found_tails, narrow, lambda t: _again(t, clean))
                bar: TermEvidence = "defined" if explicit else "used"
                name = next((t for t in (*kept, *found_tails[-1:]) if is_term(t, bar)), None)
                # Beside a cue that states no curriculum relation, a phrase the chunk writes once is
                # no topic of it: the genus of a bare "X is a Y" describes X ("Miniconda is a
                # lightweight installer"), and a run across a missing comma is a fragment ("due to
                # its efficacy momentum is a ...", "when to use nonzero paddings").
                if name is not None and (explicit or _again(name, clean)):
                    found.add(_Offer(name, "uses", quote, 0.75, "cue"))


def _named_in(text: str, units: list[Sentence], known: list[KnownConcept], found: _Found) -> None:
    # Names and aliases only: initials as keys would match words ("in" for "input node").
    keys = {key: f"v:{key}" for key in vocabulary()}
    keys.update(
        {normalize_name(form): c.id for c in known for form in (c.name, *c.aliases) if normalize_name(form)}
    )
    names = {c.id: c.name for c in known}
    counts: Counter[str] = Counter()
    quotes: dict[str, str] = {}
    finder = MentionFinder(keys)
    for unit in units:
        for start, end, concept in finder.find(unit.text):
            if concept.startswith("v:") and not named_alone(unit.text, start, end):
                continue  # a word of a longer name makes no concept: "the vanishing gradient problem"
            counts[concept] += 1
            quotes.setdefault(concept, text[unit.start : unit.end])
    for concept, count in sorted(counts.items()):
        name = names.get(concept) or vocabulary()[concept.removeprefix("v:")]
        if is_term(name, "defined"):
            role: Role = "uses" if count >= 2 else "mentions"
            found.add(_Offer(name, role, quotes[concept], 0.7, "known" if concept in names else "vocabulary"))


def _clean(name: str) -> str:
    name = re.split(r"\s[(\[]", name)[0]
    name = " ".join(name.replace("`", " ").split()).strip(" *_'\"“”‘’:;,.!?-")
    return re.sub(r"^the\s+", "", name, flags=re.IGNORECASE)


def _again(name: str, clean: str) -> bool:
    return len(forms_written(name, clean)) >= 2


def _latin(name: str) -> bool:
    return all(ord(ch) < 0x250 for ch in name)


def _english(text: str) -> bool:
    tokens = [w.text.lower() for w in words(text)]
    return len(tokens) < 12 or sum(1 for t in tokens if t in FUNCTION_WORDS) >= ENGLISH_SHARE * len(tokens)


def _also_known(description: str, key: str) -> set[str]:
    """The names a description gives after "also known as" and the like, but not a phrase that
    holds the name itself ("known as the *underlying measure* or the *base measure*")."""
    found = {m.group("alias").strip(" *_") for m in _ALSO.finditer(description)}
    return {alias for alias in found if f" {key} " not in f" {normalize_name(alias)} "}


def _concept(offer: _Offer, found: _Found, node_types: frozenset[str]) -> ExtractedConcept:
    key = normalize_name(offer.name)
    also = found.aliases.get(key, set()) | _also_known(offer.description, key)
    definition = offer.description[offer.description.find(offer.name) + len(offer.name) :]
    return ExtractedConcept(
        name=offer.name,
        type=guess_type(offer.name, definition.lstrip("*_, ") if offer.description else "", node_types),
        aliases=sorted(a for a in also if normalize_name(a) and normalize_name(a) != key),
        description=offer.description,
        role=offer.role,
        quote=offer.quote,
        confidence=offer.confidence,
    )


def offline_handler(prompt: Prompt) -> dict[str, object]:
    """The offline role: the payload's known concepts, node types and topics, the chunk as data."""
    known = [KnownConcept.model_validate(item) for item in as_list(prompt.payload.get("known"))]
    node_types = frozenset(str(item) for item in as_list(prompt.payload.get("node_types")))
    return extract_concepts_offline(
        prompt.data, known, node_types, HeadingTopics.of(prompt.payload)
    ).model_dump()
