"""Triple F1 of an admitted graph against gold triples, per document, in total and per label.

A triple is ``(head text, label, tail text)`` of one document; a symmetric label's two ends are
unordered. Both sides are sets per document (a triple stated twice counts once).

strict
    head text, tail text and label exact: the text of a mention is its tokens joined by spaces,
    as in SciERC's triples file, so an exact text is an exact span's text (MAGG's strict F1);
mapped
    texts normalised before matching (:func:`normalise`: lower case, punctuation, a leading
    article or demonstrative and a plural ``s`` dropped), the label exact.

Totals are micro-averaged (counts summed over documents); a document's F1 is there for the table.

>>> gold = {"d": [("CNN", "Used-for", "parsing"), ("A", "Compare", "B")]}
>>> pred = {"d": [("CNN", "Used-for", "parsing"), ("B", "Compare", "A"), ("the CNNs", "Used-for", "parsing")]}
>>> card = score_triples(pred, gold, frozenset({"Compare"}))
>>> card["strict"]["precision"], card["strict"]["recall"]
(0.6667, 1.0)
>>> card["mapped"]["precision"], card["mapped"]["f1"]
(1.0, 1.0)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["TextTriple", "normalise", "prf", "score_triples"]

TextTriple = tuple[str, str, str]
"""A triple of texts: (head text, label, tail text) of one document, not of concept ids."""
Json = dict[str, object]
_LEADING = re.compile(r"^(the|a|an|this|these|that|those|our|its|their)\s+")


def normalise(text: str) -> str:
    """The mapped form of a mention's text.

    >>> normalise("The  Hidden-Markov models .")
    'hidden markov model'
    """
    words = re.sub(r"[^\w\s]", " ", text.lower())
    words = _LEADING.sub("", " ".join(words.split()))
    if len(words) > 3 and words.endswith("s") and not words.endswith("ss"):
        words = words[:-1]
    return words


def prf(true_pos: int, predicted: int, gold: int) -> Json:
    """Counts and precision, recall, F1 (``None`` where undefined).

    >>> prf(1, 4, 2)["f1"]
    0.3333
    """
    precision = round(true_pos / predicted, 4) if predicted else None
    recall = round(true_pos / gold, 4) if gold else None
    f1 = round(2 * true_pos / (predicted + gold), 4) if predicted + gold and (predicted and gold) else None
    return {
        "tp": true_pos,
        "predicted": predicted,
        "gold": gold,
        "precision": precision,
        "recall": recall,
        "f1": f1,
    }


def _keys(triples: Iterable[TextTriple], symmetric: frozenset[str], mapped: bool) -> set[TextTriple]:
    out = set()
    for head, label, tail in triples:
        if mapped:
            head, tail = normalise(head), normalise(tail)
        if label in symmetric and tail < head:
            head, tail = tail, head
        out.add((head, label, tail))
    return out


def score_triples(
    predicted: Mapping[str, Sequence[TextTriple]],
    gold: Mapping[str, Sequence[TextTriple]],
    symmetric: frozenset[str],
) -> Json:
    """Strict and mapped scores in total, per label (strict) and per document (module docstring)."""
    totals = {"strict": Counter[str](), "mapped": Counter[str]()}
    labels: dict[str, Counter[str]] = {}
    documents: Json = {}
    for doc in sorted(set(gold) | set(predicted)):
        row: Json = {}
        for regime, mapped in (("strict", False), ("mapped", True)):
            pred = _keys(predicted.get(doc, ()), symmetric, mapped)
            true = _keys(gold.get(doc, ()), symmetric, mapped)
            hits = pred & true
            totals[regime].update({"tp": len(hits), "p": len(pred), "g": len(true)})
            row[regime] = prf(len(hits), len(pred), len(true))["f1"]
            if not mapped:
                for name, keys in (("tp", hits), ("p", pred), ("g", true)):
                    for _, label, _ in keys:
                        labels.setdefault(label, Counter())[name] += 1
        documents[doc] = row
    return {
        "strict": prf(totals["strict"]["tp"], totals["strict"]["p"], totals["strict"]["g"]),
        "mapped": prf(totals["mapped"]["tp"], totals["mapped"]["p"], totals["mapped"]["g"]),
        "by_label": {name: prf(c["tp"], c["p"], c["g"]) for name, c in sorted(labels.items())},
        "documents": documents,
    }
