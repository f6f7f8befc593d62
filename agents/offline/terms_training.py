"""Training of the termhood model (:mod:`agents.offline.terms`) and of the bundled vocabulary.

Positives (genuine concepts):

- Metacademy concept titles (``metacademy/concepts.jsonl``), less topic titles that are not names
  (with ":", " as ", " vs ", " by ", or led by a gerund: "comparing normal populations");
- AL-CPL concept titles (``al-cpl/*_concepts.csv``, Wikipedia titles, disambiguation dropped);
  used for training only: nothing of it is shipped but the learned weights;
- terms the lessons (d2l sections, the genai course) define: an emphasised phrase (``*X*``,
  ``**X**``) right after "called", "known as", "refer to ... as", "the term" ..., or right before
  "is", "are", "refers to", "means"; and both forms of an acronym definition "long form (ACR)".

Negatives (not concepts), all drawn with a fixed seed from the lesson prose (code, math, markup and
URLs blanked) unless said otherwise, none equal to a positive:

- closed-class words alone (pronouns, determiners, prepositions, auxiliaries, ...);
- two words led by a pronoun, a non-article determiner or an auxiliary ("we will", "this model");
- quantities: a number or quantifier and the noun after it ("two inputs", "more data");
- comparatives and superlatives and the word after them ("higher precision", "best model");
- verb clauses: up to six words from a verb after "to", a modal or a subject pronoun
  ("compile it before executing it");
- single words that lemminflect's tables do not list as nouns ("predicted", "locally", "taking");
- everyday English nouns: words of wordfreq's top 25,000 English words that lemminflect can read
  as nouns ("procedure", "way", "lot"), ranks drawn log-uniformly so frequent words weigh more;
- people and works: the authors and titles of Metacademy's resource catalogue ("Christopher M.
  Bishop", "Pattern Recognition and Machine Learning");
- fragments of two to four words that hold a closed-class word ("gradient will", "to related");
- noun-phrase runs led by a common adjective or participle (Zipf 4 or more) that occur once in
  all the lessons ("considerable amount", "different strategies", "following example");
- all-caps common words ("NOTE", "IMPORTANT").

Label noise: a few everyday nouns are curriculum terms too ("matrix"), some one-off noun phrases
are genuine ("exact inference"), and an emphasised phrase after "called" is sometimes not a term
(those whose last word cannot be a noun, "exactly once", are left out). Leading articles are
dropped from every phrase, as the extractor drops them.

The figures :func:`build_terms_model` prints are cross-validated on a split grouped by the head word, so no
phrase is tested against a training variant with the same head ("gradient descent" / "stochastic
gradient descent"); AL-CPL is also held out whole to check recall on another field's terms.

Usage::

    python -m agents.offline.terms_training --data ../shared/data --out agents/offline/terms.json \
        [--vocabulary agents/offline/data/metacademy_vocabulary.json]
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np
from lemminflect import getAllLemmas
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold
from sklearn.preprocessing import StandardScaler
from wordfreq import top_n_list, zipf_frequency

from agents.offline.acronyms import acronym_pairs
from agents.offline.concepts import defining, prose
from agents.offline.terms import FEATURES, THRESHOLD, cues, term_features
from agents.phrases import CLOSED_CLASSES, Word, noun_runs, word_classes, words
from agents.text import normalize_name, sentences

__all__ = ["TermExample", "build_terms_model", "build_vocabulary", "lessons", "term_examples"]

METACADEMY = "Metacademy (metacademy.org) and its contributors"
_D2L_MARKUP = re.compile(r":(?:numref|cite|citet|citep|eqref|ref|label|eqlabel):`[^`]*`")
_EMPHASIS = re.compile(r"(?<![*\w])(\*\*?)(?P<term>[A-Za-z][^*\n]{1,60}?)\1(?![*\w])")
_TOPIC = re.compile(r":| as | vs\.? | by ", re.IGNORECASE)
_MODALS = frozenset("to can could will would should must may might we you they i".split())
_ARTICLES = frozenset({"the", "a", "an"})
_NOMINAL = frozenset({"NOUN", "PROPN", "X"})


@dataclass(frozen=True)
class TermExample:
    """One labelled phrase: its source (for the report) and its group (for the split)."""

    name: str
    label: int
    source: str
    group: str


def _example(name: str, label: int, source: str) -> TermExample:
    bare = re.sub(r"^(?:the|a|an)\s+", "", " ".join(name.split()), flags=re.IGNORECASE)
    return TermExample(bare, label, source, _group(bare))


def lessons(data: Path) -> list[str]:
    """The prose of the d2l sections and the genai lessons, code and math blanked."""
    texts = []
    for line in (data / "d2l-lessons" / "sections.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            texts.append(_D2L_MARKUP.sub("", str(json.loads(line)["text"])))
    for path in sorted((data / "genai-lessons").glob("[0-9]*.md")):
        texts.append(path.read_text(encoding="utf-8"))
    return [prose(text) for text in texts]


def metacademy_titles(data: Path) -> list[str]:
    """The Metacademy titles that are names, not topics."""
    titles = []
    for line in (data / "metacademy" / "concepts.jsonl").read_text(encoding="utf-8").splitlines():
        title = str(json.loads(line)["title"]).strip() if line.strip() else ""
        first = title.split(" ")[0].lower()
        gerund = first.endswith("ing") and "VERB" in word_classes(first) and " " in title
        if title and not _TOPIC.search(title) and not gerund:
            titles.append(title)
    return titles


def _alcpl_titles(data: Path) -> list[tuple[str, str]]:
    found = []
    for path in sorted((data / "al-cpl").glob("*_concepts.csv")):
        with path.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                title = re.sub(r"_\(.*\)$", "", row["concept_wikipedia_title"]).replace("_", " ").strip()
                if title:
                    found.append((title, path.stem))
    return found


def _defined_terms(texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        for match in _EMPHASIS.finditer(text):
            if defining(text, match.start(), match.end()):
                found.append(match.group("term").strip(" :.,"))
        for long, short in acronym_pairs(text):
            found.extend((long, short))
    return [
        term for term in found if 0 < len(term.split()) <= 5 and word_classes(term.split()[-1]) & _NOMINAL
    ]


def _group(name: str) -> str:
    key = normalize_name(name)
    return key.split(" ")[-1] if key else name.lower()


def term_examples(data: Path, seed: int = 0) -> list[TermExample]:
    """The labelled phrases (see the module docstring), deterministic for a seed."""
    texts = lessons(data)
    positives = [_example(t, 1, "metacademy") for t in metacademy_titles(data)]
    positives += [_example(t, 1, f"al-cpl:{stem}") for t, stem in _alcpl_titles(data)]
    positives += [_example(t, 1, "lessons:defined") for t in _defined_terms(texts)]
    taken = {normalize_name(e.name) for e in positives}
    emphasised = {normalize_name(m.group("term")) for text in texts for m in _EMPHASIS.finditer(text)}
    rng = random.Random(seed)
    pools: dict[str, list[str]] = {name: [] for name in _QUOTAS}
    runs: Counter[str] = Counter()
    for text in texts:
        for sentence in sentences(text):
            tokens = words(sentence.text)
            _fragments(sentence.text, tokens, pools)
            for start, end in noun_runs(sentence.text):
                runs[sentence.text[start:end]] += 1
    pools["closed"] = sorted({w for members in CLOSED_CLASSES.values() for w in members})
    pools["everyday"] = _everyday(rng)
    pools["people-and-works"] = _people_and_works(data)
    pools["shouting"] = [w.upper() for w in top_n_list("en", 3000) if w.isalpha() and len(w) >= 4]
    pools["one-off"] = [
        run
        for run, count in sorted(runs.items())
        if count == 1 and 2 <= len(run.split()) <= 4 and _led_by_modifier(run.split()[0])
    ]
    negatives = []
    for source, quota in _QUOTAS.items():
        pool = sorted({p for p in pools[source] if normalize_name(p) not in taken | emphasised})
        for name in rng.sample(pool, min(quota, len(pool))):
            negatives.append(_example(name, 0, f"negative:{source}"))
    unique: dict[tuple[str, int], TermExample] = {}
    for example in positives + negatives:
        unique.setdefault((normalize_name(example.name), example.label), example)
    return sorted(unique.values(), key=lambda e: (e.label, e.source, e.name))


_QUOTAS = {
    "closed": 150,
    "pronoun": 250,
    "quantity": 250,
    "comparative": 150,
    "verb": 300,
    "non-noun": 250,
    "everyday": 800,
    "people-and-works": 150,
    "fragment": 450,
    "one-off": 800,
    "shouting": 50,
}


def _everyday(rng: random.Random) -> list[str]:
    # Ranks drawn log-uniformly, so frequent words ("way", "case", "model") weigh as they do in text.
    ranked = [w for w in top_n_list("en", 25000)[50:] if w.isalpha() and len(w) > 2 and _noun(w)]
    return sorted({ranked[min(len(ranked) - 1, int(len(ranked) ** rng.random()))] for _ in range(4000)})


def _people_and_works(data: Path) -> list[str]:
    found = []
    for line in (data / "metacademy" / "resource_catalog.jsonl").read_text(encoding="utf-8").splitlines():
        resource = json.loads(line) if line.strip() else {}
        found.extend(re.split(r",\s*|\s+and\s+", str(resource.get("authors", ""))))
        found.append(str(resource.get("title", "")).split(":")[0])
    return [name.strip() for name in found if 1 < len(name.split()) <= 6]


def _noun(word: str) -> bool:
    return "NOUN" in word_classes(word)


def _led_by_modifier(word: str) -> bool:
    tags = word_classes(word)
    common = zipf_frequency(word.lower(), "en") >= 4.0
    return common and (("ADJ" in tags and "NOUN" not in tags) or tags == {"VERB"})


def _fragments(text: str, tokens: list[Word], pools: dict[str, list[str]]) -> None:
    lowered = [t.text.lower() for t in tokens]
    for i, token in enumerate(tokens):
        tags = word_classes(token.text)
        nxt = tokens[i + 1].text if i + 1 < len(tokens) else ""
        if nxt and (tags & {"PRON", "AUX"} or (tags == {"DET"} and lowered[i] not in _ARTICLES)):
            pools["pronoun"].append(f"{token.text} {nxt}")
        if nxt and (tags & {"NUM", "QUANT"} or token.text.isdigit()) and word_classes(nxt) & {"NOUN", "X"}:
            pools["quantity"].append(f"{token.text} {nxt}")
        if nxt and re.fullmatch(r"[a-z]+(?:er|est)|more|less|best|better|worse|worst", lowered[i]):
            if "ADJ" in tags and "NOUN" not in tags and word_classes(nxt) & {"NOUN", "X"}:
                pools["comparative"].append(f"{token.text} {nxt}")
        if i and lowered[i - 1] in _MODALS and "VERB" in tags:
            end = i
            while (
                end + 1 < len(tokens) and end - i < 5 and text[tokens[end].end : tokens[end + 1].start] == " "
            ):
                end += 1
            if end > i:
                pools["verb"].append(text[token.start : tokens[end].end])
        lexical = set(getAllLemmas(lowered[i]))  # without the gerund reading word_classes adds
        if not lexical & {"NOUN", "PROPN"} and lexical & {"VERB", "ADJ", "ADV"} and "ADP" not in tags:
            pools["non-noun"].append(token.text)
        size = 2 + (token.start % 3)  # two to four words, varied by position
        window = tokens[i : i + size]
        closed = any(word_classes(w.text) & {"DET", "PRON", "ADP", "AUX", "CONJ"} for w in window)
        if len(window) == size and closed and all(text[a.end : b.start] == " " for a, b in pairwise(window)):
            pools["fragment"].append(text[token.start : window[-1].end])


MIN_CUE_COUNT = 3
"""A lexical cue (:func:`agents.offline.terms.cues`) gets a weight when this many phrases have it."""


@dataclass(frozen=True)
class _Fitted:
    scaler: StandardScaler
    model: LogisticRegression
    cue_names: tuple[str, ...]

    def matrix(self, items: list[TermExample]) -> np.ndarray:
        index = {name: i for i, name in enumerate(self.cue_names)}
        lexical = np.zeros((len(items), len(self.cue_names)))
        for row, item in enumerate(items):
            for name in cues(item.name):
                if name in index:
                    lexical[row, index[name]] = 1.0
        return np.hstack([self.scaler.transform(_dense(items)), lexical])


def _dense(items: list[TermExample]) -> np.ndarray:
    return np.array([term_features(e.name) for e in items], dtype=float)


def _fit(items: list[TermExample]) -> _Fitted:
    counts = Counter(name for item in items for name in set(cues(item.name)))
    names = tuple(sorted(name for name, count in counts.items() if count >= MIN_CUE_COUNT))
    fitted = _Fitted(StandardScaler().fit(_dense(items)), LogisticRegression(), names)
    fitted.model.set_params(C=0.5, class_weight="balanced", max_iter=3000)
    fitted.model.fit(fitted.matrix(items), np.array([e.label for e in items]))
    return fitted


def _predict(fitted: _Fitted, items: list[TermExample]) -> np.ndarray:
    return np.asarray(fitted.model.predict_proba(fitted.matrix(items))[:, 1])


def report(items: list[TermExample], folds: int = 5) -> list[str]:
    """Cross-validated precision/recall (split grouped by head word), reliability, held-out AL-CPL."""
    labels = np.array([e.label for e in items])
    scores = np.zeros(len(items))
    groups = [e.group for e in items]
    for train, test in GroupKFold(n_splits=folds).split(np.zeros(len(items)), labels, groups):
        scores[test] = _predict(_fit([items[i] for i in train]), [items[i] for i in test])
    lines = [f"{len(items)} phrases: {int(labels.sum())} terms, {int((1 - labels).sum())} non-terms"]
    for threshold in (0.35, 0.5, THRESHOLD, 0.7, 0.8):
        chosen = scores >= threshold
        precision = float((labels[chosen] == 1).mean()) if chosen.any() else 0.0
        recall = float(chosen[labels == 1].mean())
        lines.append(f"  threshold {threshold:.2f}: precision {precision:.3f}  recall {recall:.3f}")
    # The model's probability assumes balanced classes, so the bands also show the share of terms
    # with each class weighted to half, which is what a calibrated model matches.
    weights = np.where(labels == 1, 0.5 / labels.mean(), 0.5 / (1 - labels.mean()))
    lines.append("  reliability (out-of-fold): band -> share of terms, balanced share (n)")
    for low in np.arange(0.0, 1.0, 0.1):
        band = (scores >= low) & (scores < low + 0.1 + (1e-9 if low >= 0.9 else 0))
        if band.any():
            balanced = float((weights * labels)[band].sum() / weights[band].sum())
            share = f"{labels[band].mean():.3f}, {balanced:.3f}"
            lines.append(f"    {low:.1f}-{low + 0.1:.1f}: {share} ({int(band.sum())})")
    for source in sorted({e.source for e in items}):
        mask = np.array([e.source == source for e in items])
        right = (scores[mask] >= THRESHOLD) == (labels[mask] == 1)
        lines.append(f"  {source}: {right.mean():.3f} right at {THRESHOLD} (n={int(mask.sum())})")
    held = [e for e in items if not e.source.startswith("al-cpl")]
    alcpl = [e for e in items if e.source.startswith("al-cpl")]
    recall = float((_predict(_fit(held), alcpl) >= THRESHOLD).mean()) if alcpl else 0.0
    lines.append(f"  AL-CPL held out whole: recall {recall:.3f} (n={len(alcpl)})")
    return lines


def build_terms_model(data: Path, out: Path) -> None:
    """Trains the model on ``data`` (the shared data folder), prints its figures, writes ``out``."""
    items = term_examples(data)
    for line in report(items):
        print(line)
    fitted = _fit(items)
    counts = Counter(e.source.split(":")[0] for e in items)
    dense = len(FEATURES)
    payload = {
        "features": list(FEATURES),
        "mean": [round(float(v), 6) for v in fitted.scaler.mean_],
        "scale": [round(float(v), 6) for v in fitted.scaler.scale_],
        "weights": [round(float(v), 6) for v in fitted.model.coef_[0][:dense]],
        "intercept": round(float(fitted.model.intercept_[0]), 6),
        "cues": {
            name: round(float(weight), 4)
            for name, weight in zip(fitted.cue_names, fitted.model.coef_[0][dense:], strict=True)
            if abs(weight) >= 0.05
        },
        "trained_on": dict(sorted(counts.items())),
    }
    out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")


def build_vocabulary(data: Path, out: Path) -> None:
    """Writes the Metacademy concept names (titles that are names) as a vocabulary, attributed."""
    payload = {
        "_license": "CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0/)",
        "_attribution": f"Concept titles from {METACADEMY}; https://github.com/metacademy/metacademy-content",
        "names": sorted(set(metacademy_titles(data)), key=str.lower),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(payload['names'])} names)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder")
    parser.add_argument("--out", type=Path, required=True, help="where the model's JSON goes")
    parser.add_argument("--vocabulary", type=Path, help="where the Metacademy vocabulary JSON goes")
    args = parser.parse_args()
    build_terms_model(args.data, args.out)
    print(f"wrote {args.out}")
    if args.vocabulary is not None:
        build_vocabulary(args.data, args.vocabulary)


if __name__ == "__main__":
    main()
