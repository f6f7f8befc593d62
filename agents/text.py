"""Offline text analysis shared by the offline roles: sentences, names, mentions.

Everything here is deterministic and works on the normalized lesson text, so character offsets
stay exact. The offline roles (:mod:`agents.concepts`, :mod:`agents.relations`,
:mod:`agents.evidence`, :mod:`agents.owner`) are built from these pieces; the cue phrases that
state a relation are :mod:`agents.cues`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from agents.phrases import CONJUNCTION, FUNCTION_WORDS, singular

__all__ = [
    "EMPHASIS",
    "HEADING",
    "INITIALS",
    "PARAGRAPH",
    "MentionFinder",
    "Sentence",
    "acronym_of",
    "clipped",
    "content_words",
    "elided",
    "find_mentions",
    "initials",
    "initials_owners",
    "normalize_name",
    "sentences",
    "singular",
    "slug",
]


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    text: str


HEADING = re.compile(
    r"^(?: {0,3}#{1,6}(?:[ \t]+|(?=[ \t#]*$))|[ \t]*(?=[^\s=-][^\n]*\n[ \t]*(?:=+|-+)[ \t]*$))"
    r"(?P<text>.*?)[ \t#]*(?:\n[ \t]*(?:=+|-+)[ \t]*)?$",
    re.MULTILINE,
)
"""A Markdown heading (``## Teacher Forcing``, up to three spaces before it), or a line over a line
of ``=`` or ``-``, as the prose view writes a setext, reST, AsciiDoc or org heading
(:mod:`magg_kg.markup._headings`); its ``text`` without the closing hashes ("" for a bare ``#``)."""
_UNDERLINE = re.compile(r"[ \t]*(?:=+|-+)[ \t]*")  # a heading's underline in the prose view
EMPHASIS = re.compile(
    r"(?<![*\w])(?P<mark>\*\*?|__?)(?P<term>(?:[^*_\n]|\n(?!\s*\n)){1,80}?)(?P=mark)(?![*\w])"
)
"""Emphasis, either way Markdown writes it (``*x*``, ``**x**``, ``_x_``, ``__x__``); an underscore
inside a word (``max_len``) opens none, as in CommonMark."""

_SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"')\]]?\s+(?=(?:[\u2600-\u27bf\U0001f300-\U0001faff]\ufe0f?\s*)?[\"'(\[]?[A-Z0-9*_`])|\n\s*\n"
)
"""A sentence's end: ., ! or ? before what starts a sentence (a capital, a digit, a mark), maybe after
a symbol that opens a note ("... performing. 🎓 A confusion matrix is ...", "✅ Q: ...")."""
_ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "etc.", "cf.", "Fig.", "Eq.", "al.")
_WORD = re.compile(r"(?<![^\W_])[A-Z]#(?![\w#])|[^\W_]+(?:(?:['’–-]|--)[^\W_]+)*(?:\+\+(?![\w+]))?")
"""A word: letters and digits, joined by apostrophes, hyphens and en dashes (written "–" or, as
TeX sources do, "--": "encoder--decoder", "Nadaraya--Watson" are one word each), with the "++"
that ends "C++" or "k-means++" and the "#" of a letter's "C#" or "F#": a name apart from "C" and
"k-means"."""
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")
"""A name ending in an acronym's plural ("GPUs", "APIs"): the "s" goes, whatever the letters before
it ("GPUs" is no "-us" word like "corpus", "APIs" no "-is" word like "analysis")."""
_ARTICLES = ("the", "a", "an")
INITIALS = "^"
"""The prefix of a lexicon key made of a name's initials (no normalized name can start with it)."""


PARAGRAPH = "¶"
"""The mark of a paragraph's end in a text written on one line (a lesson excerpt in a prompt):
:func:`sentences` splits there, as at a blank line."""
_BLOCK_BREAK = re.compile(rf"(\n\s*\n|[ \t]*{PARAGRAPH}[ \t]*)")


