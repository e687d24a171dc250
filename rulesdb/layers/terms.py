"""Terms layer: glossary terms linked to where rule and example texts use them (spaCy).

Which glossary a document is linked to:
- a document with a glossary of its own uses it (cr-2009-02-01, rulebook-2005);
- otherwise the glossary of the document of the same family nearest in date: the
  Comprehensive Rules and the rulings summary (a CR-era judges' text) use CR glossaries,
  rulebooks use rulebook glossaries; on equal distance the older glossary wins. So the
  bundled cr-2025-06-06 and rulings-1999-04 link to cr-2009-02-01, rulebook-1995 to
  rulebook-2005. A document with no glossary in its family gets no mentions.

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
- obsolete entries ("Cast (Obsolete)") only in documents older than their glossary, whose
  texts use the old wording; function-word entries ("You, Your", "At", "X", "Instead") never.

spaCy is imported only here: the blank English tokenizer and the lookup lemmatizer's table;
nothing is downloaded at run time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import sqlite_utils

from ..schema import ensure_schema

FAMILIES = {"comprehensive_rules": "cr", "rulings_summary": "cr", "rulebook": "rulebook"}
NOT_LINKED = {
    "you", "your", "at", "all", "if", "x", "y", "non-", "colon", "1", "2", "3", "unless", "during",
    "becomes", "instead", "as though", "choose one —", "when", "whenever",
    # everyday words whose entries state a general principle; nearly every use is plain English
    # ("a number of cards", "in this order")
    "number", "order",
}
# "play" after these is the zone ("come into play", "removed from play"), not the act of playing
ZONE_PLAY = {"into", "from", "onto"}
SUFFIXES = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ing", ""), ("ed", "e"), ("ing", "e"))
TITLED_KINDS = {"rule", "subrule", "keyword"}  # kinds whose title names what they define
# template placeholders ("[Cost]: [Effect.]", "Solved — [Ability text]") are not term uses
PLACEHOLDER = re.compile(r"\[[^\]\n]{1,40}\]")
_QUOTED = r'["“][^"”\n]{1,80}["”]'
# the quoted titles after a cited rule or heading: 'rule 702.19, "Trample"', '"A" and "B"'
QUOTED_TITLES = re.compile(rf'(?:\s*,?\s*{_QUOTED})?(?:,?\s(?:and|or)\s{_QUOTED})*')


@dataclass(frozen=True)
class Name:
    """One linkable name of a glossary entry."""

    glossary_id: int
    lowers: tuple[str, ...]
    lemmas: tuple[str, ...]


@dataclass(frozen=True)
class Mention:
    """A glossary term found in a text: character span and the entry it names."""

    start: int
    end: int
    glossary_id: int


@cache
def _nlp() -> Any:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("lemmatizer", config={"mode": "lookup"})
    nlp.initialize()
    return nlp


class _Lemmas(dict):
    """Lower-case form → lemma, from the lookup lemmatizer's table, memoized."""

    def __init__(self) -> None:
        super().__init__()
        self.table = _nlp().get_pipe("lemmatizer").lookups.get_table("lemma_lookup")

    def __missing__(self, lower: str) -> str:
        lemma = self[lower] = self.table.get(lower, lower)
        return lemma


@cache
def _lemma_table() -> _Lemmas:
    return _Lemmas()


def glossary_for(documents: list[dict[str, Any]], doc: dict[str, Any]) -> str | None:
    """The id of the document whose glossary links `doc`'s texts (see the module docstring)."""
    if doc["glossary_count"]:
        return doc["id"]
    family = FAMILIES.get(doc["kind"])
    candidates = [d for d in documents
                  if d["glossary_count"] and FAMILIES.get(d["kind"]) == family and family]
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


