"""The learned judgment: a calibrated logistic model over :mod:`agents.offline.features`.

The model is a plain linear score ``z = intercept + sum(weight_i * x_i)`` followed by a sigmoid
calibration fitted on held-out folds (Platt scaling): ``p = 1 / (1 + exp(-(a * z + b)))``. It is
stored as a small JSON file in this package (``judgment.json``: feature names, weights, the
calibration, and the cross-validated figures it was shipped with), written by ``magg model build``
(:mod:`governance.training`), never by hand. No pickle: the file is data, read with ``json``.
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

__all__ = ["JUDGMENT_FILE", "LinearModel", "judgment_model", "read_judgment_model"]

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

    def to_json(self, report: Mapping[str, object]) -> str:
        """The model and the figures it was built with, as the JSON this module reads."""
        return json.dumps(
            {
                "version": self.version,
                "features": list(self.features),
                "weights": [round(w, 6) for w in self.weights],
                "intercept": round(self.intercept, 6),
                "calibration": {"scale": round(self.scale, 6), "shift": round(self.shift, 6)},
                "report": dict(report),
            },
            indent=1,
            sort_keys=True,
        )


def read_judgment_model(text: str) -> LinearModel:
    """Parses a model file; refuses one whose features are not the ones computed here."""
    raw = json.loads(text)
    features = tuple(str(name) for name in raw["features"])
    unknown = sorted(set(features) - set(FEATURES) - {f for f in features if f.startswith(LEXICAL)})
    if unknown:
        raise ValueError(f"model file names features this version does not compute: {unknown}")
    weights = tuple(float(w) for w in raw["weights"])
    if len(weights) != len(features):
        raise ValueError("model file: one weight per feature expected")
    calibration = raw["calibration"]
    return LinearModel(
        features,
        weights,
        float(raw["intercept"]),
        float(calibration["scale"]),
        float(calibration["shift"]),
        str(raw["version"]),
    )


@cache
def judgment_model(path: Path | None = None) -> LinearModel:
    """The shipped judgment model (or the one at ``path``), read once."""
    if path is not None:
        return read_judgment_model(path.read_text("utf-8"))
    return read_judgment_model(resources.files("agents.offline").joinpath(JUDGMENT_FILE).read_text("utf-8"))