def sentences(text: str, *, view: bool = False) -> list[Sentence]:
    """The prose sentences of a Markdown text, with exact offsets; headings, code and tables
    are left out. In a lesson's prose ``view`` (:func:`magg_kg.markup.find_prose`), which has
    blanked its code already, an indented block is prose: an indented ``<p>`` of an HTML page, a
    list item's second paragraph, an admonition's body.

    >>> [s.text for s in sentences("# T\\n\\nA is B. C needs D, e.g. E.\\n\\n    code\\n")]
    ['A is B.', 'C needs D, e.g. E.']
    >>> [s.text for s in sentences("# T\\n\\n    A is B.\\n", view=True)]
    ['A is B.']
    >>> [s.text for s in sentences("See the notebook.\\n## Introduction\\n**RL** is a technique.")]
    ['See the notebook.', '**RL** is a technique.']
    """
    found: list[Sentence] = []
    offset = 0
    for block in _BLOCK_BREAK.split(text):
        start = offset
        offset += len(block)
        stripped = block.strip()
        if not stripped or _BLOCK_BREAK.fullmatch(block):
            continue
        lines = block.split("\n")
        if stripped.startswith(("#", "```", "|", "$$")) and len(lines) == 1:
            continue
        if not view and all(line.startswith(("    ", "\t")) or not line.strip() for line in lines):
            continue
        block_start = start
        # Drop heading lines at the top of a block that also holds prose.
        while lines and lines[0].lstrip().startswith("#"):
            block_start += len(lines[0]) + 1
            lines = lines[1:]
        for run_start, body in _between_headings(lines, block_start):
            found.extend(_split_block(body, run_start))
    return found


def _between_headings(lines: list[str], start: int) -> list[tuple[int, str]]:
    """The runs of a block's lines between its heading lines, each with its offset: Markdown needs
    no blank line before a heading ("...the notebook.\n## Introduction\n**RL** is ..."), and a
    heading is no part of the sentence before it or after it.

    >>> _between_headings(["A is B.", "## Intro", "C is D."], 10)
    [(10, 'A is B.'), (27, 'C is D.')]
    >>> _between_headings(["Intro", "=====", "C is D."], 0)
    [(12, 'C is D.')]
    """
    runs: list[tuple[int, str]] = []
    kept: list[str] = []
    at = run_start = start
    for index, line in enumerate(lines):
        underlined = index + 1 < len(lines) and _UNDERLINE.fullmatch(lines[index + 1]) and line.strip()
        if HEADING.fullmatch(line) or _UNDERLINE.fullmatch(line) or underlined:
            if kept:
                runs.append((run_start, "\n".join(kept)))
            kept = []
        else:
            if not kept:
                run_start = at
            kept.append(line)
        at += len(line) + 1
    if kept:
        runs.append((run_start, "\n".join(kept)))
    return runs


def _split_block(body: str, base: int) -> list[Sentence]:
    pieces: list[Sentence] = []
    cursor = 0
    for match in _SENTENCE_END.finditer(body):
        candidate = body[cursor : match.start() + (1 if body[match.start()] in "\"')]" else 0)]
        if candidate.rstrip().endswith(_ABBREVIATIONS) or _initial_of_name(candidate, body[match.end() :]):
            continue
        pieces.extend(_sentence(body, cursor, match.start(), base))
        cursor = match.end()
    pieces.extend(_sentence(body, cursor, len(body), base))
    return pieces


_INITIALS = re.compile(r"(?:^|[\s(\"'])(?P<initials>(?:[A-Z]\.\s?)*[A-Z]\.)$")
_AFTER_INITIAL = re.compile(r"[A-Z]\.|[A-Z][\w'’-]+")


