"""Document processing: a lesson file in, a normalized lesson with its prose view and chunks out.

Lessons are Markdown (``.md``, ``.markdown``), MDX (``.mdx``) or HTML (``.html``, ``.htm``); the
suffix names the flavor, and :func:`magg_kg.markup.find_prose` gives the lesson's prose view (code,
tags, tables, math, URLs ... blanked, same length) and its hidden text. The stored text stays the
normalized original, so every quote is a substring of the lesson's stored text.

The text is decoded as strict UTF-8, normalized to NFC, line ends ``\\n``, control and invisible
characters removed (not ``\\n``, ``\\t``, nor the bidirectional controls: ``markup._overrides``),
other spaces plain; every evidence offset refers to this normalized text. A lesson's identity is its
content: ``id = <key>@<sha256[:12]>``, ``key`` the file's key (:mod:`magg_kg.lesson_files`: which files
are lessons, and their keys) and ``sha256`` the hash of the normalized text: two files with the same
text are one lesson, and an edited file is a new version of the same key.

Chunks follow the Markdown structure of the prose view (so a lesson that is mostly code makes
few chunks, and a ``#`` comment in code is no heading): the prose is cut into blocks (paragraphs,
at blank lines), a block longer than the chunk size is cut at sentence ends, and blocks are packed
into chunks of about ``size`` characters (at most ``size + overlap``); a heading starts a new chunk
once the current one is a quarter full, and each chunk repeats the trailing blocks of the previous
one, up to ``overlap`` characters (unless more than ``overlap`` characters of non-prose lie
between them). A chunk's heading is the one in force where its own text starts, after what it
repeats: a repeated tail that reaches back over a heading does not title it by the section before.
A chunk's id is a hash of the lesson's sha256 and its offsets, so it is stable across runs.
"""

from __future__ import annotations

import hashlib
import re
import shlex
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, replace
from pathlib import Path

from magg_kg.errors import InputError
from magg_kg.ids import lesson_id, make_id
from magg_kg.lesson_files import is_notebook, lesson_key
from magg_kg.markup import Flavor, HiddenText, Markup, as_read, find_prose, flavor_of

__all__ = [
    "DEFAULT_MAX_BYTES",
    "MAX_LESSON_CHARS",
    "PART_CHARS",
    "Chunk",
    "LessonText",
    "file_key",
    "normalize_text",
    "read_lesson",
    "read_parts",
    "split_chunks",
]

DEFAULT_MAX_BYTES = 2_000_000
MAX_LESSON_CHARS = 8_000_000
"""The longest lesson text the store takes (an ``add_lesson`` op's text), whatever ``--max-bytes``."""
PART_CHARS = 400_000
"""The longest text ingested as one lesson: a longer file is read as parts (:func:`read_parts`), each
part's batch well within :data:`magg_kg.operations.BATCH_OPS` (20,000; 400,000 characters make 6,000)."""
CHUNK_SIZE, CHUNK_OVERLAP = 1200, 200
_INVISIBLE = r"\xad\u034f\u180e\u200b\u200e\u200f\u2060-\u2064\ufeff"  # not the bidi controls (docstring)
_JOINED = r"(?<=[A-Za-z])[\u200c\u200d\ufe00-\ufe0f]+(?=[A-Za-z])"  # joiners, variants inside a Latin word
_CONTROL = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f{_INVISIBLE}]|{_JOINED}")
_HEADING = re.compile(
    r"^(?:#{1,6}\s+|[ \t]*(?=[^\s=-][^\n]*\n[ \t]*(?:=+|-+)[ \t]*$))(.+?)\s*#*\s*$", re.MULTILINE
)
"""A heading of the prose view: a ``#`` line, or a line over a line of ``=`` or ``-`` (an underlined
heading, :mod:`magg_kg.markup._headings`)."""
_TITLE_UNDERLINE = re.compile(r"\n[ \t]*=+[ \t]*(?:\n|$)")
_WORD_END = re.compile(r"\S(?=\s)")
_HTML_TITLE = re.compile(r"<(h1|title)\b[^<>]{0,300}>\s*([^<]{1,300}?)\s*</\1", re.IGNORECASE)


@dataclass(frozen=True)
class Chunk:
    id: str
    ordinal: int
    start: int
    end: int
    heading: str


