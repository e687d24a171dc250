"""Search's second stage: the paraphrases learned from the rules, the ranker's weights file,
and the reordering of the first candidates with the reasons each hit shows."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdb.errors import InputError
from rulesdb.layers.paraphrases import learn, stems
from rulesdb.lookup import rerank
from rulesdb.lookup.query import connect
from rulesdb.lookup.search import current_edition, first_stage, read_query, search
from rulesdb.sources.vocabulary import read_ranker

from conftest import ROOT


def pairs_of(*texts: tuple[str, str], times: int = 1) -> list[tuple[list[str], list[str]]]:
    return [(stems(left, frozenset({"the", "from", "a"})), stems(right, frozenset()))
            for left, right in texts] * times


# --- learning paraphrases ---------------------------------------------------------------------

@pytest.mark.parametrize(("pairs", "word", "expected"), [
    # a rewording said often is learned as one: "removed from the game" became "exiled"
    (pairs_of(("removed from the game", "exiled"), ("removed", "removed"),
              ("the game", "game"), times=5), "remov", "exil"),
    # a glossary term and its definition
    (pairs_of(("dies", "put into graveyard battlefield"), ("battlefield", "battlefield"),
              ("put into", "put into"), times=4), "di", "graveyard"),
])
def test_a_word_is_learned_as_what_the_rules_say_in_its_place(pairs, word, expected):
    table = learn(pairs)
    assert table[word][0][0] == expected
    assert all(target != word for target, _ in table[word])  # itself is never a paraphrase


def test_learning_keeps_few_likely_targets_best_first():
    table = learn(pairs_of(("a b c d e f g h", "x y z w v u t s r q"), ("b", "y"), times=3))
    for targets in table.values():
        assert len(targets) <= 6
        assert [p for _, p in targets] == sorted((p for _, p in targets), reverse=True)
        assert all(p >= 0.05 for _, p in targets)


def test_nothing_to_learn_from_is_an_empty_table():
    assert learn([]) == {}


def test_the_paraphrases_of_a_built_database(small_db):
    with connect(small_db) as db:
        rows = db.execute("SELECT source, target, p FROM search_paraphrases").fetchall()
        newest = current_edition(db)
    assert rows and newest == "cr-2026-01-16"
    assert all(0.05 <= p <= 1 and source != target for source, target, p in rows)


def test_an_add_keeps_the_paraphrases_an_empty_table_is_learned(small_db, tmp_path):
    """`build` learns the table (a new file: empty); an `add`, even of a new newest
    edition, keeps it."""
    import sqlite_utils

    from rulesdb.layers import paraphrases

    copy = tmp_path / "rules.db"
    shutil.copyfile(small_db, copy)
    db = sqlite_utils.Database(copy)
    table = "SELECT source, target, p FROM search_paraphrases ORDER BY source, target"
    before = db.execute(table).fetchall()
    newest = current_edition(db.conn)
    assert paraphrases.compute(db, [newest]).startswith("kept")
    assert db.execute(table).fetchall() == before
    db.execute("DELETE FROM search_paraphrases")
    assert "learned from" in paraphrases.compute(db, [newest])
    assert db.execute(table).fetchall()


# --- the weights file ---------------------------------------------------------------------------

def test_the_shipped_weights_name_every_feature():
    rows = read_ranker(ROOT / "data" / "search-ranker.toml")
    assert sorted(row["name"] for row in rows) == sorted(rerank.FEATURES)


@pytest.mark.parametrize(("text", "message"), [
    ("[weights\nlexical = 1", "search-ranker.toml: Expected ']'"),
    ("[other]\nlexical = 1\n", "search-ranker.toml: no [weights] table"),
    ("[weights]\nlexical = 'high'\n", "search-ranker.toml: weight 'lexical' is not a number"),
    ("[weights]\nlexical = true\n", "search-ranker.toml: weight 'lexical' is not a number"),
])
def test_a_bad_weights_file_is_an_input_error_naming_it(tmp_path, text, message):
    path = tmp_path / "search-ranker.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_ranker(path)
    assert message in caught.value.message


# --- reordering --------------------------------------------------------------------------------

def first_candidates(db: sqlite3.Connection, query: str):
    scope_id = current_edition(db)
    read = read_query(db, query, scope_id)
    scope, _, ranked = first_stage(db, read, scope_id)
    return scope, read, ranked


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["trample", "creature", "dies", "token", "commander", "block",
                                 "damage", "graveyard", "aura", "can", "instant", "exile"]),
                min_size=1, max_size=5))
def test_the_second_stage_only_reorders_its_candidates(small_db, words):
    """One document searched: the first CANDIDATES hits are the first stage's first
    CANDIDATES in another order, each read by the second stage, and the rest its order."""
    query = " ".join(words)
    with connect(small_db) as db:
        scope, _, ranked = first_candidates(db, query)
        if not ranked:
            return
        limit = rerank.CANDIDATES + 20
        hits = search(db, query, scope.doc_id, limit)["hits"]

    def label(item):
        return ("glossary", scope.terms[item.key]) if item.kind == "glossary" else (
            "rule", scope.numbers[item.key])

    shown = [("glossary", hit["term"]) if hit["kind"] == "glossary" else ("rule", hit["number"])
             for hit in hits]
    head = min(len(ranked), rerank.CANDIDATES)
    assert sorted(shown[:head]) == sorted(label(item) for item in ranked[:head])
    assert shown[head:limit] == [label(item) for item in ranked[head:limit]]


def test_without_weights_the_lexical_order_stands(small_db, tmp_path):
    copy = tmp_path / "rules.db"
    shutil.copyfile(small_db, copy)
    with sqlite3.connect(copy) as db:
        db.execute("DROP TABLE search_ranker")
    query = "does a creature with 0 toughness die if it is indestructible"
    with connect(copy) as db:
        assert rerank.load_model(db) is None
        scope, _, ranked = first_candidates(db, query)
        hits = search(db, query)["hits"]
    lexical = [("glossary", item.key) if item.kind == "glossary"
               else ("rule", scope.rule_ids[item.key]) for item in ranked[:len(hits)]]
    assert [("glossary" if hit["kind"] == "glossary" else "rule", hit["id"])
            for hit in hits] == lexical
    assert all(hit["why"] == [f"matches {', '.join(hit['covers'])}"] for hit in hits)


def test_each_hit_says_why_it_matched(small_db):
    with connect(small_db) as db:
        hits = search(db, "does a creature with 0 toughness die if it is indestructible",
                      limit=5)["hits"]
    assert hits[0]["number"] == "704.5f"
    assert all(hit["why"] and hit["why"][0].startswith("matches ") for hit in hits)


def test_reasons_in_words(small_db):
    with connect(small_db) as db:
        read = read_query(db, "removed from the game")
    candidate = rerank.Candidate(item=None, features={}, paraphrased=[("remov", "exil")],
                                 cited=4, text="That card is exiled.")
    assert rerank.reasons(candidate, read, frozenset()) == ["says exiled (for removed)",
                                                            "cited 4 times"]
    assert rerank.reasons(rerank.Candidate(item=None, cited=1), read, frozenset()) == []
