"""The learned judgment: calibrated logistic models over :mod:`agents.offline.features`.

Each model is a plain linear score ``z = intercept + sum(weight_i * x_i)`` followed by a sigmoid
calibration fitted on held-out folds (Platt scaling): ``p = 1 / (1 + exp(-(a * z + b)))``.

The judgment has four of them (:class:`JudgmentModel`), because a lesson's co-occurrence and a stated
relation are different things to judge. Most claims read from lessons are *implicit*: two concepts
named in one sentence, and the question is whether the lesson relates them or only names them
together; a model fitted on such claims alone, labelled by readers, ranks them better (ROC AUC 0.74
against 0.69 on d2l chapters never trained on, 0.77 with the lessons' presentation among its
features) than one fitted to every claim, which learned the more numerous reference claims. So
the *lessons* model judges every implicit claim from ingested lessons; the *reference* model,
fitted on Metacademy's prerequisites, links and their corruptions, judges every other claim: a
replay candidate, a person's proposal. A relation a lesson states in so many words is judged by
the *statements* model: the reference model with its edge-type indicators learned again from
labelled lesson statements (Metacademy holds no true part or contrast, only corrupted
prerequisites, so the reference model's indicators count against every stated kind;
:func:`governance.training.fit_statements`). A fourth, the *names*
model, judges claims between two bare names (no description, no quote but the names: data sets of
titles alone, such as AL-CPL and LectureBank, give them). It is fitted on the same Metacademy
claims with every summary and sentence left out: there, two names that look alike tell that the
concepts belong together, seldom which comes first, while the reference model learned the
likeness of two descriptions, and read names alone as if they were descriptions (it committed
AL-CPL's reversed pairs).

All are stored as one small JSON file in this package (``judgment.json``: for each, the feature
names, weights, the calibration and the cross-validated figures it was shipped with), written by
``magg model build`` (:mod:`governance.training`), never by hand. No pickle: the file is data,
read with ``json``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from agents.offline.features import FEATURES, LEXICAL
from agents.offline.model_files import read_model_file
from agents.payload import as_mapping, as_strings, quotes_of
from agents.text import normalize_name

__all__ = [
    "JUDGMENT_FILE",
    "JudgmentModel",
    "LinearModel",
    "is_bare_claim",
    "is_implicit_lesson_claim",
    "is_stated_lesson_claim",
    "judgment_model",
    "read_judgment_model",
]

JUDGMENT_FILE = "judgment.json"


@dataclass(frozen=True)
class LinearModel:
    """A calibrated linear model over named features."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float
    scale: float
    shift: float
    version: str
    table: Mapping[str, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", dict(zip(self.features, self.weights, strict=True)))

    def margin(self, values: Mapping[str, float]) -> float:
        """The uncalibrated score ``z``, added up in the order of the names: a float sum in the
        order of a set (the lexical features are one) would change in its last digits from one
        process to the next, as string hashing is salted."""
        terms = sorted((name, value) for name, value in values.items() if name in self.table)
        return self.intercept + sum(self.table[name] * value for name, value in terms)

    def probability(self, values: Mapping[str, float]) -> float:
        """The calibrated probability that the claim is true and supported.

        >>> model = LinearModel(("a",), (2.0,), -1.0, 1.0, 0.0, "t")
        >>> round(model.probability({"a": 1.0}), 4), round(model.probability({}), 4)
        (0.7311, 0.2689)
        """
        z = self.scale * self.margin(values) + self.shift
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def contributions(self, values: Mapping[str, float]) -> list[tuple[str, float]]:
        """Each non-zero feature's calibrated log-odds contribution, largest first (ties by name)."""
        found = [
            (name, self.scale * self.table[name] * value)
            for name, value in values.items()
            if value and self.table.get(name)
        ]
        return sorted(found, key=lambda item: (-abs(item[1]), item[0]))

    def as_dict(self, report: Mapping[str, object]) -> dict[str, object]:
        """The model and the figures it was built with, as the JSON this module reads."""
        return {
            "version": self.version,
            "features": list(self.features),
            "weights": [round(w, 6) for w in self.weights],
            "intercept": round(self.intercept, 6),
            "calibration": {"scale": round(self.scale, 6), "shift": round(self.shift, 6)},
            "report": dict(report),
        }


def is_implicit_lesson_claim(values: Mapping[str, float]) -> bool:
    """Whether a claim (its feature values) comes from ingested lessons with no quote stating a
    relation between its concepts: the claims the lessons model judges. They name both in one
    sentence, or one as the head of the other's name (:mod:`agents.names`: "stochastic gradient
    descent" ends in "gradient descent")."""
    nested = bool(values.get("named_forward")) or bool(values.get("named_backward"))
    unstated = bool(values.get("kind_implicit")) or (nested and not values.get("kind_explicit"))
    return bool(values.get("from_lessons")) and unstated


def is_stated_lesson_claim(values: Mapping[str, float]) -> bool:
    """Whether a claim (its feature values) comes from ingested lessons with a quote that the
    extractor read as stating it (explicit evidence): the claims the statements model judges."""
    return bool(values.get("from_lessons")) and bool(values.get("kind_explicit"))


def is_bare_claim(payload: Mapping[str, object], data: str) -> bool:
    """Whether a claim is between two bare names: neither concept has a description and every quote
    is one of the two names, nothing more (a data set of titles alone, such as AL-CPL's or
    LectureBank's, gives such claims; a lesson never does): the claims the names model judges.

    >>> proposal = {"src_names": ["Number"], "dst_names": ["Natural number", "naturals"]}
    >>> is_bare_claim({"proposal": proposal}, '[{"index": 0, "quote": "Natural number"}]')
    True
    >>> is_bare_claim({"proposal": proposal}, '[{"index": 0, "quote": "Every natural number is a number."}]')
    False
    >>> described = {**proposal, "src_description": "A count."}
    >>> is_bare_claim({"proposal": described}, '[{"index": 0, "quote": "Number"}]')
    False
    """
    proposal = as_mapping(payload.get("proposal"))
    if proposal.get("src_description") or proposal.get("dst_description"):
        return False
    names = {
        normalize_name(n)
        for n in (*as_strings(proposal.get("src_names")), *as_strings(proposal.get("dst_names")))
    }
    return all(normalize_name(quote) in names for quote in quotes_of(data).values())


@dataclass(frozen=True)
class JudgmentModel:
    """The reference model, the lessons model for implicit claims from ingested lessons, the
    statements model for relations a lesson states, and the names model for claims between bare
    names (each when there is one; without it the reference model judges those claims)."""

    reference: LinearModel
    lessons: LinearModel | None = None
    names: LinearModel | None = None
    statements: LinearModel | None = None

    @property
    def version(self) -> str:
        """The reference model's version (all are built together)."""
        return self.reference.version

    def model_for(self, values: Mapping[str, float], *, bare: bool = False) -> LinearModel:
        """The model that judges a claim with these feature values (``bare``: between two bare
        names, :func:`is_bare_claim`).

        >>> reference, lessons, names = (LinearModel((), (), 0.0, 1.0, 0.0, name) for name in "rln")
        >>> judgment = JudgmentModel(reference, lessons, names)
        >>> implicit = {"from_lessons": 1.0, "kind_implicit": 1.0}
        >>> judgment.model_for(implicit).version, judgment.model_for({"from_lessons": 1.0}).version
        ('l', 'r')
        >>> judgment.model_for({}, bare=True).version
        'n'
        >>> JudgmentModel(reference).model_for({}, bare=True).version
        'r'
        >>> stated = {"from_lessons": 1.0, "kind_explicit": 1.0}
        >>> with_statements = JudgmentModel(reference, statements=names)
        >>> with_statements.model_for(stated).version, judgment.model_for(stated).version
        ('n', 'r')
        """
        if self.lessons is not None and is_implicit_lesson_claim(values):
            return self.lessons
        if self.statements is not None and is_stated_lesson_claim(values):
            return self.statements
        if self.names is not None and bare:
            return self.names
        return self.reference

    def probability(self, values: Mapping[str, float]) -> float:
        """The calibrated probability, by the model that judges this claim (the reference model
        for a claim between bare names: :func:`agents.offline.judging.score_claim` tells those)."""
        return self.model_for(values).probability(values)

    def contributions(self, values: Mapping[str, float]) -> list[tuple[str, float]]:
        """The log-odds contributions, by the model that judges this claim (as :meth:`probability`)."""
        return self.model_for(values).contributions(values)

    def to_json(self, reports: Mapping[str, Mapping[str, object]]) -> str:
        """The models and their figures (``reports`` by part: ``reference``, ``lessons``, ``names``,
        ``statements``)."""
        parts = {
            "reference": self.reference,
            "lessons": self.lessons,
            "names": self.names,
            "statements": self.statements,
        }
        return json.dumps(
            {name: part.as_dict(reports.get(name, {})) for name, part in parts.items() if part is not None},
            indent=1,
            sort_keys=True,
        )


def _read_linear(raw: Mapping[str, object], part: str) -> LinearModel:
    features = tuple(str(name) for name in _items(raw, "features", part))
    unknown = sorted(set(features) - set(FEATURES) - {f for f in features if f.startswith(LEXICAL)})
    if unknown:
        raise ValueError(f"model file ({part}) names features this version does not compute: {unknown}")
    weights = tuple(_number(w, "weights", part) for w in _items(raw, "weights", part))
    if len(weights) != len(features):
        raise ValueError(f"model file ({part}): one weight per feature expected")
    calibration = raw.get("calibration")
    if not isinstance(calibration, Mapping):
        raise ValueError(f"model file ({part}): the calibration is not an object")
    return LinearModel(
        features,
        weights,
        _number(raw.get("intercept"), "intercept", part),
        _number(calibration.get("scale"), "calibration", part),
        _number(calibration.get("shift"), "calibration", part),
        str(raw.get("version", "")),
    )


def _items(raw: Mapping[str, object], key: str, part: str) -> list[object]:
    found = raw.get(key)
    if not isinstance(found, list):
        raise ValueError(f"model file ({part}): {key} is not a list")
    return found


def _number(value: object, key: str, part: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"model file ({part}): {key} holds a value that is not a number")
    return float(value)


def read_judgment_model(text: str) -> JudgmentModel:
    """Parses a model file; refuses one whose features are not the ones computed here."""
    raw = json.loads(text)
    if not isinstance(raw, dict) or not isinstance(raw.get("reference"), dict):
        raise ValueError("model file: no reference model")
    lessons, names, statements = raw.get("lessons"), raw.get("names"), raw.get("statements")
    return JudgmentModel(
        _read_linear(raw["reference"], "reference"),
        _read_linear(lessons, "lessons") if isinstance(lessons, dict) else None,
        _read_linear(names, "names") if isinstance(names, dict) else None,
        _read_linear(statements, "statements") if isinstance(statements, dict) else None,
    )


@cache
def judgment_model(path: Path | None = None) -> JudgmentModel:
    """The shipped judgment model (or the one at ``path``), read once."""
    found = path if path is not None else resources.files("agents.offline").joinpath(JUDGMENT_FILE)
    return read_model_file(found, "judgment", read_judgment_model)
