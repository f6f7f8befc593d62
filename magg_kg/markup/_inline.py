"""Inline level, one left-to-right scan: the leftmost construct wins, as in CommonMark."""

from __future__ import annotations

import re

from magg_kg.markup._canvas import BLANK_LINE, Canvas, Flavor, Next
from magg_kg.markup._tags import Elements

__all__ = ["Inline"]

# Inline level: the leftmost construct wins, as in CommonMark.
_COMMON = r"<!--|<!\[CDATA\[|<(?i:script|style)(?=[\s/>])|(?:https?|ftp)://|\bwww\."
_MARKDOWN = (
    r"|`+|<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>|<[\w.+-]+@[\w-]+(?:\.[\w-]+)+>"
    r"|\[\^[^\[\]\s]{1,99}\]|!?\[|\]|\$\$?|\\.|:[a-z_]+:`"
)
_TOKENS = {
    "html": re.compile(_COMMON),
    "markdown": re.compile(_COMMON + _MARKDOWN),
    "mdx": re.compile(_COMMON + _MARKDOWN + r"|\{|<(?=[A-Za-z/>])"),
}
_URL = re.compile(r"(?:(?:https?|ftp)://|www\.)[^\s<>\"'`{}|\\^\[\]]*")
_TARGET = re.compile(
    r"\(\s*(?:<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?P<title>\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
)
_LABEL = re.compile(r"\[[^\[\]\n]{0,999}\]")
_ROLE = re.compile(r":[a-z_]+:`[^`\n]{0,999}`")
_CLOSERS = {
    "$$": re.compile(r"\$\$"),
    "$": re.compile(r"(?<=[^\s\\$])\$(?![\d$])"),
    "\\(": re.compile(r"\\\)"),
    "\\[": re.compile(r"\\\]"),
    "<script": re.compile(r"</script\s*>", re.I),
    "<style": re.compile(r"</style\s*>", re.I),
}
_BEGIN = re.compile(r"\\begin\{([A-Za-z]+\*?)\}")
"""A LaTeX environment written bare, outside ``$$`` (``\\begin{equation}`` ... ``\\end{equation}``):
math, as MathJax and KaTeX render it."""
_LATEX_SPAN = 100_000
"""The farthest an environment's ``\\end`` is looked for."""
_JSX_NAME = re.compile(r"<(/?)([A-Za-z][\w.:-]*)?")
_JSX_ATTRS = re.compile(r"(?:\s|[\w:.@$-]|=|\"[^\"]*\"|'[^']*')*")
_BRACES = re.compile(r"[{}]|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")


