"""Tags (Markdown and HTML; MDX tags are read by :mod:`._inline`) and the elements they open.

A tag is blanked, but what it does to the text's structure stays visible, as Markdown would write
it (:meth:`~magg_kg.markup._canvas.Canvas.mark`): a block element's tag (``<p>``, ``<li>``,
``</div>`` ...) reads as a paragraph break, so that blocks are never one sentence; a heading's
opening tag as a paragraph break and ``#`` (``<h2>`` as ``\n\n# ``, ``<h2 id="x">`` as
``\n\n## `` and spaces: as many ``#`` as the level, when the tag has room for them); an emphasis
tag as ``*`` (``<em>``, ``<i>``) or ``**`` (``<strong>``, ``<b>``) against the text it marks; a
definition list's term (``<dt>``) runs on to its definition (``<dd>``), which opens on a line of
its own with ``:``, as a Pandoc definition list writes it ("Term" over ":   What it is.").
Offsets are unchanged: each mark takes a character of the tag.

A web page's chrome is no part of its lesson, and no prose (``chrome``): a ``<nav>``, a
``<footer>``, an element whose role (class, id) is ``navigation`` or ``contentinfo``, one whose class or id
names a comments section, a breadcrumb trail or a cookie banner (:data:`_CHROME_NAMES`), and a
list (``<ul>``, ``<ol>``) in a sidebar (an ``<aside>``, an element whose class or id says
``sidebar``): the course's other lessons, linked. A sidebar's own paragraphs stay prose (a
docutils ``.. sidebar::`` is one). Read as prose, a reader's comment ("isn't random forest a
prerequisite for decision trees?") was evidence, and the sidebar's links were lesson concepts.
"""

from __future__ import annotations

import re

from magg_kg.markup._canvas import BLANK_LINE, Canvas, RegionKind, reads_as_prose

__all__ = ["Elements", "hides", "tag_pass"]

