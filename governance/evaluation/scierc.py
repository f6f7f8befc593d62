"""SciERC in DyGIE's layout: abstracts with entity mentions and relations, and the gold triples.

A split is ``{split}.jsonl`` (one abstract per line: ``doc_key``, ``sentences`` as token lists,
``ner`` per sentence as ``[start, end, type]`` with document-level token indices, end inclusive,
and ``relations`` per sentence as ``[h_start, h_end, t_start, t_end, LABEL]``) and
``{split}_triples.jsonl`` (one gold relation a line: ``doc_key``, ``sentence_index``, ``head``,
``head_span``, ``relation``, ``tail``, ``tail_span``, ...); see the data folder's ``SOURCE.md``.
The data has no license: it is read from ``../shared/data/scierc`` at run time, never copied.

Each abstract becomes a lesson: its sentences' tokens joined by spaces, one sentence a line, so
that a mention's text is its tokens joined by spaces (as in the triples file) and every sentence
is an exact quote of the lesson. Labels are mapped to the schema's names (:data:`LABELS`).

Refused with :class:`~magg_kg.errors.InputError`, naming file, line and field: a span out of its
sentence or the document, two entity spans of a sentence that cross (nesting is allowed: SciERC
has nested mentions), a relation label or entity type outside the schema, a triple whose text is
not the text of its span, a triple of an unknown document, a triple that is not a relation of its
document in the documents file or a relation there with no triple (the two files do not match: in
every split, train too), a ``ner`` or ``relations`` list that has not one row (a list) per
sentence, a ``doc_key`` used twice, a split with no document or no gold triple, and a train split
with no entity mention or no relation to learn from.

A relation written twice (the same sentence, spans and label: in both files, twice in SciERC's
own train split) is one relation: it is read once, so that no count of gold relations (recall,
the verifier's operating point) counts it twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from agents.schema_models import Annotated, Mention
from magg_kg.errors import InputError
from magg_kg.jsonlines import json_objects
from magg_kg.vocabulary import SCIERC

__all__ = ["LABELS", "SPLITS", "Document", "GoldTriple", "load_split", "parse_document", "sentences_of"]

LABELS: Mapping[str, str] = {
    "USED-FOR": "Used-for",
    "FEATURE-OF": "Feature-of",
    "HYPONYM-OF": "Hyponym-of",
    "PART-OF": "Part-of",
    "COMPARE": "Compare",
    "CONJUNCTION": "Conjunction",
    "EVALUATE-FOR": "Evaluate-for",
}
"""SciERC's labels, as the data writes them, to the schema's edge types."""
SPLITS = ("train", "dev", "test")


Relation = tuple[int, int, int, int, int, str]
"""A relation as both files name it: sentence index, head start and end, tail start and end
(document-level token indices, end inclusive) and SciERC's label."""


@dataclass(frozen=True)
class GoldTriple:
    """One gold relation: head and tail as text and as document-level token spans (end exclusive)."""

    head: str
    label: str
    tail: str
    head_span: tuple[int, int]
    tail_span: tuple[int, int]


@dataclass(frozen=True)
class Document:
    """One abstract: its sentences (tokens), sentence offsets, mentions and relations, and gold."""

    key: str
    sentences: tuple[tuple[str, ...], ...]
    starts: tuple[int, ...]
    """The document-level index of each sentence's first token."""
    annotated: tuple[Annotated, ...]
    gold: tuple[GoldTriple, ...]
    relations: tuple[Relation, ...] = ()
    """Every relation the documents file gives, as a triples file names it (:data:`Relation`)."""

    @property
    def text(self) -> str:
        return "\n".join(" ".join(tokens) for tokens in self.sentences)

    def sentence_offsets(self) -> list[tuple[int, int]]:
        """Each sentence's character offsets in :attr:`text`."""
        out, at = [], 0
        for tokens in self.sentences:
            line = " ".join(tokens)
            out.append((at, at + len(line)))
            at += len(line) + 1
        return out


