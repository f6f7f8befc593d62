"""Features of one claim for the learned offline judgment, read from a judge prompt.

The judge, the owners and the training command all see a claim the same way: through the judge
prompt's payload (the proposal, the supporting subgraph) and its data (the evidence quotes). Every
feature is a number computed from those alone, so what the model was trained on is exactly what
it is shown when it judges. Nothing here names a concept or a lesson: the features describe the
shape of the support, never its identity, so that the model carries over to concepts it has not
seen.

Three groups, after the prerequisite-learning literature (RefD, Liang et al. 2015) and the
design's judge:

- **evidence**: what the best quote states about the claim (a cue of this type in this direction,
  the reverse, undirected, another type), its kind (explicit, implicit, inferred), hedging,
  negation, and how many lessons back it;
- **descriptions**: reference distance in the manner of RefD (does the later concept's
  description name the earlier one, and the reverse) and the TF-IDF similarity of the two;
- **graph**: a consistent path in learning order or hierarchy, a reverse path, conflicting edges,
  shared neighbours, degrees, whether both concepts were known before, and the curriculum's own
  teaching order;
- **lessons**: lesson co-occurrence (PMI, lessons naming both, hubs) and how many sentences of the
  lessons name both (:class:`agents.lesson_index.LessonIndex`): a pair a textbook names together
  sentence after sentence is related, one quote naming two concepts may be a list or a passing
  mention; and how those lessons present the two (a lesson whose headings name both, one that
  emphasises either): what the author made a topic or introduced is related to what it is named
  with more often than what is named in passing.

The claim's edge type enters as one indicator per type.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence

from agents.findings import Reading, read_evidence
from agents.names import headed_by
from agents.payload import as_list, as_mapping, as_number, as_strings, quotes_of
from agents.text import find_mentions, lexicon, normalize_name, sentences

__all__ = ["EDGE_TYPES", "FEATURES", "LEXICAL", "claim_features", "describe", "wording"]

EDGE_TYPES = ("prerequisite", "builds_on", "part_of", "contrasts_with", "related", "applies_to")

FEATURES: tuple[str, ...] = (
    "stated_forward",
    "stated_undirected",
    "stated_unnamed",
    "stated_reverse",
    "stated_other_type",
    "kind_explicit",
    "kind_implicit",
    "hedged",
    "negated",
    "instruction",
    "lessons",
    "refers_forward",
    "refers_backward",
    "no_description",
    "similarity",
    "path",
    "implied",
    "reverse_path",
    "contradicting",
    "already_related",
    "shared",
    "degree_src",
    "degree_dst",
    "isolated",
    "taught_in_order",
    "taught_reversed",
    "base_taught",
    "base_earlier",
    "base_later",
    "dependent_earlier",
    "dependent_later",
    "generality",
    "lessons_pmi",
    "lessons_together",
    "sentences_together",
    "headed_together",
    "marked_in_lesson",
    "hub",
    "name_contained",
    "name_overlap",
    "named_forward",
    "named_backward",
    "mention_gap",
    "coordinated",
    "from_lessons",
    "typed_unstated",
    *(f"type_{name}" for name in EDGE_TYPES),
)
"""The feature names, in the order of the model's weights."""