@dataclass(frozen=True)
class LessonText:
    """A lesson ready to be registered: normalized text, content hash, chunks, and the prose view
    (``prose``, as long as ``text``) with the hidden text found in it."""

    key: str
    title: str
    text: str
    sha256: str
    source_path: str
    chunks: tuple[Chunk, ...]
    flavor: Flavor
    prose: str
    hidden: tuple[HiddenText, ...]

    @property
    def id(self) -> str:
        return lesson_id(self.key, self.sha256)


_SPACES = {c: " " for c in range(0x80, 0x3001) if unicodedata.category(chr(c)) == "Zs"}  # no-break, thin ...


def normalize_text(raw: str) -> str:
    """NFC, ``\\n`` line ends, :data:`_CONTROL` removed (tabs and newlines kept), every space of
    another width a plain one ("Batch normalization" is one name, whatever space joins its words).

    >>> normalize_text("Cafe\\u0301\\r\\nA\\x07B\\tC\\u00a0D")
    'Café\\nAB\\tC D'
    """
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    return _CONTROL.sub("", text).translate(_SPACES)


def file_key(lesson_id: str) -> str:
    """The lesson file a lesson id comes from: its key without version and part (the versions and
    parts of one file are never independent support for each other).

    >>> file_key("big-book.part-3@0123456789ab"), file_key("intro@0123456789ab")
    ('big-book', 'intro')
    """
    return lesson_id.rsplit("@", 1)[0].split(".part-", 1)[0]


