"""Charts as inline SVG, drawn by matplotlib (no pyplot, no global backend; the Agg-free SVG canvas).

Each function takes plain report values and returns one ``<svg>`` element as text, ready to be
placed in an HTML page: no XML prolog, no external reference, text kept as text. Output is
deterministic (fixed hash salt per chart, no date), so a report rebuilt from the same data is
byte-identical.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import networkx as nx

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["decisions_chart", "domain_graph_chart", "scores_chart", "timeline_chart"]

_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)
_REFERENCE = re.compile(r"#([\w.-]+)[)\"]")
_ID = re.compile(r' id="([\w.-]+)"')
_INDENT = re.compile(r"\n\s+")
_LOCK = threading.Lock()  # rc_context changes matplotlib's process-wide settings
_OUTCOME_COLOURS = {
    "committed": "#2e7d32",
    "rejected": "#c62828",
    "quarantined": "#ef6c00",
    "abstained": "#757575",
    "invalidated": "#6a1b9a",
    "proposed": "#1565c0",
}
_EDGE_COLOURS = {
    "prerequisite": "#c62828",
    "builds_on": "#1565c0",
    "part_of": "#2e7d32",
    "contrasts_with": "#6a1b9a",
    "related": "#9e9e9e",
    "applies_to": "#ef6c00",
}


def _styled() -> AbstractContextManager[None]:
    """The charts' look, for the time of one chart (matplotlib's settings are process-wide).
    matplotlib is imported here and in :func:`_figure`, when a chart is drawn: a command that draws
    none (``magg ask``, ``magg coverage``) does not pay for it."""
    import matplotlib

    return matplotlib.rc_context(
        {
            "svg.fonttype": "none",
            "font.size": 9,
            "font.family": ["DejaVu Sans", "sans-serif"],
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )


def _label(text: str) -> str:
    """Text shown as it is: a ``$`` would otherwise start matplotlib's math mode."""
    return text.replace("$", r"\$")


def _svg(figure: Figure, name: str) -> str:
    """The figure's ``<svg>`` element: no prolog or metadata, no id that nothing refers to (several
    charts share a page, and matplotlib names its groups the same in each), indentation dropped."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": name}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    text = _METADATA.sub("", text[text.index("<svg") :])
    referred = set(_REFERENCE.findall(text))
    text = _ID.sub(lambda found: found.group(0) if found.group(1) in referred else "", text)
    return _INDENT.sub("\n", text).strip()


def _figure(width: float, height: float, left: float = 0.5, bottom: float = 0.45, top: float = 0.3) -> Figure:
    """A figure with fixed margins in inches (a layout engine would measure every label: slower)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height))
    figure.subplots_adjust(
        left=left / width, right=1 - 0.15 / width, bottom=bottom / height, top=1 - top / height, wspace=0.3
    )
    return figure


def decisions_chart(decisions: Mapping[str, Mapping[str, int]], name: str) -> str:
    """Decisions by stage and verdict: one horizontal bar per (stage, verdict)."""
    rows = [
        (f"{stage} · {verdict}", n)
        for stage, verdicts in decisions.items()
        for verdict, n in verdicts.items()
    ]
    with _LOCK, _styled():
        longest = max((len(label) for label, _ in rows), default=10)
        figure = _figure(7.5, 0.9 + 0.22 * max(len(rows), 1), left=0.2 + 0.068 * longest)
        axes = figure.subplots()
        labels = [_label(label) for label, _ in reversed(rows)]
        axes.barh(labels, [n for _, n in reversed(rows)], color="#1565c0")
        axes.set_xlabel("decisions")
        axes.set_title("Decisions by stage and verdict", loc="left")
        for index, (_, n) in enumerate(reversed(rows)):
            axes.annotate(str(n), (n, index), xytext=(3, 0), textcoords="offset points", va="center")
        return _svg(figure, f"decisions-{name}")


