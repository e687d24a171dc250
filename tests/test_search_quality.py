"""Search quality at full history: the question sets are well formed and answered in the
newest edition, and the search keeps the figures measured when each stage landed (the
project's own set before issue 37, real people's questions after its second stage)."""

from __future__ import annotations

import pytest

from rulesdb.lookup.query import connect
from rulesdb.lookup.search import current_edition

from conftest import ROOT, script


def quality():
    return script("search_quality")


def test_the_question_set_is_well_formed():
    questions = quality().load_questions()
    assert len(questions) >= 100
    assert len({q.query for q in questions}) == len(questions)
    assert all(1 <= len(q.answers) <= 3 for q in questions)
    assert {q.kind for q in questions} == {"interaction", "everyday", "slang", "old", "turn",
                                           "mechanic", "variant"}


def test_every_answer_of_the_question_set_is_in_the_newest_edition(history_db):
    questions = quality().load_questions()
    with connect(history_db) as db:
        for q in questions:
            for answer in q.answers:
                if answer.startswith("glossary:"):
                    row = db.execute("SELECT 1 FROM glossary WHERE document = 'cr-2026-01-16' "
                                     "AND term = ?", [answer[9:]]).fetchone()
                else:
                    row = db.execute("SELECT 1 FROM rule_rows WHERE document = 'cr-2026-01-16' "
                                     "AND number = ?", [answer]).fetchone()
                assert row, f"{q.query}: {answer}"


def test_the_question_set_does_not_fall_at_full_history(history_db):
    module = quality()
    with connect(history_db) as db:
        figures = module.scores(module.evaluate(db, module.load_questions()))
    assert figures["recall@5"] >= module.OWN_TARGETS["recall@5"], figures
    assert figures["recall@1"] >= module.OWN_TARGETS["recall@1"], figures


def test_the_real_question_set_is_well_formed():
    real = quality().load_questions(quality().REAL)
    assert len(real) >= 200
    assert len({q.query for q in real}) == len(real)
    assert all(1 <= len(q.answers) <= 3 for q in real)
    halves = {half: [q for q in real if q.half == half] for half in ("dev", "test")}
    assert len(halves["dev"]) + len(halves["test"]) == len(real)
    assert abs(len(halves["dev"]) - len(halves["test"])) < len(real) / 5
    with (ROOT / "tests" / "data" / "search_questions_real.tsv").open(encoding="utf-8") as f:
        sources = [line.split("\t")[4] for line in f.read().splitlines()[1:]]
    assert all(source.startswith(("http://", "https://")) for source in sources)


def test_every_answer_of_the_real_question_set_is_in_the_newest_edition(history_db):
    real = quality().load_questions(quality().REAL)
    with connect(history_db) as db:
        numbers = {row[0] for row in db.execute(
            "SELECT number FROM rule_rows WHERE document = 'cr-2026-01-16'")}
        terms = {f"glossary:{row[0]}" for row in db.execute(
            "SELECT term FROM glossary WHERE document = 'cr-2026-01-16'")}
    assert [(q.query, answer) for q in real for answer in q.answers
            if answer not in numbers | terms] == []


def test_the_real_questions_keep_what_the_second_stage_gained(history_db):
    """A guard at the figures measured when the second stage landed (docs/search.md),
    searching the current rules alone (`--doc cr`, all there was then): the development half
    0.362 / 0.662, the test half 0.331 / 0.561, each recall@1 / @5. With no options the
    judges' documents are searched beside them, and their paragraphs take some of the first
    places (measured: 0.356 / 0.637 and 0.338 / 0.534): that cost stays within 0.04."""
    module = quality()
    real = module.load_questions(module.REAL)
    with connect(history_db) as db:
        current = current_edition(db)
        for half, at_1, at_5 in (("dev", 0.36, 0.65), ("test", 0.33, 0.55)):
            questions = [q for q in real if q.half == half]
            alone = module.scores(module.evaluate(db, questions, current))
            assert alone["recall@1"] >= at_1 and alone["recall@5"] >= at_5, (half, alone)
            beside = module.scores(module.evaluate(db, questions))
            assert all(beside[k] >= alone[k] - 0.04 for k in ("recall@1", "recall@5")), (
                half, alone, beside)


@pytest.mark.parametrize(("query", "names"), [
    ("My opponent controls Stony Silence, can I still tap my Ancient Den for mana?", True),
    ("if I attack with Llanowar Elves and it gets blocked", True),
    ("Does a token hit the graveyard?", False),
    ("What Happens If Your Commander Dies?", False),  # title case: capitals name nothing
    ("I cast it. Then my creature with Trample is blocked", False),  # a rules word
    ("can I respond? Yes I can", False),  # a sentence's first word
    ("I, Player 1, cast it in MTG", False),
    ("Is Phyrexian Tower's second ability a mana ability?", True),
])
def test_a_question_names_a_card_by_a_capitalized_name_the_rules_do_not_use(query, names):
    words = {"trample", "commander", "token", "creature", "mana", "ability", "player", "i",
             "mtg"}
    assert quality().names_card(query, words) is names