def _spans(row: Mapping[str, object], where: str, what: str, width: int) -> list[list[object]]:
    """A per-sentence field (``ner``, ``relations``): one list a sentence; absent means none."""
    if what not in row:
        return [[] for _ in range(width)]
    value = row[what]
    if not isinstance(value, list):
        raise InputError(f"{where}: field {what!r} must be a list")
    if len(value) != width:
        raise InputError(f"{where}: {what!r} has {len(value)} rows for {width} sentences")
    for index, item in enumerate(value):
        if not isinstance(item, list):
            raise InputError(f"{where}: {what!r} row {index} must be a list, got {type(item).__name__}")
    return value


def _span(start: object, end: object, low: int, high: int, where: str) -> tuple[int, int]:
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool):
        raise InputError(f"{where}: span [{start!r}, {end!r}] must be two whole numbers")
    if start > end:
        raise InputError(f"{where}: span [{start}, {end}] ends before it starts")
    if not low <= start <= end < high:
        raise InputError(f"{where}: span [{start}, {end}] is out of its sentence (tokens {low}..{high - 1})")
    return start, end + 1


def parse_document(row: Mapping[str, object], where: str) -> Document:
    """One abstract from its JSON object (see the module docstring for what is refused)."""
    key, sentences = row.get("doc_key"), row.get("sentences")
    if not isinstance(key, str) or not key:
        raise InputError(f"{where}: field 'doc_key' must be a non-empty string")
    if (
        not isinstance(sentences, list)
        or not sentences
        or not all(isinstance(s, list) and s and all(isinstance(t, str) and t for t in s) for s in sentences)
    ):
        raise InputError(f"{where}: field 'sentences' must be a non-empty list of token lists")
    ner = _spans(row, where, "ner", len(sentences))
    relations = _spans(row, where, "relations", len(sentences))
    starts, at = [], 0
    for tokens in sentences:
        starts.append(at)
        at += len(tokens)
    annotated, given = [], []
    for index, tokens in enumerate(sentences):
        low, high = starts[index], starts[index] + len(tokens)
        here = f"{where}: {key} sentence {index}"
        mentions: list[Mention] = []
        for item in ner[index]:
            if not isinstance(item, list) or len(item) != 3:
                raise InputError(f"{here}: an entity must be [start, end, type], got {item!r}")
            s, e = _span(item[0], item[1], low, high, here)
            if item[2] not in SCIERC.node_types:
                raise InputError(f"{here}: entity type {item[2]!r} is not in the schema")
            for m in mentions:
                a, b = m.start + low, m.end + low
                if a < e and s < b and not (a <= s and e <= b) and not (s <= a and b <= e):
                    raise InputError(f"{here}: entity spans [{a}, {b - 1}] and [{s}, {e - 1}] cross")
            mentions.append(Mention(s - low, e - low, str(item[2])))
        index_of = {(m.start, m.end): i for i, m in enumerate(mentions)}
        rels = []
        for item in relations[index]:
            if not isinstance(item, list) or len(item) != 5:
                raise InputError(f"{here}: a relation must be [h_start, h_end, t_start, t_end, LABEL]")
            head = _span(item[0], item[1], low, high, here)
            tail = _span(item[2], item[3], low, high, here)
            if item[4] not in LABELS:
                known = ", ".join(LABELS)
                raise InputError(f"{here}: relation label {item[4]!r} is not in the schema ({known})")
            relation = (index, head[0], head[1] - 1, tail[0], tail[1] - 1, str(item[4]))
            if relation in given:
                continue  # written twice: one relation (module docstring)
            given.append(relation)
            h, t = index_of.get((head[0] - low, head[1] - low)), index_of.get((tail[0] - low, tail[1] - low))
            if h is not None and t is not None:
                rels.append((h, LABELS[str(item[4])], t))
        annotated.append(Annotated(tuple(tokens), tuple(mentions), tuple(rels)))
    return Document(
        key, tuple(tuple(s) for s in sentences), tuple(starts), tuple(annotated), (), tuple(given)
    )


def _lines(path: Path) -> list[tuple[str, dict[str, object]]]:
    if not path.is_file():
        raise InputError(f"{path} not found: --data must name a folder with SciERC's DyGIE files")
    return json_objects(path)


