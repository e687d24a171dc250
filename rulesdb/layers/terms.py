"""Terms layer: glossary terms linked to where rule and example texts use them (spaCy).

Which glossary a document is linked to:
- a document with a glossary of its own uses it (cr-2009-02-01-flattened, rulebook-2005);
- otherwise (no glossary, or one its copy stops inside) the glossary of the document of the
  same family nearest in date: the Comprehensive Rules and the rulings summary (a CR-era
  judges' text) use CR glossaries, rulebooks use rulebook glossaries; on equal distance the
  older glossary wins. So the bundled cr-2025-06-06-chapter7 and rulings-1999-04 link to
  cr-2009-02-01-flattened, rulebook-1995 to rulebook-2005. A document with no glossary in its family
  gets no mentions.

What counts as a mention:
- any name of an entry (its heading, or each alias when the heading names several) in the
  text, case-insensitive, as printed or inflected: tokens are compared by their lemma from
  spaCy's lookup lemmatizer (spacy-lookups-data), so "tapped"/"taps" match Tap; a form
  printed exactly as a name wins over a lemma match (text "tapped" is Tapped when the
  glossary has both);
- longest match first: "combat damage step" is one mention, not "combat damage" + "step";
- not in the term's own entry: a rule whose title (or the title of an enclosing rule or
  keyword heading) is the term does not link that term, nor words inside it ("effects" in
  "prevention effects" under Prevention Effects);
- not inside a cross-reference ("see rule 702.19, "Trample"" links nothing) nor a template
  placeholder ("[Effect]");
- not inside a card's, token's or product's name in running text ("Power" in "One card (Power
  Play)", "Commander" in "Commander Legends"): rulesdb.layers.card_names tells the names by
  their capitals; headings, capitalized word by word, are not searched for names;
- obsolete entries ("Cast (Obsolete)") only in documents older than their glossary, whose
  texts use the old wording; function-word entries ("You, Your", "At", "X", "Instead") never.

spaCy (the blank English tokenizer and the lookup lemmatizer's table) is imported only by
rulesdb.layers.term_matcher, on first use; nothing is downloaded at run time. The finding can
run in a worker process beside the layers after the references layer (rulesdb.layers.run):
`prepare` reads, `find_all` finds, and rulesdb.layers.term_rows hands the rows over (`spool`,
in the worker, writes them to a file of its own) and writes them (`finish`). The tokens of
every text read are kept in the database (rulesdb.layers.token_cache): a text no new
edition changed is not tokenized again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

from ..db.schema import ensure_schema
from ..ingest.model import GLOSSARY_CUT_OFF, Document
from . import token_cache
from .card_names import names, outside_names
from .term_matcher import TermMatcher, tokens_of
from .term_rows import Found, Rows, finish, glossary_terms, known_sets

FAMILIES = {"comprehensive_rules": "cr", "rulings_summary": "cr", "rulebook": "rulebook"}
NOT_LINKED = {
    "you", "your", "at", "all", "if", "x", "y", "non-", "colon", "1", "2", "3", "unless", "during",
    "becomes", "instead", "as though", "choose one —", "when", "whenever",
    # everyday words whose entries state a general principle; nearly every use is plain English
    # ("a number of cards", "in this order")
    "number", "order",
}
TITLED_KINDS = {"rule", "subrule", "keyword"}  # kinds whose title names what they define
# kinds whose text is a heading, capitalized word by word: no card names are looked for there
# (rulesdb.layers.card_names), nor in a rule whose text is its title ("702.19 Trample")
HEADING_KINDS = {"chapter", "section", "heading", "topic"}
# template placeholders ("[Cost]: [Effect.]", "Solved — [Ability text]") are not term uses
PLACEHOLDER = re.compile(r"\[[^\]\n]{1,40}\]")
_QUOTED = r'["“][^"”\n]{1,80}["”]'
# the quoted titles after a cited rule or heading: 'rule 702.19, "Trample"', '"A" and "B"'
QUOTED_TITLES = re.compile(rf'(?:\s*,?\s*{_QUOTED})?(?:,?\s(?:and|or)\s{_QUOTED})*')


def whole_glossary(doc: dict[str, Any]) -> bool:
    """Whether the document has a glossary, and not one its copy stops inside."""
    covers = json.loads(doc.get("covers") or "[]")
    return bool(doc["glossary_count"]) and not any(c.startswith(GLOSSARY_CUT_OFF) for c in covers)


def glossary_for(documents: list[dict[str, Any]], doc: dict[str, Any]) -> str | None:
    """The id of the document whose glossary links `doc`'s texts (see the module docstring)."""
    if whole_glossary(doc):
        return doc["id"]
    family = FAMILIES.get(doc["kind"])
    candidates = [d for d in documents
                  if whole_glossary(d) and FAMILIES.get(d["kind"]) == family and family]
    if not candidates:
        return None
    when = _months(doc["effective_date"])
    best = min(candidates, key=lambda d: (abs(_months(d["effective_date"]) - when),
                                          _months(d["effective_date"])))
    return best["id"]


