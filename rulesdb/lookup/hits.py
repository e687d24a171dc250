"""What a search hit shows: its snippet with the query's words marked, the other editions
that print the same, and the hits that come from outside the searched documents (the edition
that last had a concept the current rules no longer have; every other edition on request).
"""

from __future__ import annotations

import math
import re
import sqlite3

from . import reading
from .display import HIT_END, HIT_START
from .query import Row
from .reading import stem
from .scope import Scope

SNIPPET_WORDS = 24
WORD_SPAN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def query_stems(read: reading.Reading, stopwords: frozenset[str]) -> set[str]:
    """The stems a snippet marks: the words of the query and of what it was read as."""
    return {stem(part) for concept in read.concepts
            for text in (concept.words, *concept.phrases)
            for word in reading.words_of(text) if word not in stopwords
            for part in word.split("-") if part}


def snippet(text: str, stems: set[str], words: int = SNIPPET_WORDS) -> str:
    """The stretch of `text` of about `words` words that says most of the query's words,
    those words marked (HIT_START … HIT_END), "…" where it is cut."""
    spans = [(found.start(), found.end()) for found in WORD_SPAN.finditer(text)]
    if not spans:
        return text
    prefixes = {wanted[:2] for wanted in stems}
    marked = [text[start:end].lower()[:2] in prefixes
              and stem(text[start:end].lower().replace("’", "'")) in stems
              for start, end in spans]
    best, start_at = -1, 0
    for first in range(0, max(1, len(spans) - words + 1)):
        count = sum(marked[first:first + words])
        if count > best:
            best, start_at = count, first
    end_at = min(len(spans), start_at + words)
    begin = 0 if start_at == 0 else spans[start_at][0]
    finish = len(text) if end_at == len(spans) else spans[end_at - 1][1]
    out, at = [], begin
    for (start, end), mark in zip(spans[start_at:end_at], marked[start_at:end_at],
                                  strict=True):
        if mark:
            out += [text[at:start], HIT_START, text[start:end], HIT_END]
            at = end
    out.append(text[at:finish])
    body = "".join(out).replace("\n", " ")
    return ("…" if begin else "") + body + ("…" if finish < len(text) else "")


# per kind of hit: its text by id, and the other rows of the same number or term with the
# same words (`{ids}`: the hits' ids)
_TEXT_AND_SAME = {
    False: ("SELECT r.id, t.text FROM rule_rows r LEFT JOIN texts t ON t.id = r.text_id "
            "WHERE r.id IN ({ids})",
            "SELECT h.id, r.document FROM rule_rows h JOIN rule_rows r "
            "ON r.number = h.number AND r.text_id = h.text_id AND r.id != h.id "
            "JOIN documents d ON d.id = r.document WHERE h.id IN ({ids}) "
            "ORDER BY d.effective_date DESC"),
    True: ("SELECT id, definition FROM glossary WHERE id IN ({ids})",
           "SELECT h.id, g.document FROM glossary h JOIN glossary g "
           "ON g.term = h.term AND g.definition = h.definition AND g.id != h.id "
           "JOIN documents d ON d.id = g.document WHERE h.id IN ({ids}) "
           "ORDER BY d.effective_date DESC"),
}


def with_snippets(conn: sqlite3.Connection, hits: list[Row], stems: set[str]) -> list[Row]:
    """Each hit with its snippet and, when it lacks them, the other editions that print the
    same number or term with the same words (newest first)."""
    texts: dict[tuple[bool, int], str] = {}
    same: dict[tuple[bool, int], list[str]] = {}
    for glossary, (text_sql, same_sql) in _TEXT_AND_SAME.items():
        ids = [hit["id"] for hit in hits if (hit["kind"] == "glossary") == glossary]
        if not ids:
            continue
        marks = ",".join("?" * len(ids))
        texts.update(((glossary, row_id), text or "") for row_id, text in conn.execute(
            text_sql.format(ids=marks), ids))
        for row_id, doc in conn.execute(same_sql.format(ids=marks), ids):
            same.setdefault((glossary, row_id), []).append(doc)
    out = []
    for hit in hits:
        key = (hit["kind"] == "glossary", hit["id"])
        extra: Row = {"snippet": snippet(texts.get(key, ""), stems)}
        if "also_in" not in hit:
            extra.update(also_in=same.get(key, []), other_wordings=[])
        out.append({**hit, **extra})
    return out


