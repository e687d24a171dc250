"""The notebooks' figures, built from the rows of `rulesdb.analysis.queries` (matplotlib, no
pyplot).

Each function returns a titled `Figure` with labelled axes, or None when there is nothing to
draw; figures are not registered with pyplot, so a notebook shows each exactly once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from matplotlib import colormaps
from matplotlib.figure import Figure

Row = dict[str, Any]

CHANGE_COLORS = {"added": "#2e7d32", "removed": "#c62828", "edited": "#f9a825",
                 "renumbered": "#1565c0", "renumbered_edited": "#6a1b9a", "split": "#00838f",
                 "merged": "#ad1457", "outside_coverage": "#9e9e9e", "unchanged": "#cfd8dc"}
KIND_COLORS = {"comprehensive_rules": "#1565c0", "rulings_summary": "#ef6c00",
               "rulebook": "#2e7d32"}
KEYWORD_KINDS = {"ability": "new keyword abilities", "action": "new keyword actions",
                 "ability_word": "new ability words"}
STATUS_COLORS = {"ok": "#2e7d32", "renumbered": "#1565c0", "missing": "#c62828",
                 "malformed": "#6a1b9a", "suspect": "#f9a825"}


def _year_label(row: Row) -> str:
    """'cr-2009-02-01-flattened\n(partial)', 'rulebook-1995\n(partial)', 'rulings-1999-04'."""
    label = row["label"].replace(" (partial)", "\n(partial)")
    year = row.get("year")
    return label if year is None or str(int(year)) in label else f"{label}\n{int(year)}"


def document_sizes(sizes: Sequence[Row]) -> Figure | None:
    """Words of each document split into rules, examples and glossary; oldest at the top."""
    if not sizes:
        return None
    fig = Figure(figsize=(10, 1 + 0.7 * len(sizes)), layout="constrained")
    ax = fig.add_subplot()
    rows = list(reversed(sizes))
    labels = [_year_label(r) for r in rows]
    left = [0] * len(rows)
    for key, name, color in (("rule_words", "rule text", "#1565c0"),
                             ("example_words", "examples", "#90caf9"),
                             ("glossary_words", "glossary", "#ffb74d")):
        values = [r[key] for r in rows]
        ax.barh(labels, values, left=left, color=color, label=name)
        left = [a + b for a, b in zip(left, values, strict=True)]
    for y, (row, total) in enumerate(zip(rows, left, strict=True)):
        ax.text(total, y, f"  {row['rules']:,} rules · {row['examples']:,} examples · "
                f"{row['glossary']:,} glossary entries", va="center", fontsize=8)
    ax.set_xlim(0, max(left) * 1.6)
    ax.set_title("Size of each document in words (oldest at the top)")
    ax.set_xlabel("words")
    ax.set_ylabel("document")
    ax.legend(loc="lower right")
    return fig


def cr_chapters(chapters: Sequence[Row]) -> Figure | None:
    """Words per chapter of each Comprehensive Rules edition, as stacked horizontal bars."""
    rows = [r for r in chapters if r["kind"] == "comprehensive_rules"]
    if not rows:
        return None
    docs = list(dict.fromkeys(r["document"] for r in rows))
    labels = {r["document"]: _year_label(r) for r in rows}
    keys = sorted({r["chapter"] for r in rows})
    legend_titles = {r["chapter"]: r["title"] for r in rows}  # newest edition's title wins
    cmap = colormaps["tab10"]
    fig = Figure(figsize=(11, 1.5 + 0.6 * len(docs)), layout="constrained")
    ax = fig.add_subplot()
    by_doc = {(r["document"], r["chapter"]): r["words"] for r in rows}
    ordered = list(reversed(docs))
    widest = max(sum(by_doc.get((doc, key), 0) for key in keys) for doc in docs)
    left = [0] * len(ordered)
    for index, key in enumerate(keys):
        values = [by_doc.get((doc, key), 0) for doc in ordered]
        bars = ax.barh([labels[d] for d in ordered], values, left=left, color=cmap(index % 10),
                       label=f"{key} {legend_titles[key]}", edgecolor="white")
        for bar, value in zip(bars, values, strict=True):
            if value > 0.05 * widest:
                ax.text(bar.get_x() + bar.get_width() / 2, bar.get_y() + bar.get_height() / 2,
                        key, ha="center", va="center", color="white", fontweight="bold")
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_title("Words per chapter in each Comprehensive Rules edition (oldest at the top)")
    ax.set_xlabel("words of rule text and examples")
    ax.set_ylabel("edition")
    ax.legend(title="chapter (newest title)", loc="upper left", bbox_to_anchor=(1, 1),
              fontsize=8)
    return fig


def other_sections(chapters: Sequence[Row]) -> Figure | None:
    """Words per top-level section of every document that is not a CR edition."""
    rows = [r for r in chapters if r["kind"] != "comprehensive_rules"]
    docs = list(dict.fromkeys(r["document"] for r in rows))
    if not docs:
        return None
    heights = [1 + 0.28 * sum(1 for r in rows if r["document"] == d) for d in docs]
    fig = Figure(figsize=(10, sum(heights) + 0.5), layout="constrained")
    axes = fig.subplots(len(docs), 1, squeeze=False, height_ratios=heights)[:, 0]
    for ax, doc in zip(axes, docs, strict=True):
        own = [r for r in rows if r["document"] == doc]
        ax.barh([_section_label(r) for r in reversed(own)],
                [r["words"] for r in reversed(own)],
                color=KIND_COLORS.get(own[0]["kind"], "#607d8b"))
        ax.set_title(own[0]["label"], fontsize=10)
        ax.set_xlabel("words")
        ax.set_ylabel("section")
        ax.tick_params(axis="y", labelsize=7)
    fig.suptitle("Words per top-level section of the rulings summary and rulebooks")
    return fig


def _section_label(row: Row) -> str:
    title = row["title"] or row["chapter"]
    return (f"{row['chapter']} {title}" if len(row["chapter"]) <= 3 else title)[:50]


def keyword_introductions(rows: Sequence[Row]) -> Figure | None:
    """Keywords first seen in each document, stacked by kind, with the document's total."""
    if not rows:
        return None
    fig = Figure(figsize=(max(8, 1.4 * len(rows)), 4.5), layout="constrained")
    ax = fig.add_subplot()
    labels = [_year_label(r) for r in rows]
    kinds = sorted({kind for r in rows for kind in r["new"]})
    bottom = [0] * len(rows)
    colors = {"ability": "#1565c0", "action": "#ef6c00", "ability_word": "#2e7d32"}
    for kind in kinds:
        values = [len(r["new"].get(kind, [])) for r in rows]
        ax.bar(labels, values, bottom=bottom, label=KEYWORD_KINDS.get(kind, f"new {kind}"),
               color=colors.get(kind))
        bottom = [a + b for a, b in zip(bottom, values, strict=True)]
    ax.plot(labels, [r["total"] for r in rows], "k_", markersize=30, mew=2,
            label="all keywords in the document")
    for x, (new, row) in enumerate(zip(bottom, rows, strict=True)):
        ax.annotate(f"{new} new / {row['total']}", (x, max(new, row["total"])),
                    textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8)
    ax.set_title("Keywords first seen in each document")
    ax.set_xlabel("document (by effective date)")
    ax.set_ylabel("keywords")
    ax.set_ylim(0, max(r["total"] for r in rows) * 1.2 + 1)
    ax.legend(loc="upper left", fontsize=8)
    return fig


