"""The concepts known so far, by every name: entity resolution and the mentions of a text.

A name's key is :func:`agents.text.normalize_name` (case, plural, hyphens and articles folded), so
"Large Language Models" and "large language model" are one key; an acronym ("LLMs") resolves to
the multi-word concept whose initials it spells, a multi-word name whose initials spell an
existing acronym-only concept resolves to that concept, and an acronym after words of its own name
("NVIDIA NIM") is the concept it abbreviates ("NVIDIA Inference Microservices"), as a name with a
run of its words written as their acronym is ("Azure ML": "Azure Machine Learning"); and a new name
that its lesson defines as the abbreviation of a known concept named by it ("LoRA (Low-Rank
Adaptation)" once "LoRA" is known) is that concept (:meth:`Registry.defined_by`). Every key seen
is registered as an alias of its concept, so later lessons reuse it.

One sense per lesson (:meth:`Registry.senses`): a plain alias, one everyday word that is neither a
concept's name nor an abbreviation of it ("kernel" for "covariance function",
:func:`agents.names.plain_alias`), names the concept only in a lesson that names it otherwise too;
and an acronym whose letters are the initials of several concepts ("CI": confidence interval,
continuous integration) names the one a lesson names in full (:meth:`Registry.lexicon_for`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from agents.concepts import KnownConcept
from agents.names import head_lexicon, named_roles, plain_alias
from agents.offline.acronyms import spells
from agents.text import (
    INITIALS,
    MentionFinder,
    acronym_of,
    elided,
    initials,
    initials_owners,
    lexicon,
    normalize_name,
)
from magg_kg.records import Concept

__all__ = ["ConceptInfo", "Registry"]

_Senses = tuple[frozenset[str], frozenset[str]]
"""A lesson's senses and the concepts it names in full (:meth:`Registry.lexicon_for`)."""


@dataclass(frozen=True)
class ConceptInfo:
    id: str
    name: str
    type: str
    description: str