def _months(date: str | None) -> int:
    parts = [int(p) for p in re.findall(r"\d+", date or "0")][:2]
    return parts[0] * 12 + (parts[1] - 1 if len(parts) > 1 else 0)


def term_names(entry: dict[str, Any]) -> list[str]:
    """The names an entry is linked by: its aliases when it has them, else its term; symbol
    entries ("{T} Tap") and function words are not linked."""
    aliases = json.loads(entry["aliases"] or "[]")
    names = [n.strip().strip('"') for n in aliases or [entry["term"]]]
    return [n for n in names if n.lower() not in NOT_LINKED and not re.search(r"[{}★]", n)]



@dataclass
class Job:
    """What finding one document's mentions needs, read from the database beforehand (so the
    finding can run in a worker process, see rulesdb.layers.run)."""

    doc_id: str
    source: str
    names: list[tuple[int, str]]
    titles: list[tuple[int, int | None, str, str | None]]
    items: list[tuple[int, int | None, str, int]]
    references: list[tuple[str, int | None, int | None, int, int]]
    # what grouping the mentions into sets needs (term_rows.mention_sets): the glossary's
    # terms by entry id, and the sets the database holds (one object shared by the jobs)
    terms: dict[int, str]
    known: frozenset[int]


def compute(db: sqlite_utils.Database, doc_ids: list[str]) -> str:
    """Store the glossary-term mentions of the given documents; a one-line summary."""
    jobs = prepare(db, doc_ids)
    texts = list(dict.fromkeys(text for job in jobs for _, _, text, _ in job.items))
    done = token_cache.Tokenized()
    done.take(token_cache.read_from(db.conn, texts))
    return finish(db, doc_ids, find_all(jobs, done))