def concept_timeline(rows: Sequence[Row], kinds: Mapping[str, str]) -> Figure | None:
    """Each concept as a line from its first to its last document, a dot per document."""
    if not rows:
        return None
    fig = Figure(figsize=(10, 1.2 + 0.25 * len(rows)), layout="constrained")
    ax = fig.add_subplot()
    for y, row in enumerate(rows):
        ax.plot([row["first"], row["last"]], [y, y], color="#b0bec5", zorder=1)
        for year, doc in zip(row["years"], row["documents"], strict=True):
            ax.scatter(year, y, color=KIND_COLORS.get(kinds.get(doc, ""), "#607d8b"), s=30,
                       zorder=2)
    for kind, color in KIND_COLORS.items():
        ax.scatter([], [], color=color, label=kind.replace("_", " "))
    ax.set_yticks(range(len(rows)), [r["concept"][:40] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(1994, 2026)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Concepts across the documents, 1995–2025 (first appearance at the top)")
    ax.set_xlabel("effective year of the document")
    ax.set_ylabel("concept")
    ax.legend(loc="lower left", fontsize=8)
    return fig


def glossary_growth(rows: Sequence[Row]) -> Figure | None:
    """Glossary entries per document: carried over, new, and (below zero) dropped."""
    if not rows:
        return None
    fig = Figure(figsize=(max(8, 1.4 * len(rows)), 4.5), layout="constrained")
    ax = fig.add_subplot()
    labels = [_year_label(r) for r in rows]
    carried = [r["carried"] for r in rows]
    ax.bar(labels, carried, color="#90a4ae", label="terms an earlier glossary has")
    ax.bar(labels, [r["new"] for r in rows], bottom=carried, color="#2e7d32",
           label="new terms")
    ax.bar(labels, [-r["dropped"] for r in rows], color="#c62828",
           label="terms dropped since the previous glossary of its kind")
    for x, row in enumerate(rows):
        ax.annotate(f"{row['total']} entries\n(+{row['new']} / −{row['dropped']})",
                    (x, row["carried"] + row["new"]), textcoords="offset points",
                    xytext=(0, 4), ha="center", fontsize=8)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylim(-max([r["dropped"] for r in rows] + [1]) * 1.2,
                max(r["total"] for r in rows) * 1.25)
    ax.set_title("Glossary growth from document to document")
    ax.set_xlabel("document with a glossary (by effective date)")
    ax.set_ylabel("glossary entries")
    ax.legend(loc="upper left", fontsize=8)
    return fig


def change_counts(counts: Mapping[str, int], old: str, new: str) -> Figure | None:
    """How many rules each change type touches between two editions (log scale if skewed)."""
    if not counts:
        return None
    fig = Figure(figsize=(9, 1 + 0.45 * len(counts)), layout="constrained")
    ax = fig.add_subplot()
    names = list(reversed(counts))
    values = [counts[n] for n in names]
    ax.barh(names, values, color=[CHANGE_COLORS.get(n, "#607d8b") for n in names])
    for y, value in enumerate(values):
        ax.text(value, y, f" {value:,}", va="center", fontsize=9)
    log = max(values) > 50 * max(1, min(values))
    if log:
        ax.set_xscale("log")
    ax.set_xlim(right=max(values) * (4 if log else 1.15))
    ax.set_title(f"Change types from {old} to {new}")
    ax.set_xlabel("rules" + (" (log scale)" if log else ""))
    ax.set_ylabel("change type")
    return fig


def changes_by_chapter(by_chapter: Mapping[str, Counter], old: str, new: str) -> Figure | None:
    """Change types per chapter (of the new numbering) as stacked horizontal bars."""
    if not by_chapter:
        return None
    chapters = list(reversed(by_chapter))
    changes = [c for c in CHANGE_COLORS if any(by_chapter[k][c] for k in chapters)]
    changes += sorted({c for k in chapters for c in by_chapter[k]} - set(changes))
    fig = Figure(figsize=(10, 1.2 + 0.4 * len(chapters)), layout="constrained")
    ax = fig.add_subplot()
    left = [0] * len(chapters)
    for change in changes:
        values = [by_chapter[k][change] for k in chapters]
        ax.barh(chapters, values, left=left, label=change,
                color=CHANGE_COLORS.get(change, "#607d8b"))
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_title(f"Where the changes from {old} to {new} fall, by chapter")
    ax.set_xlabel("rules")
    ax.set_ylabel("chapter (new number, else old)")
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1), fontsize=8)
    return fig