def tokens_of(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, lower, lemma) of each token of `text`."""
    return _tokens(_nlp().tokenizer(text))


def _tokens(doc: Any) -> list[tuple[int, int, str, str]]:
    table = _lemma_table()
    text = doc.text
    out = []
    # offsets from one array: creating a Token object per word costs more than the tokenizing
    for start, length in doc.to_array(["IDX", "LENGTH"]).tolist():
        word = text[start:start + length]
        # hyphens dropped so "face-down" and "state-based" match "Face Down"/"State-Based"
        if word == "-" or word.isspace():
            continue
        lower = word.lower()
        out.append((start, start + length, lower, table[lower]))
    return out


class TermMatcher:
    """Finds the names of a set of glossary entries in tokenized texts, longest first."""

    def __init__(self, names: Iterable[tuple[int, str]]):
        self.exact: dict[tuple[str, ...], list[int]] = {}
        self.lemma: dict[tuple[str, ...], list[tuple[tuple[str, ...], int]]] = {}
        self.first: set[str] = set()
        self.words: set[str] = set()
        self.prefixes: set[tuple[str, ...]] = set()
        self.longest = 0
        for glossary_id, name in names:
            toks = tokens_of(name)
            if not toks:
                continue
            lowers = tuple(t[2] for t in toks)
            lemmas = tuple(t[3] for t in toks)
            self.exact.setdefault(lowers, []).append(glossary_id)
            self.prefixes.update(lowers[:n] for n in range(1, len(lowers) + 1))
            self.first.add(lowers[0])
            self.longest = max(self.longest, len(toks))
            # a one-word name that is itself inflected ("Tapped", "Placed") matches only as
            # printed: "taps" is Tap, "takes place" is not Placed
            if len(toks) > 1 or lowers == lemmas:
                self.lemma.setdefault(lemmas, []).append((lowers, glossary_id))
                self.prefixes.update(lemmas[:n] for n in range(1, len(lemmas) + 1))
                self.first.add(lemmas[0])
                self.words.update(lemmas)
        self._stems: dict[str, str] = {}
        self._norm: dict[str, str] = {}

    def _normalize(self, lower: str, lemma: str) -> str:
        self._norm[lower] = self.stem(lower, lemma)
        return self._norm[lower]

    def stem(self, lower: str, lemma: str) -> str:
        """`lemma`, or when that is no word of any name (the lookup table lacks "permanents",
        maps "phases" to "phasis") the regular-suffix stem of `lower` that is one."""
        if lemma in self.words:
            return lemma
        if lower not in self._stems:
            self._stems[lower] = lemma
            for end, add in SUFFIXES:
                if not lower.endswith(end) or len(lower) < len(end) + 3:
                    continue
                cut = lower[: -len(end)] + add
                if cut in self.words:
                    self._stems[lower] = cut
                    break
                if not add and cut[-1] == cut[-2] and cut[:-1] in self.words:  # "untapped"
                    self._stems[lower] = cut[:-1]
                    break
        return self._stems[lower]

    def find(self, toks: list[tuple[int, int, str, str]],
             blocked: list[tuple[int, int]] = (), skip: set[int] = frozenset()) -> list[Mention]:
        """Non-overlapping mentions, longest first; none overlapping `blocked` char spans.
        A name of an entry in `skip` is left unlinked and nothing inside it is linked."""
        norm = self._norm
        toks = [(a, b, lower, norm[lower] if lower in norm else self._normalize(lower, lemma))
                for a, b, lower, lemma in toks]
        candidates: list[tuple[int, int, int, int]] = []  # (-length, start token, end, id)
        for i, tok in enumerate(toks):
            if tok[2] not in self.first and tok[3] not in self.first:
                continue
            if tok[3] == "play" and i and toks[i - 1][2] in ZONE_PLAY:
                continue
            best, lowers, lemmas = None, (), ()
            for j in range(i, min(i + self.longest, len(toks))):
                lowers, lemmas = (*lowers, toks[j][2]), (*lemmas, toks[j][3])
                if lowers not in self.prefixes and lemmas not in self.prefixes:
                    break
                glossary_id = self._entry(lowers, lemmas)
                if glossary_id is not None:
                    best = (j + 1, glossary_id)
            if best:
                candidates.append((i - best[0], i, *best))
        taken = [False] * len(toks)
        mentions = []
        for _, i, j, glossary_id in sorted(candidates):
            start, end = toks[i][0], toks[j - 1][1]
            if any(taken[i:j]) or any(s < end and start < e for s, e in blocked):
                continue
            taken[i:j] = [True] * (j - i)
            if glossary_id not in skip:
                mentions.append(Mention(start, end, glossary_id))
        return sorted(mentions, key=lambda m: m.start)

    def _entry(self, lowers: tuple[str, ...], lemmas: tuple[str, ...]) -> int | None:
        exact = self.exact.get(lowers)
        if exact:
            return exact[0]
        by_lemma = self.lemma.get(lemmas)
        if not by_lemma:
            return None
        # several names share the lemmas ("blocking creatures": Blocked/Blocking Creature):
        # the one spelled most like the text wins
        return max(by_lemma, key=lambda c: sum(
            _shared_prefix(a, b) for a, b in zip(c[0], lowers, strict=True)))[1]


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def compute(db: sqlite_utils.Database, doc_ids: list[str]) -> str:
    """Store the glossary-term mentions of the given documents; a one-line summary."""
    ensure_schema(db, ["term_mentions"])
    documents = [dict(zip(("id", "kind", "effective_date", "glossary_count"), row, strict=True))
                 for row in db.execute(
                     "SELECT id, kind, effective_date, glossary_count FROM documents")]
    by_id = {d["id"]: d for d in documents}
    total, linked = 0, []
    for doc_id in doc_ids:
        db.execute("DELETE FROM term_mentions WHERE document = ?", [doc_id])
        source = glossary_for(documents, by_id[doc_id]) if doc_id in by_id else None
        if source is None:
            continue
        rows = list(_mentions(db, doc_id, source, by_id))
        columns = ("document", "glossary_id", "rule_id", "example_id", "start", "end", "text")
        db.conn.executemany(  # plain executemany: sqlite-utils' per-row checks cost more here
            f"INSERT INTO term_mentions ({', '.join(f'[{c}]' for c in columns)}) "
            f"VALUES ({', '.join('?' * len(columns))})",
            [tuple(row[c] for c in columns) for row in rows])
        total += len(rows)
        linked.append(f"{doc_id}→{source}")
    return f"{total} term mentions ({', '.join(linked)})"


def matcher_for(db: Any, glossary_doc: str, older_text: bool) -> TermMatcher:
    """A matcher over the linkable names of `glossary_doc`'s entries."""
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
    return TermMatcher((glossary_id, n) for glossary_id, n, _ in sorted(names, key=lambda x: x[2]))