def prepare(db: sqlite_utils.Database, doc_ids: list[str]) -> list[Job]:
    """Read what finding the mentions of `doc_ids` needs (after the references layer)."""
    ensure_schema(db, ["term_spans", "term_uses", "term_links", "term_forms", "token_cache",
                       "token_cache_version"])
    documents = [dict(zip(("id", "kind", "effective_date", "glossary_count", "covers"), row,
                          strict=True))
                 for row in db.execute(
                     "SELECT id, kind, effective_date, glossary_count, covers FROM documents")]
    by_id = {d["id"]: d for d in documents}
    known = known_sets(db)
    terms: dict[str, dict[int, str]] = {}
    jobs = []
    # one string per distinct text, shared by the jobs of the editions printing it: the jobs
    # are pickled for the worker, which keeps a shared string once
    texts: dict[str, str] = {}
    for doc_id in [*doc_ids, *_relinked(db, documents, doc_ids)]:
        source = glossary_for(documents, by_id[doc_id]) if doc_id in by_id else None
        if source is None:
            continue
        if source not in terms:  # documents linked to one glossary share its terms
            terms[source] = glossary_terms(db, source)
        older = _months(by_id[doc_id]["effective_date"]) < _months(by_id[source]["effective_date"])
        items = [(row[0], None, texts.setdefault(row[1], row[1]), row[0]) for row in db.execute(
            "SELECT id, text FROM rules WHERE document = ? AND text IS NOT NULL "
            "ORDER BY position", [doc_id])]
        items += [(row[1], row[0], texts.setdefault(row[2], row[2]), row[1]) for row in db.execute(
            "SELECT id, rule_id, text FROM examples WHERE document = ? ORDER BY id", [doc_id])]
        jobs.append(Job(
            doc_id, source, _names(db, source, older),
            db.execute("SELECT id, parent_id, kind, title FROM rules WHERE document = ? "
                       "ORDER BY position", [doc_id]).fetchall(),
            items,
            db.execute("SELECT source_table, rule_id, example_id, start, [end] FROM [references] "
                       "WHERE document = ? AND source_table IN ('rules', 'examples')",
                       [doc_id]).fetchall(),
            terms[source],
            known))
    return jobs


def _relinked(db: sqlite_utils.Database, documents: list[dict[str, Any]],
              doc_ids: list[str]) -> list[str]:
    """The other documents whose glossary is no longer the one their stored mentions name
    (a new edition's glossary is nearer in date): they are linked again, as a build would."""
    relinked = []
    for doc in documents:
        if doc["id"] in doc_ids:
            continue
        source = glossary_for(documents, doc)
        stored = db.execute("SELECT glossary FROM term_links WHERE document = ?",
                            [doc["id"]]).fetchone()
        if source is not None and (stored is None or stored[0] != source):
            relinked.append(doc["id"])
    return relinked


_primed: list[token_cache.Tokenized] = []  # in a worker process: what `prime` tokenized


def texts_of(documents: list[Document]) -> list[str]:
    """The distinct rule and example texts of parsed documents (what `find_all` will read
    once they are stored)."""
    texts = [rule.text for doc in documents for rule in doc.rules if rule.text]
    texts += [example.text for doc in documents for rule in doc.rules
              for example in rule.examples]
    return list(dict.fromkeys(texts))


def sample(documents: list[Document], db_path: Path | None) -> token_cache.Sample:
    """What a worker can tokenize while `documents` are stored into the database at
    `db_path`: their texts (`texts_of`), with the tokens the database keeps of them."""
    texts = texts_of(documents)
    return token_cache.Sample(texts, token_cache.read(db_path, texts))


def prime(texts: token_cache.Sample | list[str]) -> None:
    """Tokenize `texts` now (those whose tokens are kept are read): a worker is given them
    while the documents are being stored, and `find_all` then finds them tokenized."""
    if not _primed:
        _primed.append(token_cache.Tokenized())
    done = _primed[0]
    if isinstance(texts, token_cache.Sample):
        done.take(texts.kept)
        texts = texts.texts
    done.tokenize(texts)


def find_all(jobs: list[Job], done: token_cache.Tokenized | None = None) -> Found:
    """Per document id, its glossary's document and its mention rows (COLUMNS); `done` the
    texts tokenized already (default: what `prime` tokenized in this process)."""
    # editions repeat most of their texts: each distinct text is tokenized once, and
    # documents linked to the same names share a matcher and what it found in each text
    matchers: dict[tuple[tuple[int, str], ...], tuple[TermMatcher, dict]] = {}
    found = Found()
    found.known = frozenset()  # no job: no set to group
    if done is None:
        done = _primed[0] if _primed else token_cache.Tokenized() if jobs else None
    for job in jobs:
        names = tuple(job.names)
        if names not in matchers:
            matchers[names] = (TermMatcher(names), {})
        found[job.doc_id] = (job.source, _mentions(job, *matchers[names], done))
        found.terms[job.source] = job.terms
        found.known = job.known
    if done is not None:
        found.tokens = done.packed()
    return found