def similarities(values: Mapping[str, Sequence[float]], old: str, new: str) -> Figure | None:
    """How similar the paired rules are, one histogram per change type, stacked."""
    values = {op: list(v) for op, v in values.items() if v}
    if not values:
        return None
    fig = Figure(figsize=(9, 4), layout="constrained")
    ax = fig.add_subplot()
    ops = list(values)
    ax.hist([values[op] for op in ops], bins=[i / 20 for i in range(21)], stacked=True,
            label=[f"{op} ({len(values[op])})" for op in ops],
            color=[CHANGE_COLORS.get(op, "#607d8b") for op in ops])
    ax.set_xlim(0, 1)
    ax.set_title(f"Similarity of each rule to its counterpart, {old} → {new}")
    ax.set_xlabel("similarity of old and new text (1 = identical)")
    ax.set_ylabel("rules")
    ax.legend(loc="upper left", fontsize=8)
    return fig


def coverage_heatmap(rows: Sequence[Row], engine: str, edition: str) -> Figure | None:
    """Covered share of each section: sections 700–709 on one row, 710–719 on the next, …"""
    numeric = [r for r in rows if r["section"].isdigit() and len(r["section"]) == 3]
    if not numeric:
        return None
    decades = sorted({r["section"][:2] for r in numeric})
    grid = [[float("nan")] * 10 for _ in decades]
    for r in numeric:
        grid[decades.index(r["section"][:2])][int(r["section"][2])] = r["share"]
    fig = Figure(figsize=(9, 1.6 + 0.5 * len(decades)), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="YlGn", vmin=0, vmax=1, aspect="auto")
    for r in numeric:
        y, x = decades.index(r["section"][:2]), int(r["section"][2])
        ax.text(x, y, f"{r['section']}\n{r['covered']}/{r['rules']}", ha="center",
                va="center", fontsize=7, color="white" if r["share"] > 0.6 else "black")
    ax.set_xticks(range(10), [str(i) for i in range(10)])
    ax.set_yticks(range(len(decades)), [f"{d}x" for d in decades])
    ax.set_title(f"Engine {engine}: rules cited per section of {edition}")
    ax.set_xlabel("last digit of the section number")
    ax.set_ylabel("sections")
    fig.colorbar(image, ax=ax, label="share of the section's rules cited")
    return fig


def citation_statuses(engines: Sequence[Row]) -> Figure | None:
    """The citations of each engine by status (ok, renumbered, missing, …)."""
    if not engines:
        return None
    fig = Figure(figsize=(9, 1.4 + 0.5 * len(engines)), layout="constrained")
    ax = fig.add_subplot()
    statuses = list(dict.fromkeys([*STATUS_COLORS, *(s for e in engines for s in e["statuses"])]))
    left = [0] * len(engines)
    names = [e["name"] for e in engines]
    for status in statuses:
        values = [e["statuses"].get(status, 0) for e in engines]
        if any(values):
            ax.barh(names, values, left=left, label=status,
                    color=STATUS_COLORS.get(status, "#607d8b"))
            left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_title("Rule citations found in each engine, by status")
    ax.set_xlabel("citations")
    ax.set_ylabel("engine")
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1), fontsize=8)
    return fig