class Registry:
    """The concepts and aliases known so far (from the store, then grown lesson by lesson)."""

    def __init__(self, concepts: Iterable[Concept], aliases: Mapping[str, str]) -> None:
        self.concepts: dict[str, ConceptInfo] = {
            c.id: ConceptInfo(c.id, c.name, c.type, c.description) for c in concepts
        }
        self.forms: dict[str, set[str]] = {
            concept_id: {info.name} for concept_id, info in self.concepts.items()
        }
        self.keys: dict[str, str] = {}
        self._joined: dict[str, set[str]] = {}
        # Each key's forms with a run of its words written as their initials, to their concepts.
        self._abbreviated: dict[str, set[str]] = {}
        for concept_id, info in self.concepts.items():
            self._register(normalize_name(info.name), concept_id)
        for alias, concept_id in aliases.items():
            if concept_id in self.concepts:
                self._register(alias, concept_id)
                self.forms[concept_id].add(alias)
        self._lexicon: dict[str, str] | None = None
        self._heads: dict[str, str] | None = None
        self._finder: MentionFinder | None = None
        self._strong: MentionFinder | None = None
        self._spelled: MentionFinder | None = None
        self._shared: dict[str, frozenset[str]] | None = None
        self._sensed: tuple[_Senses, dict[str, str], dict[str, str]] | None = None
        self._full: MentionFinder | None = None

    def lexicon(self) -> dict[str, str]:
        if self._lexicon is None:
            self._lexicon = lexicon([(concept_id, sorted(forms)) for concept_id, forms in self.forms.items()])
        return self._lexicon

    def _shared_initials(self) -> dict[str, frozenset[str]]:
        if self._shared is None:
            self._shared = {
                letters: frozenset(ids)
                for letters, ids in initials_owners(self.lexicon()).items()
                if len(ids) > 1 and len(letters) >= 2
            }
        return self._shared

    def lexicon_for(
        self, senses: frozenset[str] | None, full: frozenset[str] = frozenset()
    ) -> dict[str, str]:
        """The lexicon, in which the initials several concepts share answer for the one of them that
        a lesson names otherwise (``senses``, :meth:`senses`), when only one: "CI" is continuous
        integration in a lesson on it, a confidence interval in a lesson on statistics. When the
        lesson names several of them, it is the one it names in full (``full``, :meth:`in_full`),
        even where the initials are one concept's acronym: a lesson on "Linear Discriminant
        Analysis" that writes "LDA" means it, not "Latent Dirichlet Allocation (LDA)" defined in
        an earlier lesson."""
        table = self.lexicon()
        if not senses:
            return table
        key = (senses, full)
        if self._sensed is not None and self._sensed[0] == key and self._sensed[1] is table:
            return self._sensed[2]
        chosen: dict[str, str] = {}
        for letters, owners in self._shared_initials().items():
            meant = owners & senses
            if len(meant) > 1:
                meant &= full
            if len(meant) != 1:
                continue
            concept = next(iter(meant))
            if letters not in table:
                chosen[INITIALS + letters] = concept
            elif table[letters] in owners and table[letters] != concept and concept in full:
                chosen[letters] = concept
        merged = {**table, **chosen} if chosen else table
        self._sensed = (key, table, merged)
        return merged

    def resolve(self, name: str, senses: AbstractSet[str] | None = None) -> str | None:
        """The canonical id a name stands for, or None if it is new; an acronym several concepts'
        initials spell stands for the one of them the lesson names otherwise (``senses``)."""
        key = normalize_name(name)
        found = self.keys.get(key) or self._without_spaces(key)
        if found is not None:
            return found
        letters = acronym_of(name.strip())
        if letters is not None:
            table = self.lexicon()
            found = table.get(letters) or table.get(INITIALS + letters)
            owners = self._shared_initials().get(letters, frozenset()) & (senses or frozenset())
            return next(iter(owners)) if found is None and len(owners) == 1 else found
        if " " in key:
            acronym_concept = self.keys.get(initials(key))
            if acronym_concept is not None and acronym_of(self.concepts[acronym_concept].name):
                return acronym_concept
            return self._qualified(name, senses) or self._partly_abbreviated(name, key)
        return None

    def defined_by(self, name: str, aliases: Iterable[str]) -> str | None:
        """The known concept named by an abbreviation alone that a new concept's lesson defines as
        its abbreviation: "LoRA (Low-Rank Adaptation)" makes "Low-Rank Adaptation" the concept
        "LoRA" the course already knows. Only an alias of one word that abbreviates the whole name
        (:func:`agents.offline.acronyms.spells`) and is a known concept's own name counts: the
        initials of a longer name (:meth:`resolve`) are a guess, a lesson's definition is not.
        So does one that is a known concept's alias, when that concept's name is the new name
        spelled another way, word for word (:func:`_spelled_alike`): "automated speech
        recognition (ASR)" is the "automatic speech recognition" whose abbreviation "ASR" is."""
        for alias in sorted(aliases):
            found = self.keys.get(normalize_name(alias))
            if found is None or " " in alias.strip() or not spells(alias.strip(), name):
                continue
            known = self.concepts[found].name
            if normalize_name(known) == normalize_name(alias) or _spelled_alike(known, name):
                return found
        return None

    def _register(self, key: str, concept_id: str) -> None:
        if key not in self.keys:
            self.keys[key] = concept_id
            self._joined.setdefault(key.replace(" ", ""), set()).add(concept_id)
            for short in _abbreviations(key):
                self._abbreviated.setdefault(short, set()).add(concept_id)

    def _without_spaces(self, key: str) -> str | None:
        """The concept whose key is this one without its spaces, or with spaces this one lacks,
        when only one concept's is: one word or two is a matter of spelling ("finetuning",
        "fine-tuning"; "MaxPooling", "max-pooling"; "lengthscale", "length-scale")."""
        owners = self._joined.get(key.replace(" ", ""), set())
        return next(iter(owners)) if len(owners) == 1 else None

    def _qualified(self, name: str, senses: AbstractSet[str] | None) -> str | None:
        """The concept an acronym stands for, when the words before it are words of that concept's
        name: "NVIDIA NIM" is "NVIDIA Inference Microservices" (but "Azure AI" is not "AI")."""
        *first, last = name.split()
        if not first or acronym_of(last) is None:
            return None
        found = self.resolve(last, senses)
        if found is None:
            return None
        spelled = set(normalize_name(self.concepts[found].name).split())
        return found if all(normalize_name(word) in spelled for word in first) else None

    def _partly_abbreviated(self, name: str, key: str) -> str | None:
        """The one known concept whose name is this one with a run of two words or more written as
        their acronym, the other words the same ("Azure ML" is "Azure Machine Learning", "ML
        models" are "machine learning models"), or whose name so abbreviates this one ("Azure
        Machine Learning" once "Azure ML" is known). The acronym must be written as one (in
        capitals); None when no concept fits, or several do."""
        found: set[str] = set()
        if any(acronym_of(token) for token in name.split()):
            found |= self._abbreviated.get(key, set())
        for short in _abbreviations(key):
            owner = self.keys.get(short)
            if owner is not None and any(
                normalize_name(form) == short and any(acronym_of(t) for t in form.split())
                for form in self.forms.get(owner, ())
            ):
                found.add(owner)
        return next(iter(found)) if len(found) == 1 else None

    def add(self, info: ConceptInfo) -> None:
        self.concepts[info.id] = info
        self.forms.setdefault(info.id, set()).add(info.name)
        self._register(normalize_name(info.name), info.id)
        self._lexicon = self._heads = self._strong = self._spelled = self._shared = self._full = None

    def add_alias(self, form: str, concept_id: str) -> str | None:
        """Registers a surface form; returns its key if that key is new."""
        key = normalize_name(form)
        if not key or key in self.keys:
            return None
        self._register(key, concept_id)
        self.forms.setdefault(concept_id, set()).add(form)
        self._lexicon = self._heads = self._strong = self._spelled = self._shared = self._full = None
        return key

    def senses(self, prose: str, by_initials: bool = True) -> frozenset[str]:
        """The concepts a lesson names otherwise than by a plain alias (its name, an alias of several
        words, its initials: :func:`agents.names.plain_alias`). One sense per lesson: a plain alias
        ("kernel" for "covariance function") names its concept only in such a lesson; elsewhere
        the word means something else ("the convolution kernel").

        Without ``by_initials``, a concept the lesson names only by its initials is left out: what
        tells which concept an acronym means cannot be that acronym. A lesson on Gaussian processes
        writes "GP" throughout; before it, "GP" spelled only the initials of "general patterns",
        which it never names."""
        if self._strong is None:
            self._strong = MentionFinder(
                lexicon(
                    [
                        (cid, sorted(f for f in forms if not plain_alias(f, self.concepts[cid].name)))
                        for cid, forms in self.forms.items()
                    ]
                )
            )
        finder = self._strong
        if not by_initials:
            if self._spelled is None:
                spelled = {k: v for k, v in self._strong.keys.items() if not k.startswith(INITIALS)}
                self._spelled = MentionFinder(spelled)
            finder = self._spelled
        return frozenset(concept for _, _, concept in finder.find(prose))

    def in_full(self, prose: str) -> frozenset[str]:
        """The concepts a lesson names by a name or alias of words: neither an acronym nor initials
        nor a plain alias ("Linear Discriminant Analysis", not "LDA")."""
        if self._full is None:
            self._full = MentionFinder(
                {
                    key: concept
                    for key, concept in lexicon(
                        [
                            (cid, sorted(f for f in forms if self._spelled_out(f, self.concepts[cid].name)))
                            for cid, forms in self.forms.items()
                        ]
                    ).items()
                    if not key.startswith(INITIALS)
                }
            )
        return frozenset(concept for _, _, concept in self._full.find(prose))

    @staticmethod
    def _spelled_out(form: str, name: str) -> bool:
        return acronym_of(form.strip()) is None and not plain_alias(form, name) and len(form.split()) > 1

    def known_in(
        self,
        text: str,
        heads: bool = False,
        senses: frozenset[str] | None = None,
        full: frozenset[str] = frozenset(),
    ) -> list[KnownConcept]:
        """The known concepts ``text`` names; with ``heads``, also those it names as the head of a
        longer name ("stochastic gradient descent" names "gradient descent", :mod:`agents.names`);
        with ``senses`` (:meth:`senses` of its lesson), a concept outside them is not named by a
        plain alias, and is known without one."""
        table = self.lexicon_for(senses, full)
        if self._finder is None or self._finder.keys is not table:
            self._finder = MentionFinder(table)
        mentions = elided(text, self._finder.find(text), table)
        if senses is not None:
            mentions = [m for m in mentions if m[2] in senses or not self._plain(text[m[0] : m[1]], m[2])]
        ids = {concept for _, _, concept in mentions}
        if heads:
            if self._heads is None:
                self._heads = head_lexicon(
                    (cid, info.name, sorted(self.forms.get(cid, set()) - {info.name}))
                    for cid, info in self.concepts.items()
                )
            ids |= named_roles(text, mentions, self._heads)
        return [self.known(cid, plain=senses is None or cid in senses) for cid in sorted(ids)]

    def known(self, concept_id: str, plain: bool = True) -> KnownConcept:
        """A known concept, with its aliases (but its plain ones only with ``plain``)."""
        info = self.concepts[concept_id]
        aliases = sorted(
            form
            for form in self.forms.get(concept_id, set())
            if form != info.name and (plain or not plain_alias(form, info.name))
        )
        return KnownConcept(id=concept_id, name=info.name, type=info.type, aliases=aliases)

    def _plain(self, written: str, concept_id: str) -> bool:
        """Whether ``written`` names the concept only as a plain alias."""
        name = self.concepts[concept_id].name
        key = normalize_name(written)
        return key != normalize_name(name) and any(
            plain_alias(form, name) and normalize_name(form) == key for form in self.forms.get(concept_id, ())
        )

    def names(self, concept_id: str) -> list[str]:
        return sorted(self.forms.get(concept_id, {concept_id}))


