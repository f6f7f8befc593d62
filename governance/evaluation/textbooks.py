"""The textbooks a Metacademy-layout data set cites, as courses with a teaching order each.

Each Metacademy concept lists the resources that teach it (``resources``: a ``source`` key of
``resource_catalog.jsonl`` and ``location`` strings such as ``Section 14.3, "Boosting," pages
657-659``). Within one textbook (or numbered lecture series) the section numbers order its concepts
as the book teaches them: :func:`course_orders` turns each source into one course order (concept ->
the rank of the first section that teaches it), which the judge reads as it reads the lessons'
order (:class:`~agents.teaching.TeachingOrder`). A location without a section, chapter or lecture
number (a named lecture, a web page) places nothing; a source that places fewer than two concepts
is no course; resources of any other shape are skipped.

>>> rows = {
...     "a": [{"source": "book", "location": ['Section 2.1, "A"']}],
...     "b": [{"source": "book", "location": ["Chapter 14", "Section 3.2"]}, {"source": "web"}],
...     "c": [{"source": "book", "location": ["Section 10.4"]}, "not a resource"],
... }
>>> course_orders(rows)
({'a': 0, 'b': 1, 'c': 2},)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

__all__ = ["course_orders"]

_NUMBERED = re.compile(r"\b(?:Section|Chapter|Lecture)s?\s*\"?(\d{1,4}(?:\.\d{1,4}){0,4})\b")


def course_orders(resources: Mapping[str, Sequence[object]]) -> tuple[dict[str, int], ...]:
    """One order per source that places two concepts or more, sources in name order; ``resources``
    maps each concept to its ``resources`` list as read from ``concepts.jsonl``."""
    placed: dict[str, dict[str, tuple[int, ...]]] = {}  # source -> concept -> first section
    for concept, items in resources.items():
        for item in items if isinstance(items, list) else ():
            if not isinstance(item, dict) or not isinstance(item.get("source"), str):
                continue
            locations = item.get("location")
            for location in locations if isinstance(locations, list) else ():
                found = _NUMBERED.search(location) if isinstance(location, str) else None
                if found is None:
                    continue
                section = tuple(int(part) for part in found.group(1).split("."))
                book = placed.setdefault(item["source"], {})
                book[concept] = min(book.get(concept, section), section)
    orders = []
    for _, book in sorted(placed.items()):
        sections = sorted(set(book.values()))
        if len(book) >= 2 and len(sections) >= 2:
            rank = {section: at for at, section in enumerate(sections)}
            orders.append({concept: rank[section] for concept, section in sorted(book.items())})
    return tuple(orders)
