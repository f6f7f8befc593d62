"""Which edges bear on what an open question asks of a concept.

An open question's expert answered with every edge of its domain that touches a concept the question
names, whatever it asked of it: "When should I use RAG instead of fine-tuning?" was answered with
"Retrieval Augmented Generation is related to vector database (the lesson says: "Effective integration
of RAG and Vector Databases in LLM Applications.")", which says nothing of when to use it. A question
that asks something of a concept - words beyond the names of the concepts it names, and beyond the
words that frame "What is X?" and "How does X work?" (:func:`agents.answer_forms.question_terms`) -
now keeps an edge only when it bears on that: its quote, or the name of its other end, says one of
those words (by stem; not the commonest words of English, "use", "make", "help", which say nothing
of a subject), or it joins two concepts the question names, or one of them to a concept another edge
joins to another (a path between them: "Why does weight decay reduce overfitting?" keeps "Regularization
is related to weight decay" beside "Overfitting is related to regularization"), or its quote names a
concept the question names other than the edge's own ends. "What is X?", "How does X work?" and "Why
would I use X?" ask nothing more than X: their answers keep every edge, the graph's account of X; so
does a question of one concept that asks it only in everyday words ("When should I use X?", "Tell me
how X works"): there is no word to judge an edge by.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from wordfreq import zipf_frequency

from agents.answer_forms import WORD, content_terms, question_terms
from agents.relevance import COMMONEST_ZIPF, in_a_row
from agents.text import acronym_of, initials, normalize_name

__all__ = ["bearing_edges", "name_terms", "predicate_terms"]

_LONGEST_WORD = 40
"""Letters at most in a word: a longer run (a pasted hash, a key held down) asks nothing."""


def _terms(text: str) -> list[str]:
    """Its content terms, a plural's "s" dropped ("GPUs" says "GPU")."""
    return [term.removesuffix("s") for term in content_terms(text)]


def name_terms(name: str) -> set[str]:
    """The terms a concept's name is said by in a question: its content terms, and its initials
    when it has two words or more ("rag" for "Retrieval Augmented Generation").

    >>> sorted(name_terms("Retrieval Augmented Generation")), sorted(name_terms("dropout"))
    (['augment', 'generat', 'rag', 'retriev'], ['dropout'])
    """
    short = _short(name)
    return set(_terms(name)) | ({short} if short else set())


def _short(name: str) -> str:
    """The initials of a name of two words or more ("rag"), or "" for a one-word name."""
    short = initials(normalize_name(name).replace("-", " "))
    return short if len(short) > 1 else ""


def predicate_terms(question: str, names: Collection[str]) -> frozenset[str] | None:
    """The terms of what an open question asks of the concepts it names (``names``): its terms
    (:func:`agents.answer_forms.question_terms`) less those of the names, an abbreviation of one
    counted as it ("LLMs" of "large language model"), and less the commonest words of English; None
    when it asks nothing more than the names ("What is X?", "How does X work?").

    >>> rag = ["Retrieval Augmented Generation"]
    >>> sorted(predicate_terms("When should I use RAG instead of fine-tuning?", rag) or ())
    ['fine-tun', 'instead']
    >>> predicate_terms("How does RAG work?", rag) is None
    True
    >>> predicate_terms("Why does dropout help generalization?", ["dropout", "generalization"])
    frozenset()
    """
    named: set[str] = set()
    for name in names:
        named |= name_terms(name)
    common: set[str] = set()
    for match in WORD.finditer(question):
        word = match.group(0)
        short = acronym_of(word)
        if short is not None and short in named:
            named.update(_terms(word))
        often = zipf_frequency(word.lower(), "en") >= COMMONEST_ZIPF  # "works": "work" is one too
        common.update(t for t in _terms(word) if often or zipf_frequency(t, "en") >= COMMONEST_ZIPF)
    rest = {term.removesuffix("s") for term in question_terms(question) if len(term) <= _LONGEST_WORD} - named
    return frozenset(rest - common) if rest else None


def bearing_edges(
    question: str,
    edges: Sequence[tuple[Mapping[object, object], str]],
    focus: Collection[str],
    names: Mapping[str, str],
    quotes: Mapping[str, str],
    intent: str = "about",
) -> list[tuple[Mapping[object, object], str]]:
    """The edges (each with the concept it answers) that bear on what an open question asks of the
    concepts ``focus`` (ids; ``names``: id -> name; ``quotes``: edge id -> quote); all of them when
    it asks nothing more than what they are (:func:`predicate_terms`), or when its ``intent`` is
    another than "about" (:func:`agents.qa.intent_of`: its type chose them, "before X").

    >>> names = {"rag": "RAG", "vdb": "vector database", "ft": "fine-tuning"}
    >>> edges = [({"edge_id": "e-1", "src": "rag", "dst": "vdb"}, "vdb"),
    ...          ({"edge_id": "e-2", "src": "rag", "dst": "ft"}, "ft")]
    >>> quotes = {"e-1": "Integration of RAG and vector databases."}
    >>> [e["edge_id"] for e, _ in bearing_edges("When should I use RAG instead of fine-tuning?",
    ...  edges, ["rag"], names, quotes)]
    ['e-2']
    >>> len(bearing_edges("What is RAG?", edges, ["rag"], names, quotes))
    2
    """
    asked, shorts = _terms(question), {acronym_of(word) for word in WORD.findall(question)}
    said = {c for c, name in names.items() if in_a_row(_terms(name), asked) or _short(name) in shorts}
    said |= set(focus)
    predicate = predicate_terms(question, [names.get(c, c) for c in said])
    # Nothing asked but everyday words of one concept ("When should I use X?", "Tell me how X works"):
    # no word to judge its edges by.
    if predicate is None or intent != "about" or (not predicate and len(said) < 2):
        return list(edges)
    joined: dict[str, set[str]] = {}  # a concept not named -> the named ones an edge joins it to
    for edge, _ in edges:
        ends = {str(edge["src"]), str(edge["dst"])}
        for end in ends - said:
            joined.setdefault(end, set()).update(ends & said)
    kept = []
    for edge, other in edges:
        ends = {str(edge["src"]), str(edge["dst"])}
        quote = _terms(quotes.get(str(edge["edge_id"]), ""))
        others = [_terms(names[c]) for c in said - ends if _terms(names[c])]
        if (
            ends <= said
            or any(len(joined.get(end, ())) > 1 for end in ends)
            or not predicate.isdisjoint([*quote, *_terms(names.get(other, other))])
            or any(in_a_row(name, quote) for name in others)
        ):
            kept.append((edge, other))
    return kept