def _initial_of_name(before: str, after: str) -> bool:
    """Whether a full stop ends a name's initial, not a sentence: a capital letter and its stop
    before another initial ("J. R. Firth"), or after a capitalized word or another initial and
    before a capitalized word that is no function word ("Philip K. Dick", "the U.S. Army"). A
    letter that names a variable ends its sentence: "... of size N. A perceptron is ...", "We
    use matrix A. Then ...", "A is B. C needs D."

    >>> _initial_of_name("a novel by Philip K.", "Dick."), _initial_of_name("of size N.", "A perceptron")
    (True, False)
    """
    before = before.rstrip()
    found = _INITIALS.search(before)
    following = _AFTER_INITIAL.match(after)
    if found is None or following is None:
        return False
    if following.group(0).endswith("."):
        return True
    words = before[: found.start("initials")].split()
    named = found.group("initials").count(".") > 1 or (bool(words) and words[-1][:1].isupper())
    return named and following.group(0).lower() not in FUNCTION_WORDS


LONGEST_SENTENCE = 4000
"""The most characters a sentence is read as: a run of text with no full stop longer than this (a
minified line, a list without stops) is read in pieces, so that the reading of a sentence, which
grows with the square of its length, stays bounded."""


def _sentence(body: str, start: int, end: int, base: int) -> list[Sentence]:
    while start < end and body[start].isspace():
        start += 1
    while end > start and body[end - 1].isspace():
        end -= 1
    if end - start < 3 or not any(ch.isalpha() for ch in body[start:end]):
        return []
    if end - start > LONGEST_SENTENCE:  # no full stop for pages: read in pieces, at spaces
        cut = body.rfind(" ", start + LONGEST_SENTENCE // 2, start + LONGEST_SENTENCE)
        cut = cut if cut > start else start + LONGEST_SENTENCE
        return _sentence(body, start, cut, base) + _sentence(body, cut, end, base)
    return [Sentence(base + start, base + end, body[start:end])]


@lru_cache(maxsize=1 << 16)  # a pure function of its argument; the cache only saves time
def normalize_name(name: str) -> str:
    """The entity-resolution key of a name: case, plural, hyphens, articles and markup folded.

    >>> normalize_name("Large Language Models"), normalize_name("LLMs"), normalize_name("the k-means")
    ('large language model', 'llm', 'k means')
    >>> normalize_name("GPUs"), normalize_name("APIs"), normalize_name("corpus")
    ('gpu', 'api', 'corpus')
    >>> normalize_name("A* search"), normalize_name("A/B testing"), normalize_name("A search")
    ('a search', 'a b testing', 'search')
    >>> normalize_name("k-means++"), normalize_name("C++"), normalize_name("C#"), normalize_name("C")
    ('k means++', 'c++', 'c#', 'c')
    """
    found = list(_WORD.finditer(name))
    while found and _article(name, found[0].group(0), found[0].end()):
        found = found[1:]
    written = [match.group(0) for match in found]
    words = [w.lower().replace("’", "'").removesuffix("'s").strip("'") for w in written]
    parts = [part for word in words for part in re.split(r"[–-]", word) if part]
    if not parts:
        return ""
    last = written[-1].split("-")[-1]
    parts[-1] = parts[-1][:-1] if _PLURAL_ACRONYM.fullmatch(last) else singular(parts[-1])
    return " ".join(parts)


def _article(text: str, word: str, end: int) -> bool:
    """Whether ``word`` (ending at ``end`` of ``text``) is an article: a word of its own ("A
    transformer"), not the "A" of "A* search" or "A/B testing"."""
    after = text[end : end + 1]
    return word.lower() in _ARTICLES and (not after or after.isspace())


def content_words(name: str) -> set[str]:
    """The words of a name that carry meaning: three letters or more, not a function word.

    >>> sorted(content_words("The Attention mechanism of a Transformer"))
    ['attention', 'mechanism', 'transformer']
    """
    return {w for w in normalize_name(name).split(" ") if len(w) >= 3 and w not in _FUNCTION_WORDS}


_FUNCTION_WORDS = frozenset("the and for with from into over under than that this its their our".split())


def slug(name: str) -> str:
    """A canonical concept id: the normalized name joined by hyphens.

    >>> slug("Retrieval-Augmented Generation"), slug("k-means++"), slug("C#")
    ('retrieval-augmented-generation', 'k-means-plus-plus', 'c-sharp')
    """
    return normalize_name(name).replace("++", " plus plus").replace("#", " sharp").replace(" ", "-")


def initials(key: str) -> str:
    """The initials of a normalized multi-word name, hyphenated parts counted separately."""
    return "".join(part[0] for part in key.split(" ") if part)


def acronym_of(token: str) -> str | None:
    """The lower-case letters of an acronym token ("LLMs" -> "llm"), or None if it is not one.

    >>> acronym_of("CNNs"), acronym_of("RAG"), acronym_of("Adam")
    ('cnn', 'rag', None)
    """
    core = token[:-1] if token.endswith("s") and len(token) > 2 else token
    if 2 <= len(core) <= 6 and core.isalpha() and core.isupper():
        return core.lower()
    return None


_CONJUNCTS = re.compile(rf"(?:[\w-]+(?:{CONJUNCTION.pattern}))+$", re.IGNORECASE)
"""Single words joined by commas and "and"/"or", up to a list's last conjunct."""
_REACH = 120
"""How far before a list's last conjunct its other conjuncts are looked for (characters)."""


def elided(
    text: str, mentions: list[tuple[int, int, str]], keys: Mapping[str, str]
) -> list[tuple[int, int, str]]:
    """Mentions with the head a list shares put back: in "covariate, label, or concept shift" the
    first conjunct is "covariate shift" (when that is a known name), whether "covariate" alone
    names another concept ("covariates") or none.

    >>> keys = {"covariate": "cov", "covariate shift": "cs", "label shift": "ls"}
    >>> elided("covariate and label shift", [(0, 9, "cov"), (14, 25, "ls")], keys)
    [(0, 9, 'cs'), (14, 25, 'ls')]
    >>> elided("despite covariate, concept, or label shift", [(31, 42, "ls")], keys)
    [(8, 17, 'cs'), (31, 42, 'ls')]
    >>> elided("covariates of the label shift", [(0, 10, "cov"), (18, 29, "ls")], keys)
    [(0, 10, 'cov'), (18, 29, 'ls')]
    """
    found = {(start, end): concept for start, end, concept in mentions}
    for start, end, _ in mentions:
        later = text[start:end].split()
        reach = max(0, start - _REACH)
        listed = _CONJUNCTS.search(text[reach:start]) if len(later) > 1 else None
        if listed is None:
            continue
        for word in re.finditer(r"[\w-]+", listed.group(0)):
            span = (reach + listed.start() + word.start(), reach + listed.start() + word.end())
            overlaps = any(a < span[1] and span[0] < b and (a, b) != span for a, b in found)
            whole = None if overlaps else _with_head(word.group(0), later, keys)
            if whole is not None:
                found[span] = whole
    return sorted((start, end, concept) for (start, end), concept in found.items())


def _with_head(first: str, later: list[str], keys: Mapping[str, str]) -> str | None:
    """The concept ``first`` names with the last words of ``later`` ("covariate" + "label shift":
    "covariate shift"), the longest such head first ("deep and machine learning models": "deep
    learning models"); None if none is a known name."""
    for cut in range(1, len(later)):
        found = keys.get(normalize_name(f"{first} {' '.join(later[cut:])}"))
        if found is not None:
            return found
    return None


def find_mentions(text: str, keys: dict[str, str]) -> list[tuple[int, int, str]]:
    """Non-overlapping mentions (start, end, concept id) of known names in ``text``, longest
    first; ``keys`` maps normalized name -> concept id.

    >>> keys = {"large language model": "llm", "attention": "att"}
    >>> find_mentions("Large language models use attention.", keys)
    [(0, 21, 'llm'), (26, 35, 'att')]
    """
    return MentionFinder(keys).find(text)


class MentionFinder:
    """:func:`find_mentions` for many texts and one lexicon, whose key statistics (the longest key,
    the first words) are computed once instead of once per text."""

    def __init__(self, keys: dict[str, str]) -> None:
        self.keys = keys
        self.longest = max((len(key.split(" ")) for key in keys), default=0)
        self.firsts = {key.split(" ")[0] for key in keys}

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """The mentions in ``text`` (see :func:`find_mentions`)."""
        return _mentions(text, self.keys, self.longest, self.firsts)


def _mentions(text: str, keys: dict[str, str], longest: int, firsts: set[str]) -> list[tuple[int, int, str]]:
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]
    taken: list[tuple[int, int, str]] = []
    index = 0
    while index < len(words):
        word = words[index][2]
        first, folded = _opening(word)
        hit: tuple[int, int, str, int] | None = None
        if (first in firsts or folded in firsts) and not _article(text, word, words[index][1]):
            hit = _longest_mention(text, words, index, longest, keys)
        if hit is None:
            letters = acronym_of(word) if word[:1].isupper() else None  # an acronym opens in capitals
            concept = (keys.get(letters) or keys.get(INITIALS + letters)) if letters else None
            if concept is not None:
                hit = (words[index][0], words[index][1], concept, 1)
        if hit is None:
            index += 1
            continue
        taken.append((hit[0], hit[1], hit[2]))
        index += hit[3]
    return taken


