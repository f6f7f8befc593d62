"""A tiny data set with Metacademy's layout, written by the tests: a dozen concepts and edges."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

# Two prerequisite chains on different subjects and four concepts with nothing in common, so that
# the candidate set has every kind: shortcuts (two-hop chains), unrelated pairs (no path, no
# shared words), contradictions (any established edge) and unknown concepts (a dangling link).
CONCEPTS = {
    "vectors": ("Vectors", "A vector is an ordered list of numbers describing magnitude and direction."),
    "matrices": ("Matrices", "A matrix is a rectangular array of numbers that represents a linear map."),
    "matrix_inverse": ("Matrix inverse", "The inverse of a square matrix undoes its linear map."),
    "eigenvalues": ("Eigenvalues", "An eigenvalue scales an eigenvector of a square matrix."),
    "probability": ("Probability", "Probability measures how likely an event is to happen."),
    "random_variables": (
        "Random variables",
        "A random variable maps outcomes to numbers with a probability.",
    ),
    "expectation": ("Expectation", "The expectation of a random variable is its probability-weighted mean."),
    "variance": ("Variance", "Variance measures how far a random variable spreads around its expectation."),
    "sorting": ("Sorting", "Sorting arranges records ascending, alphabetically or chronologically."),
    "compilers": ("Compilers", "Compilers translate source programs into machine instructions."),
    "cryptography": ("Cryptography", "Cryptography secures messages against eavesdroppers using ciphers."),
    "typography": ("Typography", ""),
}
PREREQUISITES = [
    ("vectors", "matrices", "Matrices are built from vectors."),
    ("matrices", "matrix_inverse", "The inverse is defined for matrices."),
    ("matrices", "eigenvalues", ""),
    ("matrix_inverse", "eigenvalues", "Computing eigenvectors uses inverses."),
    ("probability", "random_variables", "A random variable carries a probability distribution."),
    ("random_variables", "expectation", "The expectation is defined for random variables."),
    ("expectation", "variance", "Variance is an expectation of squared deviations."),
    ("probability", "expectation", ""),
]


def write_dataset(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "concepts.jsonl").open("w", encoding="utf-8") as handle:
        for tag, (title, summary) in CONCEPTS.items():
            handle.write(json.dumps({"tag": tag, "title": title, "summary": summary}) + "\n")
    with (folder / "edges.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "target", "relation", "context", "shortcut", "both_ends_are_concepts"])
        for src, dst, context in PREREQUISITES:
            writer.writerow([src, dst, "prerequisite", context, "0", "1"])
        writer.writerow(["eigenvalues", "matrices", "see_also", "* see matrices", "0", "1"])
        writer.writerow(
            ["variance", "covariance", "see_also", '* "Covariance":covariance generalizes it', "0", "0"]
        )
    return folder


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return write_dataset(tmp_path / "metacademy")
