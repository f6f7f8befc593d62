"""Fitting the learned reading of question types (:mod:`agents.offline.question_model`).

A multinomial logistic regression (scikit-learn, ``C = 1``) over the features of
:func:`agents.offline.question_model.features` of each training question, its concepts masked as
the classifier masks a graph's concepts. The weights of every feature that moves some class by at
least :data:`KEPT` are written, rounded, with the classes and intercepts, to ``questions.json``.

``magg model build --only questions`` (or ``python -m agents.offline.question_training``) rewrites
``agents/offline/questions.json`` from ``agents/offline/data/questions_train.jsonl``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from agents.offline.question_model import MODEL_PATH, TRAINING, features, mask

__all__ = ["KEPT", "build_questions_model", "fit_questions", "main"]

KEPT = 0.005
"""The least weight, for some class, that keeps a feature in the written model."""


def fit_questions(rows: Sequence[dict[str, object]]) -> dict[str, object]:
    """The model fitted on labelled questions (``question``, ``type``, ``concepts``), as written."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    x = []
    for row in rows:
        concepts = [str(c) for c in row["concepts"]] if isinstance(row["concepts"], list) else []
        x.append(features(mask(str(row["question"]), concepts), len(concepts)))
    vectorizer = DictVectorizer(sort=True)
    model = LogisticRegression(C=1.0, max_iter=5000)
    model.fit(vectorizer.fit_transform(x), [str(row["type"]) for row in rows])
    weights = {
        name: [round(float(w), 5) for w in model.coef_[:, k]]
        for k, name in enumerate(vectorizer.get_feature_names_out())
        if max(abs(float(w)) for w in model.coef_[:, k]) >= KEPT
    }
    return {
        "classes": [str(c) for c in model.classes_],
        "intercepts": [round(float(b), 5) for b in model.intercept_],
        "weights": weights,
        "trained_on": len(rows),
    }


def build_questions_model(out: Path = MODEL_PATH, train: Path = TRAINING) -> str:
    """Fits the model on the questions of ``train``, writes it to ``out``; says what it wrote."""
    rows = [json.loads(line) for line in train.read_text("utf-8").splitlines() if line.strip()]
    model = fit_questions(rows)
    out.write_text(json.dumps(model, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    kept = model["weights"]
    count = len(kept) if isinstance(kept, dict) else 0
    return f"{len(rows)} questions, {count} features (at least {KEPT} for some type)"


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fit the question-type model.")
    parser.add_argument("--train", type=Path, default=TRAINING)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args(list(argv) if argv is not None else None)
    print(f"{build_questions_model(args.out, args.train)} -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