def _abbreviations(key: str) -> list[str]:
    """The forms of a normalized name with one run of two words or more written as their initials,
    at least one word left as it is.

    >>> _abbreviations("azure machine learning")
    ['am learning', 'azure ml']
    """
    words = key.split()
    return [
        " ".join([*words[:i], "".join(w[0] for w in words[i:j]), *words[j:]])
        for i in range(len(words))
        for j in range(i + 2, len(words) + 1)
        if j - i < len(words)
    ]


def _spelled_alike(first: str, second: str) -> bool:
    """Whether two names are one name spelled two ways: as many words, each the same or sharing
    its first five letters or more, all but the last three of the shorter ("automated",
    "automatic"; "convolution", "convolutional"), never two names alike in every word.

    >>> _spelled_alike("automatic speech recognition", "Automated speech recognition")
    True
    >>> _spelled_alike("convolutional network", "convolution network"), _spelled_alike("ab", "ab")
    (True, False)
    >>> _spelled_alike("contrastive learning", "contractive learning")
    False
    """
    words, others = normalize_name(first).split(), normalize_name(second).split()
    if len(words) != len(others) or words == others:
        return False
    for a, b in zip(words, others, strict=True):
        shared = next((n for n, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        if a != b and (shared < 5 or shared < min(len(a), len(b)) - 3):
            return False
    return True