class Inline:
    """One left-to-right scan of the prose view for inline constructs (and MDX tags)."""

    def __init__(self, canvas: Canvas, view: str, flavor: Flavor) -> None:
        self.canvas, self.view, self.flavor = canvas, view, flavor
        self.tokens = _TOKENS[flavor]
        self.blocks = Next(view, BLANK_LINE)
        self.closers = {key: Next(view, pattern) for key, pattern in _CLOSERS.items()}
        self.ticks: dict[int, Next] = {}
        self.brackets: list[tuple[int, bool, int]] = []
        self.elements = Elements(canvas, view)

    def block_end(self, pos: int) -> int:
        found = self.blocks.at(pos)
        return found.start() if found is not None else len(self.view)

    def closing(self, key: str, pos: int, limit: int) -> int | None:
        found = self.closers[key].at(pos)
        return found.end() if found is not None and found.end() <= limit else None

    def run(self) -> None:
        pos, size = 0, len(self.view)
        while pos < size and (token := self.tokens.search(self.view, pos)) is not None:
            pos = max(self.handle(token.group(), token.start(), token.end()), token.start() + 1)
        self.elements.finish(size)

    def handle(self, token: str, start: int, end: int) -> int:
        first = token[0]
        if token.startswith("[^"):  # a footnote's mark ("Covariance[^cov]"): its label is no word
            self.canvas.paint(start, end, "reference")
            return end
        if first == "[" or first == "!":
            self.brackets.append((start, first == "!", self.block_end(start)))
            return end
        if first == "]":
            return self.link(start)
        if first == "`":
            return self.code_span(start, end)
        if first == "$" or token in ("\\(", "\\["):
            return self.math(token, start, end)
        if token == "\\b" and (begun := _BEGIN.match(self.view, start)) is not None:
            closed = self.view.find(f"\\end{{{begun.group(1)}}}", begun.end(), begun.end() + _LATEX_SPAN)
            if closed < 0:
                return end  # no end in reach: text
            stop = closed + len(begun.group(1)) + 6
            self.canvas.paint(start, stop, "math")
            return stop
        if first == "<":
            return self.angle(token, start, end)
        if first in "hfw":
            found = _URL.match(self.view, start, min(len(self.view), start + 8192))
            stop = _url_end(self.view, start, found.end()) if found else end
            self.canvas.paint(start, stop, "url")
            return stop
        if first == ":":
            role = _ROLE.match(self.view, start)
            if role is None:
                return end
            self.canvas.paint(start, role.end(), "reference")
            return role.end()
        if first == "{":
            return self.expression(start)
        return end  # an escaped character

    def angle(self, token: str, start: int, end: int) -> int:
        """A comment, CDATA, ``<script>``/``<style>``, an autolink or (MDX) a tag."""
        view, paint, size = self.view, self.canvas.paint, len(self.view)
        if token == "<!--" or token == "<![CDATA[":
            close = view.find("-->" if token == "<!--" else "]]>", end)
            stop = size if close < 0 else close + 3
            paint(start, stop, "comment" if token == "<!--" else "html")
            if token == "<!--":
                self.canvas.hide(start, stop, "HTML comment")
            return stop
        low = token.lower()
        if low in ("<script", "<style"):
            stop = self.closing(low, end, size) or size
            paint(start, stop, "script")
            return stop
        if token == "<":
            return self.jsx(start)
        paint(start, end, "url")  # an autolink
        return end

    def code_span(self, start: int, end: int) -> int:
        width = end - start
        finder = self.ticks.get(width)
        if finder is None:
            finder = self.ticks[width] = Next(self.view, re.compile(rf"(?<!`)`{{{width}}}(?!`)"))
        found = finder.at(end)
        if found is None or found.end() > self.block_end(start):
            return end  # no closing run in the paragraph: the backticks are text
        self.canvas.paint(start, found.end(), "inline_code")
        return found.end()

    def math(self, token: str, start: int, end: int) -> int:
        limit = self.block_end(start)
        if token == "$" and (end >= len(self.view) or self.view[end].isspace()):
            return end
        stop = self.closing(token, end, limit)
        if stop is None and token == "$$":
            stop = limit  # an unclosed display formula runs to the end of its paragraph
        if stop is None:
            return end
        self.canvas.paint(start, stop, "math")
        return stop

    def link(self, close: int) -> int:
        view, limit, after = self.view, self.block_end(close), close + 1
        while self.brackets and self.brackets[-1][2] != limit:
            self.brackets.pop()  # openers left open in an earlier paragraph
        if not self.brackets:
            return after
        start, image, _ = self.brackets.pop()
        pattern = _TARGET if view.startswith("(", after) else _LABEL
        target = pattern.match(view, after, min(limit, after + 8192))
        if target is None:
            return after
        if image:
            self.canvas.paint(start, target.end(), "image")
            self.canvas.hide(start + 2, close, "image alt text")
        else:
            self.canvas.paint(start, start + 1, "url")
            self.canvas.paint(close, target.end(), "url")
        if pattern is _TARGET and target.group("title"):
            reason = "image title" if image else "link title"
            self.canvas.hide(target.start("title") + 1, target.end("title") - 1, reason)
        return target.end()

    def brace_end(self, start: int) -> int | None:
        depth = 0
        for token in _BRACES.finditer(self.view, start):
            if token.group() == "{":
                depth += 1
            elif token.group() == "}":
                depth -= 1
                if depth == 0:
                    return token.end()
        return None

    def expression(self, start: int) -> int:
        stop = self.brace_end(start) or len(self.view)
        if self.view[start + 1 : start + 64].lstrip().startswith("/*"):
            self.canvas.paint(start, stop, "comment")
            self.canvas.hide(start, stop, "MDX comment")
        else:
            self.canvas.paint(start, stop, "component")
        return stop

    def jsx(self, start: int) -> int:
        view, size = self.view, len(self.view)
        name = _JSX_NAME.match(view, start)
        assert name is not None  # the token is "<" before a letter, "/" or ">"
        at = name.end()
        if name.group(2) is None and not view.startswith(">", at):
            return start + 1
        attrs = at
        while True:
            skipped = _JSX_ATTRS.match(view, at)
            at = skipped.end() if skipped else at
            if at >= size:
                break  # an unclosed tag runs to the end of the file
            if view[at] == "{":
                at = self.brace_end(at) or size
                continue
            if view[at] == ">" or view.startswith("/>", at):
                at += 1 if view[at] == ">" else 2
                break
            return start + 1  # not a tag ("a<b, c"): text
        closing, stop = bool(name.group(1)), min(at, size)
        self.elements.tag(start, stop, name.group(2) or "", closing, view[stop - 2 : stop] == "/>", attrs)
        return stop


def _url_end(view: str, start: int, end: int) -> int:
    """A bare URL without the punctuation that ends its sentence, or an unbalanced ")"."""
    while end > start and view[end - 1] in ".,:;!?*_~'\")":
        if view[end - 1] == ")" and view.count("(", start, end) >= view.count(")", start, end):
            break
        end -= 1
    return end