# Tags (Markdown and HTML; MDX tags are read by Inline.jsx) and the elements they open.
_TAG = re.compile(
    r"<(/?)([A-Za-z][A-Za-z0-9-]*(?::[A-Za-z0-9-]+)?)"
    r"((?:\s+[A-Za-z_:@][\w.:@-]*(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*(/?)>"
    r"|<![A-Za-z][^<>]*>|<\?[^<>]*>"
)
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_CONTENT: dict[str, RegionKind] = {
    "pre": "code", "code": "inline_code", "kbd": "inline_code", "samp": "inline_code", "tt": "inline_code",
    "math": "math", "svg": "image", "template": "hidden", "table": "table",
    "noscript": "hidden", "head": "hidden",
}  # fmt: skip
_CLASSES: dict[str, RegionKind] = {
    "math": "math", "katex": "math", "katex-display": "math", "arithmatex": "math", "mathjax": "math",
    "mathjax_display": "math", "literal": "inline_code", "sourcecode": "code",
}  # fmt: skip
"""Classes by which generators mark an element's content as math or code, whatever the element
(``<span class="math">``, ``<tt class="math">`` from docutils, ``<div class="arithmatex">`` from
MkDocs, ``<span class="katex">``, ``<span class="docutils literal">``): one of the class names,
whole, in any case."""
_ROLES: dict[str, RegionKind] = {"doc-bibliography": "reference", "doc-biblioentry": "reference"}
"""Roles (DPUB-ARIA) that declare an element's content no prose: a bibliography and its entries
(docutils' and Sphinx's ``<div class="citation" role="doc-biblioentry">``), whose titles and venues
are references, as a d2lbook citation is."""
_DECLARED = re.compile(r"(?:^|\s)(class|role)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)
_CHROME_TAGS = frozenset({"nav", "footer"})
_CHROME_ROLES = frozenset({"navigation", "contentinfo"})
_CHROME_NAMES = frozenset("comment comments commentlist disqus breadcrumb breadcrumbs cookie cookies".split())
"""Words of a class or id (split at ``-`` and ``_``) that name page chrome: a reader comments
section (``comments``, ``comment-list``, ``disqus_thread``), a breadcrumb trail, a cookie banner."""
_IDENTIFIED = re.compile(
    r"(?:^|\s)(class|id|role)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+))", re.IGNORECASE
)
_NAME_PART = re.compile(r"[^\s_-]+")
_BLOCKS = frozenset(
    "address article aside blockquote body br dd details dialog div dl dt fieldset figcaption figure "
    "footer form head header hr html li main nav ol p section summary table tbody td tfoot th thead "
    "title tr ul".split()
)
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_TERM_END = re.compile(r"</dt\s*>([ \t]*\n?[ \t]*)$", re.IGNORECASE)
"""A term's end tag right before its definition (``<dd>``), on its line or the line before."""
_EMPHASIS = {"em": "*", "i": "*", "strong": "**", "b": "**"}
_HIDES = re.compile(
    r"(?:^|\s)(?:hidden|aria-hidden\s*=\s*[\"'{]*true)(?=[\s/>=}\"']|$)"
    r"|display\s*:\s*[\"']?none|visibility\s*:\s*[\"']?hidden"
    r"|(?:font-?size|opacity)\s*:\s*[\"']?0(?![.\d]*[1-9])|transform\s*:\s*[\"']?scale[XY]?\(\s*0(?![.\d]*[1-9])"
    r"|(?:left|top|right|text-?indent)\s*:\s*[\"']?-\d{3,}|clip\s*:\s*[\"']?rect\(\s*0"
    r"|clip-?path\s*:\s*[\"']?inset\(\s*50%|(?<![-\w])color\s*:\s*[\"']?transparent"
    r"|class(?:Name)?\s*=\s*[\"'{`][^\"'`]*?\b(?:hidden|d-none|sr-only|visually-hidden)\b",
    re.IGNORECASE,
)
"""Styles and classes that hide an element's text, in CSS (``font-size``) or as MDX writes a style
object (``fontSize``)."""
_COLLAPSED = re.compile(r"(?<![-\w])(?:max-?)?(?:height|width)\s*:\s*[\"']?0(?![.\d]*[1-9])", re.IGNORECASE)
_CLIPPED = re.compile(r"overflow\s*:\s*[\"']?hidden", re.IGNORECASE)
_COLOR = re.compile(r"(?<![-\w])(color|background(?:-?color)?)\s*:\s*[\"']?([^;\"'}]+)", re.IGNORECASE)
_NAMED = {"white": (255, 255, 255), "black": (0, 0, 0)}


def hides(view: str, start: int, end: int) -> bool:
    """Whether a tag's attributes (``view[start:end]``) hide its element's text: a hiding style or
    class (:data:`_HIDES`), a height or width of 0 with what overflows clipped, or a text color the
    same as the background's, however each is written (``#fff`` and ``white``).

    >>> hides(' style="height:0;overflow:hidden"', 0, 33), hides(' style="height:0"', 0, 17)
    (True, False)
    >>> hides(' style="color:#FFF; background-color: rgb(255, 255, 255)"', 0, 58)
    True
    >>> hides(' style={{color: "white", background: "#000"}}', 0, 46)
    False
    """
    if _HIDES.search(view, start, end) or (
        _COLLAPSED.search(view, start, end) and _CLIPPED.search(view, start, end)
    ):
        return True
    colors: dict[bool, object] = {}
    for found in _COLOR.finditer(view, start, end):
        colors.setdefault(found.group(1).lower() == "color", _color(found.group(2)))
    return colors.get(True) is not None and colors.get(True) == colors.get(False)


def _color(value: str) -> object:
    """A CSS color value as red, green and blue where it is one of the usual spellings (``#fff``,
    ``#ffffff``, ``rgb(255, 255, 255)``, ``white``), else its first word in lower case."""
    word = value.strip().lower().split(" !")[0]
    if word.startswith("rgb"):
        numbers = re.findall(r"\d+", word)
        return tuple(int(n) for n in numbers[:3]) if len(numbers) >= 3 else word
    word = word.split()[0] if word.split() else ""
    if re.fullmatch(r"#[0-9a-f]{3,4}|#[0-9a-f]{6}(?:[0-9a-f]{2})?", word):
        digits = word[1:] if len(word) > 5 else "".join(c * 2 for c in word[1:])
        return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4))
    return _NAMED.get(word, word or None)


