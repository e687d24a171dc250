"""The views readers use in place of the tables that store things once: `rules` (rule rows
with their shared texts), `rules_fts` (the rules' full-text index, kept per distinct title
and text, row by row) and `term_mentions` (mention sets expanded per rule and example)."""

from __future__ import annotations

import sqlite_utils

# The rules as every reader sees them: the rows with their text looked up. A subquery, not a
# join: a view that is a join cannot be flattened into a LEFT JOIN of a query that uses it,
# and SQLite would then materialize every rule of every edition (350,000 at full history).
RULES_VIEW = """CREATE VIEW rules AS SELECT r.id, r.document, r.number, r.parent, r.parent_id,
    r.kind, r.title, (SELECT t.text FROM texts t WHERE t.id = r.text_id) AS text, r.marker,
    r.new, r.position, r.depth, r.span_start, r.span_end
FROM rule_rows r"""

# The rules' full-text index as one row per rule, as Datasette's table search of `rules` reads
# it (`id IN (SELECT rowid FROM rules_fts WHERE rules_fts MATCH ?)`): the column `rules_fts`
# is the index's own, so the MATCH reaches the index through the view (rulesdb.db.fts). Each
# (title, text) the index found gives the rows printing it, read from the index of rule_rows
# on (text_id, title) alone.
RULES_FTS_VIEW = """CREATE VIEW rules_fts AS SELECT r.id AS rowid, h.title AS title,
    (SELECT t.text FROM texts t WHERE t.id = h.text_id) AS text, f.rule_heads_fts AS rules_fts,
    f.rank AS rank
FROM rule_heads_fts f JOIN rule_heads h ON h.id = f.rowid
JOIN rule_rows r ON r.text_id IS h.text_id AND r.title IS h.title"""

# The term mentions as one row each, the public face of term_uses, term_spans, term_links.
TERM_MENTIONS_VIEW = """CREATE VIEW term_mentions AS SELECT u.id * 1000 + s.position AS id,
    u.document AS document, g.id AS glossary_id, u.rule_id AS rule_id,
    u.example_id AS example_id, s.start AS start, s."end" AS "end", s.text AS text
FROM term_uses u JOIN term_spans s ON s.set_id = u.set_id
JOIN term_links l ON l.document = u.document
JOIN glossary g ON g.document = l.glossary AND g.term = s.term"""


def view(db: sqlite_utils.Database, name: str, sql: str) -> None:
    """Create view `name` as `sql`, replacing an older version's definition."""
    found = db.execute("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?",
                       [name]).fetchone()
    if found is None or found[0] != sql:
        db.execute(f"DROP VIEW IF EXISTS [{name}]")
        db.execute(sql)