def matcher_for(db: Any, glossary_doc: str, older_text: bool) -> TermMatcher:
    """A matcher over the linkable names of `glossary_doc`'s entries."""
    return TermMatcher(_names(db, glossary_doc, older_text))


def _names(db: Any, glossary_doc: str, older_text: bool) -> list[tuple[int, str]]:
    names = []
    for glossary_id, term, aliases, obsolete in db.execute(
        "SELECT id, term, aliases, obsolete FROM glossary WHERE document = ? ORDER BY position",
        [glossary_doc],
    ):
        if obsolete and not older_text:
            continue
        names.extend((glossary_id, n, n != term)
                     for n in term_names({"term": term, "aliases": aliases}))
    # a name shared by several entries links the one it heads ("Tap", not "{T} Tap")
    return [(glossary_id, n) for glossary_id, n, _ in sorted(names, key=lambda x: x[2])]


def _mentions(job: Job, matcher: TermMatcher,
              memo: dict[tuple[str, tuple, frozenset, bool], list[tuple[int, int, int]]],
              done: token_cache.Tokenized) -> Rows:
    """The mention rows of a job's texts; `memo` holds what `matcher` found in a text with
    given blocked spans and own entries (the same, whichever document the text is in),
    `done` the tokens of every text met so far."""
    own = _own_entries(job.titles, matcher)
    references = _reference_spans(job)
    kinds = {rule_id: (kind, title) for rule_id, _, kind, title in job.titles}
    asks = []
    for rule_id, example_id, text, owner in job.items:
        key = ("examples", example_id) if example_id else ("rules", rule_id)
        spans = [_with_title(text, *span) for span in references[key]] if key in references \
            else []
        if "[" in text:
            spans = spans + [m.span() for m in PLACEHOLDER.finditer(text)]
        kind, title = kinds.get(rule_id, (None, None))
        running = example_id is not None or not (kind in HEADING_KINDS or title == text)
        asks.append((text, tuple(spans), frozenset(own.get(owner, ())), running))
    new = [ask for ask in dict.fromkeys(asks) if ask not in memo]
    done.tokenize([ask[0] for ask in new])
    tokens, lexicon = done.tokens, done.lexicon
    for text, blocked, skip, running in new:
        found = matcher.find_in(tokens[text], lexicon, list(blocked), set(skip))
        memo[text, blocked, skip, running] = outside_names(found, names(text)) if running \
            else found
    return Rows(job.doc_id, job.items, [memo[ask] for ask in asks])


def _own_entries(titles: list[tuple[int, int | None, str, str | None]],
                 matcher: TermMatcher) -> dict[int, set[int]]:
    """Per rule id, the entries it defines itself: its title or an enclosing rule's names one."""
    own: dict[int, set[int]] = {}
    for rule_id, parent_id, kind, title in titles:
        entries = set(own.get(parent_id, set()))
        if kind in TITLED_KINDS and title:
            toks = tokens_of(title)
            found = matcher.find(toks)
            if len(found) == 1 and (found[0].start, found[0].end) == (toks[0][0], toks[-1][1]):
                entries.add(found[0].glossary_id)
        own[rule_id] = entries
    return own


def _reference_spans(job: Job) -> dict[tuple[str, int], list[tuple[int, int]]]:
    """Per rule or example, the character spans of its cross-references."""
    spans: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for table, rule_id, example_id, start, end in job.references:
        key = (table, example_id if table == "examples" else rule_id)
        spans.setdefault(key, []).append((start, end))
    return spans


def _with_title(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of a cross-reference in `text` with the quoted title after it, if any."""
    title = QUOTED_TITLES.match(text, end)
    return start, title.end() if title else end
