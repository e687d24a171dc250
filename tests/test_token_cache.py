"""The terms layer's kept tokens (rulesdb/layers/token_cache.py): read back exactly as
tokenized, used in place of tokenizing, written by the layer, ignored from another tokenizer."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import sqlite_utils
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdb.ingest import cr_text
from rulesdb.layers import term_matcher, term_rows, terms, token_cache
from rulesdb.layers.term_matcher import Lexicon, tokenize
from rulesdb.sources.build import build

from conftest import SOURCES

WORDS = st.text(st.sampled_from("abcXY-–'’ .,:;()[]{}\"“”0123\n\t—/+"), max_size=60)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    path = tmp_path_factory.mktemp("tokens") / "rules.db"
    build(path, SOURCES, seeds_only=True)
    return path


def _same(a: term_matcher.Tokens, lex_a: Lexicon, b: term_matcher.Tokens, lex_b: Lexicon) -> bool:
    return (np.array_equal(a.starts, b.starts) and np.array_equal(a.ends, b.ends)
            and [lex_a.lowers[w] for w in a.words] == [lex_b.lowers[w] for w in b.words]
            and [lex_a.lemmas[w] for w in a.words] == [lex_b.lemmas[w] for w in b.words])


@settings(max_examples=60, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=5, unique=True))
def test_kept_tokens_read_back_as_tokenized(texts):
    fresh_lexicon, kept_lexicon = Lexicon(), Lexicon()
    fresh = tokenize(texts, fresh_lexicon)
    packed = {text: token_cache.pack(tokens) for text, tokens in zip(texts, fresh, strict=True)}
    read = token_cache.unpack(packed, kept_lexicon)
    assert list(read) == texts
    for text, tokens in zip(texts, fresh, strict=True):
        assert _same(read[text], kept_lexicon, tokens, fresh_lexicon)


def test_kept_tokens_are_used_in_place_of_tokenizing(built, monkeypatch):
    db = sqlite_utils.Database(built)
    jobs = terms.prepare(db, ["cr-2009-02-01-flattened", "cr-2025-06-06-chapter7"])
    cold = terms.find_all(jobs)
    docs = [cr_text.parse((SOURCES / "cr-2025-06-06-chapter7.txt").read_bytes())]
    sample = terms.sample(docs, built)
    assert set(sample.kept) == set(sample.texts)  # the build kept them all
    monkeypatch.setattr(terms, "_primed", [])
    asked = []
    real = token_cache.tokenize
    monkeypatch.setattr(token_cache, "tokenize", lambda texts, lexicon: asked.extend(texts)
                        or real(texts, lexicon))
    terms.prime(sample)
    assert asked == []
    assert terms.find_all(jobs) == cold
    # only the texts of the other document were tokenized, and only they are handed over
    assert asked and not set(asked) & set(sample.texts)
    assert set(terms._primed[0].fresh) == set(asked)


def test_the_layer_keeps_the_tokens_of_every_text_it_links(built):
    db = sqlite_utils.Database(built)
    texts = _linked_texts(db)
    kept = token_cache.read(built, sorted(texts))
    assert set(kept) == texts
    assert db.execute("SELECT tokenizer FROM token_cache_version").fetchall() == [
        (token_cache.tokenizer_version(),)]


def _linked_texts(db: sqlite_utils.Database) -> set[str]:
    linked = "(SELECT DISTINCT document FROM term_mentions)"
    return {row[0] for row in db.execute(
        f"SELECT text FROM rules WHERE text IS NOT NULL AND document IN {linked} "
        f"UNION SELECT text FROM examples WHERE document IN {linked}")}


def test_a_build_over_a_database_keeps_the_tokens_it_read_back_from_it(built, tmp_path):
    # the tokens a rebuild reads from the database it replaces must reach the new file, or
    # every second build would leave the cache empty and the next add tokenizing it all
    path = tmp_path / "rules.db"
    shutil.copyfile(built, path)
    build(path, SOURCES, seeds_only=True)
    texts = _linked_texts(sqlite_utils.Database(path))
    assert set(token_cache.read(path, sorted(texts))) == texts


def test_tokens_of_another_tokenizer_are_not_read_and_are_replaced(built, tmp_path):
    path = tmp_path / "rules.db"
    shutil.copyfile(built, path)
    db = sqlite_utils.Database(path)
    texts = [row[0] for row in db.execute("SELECT text FROM rules WHERE text IS NOT NULL "
                                          "AND document = 'cr-2025-06-06-chapter7'")]
    db.execute("UPDATE token_cache_version SET tokenizer = 'spacy 0.1; format 1'")
    db.conn.commit()
    assert token_cache.read(path, texts) == {}
    ids = ["cr-2025-06-06-chapter7"]
    term_rows.finish(db, ids, terms.find_all(terms.prepare(db, ids)))
    db.conn.commit()
    assert db.execute("SELECT tokenizer FROM token_cache_version").fetchall() == [
        (token_cache.tokenizer_version(),)]
    assert set(token_cache.read(path, texts)) == set(texts)
    # rows of the old tokenizer went with it: only this document's texts are kept now
    assert db.execute("SELECT count(*) FROM token_cache").fetchone()[0] < len(
        sqlite_utils.Database(built).execute("SELECT digest FROM token_cache").fetchall())


def test_the_layer_run_in_this_process_reads_kept_tokens_too(built, tmp_path, monkeypatch):
    path = tmp_path / "rules.db"
    shutil.copyfile(built, path)
    db = sqlite_utils.Database(path)
    ids = ["cr-2025-06-06-chapter7"]
    before = db.execute("SELECT * FROM term_mentions WHERE document = 'cr-2025-06-06-chapter7' "
                        "ORDER BY rule_id, example_id, start").fetchall()
    asked = []
    real = token_cache.tokenize
    monkeypatch.setattr(token_cache, "tokenize", lambda texts, lexicon: asked.extend(texts)
                        or real(texts, lexicon))
    terms.compute(db, ids)
    assert asked == []  # the build kept every text's tokens
    after = db.execute("SELECT * FROM term_mentions WHERE document = 'cr-2025-06-06-chapter7' "
                       "ORDER BY rule_id, example_id, start").fetchall()
    assert [row[1:] for row in after] == [row[1:] for row in before]  # ids aside