_OFFERS = frozenset("choice option alternative distractor radio checkbox".split())
"""Words of a component's name (its capitalised parts: ``QuizChoice``, ``Quiz.Option``) that make
it one option of a quiz or a form, which the lesson offers and never states."""
_MARKED = re.compile(r"(?:^|\s)(?:correct|incorrect|isCorrect|is_correct|wrong)(?=[\s=/>]|$)")
"""A prop that marks a component right or wrong (``<Choice correct>``, ``<Item isCorrect={false}>``):
one option of a quiz, whatever its name."""
_VALUE = re.compile(r"\"[^\"]*\"|'[^']*'|\{[^{}]*\}")
_TITLES = re.compile(r"(?:^|\s)(alt|title)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)


def tag_pass(canvas: Canvas, view: str, *, html: bool) -> None:
    elements, pos = Elements(canvas, view), 0
    while (tag := _TAG.search(view, pos)) is not None:
        if not html and BLANK_LINE.search(view, tag.start(), tag.end()):
            pos = tag.start() + 1  # a Markdown tag never spans paragraphs
            continue
        if tag.group(2) is None:
            canvas.paint(tag.start(), tag.end(), "html")  # <!DOCTYPE ...>, <?xml ...?>
        else:
            elements.tag(
                tag.start(), tag.end(), tag.group(2), bool(tag.group(1)), bool(tag.group(4)), tag.start(3)
            )
        pos = tag.end()
    elements.finish(len(view))


class Elements:
    """Open elements whose content is not prose (``<pre>``, a hiding ``<div>`` ...). Elements are
    counted per name, so matching a closing tag costs no walk down a stack, and only the outermost
    open element of each content kind is kept (what it paints covers the inner ones), so deep
    nesting costs no repainting."""

    def __init__(self, canvas: Canvas, view: str) -> None:
        self.canvas, self.view = canvas, view
        self.depth: dict[str, int] = {}
        self.open: dict[str, list[tuple[int, int, int, RegionKind, str]]] = {}
        self.active: set[RegionKind] = set()
        self.sidebars: list[tuple[str, int]] = []
        """The sidebars open (an ``<aside>``, an element whose class or id says sidebar): their
        element's name and depth."""

    def tag(self, start: int, end: int, name: str, closing: bool, empty: bool, attrs: int) -> None:
        low = name.lower()
        component = not name or name[0].isupper()
        kind: RegionKind = "component" if component else "image" if low in ("img", "picture") else "html"
        self.canvas.paint(start, end, kind)
        plain = end - attrs <= 2  # no attributes: nothing to hide
        hidden = not closing and not plain and hides(self.view, attrs, end)
        if kind == "html" and not hidden:
            self.structure(start, end, low, closing)
        for title in () if plain else _TITLES.finditer(self.view, attrs, end):
            group = 2 if title.group(2) is not None else 3
            self.canvas.hide(title.start(group), title.end(group), f"{title.group(1).lower()} text")
        if closing:
            if self.sidebars and self.sidebars[-1] == (low, self.depth.get(low, 0)):
                self.sidebars.pop()
            self.close(low, start, end)
            return
        if empty or low in _VOID:
            return
        depth = self.depth[low] = self.depth.get(low, 0) + 1
        names = set() if component or plain else self.names(attrs, end)
        if low == "aside" or "sidebar" in names:
            self.sidebars.append((low, depth))
        chrome = low in _CHROME_TAGS or not names.isdisjoint(_CHROME_NAMES | _CHROME_ROLES)
        chrome = chrome or (low in ("ul", "ol") and bool(self.sidebars))  # a sidebar's list: navigation
        # What a class or role declares the content (math in a <tt>) comes before what the element is.
        declared = None if component or plain else self.declared(attrs, end)
        content: RegionKind | None = (
            "hidden" if hidden else "chrome" if chrome else declared or _CONTENT.get(low)
        )
        if component and not hidden:
            content = "choice" if self.offered(name, attrs, end) else None
        if content is not None and content not in self.active:
            self.active.add(content)
            reason = f"hidden <{name}>" if hidden else ""
            self.open.setdefault(low, []).append((start, end, depth, content, reason))

    def offered(self, name: str, attrs: int, end: int) -> bool:
        """Whether a component is one option of a quiz or a form: by a word of its name
        (:data:`_OFFERS`) or a prop that marks it right or wrong (:data:`_MARKED`)."""
        words = {word.lower() for word in re.findall(r"[A-Z]?[a-z]+", name)}
        props = _VALUE.sub('""', self.view[attrs:end])  # a prop's name, never words of its value
        return not words.isdisjoint(_OFFERS) or _MARKED.search(props) is not None

    def names(self, attrs: int, end: int) -> set[str]:
        """The words of a tag's class, id and role, split at ``-`` and ``_``, in lower case."""
        words: set[str] = set()
        for found in _IDENTIFIED.finditer(self.view, attrs, end):
            value = next(group for group in found.groups()[1:] if group is not None)
            words.update(part.lower() for part in _NAME_PART.findall(value))
        return words

    def declared(self, attrs: int, end: int) -> RegionKind | None:
        """The content kind a tag's class (:data:`_CLASSES`) or role (:data:`_ROLES`) declares."""
        for found in _DECLARED.finditer(self.view, attrs, end):
            kinds = _CLASSES if found.group(1).lower() == "class" else _ROLES
            value = found.group(2) if found.group(2) is not None else found.group(3)
            kind = next((kinds[name] for name in value.lower().split() if name in kinds), None)
            if kind is not None:
                return kind
        return None

    def structure(self, start: int, end: int, low: str, closing: bool) -> None:
        """The marks of a tag's structure (see the module docstring); a tag has three characters
        at least ("<p>")."""
        mark = self.canvas.mark
        if low == "dt" and closing:
            return  # a term runs on to its definition, as a Pandoc definition list writes them
        if low == "dd" and not closing and (term := _TERM_END.search(self.view, max(0, start - 80), start)):
            if "\n" not in term.group(1):
                mark(start, "\n")
                start += 1
            mark(start, ":")  # "Term" over ":   What it is."
            return
        if low in _BLOCKS or low in _HEADINGS:
            mark(start, "\n")
            if closing or low not in _HEADINGS:
                mark(end - 1, "\n")
            else:  # a paragraph break, then "#" as many times as there is room for, then a space
                mark(start + 1, "\n")
                for at in range(start + 2, start + 2 + max(1, min(_HEADINGS[low], end - start - 3))):
                    mark(at, "#")
        elif low in _EMPHASIS:
            stars = _EMPHASIS[low][: end - start - 1]
            for offset, star in enumerate(stars):
                mark(start + offset if closing else end - len(stars) + offset, star)

    def close(self, low: str, start: int, end: int) -> None:
        depth = self.depth.get(low, 0)
        if not depth:
            return
        self.depth[low] = depth - 1
        waiting = self.open.get(low)
        if waiting and waiting[-1][2] == depth:
            _, content_start, _, content, reason = waiting.pop()
            self.active.discard(content)
            self.fill(content_start, start, content, reason)

    def fill(self, start: int, end: int, content: RegionKind, reason: str) -> None:
        if content != "table":
            self.canvas.paint(start, end, content)
        else:
            for a, b in self.canvas.free(start, end):
                if not reads_as_prose(self.canvas.text[a:b]):
                    self.canvas.paint(a, b, "table")
        if reason:
            self.canvas.hide(start, end, reason)

    def finish(self, size: int) -> None:
        """Elements never closed run to the end of the file."""
        for waiting in self.open.values():
            for _, content_start, _, content, reason in waiting:
                self.fill(content_start, size, content, reason)
        self.open.clear()
        self.active.clear()