_DESCRIPTIONS = {
    "stated_forward": "a quote states this type in this direction",
    "stated_undirected": "a quote states this type between them, direction unclear",
    "stated_unnamed": "a cue of this type, an endpoint not named beside it",
    "stated_reverse": "a quote states it the other way round",
    "stated_other_type": "the quotes state another type between them",
    "kind_explicit": "explicit evidence",
    "kind_implicit": "both named in one sentence",
    "hedged": "hedged wording",
    "negated": "the quotes deny it",
    "instruction": "instruction-like text in a quote",
    "lessons": "independent lessons",
    "refers_forward": "the dependent concept's description names the other (RefD)",
    "refers_backward": "the base concept's description names the dependent one",
    "no_description": "a concept has no description",
    "similarity": "similar descriptions",
    "path": "the graph already joins them through a shared neighbour",
    "implied": "the graph already implies it (a longer path in learning order or hierarchy)",
    "reverse_path": "the graph orders them the other way",
    "contradicting": "conflicting active edges",
    "already_related": "the graph already joins them",
    "shared": "shared neighbours",
    "degree_src": "the source's degree",
    "degree_dst": "the destination's degree",
    "isolated": "a concept with no edge yet",
    "taught_in_order": "the curriculum teaches them in this order",
    "taught_reversed": "the curriculum teaches them the other way round",
    "base_taught": "a lesson teaches the base concept",
    "base_earlier": "concepts the base concept builds on",
    "base_later": "concepts that build on the base concept",
    "dependent_earlier": "concepts the dependent concept builds on",
    "dependent_later": "concepts that build on the dependent concept",
    "generality": "the base concept is named by more descriptions than the dependent one",
    "lessons_pmi": "the lessons name them together more than chance (PMI)",
    "lessons_together": "lessons that name both",
    "sentences_together": "more sentences of the lessons name both",
    "headed_together": "a lesson's headings name both",
    "marked_in_lesson": "a lesson naming both emphasises one of them",
    "hub": "an endpoint named by a large share of the lessons (a hub)",
    "name_contained": "one name contains the other",
    "name_overlap": "the names share words",
    "named_forward": "the dependent concept's name ends in the base concept's name",
    "named_backward": "the base concept's name ends in the dependent concept's name",
    "mention_gap": "words between the two names in the closest sentence",
    "coordinated": "the sentence joins them by 'and', 'or' or a comma",
    "from_lessons": "the claim comes from ingested lessons (not a reference text)",
    "typed_unstated": "no quote states this specific type (part, extension, contrast, application)",
}
LEXICAL = "w:"
"""The prefix of the lexical features: word n-grams of the sentences that name both concepts, with
the concepts masked (``SRC``/``DST``, or ``END`` for both ends of a symmetric type), keyed by the
claim's edge type ("w:prerequisite:dst uses src")."""
_NGRAM = 3
_FUNCTION = frozenset(
    "a an the is are was were be been being of for to in on at by with as and or that this these it its "
    "can which from into than then also".split()
)
"""Words that carry no relation on their own: an n-gram of a concept and these only is left out."""
_WORD = re.compile(r"[a-z]+|SRC|DST|END")
_STATED_RANK = {"none": 0, "unnamed": 1, "undirected": 2, "reverse": 3, "forward": 4}


def wording(quote: str, type_: str, names: tuple[list[str], list[str]]) -> set[str]:
    """The lexical features of one quote: masked word n-grams of each sentence naming both ends.

    >>> [w.split(":")[2] for w in sorted(wording("AIS uses MCMC.", "prerequisite", (["MCMC"], ["AIS"])))]
    ['DST uses', 'DST uses SRC', 'uses SRC']
    """
    symmetric = type_ in ("related", "contrasts_with")
    keys = lexicon([("SRC", names[0]), ("DST", names[1])])
    found: set[str] = set()
    for sentence in sentences(quote) or []:
        mentions = find_mentions(sentence.text, keys)
        if {m[2] for m in mentions} != {"SRC", "DST"}:
            continue
        pieces, cursor = [], 0
        for start, end, role in mentions:
            pieces.append(sentence.text[cursor:start].lower())
            pieces.append(f" {'END' if symmetric else role} ")
            cursor = end
        pieces.append(sentence.text[cursor:].lower())
        words = _WORD.findall("".join(pieces))
        for size in range(2, _NGRAM + 1):
            for first in range(len(words) - size + 1):
                gram = words[first : first + size]
                content = [word for word in gram if not word.isupper() and word not in _FUNCTION]
                if content and any(word.isupper() for word in gram):
                    found.add(f"{LEXICAL}{type_}:{' '.join(gram)}")
    return found


def describe(name: str) -> str:
    """A feature's meaning in words (for the judge's reasoning).

    >>> describe("reverse_path"), describe("type_related")
    ('the graph orders them the other way', 'the claim is of type related')
    """
    if name.startswith(LEXICAL):
        return f"the quote says '{name.split(':', 2)[2]}'"
    if name.startswith("type_"):
        return f"the claim is of type {name.removeprefix('type_')}"
    return _DESCRIPTIONS[name]