def scores_chart(scores: Mapping[str, Mapping[str, object]], name: str, bars: Sequence[float]) -> str:
    """One histogram per scorer (judge, owners' votes, moderator) over [0, 1], with the policy's bars."""
    with _LOCK, _styled():
        figure = _figure(7.5, 2.2)
        axes_row = figure.subplots(1, len(scores), sharey=False, squeeze=False)[0]
        for axes, (scorer, summary) in zip(axes_row, scores.items(), strict=True):
            counts = summary.get("histogram")
            heights = [int(n) for n in counts] if isinstance(counts, list) else []
            edges = [index / len(heights) for index in range(len(heights))]
            axes.bar(edges, heights, width=1 / max(len(heights), 1), align="edge", color="#546e7a")
            for bar in bars:
                axes.axvline(bar, color="#c62828", linewidth=0.8, linestyle="--")
            axes.set_xlim(0, 1)
            axes.set_title(_label(f"{scorer} (n={summary.get('count', 0)})"), loc="left")
            axes.set_xlabel("score")
        return _svg(figure, f"scores-{name}")


def timeline_chart(
    admissions: Sequence[Mapping[str, object]],
    invalidations: Sequence[Mapping[str, object]],
    name: str,
    bucket: str,
) -> str:
    """Edges admitted and invalidated per time bucket."""
    buckets = sorted({str(row["at"]) for row in [*admissions, *invalidations]})
    admitted = {str(row["at"]): int(str(row["count"])) for row in admissions}
    closed = {str(row["at"]): int(str(row["count"])) for row in invalidations}
    with _LOCK, _styled():
        figure = _figure(7.5, 2.8, bottom=1.0)
        axes = figure.subplots()
        positions = range(len(buckets))
        axes.bar(
            [p - 0.2 for p in positions],
            [admitted.get(b, 0) for b in buckets],
            width=0.4,
            label="admitted",
            color=_OUTCOME_COLOURS["committed"],
        )
        axes.bar(
            [p + 0.2 for p in positions],
            [closed.get(b, 0) for b in buckets],
            width=0.4,
            label="invalidated",
            color=_OUTCOME_COLOURS["invalidated"],
        )
        step = max(1, len(buckets) // 12)
        axes.set_xticks(
            list(positions)[::step], [b.replace("T", " ") for b in buckets][::step], rotation=30, ha="right"
        )
        axes.set_ylabel(f"edges per {bucket}")
        axes.set_title("Admissions and invalidations over time", loc="left")
        axes.legend(frameon=False)
        return _svg(figure, f"timeline-{name}")


def domain_graph_chart(
    nodes: Sequence[str], edges: Sequence[tuple[str, str, str]], bridges: Sequence[str], name: str
) -> str:
    """A domain's active edges as a directed graph (seeded layout), coloured by edge type."""
    from matplotlib.lines import Line2D

    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((src, dst, {"type": type_}) for src, type_, dst in edges)
    size = 4.5 + 0.12 * len(graph)
    with _LOCK, _styled():
        figure = _figure(min(size, 14), min(size * 0.75, 11), left=0.1, bottom=0.1, top=0.1)
        axes = figure.subplots()
        axes.set_axis_off()
        if len(graph):
            layout = nx.spring_layout(graph, seed=7, k=1.6 / max(len(graph), 1) ** 0.5)
            colours = ["#ffcc80" if node in bridges else "#bbdefb" for node in graph.nodes]
            nx.draw_networkx_nodes(graph, layout, ax=axes, node_color=colours, node_size=160)
            shown = []
            for type_, colour in _EDGE_COLOURS.items():
                chosen = [(u, v) for u, v, t in graph.edges(data="type") if t == type_]
                if chosen:
                    nx.draw_networkx_edges(
                        graph, layout, edgelist=chosen, ax=axes, edge_color=colour, arrows=True, arrowsize=9
                    )
                    shown.append(Line2D([0], [0], color=colour, label=type_))
            nx.draw_networkx_labels(graph, layout, {n: _label(n) for n in graph.nodes}, ax=axes, font_size=7)
            if shown:
                axes.legend(handles=shown, frameon=False, loc="lower left", fontsize=7)
        return _svg(figure, f"graph-{name}")
