"""The governance policy: thresholds and modes, recorded with every decision, and the TOML file
(``MAGG_POLICY``) that a person writes to choose another."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from magg_kg.errors import ConfigError
from magg_kg.ids import digest
from magg_kg.records import canonical_json
from magg_kg.vocabulary import CURRICULUM

__all__ = ["MAX_POLICY_BYTES", "Policy", "changed_version", "read_policy"]

Unit = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]


class Policy(BaseModel):
    """Thresholds and modes of governance (the seeds' defaults); recorded with every decision."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str = "policy-3"
    commit_at: Unit = 0.80
    reject_below: Unit = 0.50
    deliberate_from: Unit = 0.35
    deliberate_below: Unit = 0.70
    debate_rounds: Annotated[int, Field(ge=1, le=10)] = 3
    debate_commit_at: Unit = 0.80
    contested: Literal["debate", "self-consistency"] = "debate"
    """What settles the contested band (governance.consistency)."""
    consistency_samples: Annotated[int, Field(ge=1, le=31)] | None = None
    """Judge samples for self-consistency; None: as many calls as the debate makes."""
    debate_scope: Literal["core", "any"] = "core"
    """Which contested edges a debate (or self-consistency) settles: only those between core
    concepts (each has an active edge or is taught by a lesson; the others abstain until more
    evidence comes), or any (governance.policy)."""
    prescreen: Literal["judge", "debate"] = "judge"
    """The agent pre-screen of a contested structural claim before it goes to a person: the judge
    and the owners who already reviewed it, or also a debate that may reject it (governance.policy)."""
    low_stakes_types: tuple[str, ...] = ("related", "applies_to")
    structural_types: tuple[str, ...] = ("prerequisite",)
    recheck_limit: Annotated[int, Field(ge=1)] = 25
    discover_limit: Annotated[int, Field(ge=1)] = 20

    @property
    def samples(self) -> int:
        """How many times self-consistency asks the judge: as many calls as the debate makes, unless
        ``consistency_samples`` says otherwise."""
        return self.consistency_samples or self._debate_calls()

    def _debate_calls(self) -> int:
        """The model calls of a debate: advocate and critic each round, then the moderator."""
        return 2 * self.debate_rounds + 1

    @model_validator(mode="after")
    def _bands_in_order(self) -> Policy:
        # Equal bounds are a policy (no contested band, no vote: the verifier benchmark's); bounds
        # crossed, a type in both rows of the table or a count that can tie are not. The deliberation
        # band bounds the owners' score, the others the judge's, so no order holds between the two;
        # the moderator's bar is read only when there is a contested band to debate.
        pairs = [("reject_below", "commit_at"), ("deliberate_from", "deliberate_below")]
        if self.reject_below < self.commit_at:
            pairs.insert(1, ("reject_below", "debate_commit_at"))
        for low, high in pairs:
            if getattr(self, low) > getattr(self, high):
                raise ValueError(f"{low} ({getattr(self, low):g}) is above {high} ({getattr(self, high):g})")
        both = sorted(set(self.low_stakes_types) & set(self.structural_types))
        if both:
            raise ValueError(
                f"low_stakes_types and structural_types both name {', '.join(both)}: a contested edge of "
                "a type is either left open (low-stakes) or sent to a person (structural)"
            )
        chosen = self.consistency_samples
        if chosen not in (None, self._debate_calls()) and self.contested != "self-consistency":
            raise ValueError(
                f'consistency_samples ({chosen}) is read only under contested = "self-consistency" '
                f'(contested is "{self.contested}")'
            )
        if chosen is not None and chosen % 2 == 0:
            raise ValueError(
                f"consistency_samples ({chosen}) is even: its majority could tie (use an odd number)"
            )
        return self


MAX_POLICY_BYTES = 64 * 1024
"""No policy file (``MAGG_POLICY``) is longer: a larger one is not a policy file."""


def changed_version(changes: Mapping[str, object]) -> str:
    """The version of the default policy with ``changes``: the default's when there are none, else
    the default's followed by a digest of them, so that an edge admitted under other thresholds
    never reads as admitted under the defaults.

    >>> changed_version({})
    'policy-3'
    >>> changed_version({"commit_at": 0.85}), changed_version({"commit_at": 0.8}) != changed_version({"x": 1})
    ('policy-3+...', True)
    """
    base = Policy().version
    return f"{base}+{digest(canonical_json(dict(changes)), length=8)}" if changes else base


def read_policy(path: Path) -> Policy:
    """The policy a TOML file of :class:`Policy`'s fields sets (``MAGG_POLICY``); a field it leaves
    out keeps its default, and the version is :func:`changed_version`'s, never the file's."""
    where = f"MAGG_POLICY={str(path)!r}"
    try:
        if not path.is_file():
            what = "not a regular file" if path.exists() else "no such file"
            raise ConfigError(f"{where}: {what} (a TOML file of policy settings)")
        raw = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{where}: cannot be read ({error.strerror})") from None
    if len(raw) > MAX_POLICY_BYTES:
        raise ConfigError(
            f"{where}: {len(raw):,} bytes, more than a policy file holds ({MAX_POLICY_BYTES:,})"
        )
    try:
        settings = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ConfigError(f"{where}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{where}: not TOML ({error})") from None
    if "version" in settings:
        raise ConfigError(
            f"{where}: version is not set by a file: it is {Policy().version}, followed by a digest of "
            "what the file changes"
        )
    # Strict: a value of another type (debate_rounds = true, commit_at = "0.9") is refused, not
    # converted; a list of edge types is a set, in any order and written once.
    settings = {k: _as_set(v) if isinstance(v, list) else v for k, v in settings.items()}
    try:
        chosen = Policy.model_validate(settings, strict=True)
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "(the file)"
        raise ConfigError(f"{where}: {key}: {str(first['msg']).removeprefix('Value error, ')}") from None
    unknown = sorted(set(chosen.low_stakes_types + chosen.structural_types) - set(CURRICULUM.edge_types))
    if unknown:
        known = ", ".join(CURRICULUM.edge_types)
        raise ConfigError(f"{where}: not an edge type: {', '.join(unknown)} (the edge types: {known})")
    if chosen.consistency_samples == chosen._debate_calls():
        # as many as the debate makes, which is what no setting means: the same policy
        chosen = chosen.model_copy(update={"consistency_samples": None})
    default, given = (
        {k: sorted(v) if isinstance(v, list) else v for k, v in p.model_dump(mode="json").items()}
        for p in (Policy(), chosen)
    )
    changes = {key: value for key, value in given.items() if value != default[key]}
    return chosen.model_copy(update={"version": changed_version(changes)})


def _as_set(items: list[object]) -> tuple[object, ...]:
    """A TOML array of names as a set in a fixed order (anything else as it is, for the check)."""
    return tuple(sorted({str(i) for i in items})) if all(isinstance(i, str) for i in items) else tuple(items)