@lru_cache(maxsize=1 << 16)  # a pure function of one word; words repeat, the cache saves time
def _opening(word: str) -> tuple[str, str]:
    """A word in lower case, and the first word of its normalized form (what a name may open with)."""
    return word.lower(), normalize_name(word).split(" ")[0]


def _longest_mention(
    text: str, words: list[tuple[int, int, str]], index: int, longest: int, keys: dict[str, str]
) -> tuple[int, int, str, int] | None:
    for size in range(min(longest, len(words) - index), 0, -1):
        span = words[index : index + size]
        concept = keys.get(normalize_name(text[span[0][0] : span[-1][1]]))
        if concept is not None:
            return span[0][0], span[-1][1], concept, size
    return None


def lexicon(names: list[tuple[str, list[str]]]) -> dict[str, str]:
    """Normalized name -> concept id, for (concept id, [name, aliases...]) pairs; a multi-word
    name also answers to its initials ("LLM" for "large language model") unless two concepts
    share them or the initials are a name themselves. Initials are keyed apart (``^llm``), so
    that only an upper-case acronym token matches them, never a word ("in" is not "input node").
    So is an acronym that spells a function word: "IS" names the Itakura-Saito divergence, the
    word "is" never does.

    >>> sorted(lexicon([("large-language-model", ["Large language model"])]).items())
    [('^llm', 'large-language-model'), ('large language model', 'large-language-model')]
    >>> sorted(lexicon([("itakura-saito", ["Itakura-Saito", "IS"])]).items())
    [('^is', 'itakura-saito'), ('itakura saito', 'itakura-saito')]
    """
    keys: dict[str, str] = {}
    for concept_id, forms in names:
        for form in forms:
            key = normalize_name(form)
            if key in FUNCTION_WORDS:
                key = INITIALS + key
            if key:
                keys.setdefault(key, concept_id)
    for letters, owners in initials_owners(keys).items():
        if len(owners) == 1 and letters not in keys and len(letters) >= 2:
            keys[INITIALS + letters] = next(iter(owners))
    return keys


def initials_owners(keys: Mapping[str, str]) -> dict[str, set[str]]:
    """The initials of the multi-word names of a key -> concept id map, each with the concepts that
    have them ("ci": a confidence interval and continuous integration)."""
    owners: dict[str, set[str]] = {}
    for key, concept_id in keys.items():
        if " " in key:
            owners.setdefault(initials(key), set()).add(concept_id)
    return owners


def clipped(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a space when one is near the end.

    >>> clipped("what comes before attention", 100)
    'what comes before attention'
    >>> clipped("what comes before attention", 20)
    'what comes before…'
    >>> clipped("x" * 30, 10)
    'xxxxxxxxx…'
    >>> clipped(" " * 30, 10)
    '…'
    """
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space > limit // 2:
        head = head[:space]
    return head.rstrip() + "…"
