"""Documents: the audit report as Markdown, HTML or JSON, and the review pages, from Jinja2 templates.

The templates are package data (``magg_kg/views/templates``). HTML is autoescaped; charts come from
:mod:`magg_kg.views.charts` as SVG text and are the only markup inserted as it is. Nothing on a page
loads from the network: the style sheet is inline and there is no script.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from magg_kg.views.charts import decisions_chart, scores_chart, timeline_chart

__all__ = [
    "age_text",
    "amount_text",
    "dollars_text",
    "markdown_cell",
    "page_html",
    "report_html",
    "report_json",
    "report_markdown",
]


def age_text(seconds: object) -> str:
    """A duration for a person to read.

    >>> [age_text(s) for s in (None, 4.2, 125, 7300, 200000)]
    ['–', '4 s', '2 min', '2 h 1 min', '2 d 7 h']
    """
    if not isinstance(seconds, int | float):
        return "–"
    whole = int(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min" if minutes else f"{secs} s"


def markdown_cell(value: object) -> str:
    """A value safe inside a Markdown table cell (no pipe, no line break, no HTML).

    >>> markdown_cell("a|b\\n<c>")
    'a\\\\|b &lt;c&gt;'
    """
    text = " ".join(str(value).split())
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def _score(value: object) -> str:
    return f"{value:.2f}" if isinstance(value, int | float) and not isinstance(value, bool) else "–"


def amount_text(value: object) -> str:
    """A count or an amount per edge for a person to read: whole above 100, with one decimal from
    10, three significant digits below ("–" for none).

    >>> [amount_text(v) for v in (33942.243243, 15.432432, 2.5, 0.139544, 0, None)]
    ['33,942', '15.4', '2.5', '0.14', '0', '–']
    """
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "–"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def dollars_text(value: object) -> str:
    """US dollars: cents from a dollar up, three significant digits below.

    >>> [dollars_text(v) for v in (5.163137, 0.139544, None)]
    ['$5.16', '$0.14', '–']
    """
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "–"
    return f"${value:,.2f}" if abs(value) >= 1 else f"${value:.3g}"


def _rate(value: object) -> str:
    return f"{100 * value:.0f}%" if isinstance(value, int | float) else "–"


def bars_text(bars: object) -> str:
    """The gate's bars as the report says them, under each policy its decisions recorded.

    >>> bars_text([{"reject_below": 0.5, "commit_at": 0.8, "decisions": 12}])
    'the gate rejects below 0.50 and commits at 0.80'
    >>> bars_text([{"reject_below": 0.5, "commit_at": 0.8, "decisions": 12},
    ...            {"reject_below": 0.4, "commit_at": 0.7, "decisions": 3}])
    'the gate rejected below 0.50 and committed at 0.80 in 12 decisions, below 0.40 and at 0.70 in 3'
    """
    assert isinstance(bars, list)
    if len(bars) == 1:
        return (
            f"the gate rejects below {bars[0]['reject_below']:.2f} and commits at {bars[0]['commit_at']:.2f}"
        )
    first, *rest = bars
    said = [
        f"the gate rejected below {first['reject_below']:.2f} and committed at {first['commit_at']:.2f} "
        f"in {first['decisions']} decisions",
        *(f"below {b['reject_below']:.2f} and at {b['commit_at']:.2f} in {b['decisions']}" for b in rest),
    ]
    return ", ".join(said)


@cache
def _environment(autoescape: bool) -> Environment:
    environment = Environment(
        loader=PackageLoader("magg_kg.views", "templates"),
        autoescape=select_autoescape(["html.j2"]) if autoescape else False,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters.update(
        age=age_text,
        cell=markdown_cell,
        score=_score,
        rate=_rate,
        bars=bars_text,
        amount=amount_text,
        dollars=dollars_text,
    )
    return environment


def report_json(report: Mapping[str, object]) -> str:
    """The report as canonical, indented JSON (the shape of ``docs/audit-report.md``)."""
    return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


ENDED = (
    "revised: replaced by an owner's revision of it (a new proposal); superseded: closed for a later "
    "proposal of the same edge, whose outcome is the edge's."
)
"""What the report's two states that are no outcome of their own say."""


def report_markdown(report: Mapping[str, object]) -> str:
    """The report as Markdown that reads well on a code forge: headings, tables, no HTML."""
    return _environment(False).get_template("report.md.j2").render(report=report, ended=ENDED)


def _charts(section: Mapping[str, object]) -> dict[str, Markup]:
    name = str(section["scope"])
    timeline = section["timeline"]
    assert isinstance(timeline, dict)
    decisions, scores, bars = section["decisions"], section["scores"], section["bars"]
    assert isinstance(decisions, dict) and isinstance(scores, dict) and isinstance(bars, list)
    drawn = sorted({float(bar[key]) for bar in bars for key in ("reject_below", "commit_at")})
    # The SVG is matplotlib's own output, whose text it escapes: safe to insert as markup.
    return {
        "decisions": Markup(decisions_chart(decisions, name)),
        "scores": Markup(scores_chart(scores, name, drawn)),
        "timeline": Markup(
            timeline_chart(timeline["admissions"], timeline["invalidations"], name, str(timeline["bucket"]))
        ),
    }


def report_html(report: Mapping[str, object], *, links: bool = False) -> str:
    """The report as one self-contained HTML page, charts inline as SVG.

    ``links`` adds the review application's navigation (``magg serve``); a file has none.
    """
    overall, domains = report["overall"], report["domains"]
    assert isinstance(overall, dict) and isinstance(domains, list)
    charts = {str(section["scope"]): _charts(section) for section in [overall, *domains]}
    template = _environment(True).get_template("report.html.j2")
    return template.render(report=report, charts=charts, links=links, ended=ENDED)


def page_html(template: str, **values: object) -> str:
    """One page of the review application (``queue``, ``proposal``, ``graph``, ``domains``, ``message``)."""
    return _environment(True).get_template(f"{template}.html.j2").render(links=True, **values)