def _triple(row: Mapping[str, object], where: str, doc: Document, split: str) -> GoldTriple:
    label = row.get("relation")
    if label not in LABELS:
        raise InputError(f"{where}: relation label {label!r} is not in the schema ({', '.join(LABELS)})")
    words = [t for s in doc.sentences for t in s]
    index = row.get("sentence_index")
    if not isinstance(index, int) or not 0 <= index < len(doc.sentences):
        raise InputError(f"{where}: sentence_index {index!r} is not a sentence of {doc.key}")
    low, high = doc.starts[index], doc.starts[index] + len(doc.sentences[index])
    spans = []
    for side in ("head", "tail"):
        span = row.get(f"{side}_span")
        if not isinstance(span, list) or len(span) != 2:
            raise InputError(f"{where}: field '{side}_span' must be [start, end]")
        start, end = _span(span[0], span[1], low, high, where)
        if row.get(side) != " ".join(words[start:end]):
            raise InputError(f"{where}: {side} {row.get(side)!r} is not the text of its span {span}")
        spans.append((start, end))
    (hs, he), (ts, te) = spans
    if (index, hs, he - 1, ts, te - 1, label) not in doc.relations:
        raise InputError(
            f"{where}: {row.get('head')!r} {label} {row.get('tail')!r} (sentence {index}) is not a relation "
            f"of {doc.key} in {split}.jsonl: the two files do not match"
        )
    return GoldTriple(str(row["head"]), LABELS[str(label)], str(row["tail"]), spans[0], spans[1])


def load_split(folder: Path, split: str) -> list[Document]:
    """The documents of one split with their gold triples (from ``{split}_triples.jsonl``)."""
    if split not in SPLITS:
        raise InputError(f"split {split!r} is not one of {', '.join(SPLITS)}")
    path = folder / f"{split}.jsonl"
    docs: dict[str, Document] = {}
    lines: dict[str, str] = {}
    for where, row in _lines(path):
        doc = parse_document(row, where)
        if doc.key in lines:
            raise InputError(
                f"{where}: doc_key {doc.key!r} already on line {lines[doc.key].rsplit(':', 1)[1]}"
            )
        docs[doc.key], lines[doc.key] = doc, where
    if not docs:
        raise InputError(f"{path}: no documents: the {split} split is empty")
    if split == "train":
        _trainable(docs.values(), path)
    gold: dict[str, list[GoldTriple]] = {key: [] for key in docs}
    triples = folder / f"{split}_triples.jsonl"
    for where, row in _lines(triples):
        key = row.get("doc_key")
        if not isinstance(key, str) or key not in docs:
            raise InputError(f"{where}: doc_key {key!r} is not a document of {split}.jsonl")
        found = _triple(row, where, docs[key], split)
        if found not in gold[key]:  # a line written twice: one relation (module docstring)
            gold[key].append(found)
    if not any(gold.values()):
        raise InputError(f"{triples}: no gold triples for the {split} split")
    _all_named(docs.values(), gold, path, triples)
    return [Document(d.key, d.sentences, d.starts, d.annotated, tuple(gold[d.key])) for d in docs.values()]


def _all_named(
    documents: Iterable[Document], gold: Mapping[str, list[GoldTriple]], path: Path, triples: Path
) -> None:
    """Refuses a documents file with a relation its triples file has no line for (the gold of a split
    would miss it, or the extractor learn from a relation the gold does not hold)."""
    for doc in documents:
        named = {(g.head_span, g.label, g.tail_span) for g in gold[doc.key]}
        for relation in doc.relations:
            index, hs, he, ts, te, label = relation
            if ((hs, he + 1), LABELS[label], (ts, te + 1)) not in named:
                shown = [hs, he, ts, te, label]
                raise InputError(
                    f"{path}: {doc.key} sentence {index}: relation {shown} has no line in {triples.name}: "
                    "the two files do not match"
                )


def _trainable(documents: Iterable[Document], path: Path) -> None:
    """Refuses a train split the extractor cannot learn from: no entity mention, or no relation."""
    sentences = [s for doc in documents for s in doc.annotated]
    if not any(s.mentions for s in sentences):
        raise InputError(f"{path}: no entity mention to train the extractor on")
    if not any(s.relations for s in sentences):
        raise InputError(f"{path}: no relation (between entity mentions) to train the extractor on")


def sentences_of(documents: Sequence[Document]) -> list[Annotated]:
    """Every annotated sentence of the documents, for training."""
    return [sentence for doc in documents for sentence in doc.annotated]