def read_lesson(path: Path, key: str | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> LessonText:
    """Reads and normalizes one lesson file; refuses, with :class:`InputError`, what is not one,
    and a text longer than the store takes in one lesson (:func:`read_parts` splits one)."""
    text = _read_text(path, max_bytes)
    if len(text) > MAX_LESSON_CHARS:
        raise InputError(
            f"{path}: {len(text):,} characters is over the {MAX_LESSON_CHARS:,}-character limit of a "
            "lesson in the store; split it into smaller lessons"
        )
    return _lesson(path, key or lesson_key(path.name), text)


def read_parts(
    path: Path, key: str | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES, part_chars: int = PART_CHARS
) -> tuple[LessonText, ...]:
    """Reads one lesson file as one lesson, or, when its text is longer than ``part_chars``, as
    consecutive parts, each a lesson of its own: cut at a heading where it can (else at a paragraph
    of prose, else after a word of prose), so that no part starts inside code or markup. Part 1 keeps the
    file's key; part ``k`` is ``<key>.part-<k>`` (a key is a slug, so it never holds a dot).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "big.md").write_text("# One\\n\\nFirst part.\\n\\n# Two\\n\\nSecond part.\\n")
    >>> for part in read_parts(folder / "big.md", part_chars=30):
    ...     print(part.key, "|", part.title, "|", repr(part.text))
    big | One (part 1 of 2) | '# One\\n\\nFirst part.\\n\\n'
    big.part-2 | One (part 2 of 2) | '# Two\\n\\nSecond part.\\n'
    """
    text = _read_text(path, max_bytes)
    key = key or lesson_key(path.name)
    if len(text) <= part_chars:
        return (_lesson(path, key, text),)
    whole = find_prose(text, flavor_of(path.name, text))  # read whole: a fence or comment may span a cut
    bounds = _part_bounds(text, whole.prose, part_chars)
    parts = [
        _lesson(path, key if k == 1 else f"{key}.part-{k}", text[a:b], _cut(whole, a, b))
        for k, (a, b) in enumerate(bounds, 1)
    ]
    title = parts[0].title
    return tuple(
        replace(part, title=f"{title} (part {k} of {len(parts)})"[:300]) for k, part in enumerate(parts, 1)
    )


def _part_bounds(text: str, prose: str, part_chars: int) -> list[tuple[int, int]]:
    """(start, end) of each part: at most ``part_chars`` long, cut at the last heading of the
    prose view in the part's second half, else the last blank line followed by prose, else the end
    of the last word of prose (inside code only where half a part holds nothing else)."""
    headings = [m.start() for m in _HEADING.finditer(prose)]
    paragraphs = [m.end() for m in re.finditer(r"\n[ \t]*\n(?=[^\s])", prose)]
    bounds: list[tuple[int, int]] = []
    start = 0
    while len(text) - start > part_chars:
        low, high = start + part_chars // 2, start + part_chars
        cut = _last_in(headings, low, high) or _last_in(paragraphs, low, high)
        if cut is None:  # after the last word of prose (code and markup are blank in the prose view)
            ends = [m.end() for m in _WORD_END.finditer(prose, low, high)]
            cut = ends[-1] if ends else high
        bounds.append((start, cut))
        start = cut
    bounds.append((start, len(text)))
    return [(a, b) for a, b in bounds if text[a:b].strip()]


def _last_in(positions: list[int], low: int, high: int) -> int | None:
    """The last of the sorted ``positions`` in ``(low, high]``."""
    index = bisect_right(positions, high)
    return positions[index - 1] if index and positions[index - 1] > low else None


def _read_text(path: Path, max_bytes: int) -> str:
    """The file's normalized text; :class:`InputError` for what is not a text lesson."""
    try:
        size = path.stat().st_size
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror}); check the path and permissions") from None
    if size > max_bytes:
        raise InputError(
            f"{path}: {size:,} bytes is over the {max_bytes:,}-byte limit for a lesson; "
            "split it into smaller lessons or raise --max-bytes"
        )
    try:
        with path.open("rb") as handle:  # bounded: a size on disk can be 0 and the stream endless
            raw = handle.read(max_bytes + 1)
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror}); check the path and permissions") from None
    if len(raw) > max_bytes:
        raise InputError(
            f"{path}: more than the {max_bytes:,}-byte limit for a lesson; "
            "split it into smaller lessons or raise --max-bytes"
        )
    if not raw.strip():
        raise InputError(f"{path}: the file is empty; write the lesson or leave it out")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # a UTF-16 byte-order mark: text, in another encoding
        raise InputError(f"{path}: UTF-16 text, not UTF-8; save it as UTF-8 and ingest it again")
    if b"\x00" in raw:
        raise InputError(f"{path}: binary file (it holds NUL bytes), not a text lesson; leave it out")
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{path}: not UTF-8 (invalid byte 0x{raw[error.start]:02x} at offset {error.start}); "
            "save it as UTF-8 and ingest it again"
        ) from None
    if is_notebook(path.name, decoded):
        raise InputError(
            f"{path}: a Jupyter notebook (JSON), not a lesson; convert it with `jupyter nbconvert --to "
            f"markdown {shlex.quote(str(path))}` and ingest the .md file it writes"
        )
    control = len(_CONTROL.findall(decoded))
    if control > max(8, len(decoded) // 10):
        raise InputError(f"{path}: mostly control characters ({control}), not a text lesson; leave it out")
    text = normalize_text(decoded).lstrip("\n")
    if not text.strip():
        raise InputError(f"{path}: no text left after normalization; write the lesson or leave it out")
    return text


def _cut(markup: Markup, start: int, end: int) -> Markup:
    """The markup of ``start:end`` of a text, as read with the whole of it: code, a comment or
    hidden text open at ``start`` stays what it is (read alone, the part would make it prose)."""
    hidden = tuple(
        replace(h, start=max(h.start, start) - start, end=min(h.end, end) - start)
        for h in markup.hidden
        if h.start < end and start < h.end
    )
    return Markup(markup.flavor, markup.prose[start:end], hidden, markup.kinds[start:end])


def _lesson(path: Path, key: str, text: str, markup: Markup | None = None) -> LessonText:
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    markup = markup if markup is not None else find_prose(text, flavor_of(path.name, text))
    return LessonText(
        key=key,
        title=_title(text, markup.prose, path),
        text=text,
        sha256=sha,
        source_path=str(path),
        chunks=split_chunks(sha, text, prose=markup.prose),
        flavor=markup.flavor,
        prose=markup.prose,
        hidden=markup.hidden,
    )


def _title(text: str, prose: str, path: Path) -> str:
    """The first heading of the prose when it is of level 1 (its original text): ``# Title``, a title
    over a line of ``=``, AsciiDoc's ``= Title``, org's ``* Title``; else the first HTML ``<h1>`` or
    ``<title>``, else the file name."""
    heading, first = _HEADING.search(prose), None
    atx = heading is not None and heading.group(0).startswith("# ") and text[heading.start()] in "#=*"
    if heading is not None and (atx or _TITLE_UNDERLINE.match(prose, heading.end())):
        first = _heading_text(text, prose, heading)
    if first is None and (tag := _HTML_TITLE.search(text)) is not None:
        first = as_read(tag.group(2))
    return (first or path.stem.replace("-", " ").replace("_", " ")).strip()[:300] or path.name


def _blocks(text: str, size: int) -> list[tuple[int, int, bool]]:
    """Paragraph blocks (start, end, starts with a heading), long ones cut at sentence ends."""
    blocks: list[tuple[int, int, bool]] = []
    for match in re.finditer(r"\S(?:.|\n(?!\s*\n))*", text):
        start, end = match.start(), match.end()
        heading = text[start] == "#"
        while end - start > size:
            window = text[start : start + size]
            cut = max(window.rfind(". "), window.rfind(".\n"), window.rfind("\n"))
            if cut < size // 3:
                cut = window.rfind(" ")
            if cut < size // 3:
                cut = size - 1
            blocks.append((start, start + cut + 1, heading))
            heading = False
            start += cut + 1
            while start < end and text[start].isspace():
                start += 1
        if end > start:
            blocks.append((start, end, heading))
    return blocks


def split_chunks(
    sha256: str, text: str, size: int = CHUNK_SIZE, overlap: int = CHUNK_OVERLAP, *, prose: str | None = None
) -> tuple[Chunk, ...]:
    """Markdown-aware overlapping chunks covering the prose of the text (all of it without
    ``prose``); a chunk's heading is the original text of the last heading at or before its own
    text (what it does not repeat of the chunk before).

    >>> text = "# A\\n\\n" + "word " * 400
    >>> chunks = split_chunks("0" * 64, text, size=600, overlap=100)
    >>> chunks[0].start, chunks[-1].end == len(text), chunks[0].heading
    (0, True, 'A')
    >>> all(0 < a.end - b.start <= 100 for a, b in zip(chunks, chunks[1:]))
    True
    """
    view = text if prose is None else prose
    blocks = _blocks(view, size)
    groups: list[tuple[list[tuple[int, int, bool]], int]] = []  # each chunk's blocks, how many it repeats
    current: list[tuple[int, int, bool]] = []
    repeated = 0
    for block in blocks:
        length = block[1] - current[0][0] if current else 0
        new_section = block[2] and length >= size // 4
        only_headings = all(item[2] and item[1] - item[0] < 200 for item in current)
        if current and not only_headings and (block[1] - current[0][0] > size or new_section):
            groups.append((current, repeated))
            carried: list[tuple[int, int, bool]] = []
            if not new_section and block[0] - current[-1][1] <= overlap:  # no overlap across code
                for previous in reversed(current):
                    if current[-1][1] - previous[0] > overlap:
                        break
                    carried.insert(0, previous)
                if not carried and overlap:
                    tail = _tail_start(view, current[-1], overlap)
                    carried = [(tail, current[-1][1], False)] if tail is not None else []
            current, repeated = carried, len(carried)
        current.append(block)
    if current:
        groups.append((current, repeated))
    headings = list(_HEADING.finditer(view))  # once: a lookup per chunk is a bisection, not a scan
    starts = [heading.start() for heading in headings]
    chunks = []
    for ordinal, (group, repeated) in enumerate(groups):
        start, end = group[0][0], group[-1][1]
        before = bisect_right(starts, group[repeated][0])  # the headings at or before its own text
        chunks.append(
            Chunk(
                id=make_id("chunk", sha256, str(start), str(end)),
                ordinal=ordinal,
                start=start,
                end=end,
                heading=_heading_text(text, view, headings[before - 1])[:300] if before else "",
            )
        )
    return tuple(chunks)


def _tail_start(text: str, block: tuple[int, int, bool], overlap: int) -> int | None:
    start = max(block[0], block[1] - overlap)
    space = text.find(" ", start, block[1])
    return space + 1 if 0 <= space < block[1] - 1 else None


def _heading_text(text: str, view: str, match: re.Match[str]) -> str:
    """A heading of the prose view as written (inline code included, character references read), to
    the end of its line in the view (an HTML heading's closing tag reads as a line break there)."""
    end = view.find("\n", match.start(1))
    return as_read(text[match.start(1) : end if end >= 0 else len(text)]).rstrip().rstrip("#").rstrip()