def _mentions(db: sqlite_utils.Database, doc_id: str, source: str,
              docs: dict[str, dict[str, Any]]) -> Iterator[dict[str, Any]]:
    older = _months(docs[doc_id]["effective_date"]) < _months(docs[source]["effective_date"])
    matcher = matcher_for(db, source, older)
    own = _own_entries(db, doc_id, matcher)
    blocked = _reference_spans(db, doc_id)
    items = [(row[0], None, row[1], row[0]) for row in db.execute(
        "SELECT id, text FROM rules WHERE document = ? AND text IS NOT NULL ORDER BY position",
        [doc_id])]
    items += [(row[1], row[0], row[2], row[1]) for row in db.execute(
        "SELECT id, rule_id, text FROM examples WHERE document = ? ORDER BY id", [doc_id])]
    texts = [item[2] for item in items]
    for (rule_id, example_id, text, owner), doc in zip(
            items, _nlp().tokenizer.pipe(texts, batch_size=512), strict=True):
        key = ("examples", example_id) if example_id else ("rules", rule_id)
        spans = blocked.get(key, []) + [m.span() for m in PLACEHOLDER.finditer(text)]
        for m in matcher.find(_tokens(doc), spans, own.get(owner, set())):
            yield {"document": doc_id, "glossary_id": m.glossary_id,
                   "rule_id": None if example_id else rule_id, "example_id": example_id,
                   "start": m.start, "end": m.end, "text": text[m.start:m.end]}


def _own_entries(db: sqlite_utils.Database, doc_id: str,
                 matcher: TermMatcher) -> dict[int, set[int]]:
    """Per rule id, the entries it defines itself: its title or an enclosing rule's names one."""
    rows = db.execute(
        "SELECT id, parent_id, kind, title FROM rules WHERE document = ? ORDER BY position",
        [doc_id]).fetchall()
    own: dict[int, set[int]] = {}
    for rule_id, parent_id, kind, title in rows:
        entries = set(own.get(parent_id, set()))
        if kind in TITLED_KINDS and title:
            toks = tokens_of(title)
            found = matcher.find(toks)
            if len(found) == 1 and (found[0].start, found[0].end) == (toks[0][0], toks[-1][1]):
                entries.add(found[0].glossary_id)
        own[rule_id] = entries
    return own


def _reference_spans(db: sqlite_utils.Database,
                     doc_id: str) -> dict[tuple[str, int], list[tuple[int, int]]]:
    """Per rule or example, the character spans of its cross-references with a quoted title."""
    texts = {("rules", i): t for i, t in db.execute(
        "SELECT id, text FROM rules WHERE document = ?", [doc_id])}
    texts.update({("examples", i): t for i, t in db.execute(
        "SELECT id, text FROM examples WHERE document = ?", [doc_id])})
    spans: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for table, rule_id, example_id, start, end in db.execute(
        "SELECT source_table, rule_id, example_id, start, [end] FROM [references] "
        "WHERE document = ? AND source_table IN ('rules', 'examples')", [doc_id]
    ):
        key = (table, example_id if table == "examples" else rule_id)
        title = QUOTED_TITLES.match(texts.get(key) or "", end)
        spans.setdefault(key, []).append((start, title.end() if title else end))
    return spans