def claim_features(payload: Mapping[str, object], data: str) -> dict[str, float]:
    """The feature values of the claim in a judge prompt's ``payload`` and ``data``.

    >>> payload = {"proposal": {"src": "a", "type": "prerequisite", "dst": "b",
    ...     "src_names": ["calculus"], "dst_names": ["backpropagation"]},
    ...     "evidence": [{"index": 0, "lesson_id": "l1", "kind": "explicit"}], "subgraph": {}}
    >>> data = '[{"index": 0, "quote": "Calculus is a prerequisite for backpropagation."}]'
    >>> values = claim_features(payload, data)
    >>> values["stated_forward"], values["kind_explicit"], values["type_prerequisite"]
    (1.0, 1.0, 1.0)
    """
    proposal = as_mapping(payload.get("proposal"))
    src, type_, dst = str(proposal.get("src")), str(proposal.get("type")), str(proposal.get("dst"))
    names = (as_strings(proposal.get("src_names")) or [src], as_strings(proposal.get("dst_names")) or [dst])
    readings = read_evidence(payload, data, names)
    values = dict.fromkeys(FEATURES, 0.0)
    values.update(_evidence(readings))
    values.update(_descriptions(proposal, type_, names))
    subgraph = as_mapping(payload.get("subgraph"))
    values.update(_graph(subgraph, type_))
    values.update(_level(subgraph, type_))
    values.update(_lessons(subgraph))
    values["sentences_together"] = math.log1p(max(0.0, as_number(subgraph.get("sentences")) - 1))
    presented = as_list(subgraph.get("presented"))
    if len(presented) == 2:
        values["headed_together"] = float(bool(presented[0]))
        values["marked_in_lesson"] = float(bool(presented[1]))
    values.update(_names(names[0][0], names[1][0]))
    values.update(_nesting(names, type_))
    if type_ in EDGE_TYPES:
        values[f"type_{type_}"] = 1.0
    stated = any(values.get(f"stated_{how}") for how in ("forward", "undirected", "reverse"))
    values["typed_unstated"] = float(type_ in _SPECIFIC and not stated)
    values["from_lessons"] = float(proposal.get("origin") in ("ingest", "discover", "recheck"))
    quotes = quotes_of(data)
    gaps: list[tuple[int, bool]] = []
    for reading in readings:
        if not reading.instruction:
            values.update(dict.fromkeys(wording(quotes[reading.index], type_, names), 1.0))
            gaps += _gaps(quotes[reading.index], names)
    if gaps:
        gap, joined = min(gaps)
        values["mention_gap"] = math.log1p(gap)
        values["coordinated"] = float(joined)
    return values


_JOINED = re.compile(r"^\s*(?:,\s*)?(?:and|or|,)\s*$", re.IGNORECASE)


def _gaps(quote: str, names: tuple[list[str], list[str]]) -> list[tuple[int, bool]]:
    """For each sentence naming both ends: the words between the closest two mentions, and whether
    only "and", "or" or a comma stands between them."""
    keys = lexicon([("SRC", names[0]), ("DST", names[1])])
    found = []
    for sentence in sentences(quote) or []:
        mentions = find_mentions(sentence.text, keys)
        for first, second in itertools.pairwise(mentions):
            if first[2] != second[2]:
                between = sentence.text[first[1] : second[0]]
                found.append((len(between.split()), bool(_JOINED.match(between))))
    return found


def _evidence(readings: Sequence[Reading]) -> dict[str, float]:
    values: dict[str, float] = {}
    values["instruction"] = float(any(r.instruction for r in readings))
    usable = [r for r in readings if not r.instruction]
    if not usable:
        return values
    best = max(usable, key=lambda r: (_STATED_RANK[r.stated], r.kind == "explicit", r.kind == "implicit"))
    if best.stated != "none":
        values[f"stated_{best.stated}"] = 1.0
    values["stated_other_type"] = float(best.stated != "forward" and any(r.other_types for r in usable))
    kinds = {r.kind for r in usable}
    values["kind_explicit"] = float("explicit" in kinds)
    values["kind_implicit"] = float("explicit" not in kinds and "implicit" in kinds)
    values["hedged"] = float(best.hedged)
    values["negated"] = float(all(r.negated for r in usable))
    backing = {r.lesson_id for r in usable if r.stated in ("forward", "undirected") or r.kind != "inferred"}
    values["lessons"] = math.log1p(max(0, len(backing) - 1))
    return values


_SPECIFIC = frozenset({"part_of", "builds_on", "contrasts_with", "applies_to"})
"""The types that say more than that two concepts belong together or in which order they are
learned: a claim of one of them needs a quote that states it (``typed_unstated``)."""
_BASE_FIRST = frozenset({"prerequisite"})
"""Types whose source is the base concept the destination depends on; for the others (builds_on,
part_of, applies_to and the symmetric ones) the source is the dependent concept: it extends, is a
part of, or is applied to the destination."""


def _descriptions(
    proposal: Mapping[str, object], type_: str, names: tuple[list[str], list[str]]
) -> dict[str, float]:
    """RefD-like reference: whether the dependent concept's description names the base concept
    (and the reverse); for a symmetric type either direction counts as forward."""
    src_text = str(proposal.get("src_description") or "")
    dst_text = str(proposal.get("dst_description") or "")
    dst_names_src = bool(dst_text) and bool(find_mentions(dst_text, lexicon([("src", names[0])])))
    src_names_dst = bool(src_text) and bool(find_mentions(src_text, lexicon([("dst", names[1])])))
    forward, backward = _oriented(type_, dst_names_src, src_names_dst)
    return {
        "refers_forward": float(forward),
        "refers_backward": float(backward),
        "no_description": float(not src_text or not dst_text),
    }