def old_concept(conn: sqlite3.Connection, scope: Scope, concept: reading.Concept,
                said_now: bool, most: int) -> Row | None:
    """For a concept the scope's rules do not say, or an obsolete term: the newest other
    edition of the Comprehensive Rules whose rules say it, with its first rules there (at
    most `most`), and what replaced it when the glossary says."""
    if said_now and concept.source != "obsolete term":
        return None
    phrase = concept.words if concept.source == "obsolete term" else concept.phrases[0]
    match = reading.fts_expression(reading.Concept(phrase, (phrase,)))
    if not match:
        return None
    text_ids = [row[0] for row in conn.execute(
        "SELECT rowid FROM texts_fts WHERE texts_fts MATCH ? LIMIT 5000", [match])]
    if not text_ids:
        return None
    rows = []
    for at in range(0, len(text_ids), 500):
        chunk = text_ids[at:at + 500]
        rows += conn.execute(
            "SELECT r.id, r.document, r.number, d.effective_date, r.position FROM rule_rows r "
            "JOIN documents d ON d.id = r.document WHERE d.kind = 'comprehensive_rules' "
            f"AND r.document != ? AND r.text_id IN ({','.join('?' * len(chunk))})",
            [scope.doc_id, *chunk]).fetchall()
    if not rows:
        return None
    last = max(rows, key=lambda row: (row[3] or "", row[1]))[1]
    there = sorted((row for row in rows if row[1] == last), key=lambda row: row[4])
    return {"words": concept.words, "last_in": last, "numbers": [row[2] for row in there],
            "replaced_by": concept.replaced_by,
            "glossary": concept.note if concept.source == "obsolete term" else None,
            "hits": [{"kind": "rule", "document": last, "number": number, "id": rule_id,
                      "score": 0.0, "covers": [concept.words], "last_in": True}
                     for rule_id, _, number, _, _ in there[:most]]}


def elsewhere(conn: sqlite3.Connection, read: reading.Reading, searched: list[str],
              limit: int) -> list[Row]:
    """Rules and glossary entries of the documents other than those `searched`, by how many
    of the query's concepts they say (each distinct text once, however many editions print
    it): one hit per number or term, shown by its newest edition."""
    found: list[tuple[list[int], list[int]]] = []
    for concept in read.concepts:
        match = reading.fts_expression(concept)
        found.append(([row[0] for row in conn.execute(
            "SELECT rowid FROM texts_fts WHERE texts_fts MATCH ? LIMIT 5000", [match])],
            [row[0] for row in conn.execute(
                "SELECT rowid FROM glossary_fts WHERE glossary_fts MATCH ? LIMIT 5000",
                [match])]) if match else ([], []))
    # rare concepts decide more: each weighted by how few texts say it
    weights = [math.log(1 + 5000 / (1 + len(text_ids) + len(gloss_ids)))
               for text_ids, gloss_ids in found]
    total = sum(weights) or 1.0
    texts: dict[int, float] = {}
    terms: dict[int, float] = {}
    for weight, (text_ids, gloss_ids) in zip(weights, found, strict=True):
        for text_id in text_ids:
            texts[text_id] = texts.get(text_id, 0.0) + weight / total
        for gloss_id in gloss_ids:
            terms[gloss_id] = terms.get(gloss_id, 0.0) + weight / total
    others = f" AND {{}}.document NOT IN ({','.join('?' * len(searched))})" if searched else ""
    hits: list[Row] = []
    best = sorted(texts, key=lambda text_id: -texts[text_id])[:limit * 8]
    if best:
        lengths = dict(conn.execute(
            f"SELECT id, length(text) FROM texts WHERE id IN ({','.join('?' * len(best))})",
            best).fetchall())
        rows = conn.execute(
            "SELECT r.id, r.document, r.number, r.text_id, d.effective_date, d.kind, d.partial "
            "FROM rule_rows r JOIN documents d ON d.id = r.document "
            f"WHERE r.text_id IN ({','.join('?' * len(best))})" + others.format("r"),
            [*best, *searched]).fetchall()
        # among texts saying as much, the shorter says it more densely
        hits += _fold(rows, lambda row: texts[row[3]] - lengths.get(row[3], 0) / 1e6,
                      kind=lambda row: "ruling" if row[5] == "rulings_summary" else "rule",
                      label="number")
    best = sorted(terms, key=lambda gloss_id: -terms[gloss_id])[:limit * 8]
    if best:
        rows = conn.execute(
            "SELECT g.id, g.document, g.term, g.definition, d.effective_date, 'glossary', "
            "d.partial FROM glossary g JOIN documents d ON d.id = g.document "
            f"WHERE g.id IN ({','.join('?' * len(best))})" + others.format("g"),
            [*best, *searched]).fetchall()
        hits += _fold(rows, lambda row: terms[row[0]] - len(row[3] or "") / 1e6,
                      kind=lambda row: "glossary", label="term")
    hits.sort(key=lambda hit: -hit["score"])
    return hits[:limit]


def _fold(rows: list, score, kind, label: str) -> list[Row]:
    """Rows (id, document, label, wording, date, kind, partial) as hits: one per label,
    shown by its newest edition (a whole one before a partial one of the same date); the
    editions printing the same words in `also_in`, those wording it otherwise in
    `other_wordings` (each a list of editions, newest first)."""
    groups: dict[str, list] = {}
    for row in rows:
        groups.setdefault(row[2], []).append(row)
    hits = []
    for name, group in groups.items():
        group.sort(key=lambda row: (row[4] or "", not row[6]), reverse=True)
        newest = group[0]
        wordings: dict = {}
        for row in group:
            wordings.setdefault(row[3], []).append(row[1])
        same = wordings.pop(newest[3])[1:]
        hits.append({"kind": kind(newest), "document": newest[1], label: name,
                     "id": newest[0], "score": round(max(score(row) for row in group), 6),
                     "covers": [], "also_in": same, "other_wordings": list(wordings.values())})
    return hits