def _graph(subgraph: Mapping[str, object], type_: str) -> dict[str, float]:
    values: dict[str, float] = {}
    values["similarity"] = as_number(subgraph.get("similarity"))
    found = float(bool(as_list(subgraph.get("paths"))))
    values["implied" if type_ in ("prerequisite", "builds_on", "part_of") else "path"] = found
    values["reverse_path"] = float(bool(as_list(subgraph.get("reverse_paths"))))
    contradicting = as_list(subgraph.get("contradicting"))
    values["contradicting"] = float(min(2, len(contradicting)))
    values["already_related"] = float(len(as_list(subgraph.get("between"))) > len(contradicting))
    values["shared"] = math.log1p(len(as_list(subgraph.get("shared_neighbors"))))
    degrees = as_list(subgraph.get("degrees"))
    src_degree = (
        as_number(degrees[0]) if len(degrees) == 2 else float(len(as_list(subgraph.get("src_neighbors"))))
    )
    dst_degree = (
        as_number(degrees[1]) if len(degrees) == 2 else float(len(as_list(subgraph.get("dst_neighbors"))))
    )
    values["degree_src"] = math.log1p(src_degree)
    values["degree_dst"] = math.log1p(dst_degree)
    values["isolated"] = float(src_degree == 0 or dst_degree == 0)
    taught = as_list(subgraph.get("first_taught"))
    if len(taught) == 2 and isinstance(taught[0], int) and isinstance(taught[1], int):
        values["taught_in_order"] = float(taught[0] < taught[1])
        values["taught_reversed"] = float(taught[0] > taught[1])
    elif len(taught) == 2 and isinstance(taught[1], int):
        values["taught_reversed"] = 0.5  # the later concept is taught, the earlier one not yet
    if len(taught) == 2:
        values["base_taught"] = float(isinstance(taught[0], int))
    return values


def _level(subgraph: Mapping[str, object], type_: str) -> dict[str, float]:
    """How foundational each end is: order degrees and citations, base concept first."""
    order = [as_number(v) for v in as_list(subgraph.get("order_degrees"))]
    cited = [as_number(v) for v in as_list(subgraph.get("cited"))]
    if len(order) != 4 or len(cited) != 2:
        return {}
    src_before, src_after, dst_before, dst_after = order
    if type_ in _BASE_FIRST:
        base, dependent = (src_before, src_after, cited[0]), (dst_before, dst_after, cited[1])
    else:
        base, dependent = (dst_before, dst_after, cited[1]), (src_before, src_after, cited[0])
    return {
        "base_earlier": math.log1p(base[0]),
        "base_later": math.log1p(base[1]),
        "dependent_earlier": math.log1p(dependent[0]),
        "dependent_later": math.log1p(dependent[1]),
        "generality": math.log1p(base[2]) - math.log1p(dependent[2]),
    }


def _lessons(subgraph: Mapping[str, object]) -> dict[str, float]:
    """Lesson co-occurrence: pointwise mutual information of the two concepts over lessons, how
    many lessons name both, and whether an endpoint is a hub named by a large share of lessons."""
    together = [as_number(v) for v in as_list(subgraph.get("together"))]
    total = as_number(subgraph.get("lessons"))
    if len(together) != 3 or total < 2 or not together[0] or not together[1]:
        return {}
    a, b, both = together
    pmi = math.log((both + 0.5) * total / (a * b))
    return {
        "lessons_pmi": max(-3.0, min(3.0, pmi)),
        "lessons_together": math.log1p(both),
        "hub": max(a, b) / total,
    }


def _nesting(names: tuple[list[str], list[str]], type_: str) -> dict[str, float]:
    """Whether the dependent concept's name ends in the base concept's ("stochastic gradient
    descent", "gradient descent": :mod:`agents.names`), and the reverse; for a symmetric type
    either way counts as forward."""
    forward, backward = _oriented(type_, headed_by(names[1], names[0]), headed_by(names[0], names[1]))
    return {"named_forward": float(forward), "named_backward": float(backward)}


def _oriented(type_: str, dst_refers_to_src: bool, src_refers_to_dst: bool) -> tuple[bool, bool]:
    """(forward, backward): whether the dependent concept refers to the base one (forward), and
    the base to the dependent (backward), given which end refers to which; for a symmetric type
    either way counts as forward."""
    if type_ in _BASE_FIRST:
        forward, backward = dst_refers_to_src, src_refers_to_dst
    else:
        forward, backward = src_refers_to_dst, dst_refers_to_src
    if type_ in ("related", "contrasts_with"):
        return forward or backward, False
    return forward, backward


def _names(src: str, dst: str) -> dict[str, float]:
    """Whether one name contains the other ("entropy", "Shannon entropy"), and their word overlap."""
    left, right = set(normalize_name(src).split(" ")) - {""}, set(normalize_name(dst).split(" ")) - {""}
    if not left or not right:
        return {}
    return {
        "name_contained": float(left <= right or right <= left),
        "name_overlap": len(left & right) / len(left | right),
    }
